"""Where an empire reaches (ED11): its provinces, their land neighbours, and the coasts its
chains of triremes join (E7.3: a line of seas, each holding one of its triremes)."""

from __future__ import annotations

from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.kit.graph import chain_seas


def covered(board: Board, position: Position) -> frozenset[str]:
    """E2.1, ED20: with fewer than five players the absent empires' lands are covered by the
    title and hero tracks and out of play."""
    return frozenset(pid for e in board.empires.values() if e.name not in position.players for pid in e.provinces)


def provinces_of(position: Position, empire: str) -> frozenset[str]:
    """Provinces under the empire's influence now (ED11: including one marked this turn)."""
    return frozenset(pid for pid, p in position.provinces.items() if p.influence == empire)


def chain_coasts(board: Board, position: Position, empire: str, start: str) -> frozenset[str]:
    """Provinces joined to `start` by a chain of the empire's triremes (E7.3)."""
    own = frozenset(sid for sid, s in position.seas.items() if s.triremes.get(empire, 0) > 0)
    seen = chain_seas(board.provinces[start].seas, own, lambda sea: board.seas[sea].seas)
    return frozenset(p for sid in seen for p in board.coasts(sid)) - {start}


def borders_empire(board: Board, position: Position, empire: str, province: str) -> bool:
    """E6.4, E8.8, ED11: the province borders one of the empire's, by land or a trireme chain."""
    own = provinces_of(position, empire)
    if any(p in own for p in board.provinces[province].land):
        return True
    return bool(chain_coasts(board, position, empire, province) & own)
