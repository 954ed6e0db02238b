"""Production (E4): every building pays its controller, all at once, at the start of a round.

No orders: the one choice (the temple's extra token at a legendary city, E4.3) and the
Colossus's pick (E11.1 take good) are standing orders kept in the position (ED16).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from adjudicator.core.dice import Dice, choose_index
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.empires.board import Board, CityKind
from adjudicator.rulesets.empires.model import Position, frozen_counts
from adjudicator.rulesets.kit.payment import TAX

LEGENDARY_CHOICE = "legendary"  # standing[empire]["legendary:<province>"] = "good" | "tax" (E4.3; default tax)


def produce(board: Board, position: Position, dice: Dice) -> tuple[Position, list[Event]]:
    """E4.1-E4.4 and the tiles that add to production (E11.1: free tax, legion as caravan)."""
    due: dict[str, Counter[str]] = {e: Counter() for e in position.playing}
    legendary_due: Counter[str] = Counter()
    for pid, province in position.provinces.items():
        for building in province.buildings():
            owner = province.controller(building)
            if owner not in due:
                continue
            if building.startswith("caravan:"):
                doubled = province.market and province.controller("market") == owner
                due[owner][building.split(":", 1)[1]] += 2 if doubled else 1
            elif building == "city":
                temple = province.temple and province.controller("temple") == owner
                if board.provinces[pid].city is CityKind.LEGENDARY:
                    due[owner][TAX] += 1
                    legendary_due[owner] += 1
                    if temple and _choice(position, owner, pid) == "good":
                        legendary_due[owner] += 1
                    elif temple:
                        due[owner][TAX] += 1
                else:
                    due[owner][TAX] += 2 if temple else 1
    for empire in position.playing:
        _tile_production(board, position, empire, due[empire])
    pile = Counter(position.legendary_pile)
    drawn: dict[str, list[str]] = {}
    for empire in position.playing:
        for _ in range(legendary_due[empire]):
            tokens = sorted(pile.elements())
            if not tokens:
                break  # ED8: an empty pile pays nothing; the tax token still comes
            good = tokens[choose_index(dice, len(tokens), t("E4.3 legendary good for %(empire)s", empire=empire))]
            pile[good] -= 1
            drawn.setdefault(empire, []).append(good)
    players = dict(position.players)
    events: list[Event] = []
    for empire in position.playing:
        player = players[empire]
        gained = +due[empire]
        legendary = Counter(drawn.get(empire, []))
        players[empire] = replace(
            player,
            resources=_add(player.resources, gained),
            legendary=_add(player.legendary, legendary),
        )
        events.append(
            event("produce", player=empire, gained=dict(sorted(gained.items())), legendary=sorted(legendary.elements()))
        )
    position = replace(position, players=players, legendary_pile=frozen_counts(pile))
    for empire in position.playing:
        if position.effects(board, empire, "take_good"):
            position = _take_good(board, position, empire, events)
    return position, events


TAKE_CHOICE = "take"  # standing[empire]["take"] = a good (E11.1 take good)


def _take_good(board: Board, position: Position, empire: str, events: list[Event]) -> Position:
    """E11.1 take good: one good of his choice from the player holding most of it; without a
    choice, a good he holds none of (ED18's order), from whoever holds most of it."""
    others = [e for e in position.playing if e != empire]
    held = {good: max((position.players[o].goods(good) for o in others), default=0) for good in board.commodities}
    wanted = position.standing.get(empire, {}).get(TAKE_CHOICE)
    if wanted not in held or not held[wanted]:
        mine = position.players[empire]
        lacking = [g for g in board.commodities if held[g] and not mine.goods(g)]
        wanted = lacking[0] if lacking else next((g for g in board.commodities if held[g]), None)
    if wanted is None:
        return position
    source = max(others, key=lambda o: position.players[o].goods(wanted))
    giver, taker = position.players[source], position.players[empire]
    players = dict(position.players)
    if giver.resources.get(wanted, 0):
        players[source] = replace(giver, resources=_add(giver.resources, {wanted: -1}))
        players[empire] = replace(taker, resources=_add(taker.resources, {wanted: 1}))
    else:  # ED8: a legendary good is a good of its kind
        players[source] = replace(giver, legendary=_add(giver.legendary, {wanted: -1}))
        players[empire] = replace(taker, legendary=_add(taker.legendary, {wanted: 1}))
    events.append(event("take_good", player=empire, good=wanted, source=source))
    return replace(position, players=players)


def _choice(position: Position, empire: str, province: str) -> str:
    return position.standing.get(empire, {}).get(f"{LEGENDARY_CHOICE}:{province}", TAX)


def _tile_production(board: Board, position: Position, empire: str, due: Counter[str]) -> None:
    for effect in position.effects(board, empire, "free_tax"):
        due[TAX] += int(effect.parameters.get("count", 1))
    if position.effects(board, empire, "legion_as_caravan"):
        for pid, province in position.provinces.items():
            if province.influence != empire:
                continue
            free_sites = list(board.provinces[pid].caravans)
            for built in province.caravans:
                free_sites.remove(built)
            for good in free_sites[: province.legions.get(empire, 0)]:
                due[good] += 1


def _add(held: Mapping[str, int], gained: Mapping[str, int]) -> Mapping[str, int]:
    total = Counter(held)
    total.update(gained)
    return frozen_counts(total)
