"""The game's own words as reports and order forms name them."""

from __future__ import annotations

from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.model import Phase


def terms(board: Board) -> dict[str, tuple[str, ...]]:
    """Goods and the tax token (E1.3), the classes a `take` line may name besides a token
    (E5.3), the titles as a `title` line names them (E9.2), and the phases."""
    return {
        "card": ("tax", *board.commodities),
        "choice": ("good", "any"),
        "title": tuple(str(title) for title in Title),
        "phase": tuple(Phase),
    }


def place_names(board: Board) -> dict[str, str]:
    """Provinces and seas by id, as reports name them."""
    return {**{p.id: p.name for p in board.provinces.values()}, **{s.id: s.name for s in board.seas.values()}}
