"""The game's own words and places as reports and order forms name them."""

from __future__ import annotations

from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, Phase


def terms(board: Board) -> dict[str, tuple[str, ...]]:
    """Cards, the classes a `take` line may name (R5.3), and the phases."""
    return {"card": tuple(CARD_TOTALS), "choice": ("commodity", "any"), "phase": tuple(Phase)}


def place_names(board: Board) -> dict[str, str]:
    return {**{p.id: p.name for p in board.provinces.values()}, **{s.id: s.name for s in board.seas.values()}}
