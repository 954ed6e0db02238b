"""Ruleset options (RULES.md: "make it a ruleset option if reasonable people differ")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.fields import Fields
from adjudicator.rulesets.kit.options import OptionSpec

CHOICES = {
    "roles_each": ("turn", "phase"),  # D1: roles reassigned every turn (default) or every phase
    "setup": ("basic", "advanced"),  # R2.1 printed setup, or R2.4's 36 points
    "finite_bank": ("true", "false"),  # R1: income the bank cannot pay is lost, or cards are added
}


LISTS = {
    "start_caravan": "D23: CIV:PROVINCE=ICON, where a start caravan stands (--option start_caravan=Rome:ravenna=wine)",
}


@dataclass(frozen=True, slots=True)
class Options:
    roles_each: str = "turn"
    setup: str = "basic"
    finite_bank: str = "true"
    start_caravan: tuple[str, ...] = ()

    @property
    def bank_is_finite(self) -> bool:
        return self.finite_bank == "true"

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"roles_each": self.roles_each, "setup": self.setup, "finite_bank": self.finite_bank}
        if self.start_caravan:
            data["start_caravan"] = list(self.start_caravan)
        return data


def parse_options(data: Mapping[str, Any]) -> Options:
    """Options from game.toml's [options] (or `new --option`), every key checked."""
    f = Fields(data, "options")
    f.only(frozenset(CHOICES) | frozenset(LISTS))
    values: dict[str, Any] = {}
    for key, allowed in CHOICES.items():
        raw = f.data.get(key, allowed[0])
        value = str(raw).lower() if isinstance(raw, bool) else f.text(key, allowed[0])  # finite_bank = false
        if value not in allowed:
            raise f.error(key, f"'{value}' is not allowed; use {' or '.join(allowed)}")
        values[key] = value
    for key in LISTS:
        raw = f.data.get(key, [])
        values[key] = tuple([raw] if isinstance(raw, str) else f.texts(key, []))
    return Options(**values)


OPTIONS = OptionSpec(check=lambda data: parse_options(data).to_data(), read=parse_options)
