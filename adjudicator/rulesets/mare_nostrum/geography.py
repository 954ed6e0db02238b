"""Adjacency on the board, by land and along chains of one's own triremes (R6.4, R7.3)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import Civ, ProvinceId, SeaId
from adjudicator.rulesets.mare_nostrum.model import Position


def seas_with_triremes(position: Position, civ: Civ) -> frozenset[SeaId]:
    return frozenset(sid for sid, sea in position.seas.items() if sea.triremes.get(civ, 0) > 0)


def sea_chain_reach(board: Board, start: ProvinceId, chain: Iterable[SeaId]) -> frozenset[ProvinceId]:
    """R7.3: provinces reached from `start` along seas that each hold one of the civ's triremes."""
    usable = frozenset(chain)
    first = [s for s in board.provinces[start].seas if s in usable]
    seen = set(first)
    queue = deque(first)
    while queue:
        for nxt in board.seas[queue.popleft()].seas:
            if nxt in usable and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return frozenset(p for sea in seen for p in board.coasts(sea)) - {start}


def borders_held(board: Board, held: Iterable[ProvinceId], chain: Iterable[SeaId], target: ProvinceId) -> bool:
    """R6.4: `target` borders one of the `held` provinces by land, or along a chain of the
    player's triremes (`chain`: the seas holding one), which R7.3 makes adjacent too."""
    seas = frozenset(chain)
    return any(target in board.provinces[h].land or target in sea_chain_reach(board, h, seas) for h in held)
