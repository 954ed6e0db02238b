"""The translation's variants (M12.4) as game options: the goal set (T:137, T:139); 0 passes of
the tax chart (play until someone wins) or the game of two passes (T:140); empty ships that sail
two spaces (T:142)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.fields import Fields
from adjudicator.rulesets.kit.options import OptionSpec
from adjudicator.rulesets.mediterraneum.model import Options

# Each option's default and the values allowed, as text.
CHOICES = {
    "goals": ("standard", ("standard", "long", "short")),
    "tax_passes": ("0", ("0", "2")),
    "fast_empty_ships": ("false", ("true", "false")),
}


def check_options(data: Mapping[str, Any]) -> dict[str, Any]:
    """From game.toml (typed) or `new --option KEY=VALUE` (text), every key checked."""
    f = Fields(data, "options")
    f.only(CHOICES)
    for key, value in data.items():
        if isinstance(value, list):
            raise f.error(key, f"give {key} once (M12.4)")
    chosen = {key: str(data.get(key, default)).strip().lower() for key, (default, _) in CHOICES.items()}
    for key, (_, allowed) in CHOICES.items():
        if chosen[key] not in allowed:
            raise f.error(key, f"'{data[key]}' is not allowed; use {' or '.join(allowed)} (M12.4)")
    return {
        "goals": chosen["goals"],
        "tax_passes": int(chosen["tax_passes"]),
        "fast_empty_ships": chosen["fast_empty_ships"] == "true",
    }


def options_of(data: Mapping[str, Any]) -> Options:
    """The game's options as the engine reads them, from `check_options`' table."""
    return Options(
        goals=str(data.get("goals", "standard")),
        tax_passes=int(data.get("tax_passes", 0)),
        fast_empty_ships=data.get("fast_empty_ships") is True,
    )


OPTIONS = OptionSpec(check=check_options, read=options_of)
