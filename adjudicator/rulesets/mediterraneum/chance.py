"""The game's dice and decks, all from the committed dice chain (M1.5): the blue die, the black
dice with the faces the data file gives, and shuffles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from adjudicator.core.dice import Dice, choose_index
from adjudicator.core.i18n import t
from adjudicator.rulesets.mediterraneum.board import Board

T = TypeVar("T")


def blue(dice: Dice, purpose: str) -> int:
    """The blue die: 1-6 (T:29, T:78-80, T:87)."""
    return dice.roll(t("blue die: %(purpose)s", purpose=purpose))


def black(board: Board, dice: Dice, purpose: str) -> int:
    """A black die: a face of the data file's black die, 0-4 (T:41, T:47)."""
    return board.black_die[dice.roll(t("black die: %(purpose)s", purpose=purpose)) - 1]


def shuffled(items: Sequence[T], dice: Dice, purpose: str) -> tuple[T, ...]:
    """A uniform shuffle (Fisher-Yates) of the items, the order drawn from the dice."""
    left = list(items)
    result: list[T] = []
    while left:
        result.append(left.pop(choose_index(dice, len(left), purpose)))
    return tuple(result)


def pick(items: Sequence[T], dice: Dice, purpose: str) -> T:
    """One item chosen by the blue die, where the rules let the table choose (MD29, MD31)."""
    return items[choose_index(dice, len(items), purpose)]


def highest(players: Sequence[str], dice: Dice, purpose: str) -> tuple[str, dict[str, list[int]]]:
    """Who rolls highest on the blue die, ties rolled again among the tied (T:29, T:97); with
    every roll, for the report."""
    rolls: dict[str, list[int]] = {p: [] for p in players}
    tied = list(players)
    while len(tied) > 1:
        for player in tied:
            rolls[player].append(blue(dice, t("%(purpose)s, %(player)s", purpose=purpose, player=player)))
        best = max(rolls[p][-1] for p in tied)
        tied = [p for p in tied if rolls[p][-1] == best]
    return tied[0], rolls
