"""A ruleset's options, read one way in every ruleset: checked once into the table game.toml
keeps, then read from that table into the typed value the engine and the views are handed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from adjudicator.core.errors import DataError

OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class OptionSpec(Generic[OptionsT]):
    """`check`: game.toml's [options] (typed) or `new --option KEY=VALUE` (text) as the table
    game.toml keeps, defaults filled in; raises DataError naming a bad key. `read`: that table as
    the ruleset's own value, which is what its engine and views take."""

    check: Callable[[Mapping[str, Any]], dict[str, Any]]
    read: Callable[[Mapping[str, Any]], OptionsT]


def no_options(title: str) -> OptionSpec[None]:
    """The options of a ruleset that has none: every key is refused, and the engine reads None."""

    def check(data: Mapping[str, Any]) -> dict[str, Any]:
        for key in data:
            raise DataError(f"options.{key}", f"{title} has no options")
        return {}

    return OptionSpec(check, lambda _: None)
