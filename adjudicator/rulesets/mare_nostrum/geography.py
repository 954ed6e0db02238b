"""Adjacency on the board, by land and along chains of one's own triremes (R6.4, R7.3)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from adjudicator.rulesets.kit.graph import chain_seas
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import Civ, ProvinceId, SeaId
from adjudicator.rulesets.mare_nostrum.model import Position


def seas_with_triremes(position: Position, civ: Civ) -> frozenset[SeaId]:
    return frozenset(sid for sid, sea in position.seas.items() if sea.triremes.get(civ, 0) > 0)


def sea_chain_reach(board: Board, start: ProvinceId, chain: Iterable[SeaId]) -> frozenset[ProvinceId]:
    """R7.3: provinces reached from `start` along seas that each hold one of the civ's triremes."""
    usable = frozenset(chain)
    seen = chain_seas(board.provinces[start].seas, usable, lambda sea: board.seas[sea].seas)
    return frozenset(p for sea in seen for p in board.coasts(sea)) - {start}


def borders_held(board: Board, held: Iterable[ProvinceId], chain: Iterable[SeaId], target: ProvinceId) -> bool:
    """R6.4: `target` borders one of the `held` provinces by land, or along a chain of the
    player's triremes (`chain`: the seas holding one), which R7.3 makes adjacent too."""
    seas = frozenset(chain)
    return any(target in board.provinces[h].land or target in sea_chain_reach(board, h, seas) for h in held)


def sea_route(
    board: Board, origin: ProvinceId, destination: ProvinceId, usable: frozenset[SeaId], sure: frozenset[SeaId]
) -> tuple[SeaId, ...] | None:
    """R7.3: an unbroken chain of `usable` seas from a coast of `origin` to a coast of
    `destination` that passes as few seas outside `sure` as it can, or None when there is none.
    (A breadth-first search whose steps into `sure` seas cost nothing; seas in board order.)"""
    cost: dict[SeaId, int] = {}
    before: dict[SeaId, SeaId | None] = {}
    queue: deque[SeaId] = deque()

    def reach(sea: SeaId, came_from: SeaId | None, base: int) -> None:
        step = 0 if sea in sure else 1
        if sea in usable and base + step < cost.get(sea, len(usable) + 1):
            cost[sea], before[sea] = base + step, came_from
            if step == 0:
                queue.appendleft(sea)
            else:
                queue.append(sea)

    for sea in board.provinces[origin].seas:
        reach(sea, None, 0)
    while queue:
        here = queue.popleft()
        for sea in board.seas[here].seas:
            reach(sea, here, cost[here])
    ends = [sea for sea in board.provinces[destination].seas if sea in cost]
    if not ends:
        return None
    chain = [min(ends, key=lambda sea: cost[sea])]
    while (previous := before[chain[-1]]) is not None:
        chain.append(previous)
    return tuple(reversed(chain))
