"""The game's own words as reports and order forms name them."""

from __future__ import annotations

from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.geography import space_name
from adjudicator.rulesets.mediterraneum.model import Phase
from adjudicator.rulesets.mediterraneum.orders import WAREHOUSE


def terms(board: Board) -> dict[str, tuple[str, ...]]:
    """Goods, buildings with the warehouse (M7.1, M7.8), the three forms of State (M5.4), the phases."""
    return {
        "card": tuple(good.name for good in board.goods.values()),
        "building": (*(building.name for building in board.buildings.values()), WAREHOUSE),
        "state": tuple(dict.fromkeys(state.name for state in board.states.values())),
        "phase": tuple(Phase),
    }


def place_names(board: Board) -> dict[str, str]:
    """Cities, lands and seas by id, and each ship space (`harbour:roma`, `coast:roma`)."""
    names = {**{x.id: x.name for x in board.lands.values()}, **{s.id: s.name for s in board.seas.values()}}
    names |= {c.id: c.name for c in board.cities.values()}
    for city in board.cities:
        names |= {f"{kind}:{city}": space_name(board, f"{kind}:{city}") for kind in ("harbour", "coast")}
    return names
