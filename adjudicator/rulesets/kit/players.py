"""Who plays a position: a check for the rulesets in which every seat on the board is a player."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from adjudicator.core.errors import DataError

BoardT = TypeVar("BoardT")


class Seated(Protocol):
    """What generic code asks of a position besides its phase: who has a player."""

    @property
    def playing(self) -> tuple[str, ...]: ...


PositionT = TypeVar("PositionT", bound=Seated)


def no_neutrals(
    read: Callable[[BoardT, Mapping[str, Any]], PositionT], word: str, rule: str
) -> Callable[[BoardT, Mapping[str, Any], Sequence[str] | None], PositionT]:
    """A position reader for a ruleset without neutral players: given the game's players
    (`new --position`), the position's must be the same ones. `word` is what the message calls
    them ("empires"), `rule` the clause it cites."""

    def position_from_data(board: BoardT, data: Mapping[str, Any], playing: Sequence[str] | None) -> PositionT:
        position = read(board, data)
        if playing is not None and set(playing) != set(position.playing):
            raise DataError("players", f"the position's {word} are {', '.join(position.playing)}; no neutrals ({rule})")
        return position

    return position_from_data
