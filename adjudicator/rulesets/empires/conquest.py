"""What a military turn does to provinces besides battles: the conversions due at its start
(E8.8, ED15), and the conqueror's one choice in each province he conquers (E8.5-E8.8): sack,
occupy or convert. `conquest_choices` says which line gives that choice, for the validator and
the engine alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from adjudicator.core.dice import Dice, choose_index
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.empires.board import Board, CityKind
from adjudicator.rulesets.empires.geography import borders_empire
from adjudicator.rulesets.empires.model import Position, ProvinceState, frozen_counts
from adjudicator.rulesets.empires.orders import Conquest, Move, Order
from adjudicator.rulesets.kit.payment import TAX

# NOTE: a building a conqueror would sack (E8.6), in "no %(building)s to sack"; "legendary" is the legendary city.
BUILDING_WORDS = {"city": t("city"), "market": t("market"), "temple": t("temple"), "legendary": t("legendary")}


def conquest_choices(orders: Sequence[Order]) -> tuple[dict[str, Conquest], list[tuple[Conquest, Conquest]]]:
    """E8.5: the one choice for each province he may conquer this turn, by province: a `sack`,
    `occupy` or `convert` line before the `then` of a move line, a later line before an earlier
    one. Also each choice given way, with the one kept: (dropped, kept); a choice the kept one
    repeats word for word loses nothing and is not listed."""
    moves = [o for o in orders if isinstance(o, Move)]
    candidates = [replace(o.then, province=o.destination, line=o.line) for o in moves if o.then]
    candidates += [o for o in orders if isinstance(o, Conquest)]
    chosen: dict[str, Conquest] = {}
    dropped: list[Conquest] = []
    for choice in candidates:
        if choice.province in chosen:
            dropped.append(chosen[choice.province])
        chosen[choice.province] = choice
    given_way = [(lost, chosen[lost.province]) for lost in sorted(dropped, key=lambda c: c.line)]
    return chosen, [(lost, kept) for lost, kept in given_way if lost.consequence() != kept.consequence()]


def choice_dropped(board: Board, dropped: Conquest, kept: Conquest) -> str:
    """Why a line's conquest choice is not carried out (E8.5): the receipt's note and the report's."""
    return t(
        "E8.5: one choice per conquered province: line %(line)s's choice for %(province)s is carried out, "
        "not '%(choice)s' here",
        line=kept.line,
        province=board.provinces[kept.province].name if kept.province in board.provinces else kept.province,
        choice=dropped.consequence(),
    )


def conversions(board: Board, position: Position, empire: str, events: list[Event]) -> Position:
    """E8.8, ED15: at the start of his military turn, a marker he has stood on since an earlier
    round becomes his, if he is still conqueror there and it borders his empire."""
    provinces = dict(position.provinces)
    for pid, p in position.provinces.items():
        if p.converting != empire:
            continue
        if p.conqueror != empire:
            provinces[pid] = replace(p, converting=None, converting_since=0)
            continue
        if p.converting_since < position.round and borders_empire(board, position, empire, pid):
            provinces[pid] = _converted(p, empire)
            events.append(event("converted", player=empire, place=pid, previous=p.influence, rule="E8.8"))
    return replace(position, provinces=provinces)


def _converted(province: ProvinceState, empire: str) -> ProvinceState:
    return replace(province, influence=empire, converting=None, converting_since=0, conqueror=None)


def conquest(
    board: Board,
    position: Position,
    empire: str,
    pid: str,
    choice: Conquest | None,
    dice: Dice,
    events: list[Event],
) -> Position:
    """E8.5: the conqueror sacks, occupies or converts, once (ED14: default, occupy)."""
    province = position.provinces[pid]
    if choice is not None and choice.action == "sack" and choice.buildings:
        building = choice.buildings[0]
        if building in province.buildings() or (building == "legendary" and province.city):
            return _sack(board, position, empire, pid, building, choice.for_good, dice, events)
        events.append(
            event(
                "order_skipped",
                player=empire,
                line=choice.line,
                reason=t("E8.6: no %(building)s to sack", building=BUILDING_WORDS.get(building, building)),
            )
        )
    if choice is not None and choice.action == "convert":
        if position.effects(board, empire, "auto_convert") and borders_empire(board, position, empire, pid):
            events.append(event("converted", player=empire, place=pid, previous=province.influence, rule="E11.1"))
            return replace(position, provinces={**position.provinces, pid: _converted(province, empire)})
        changed = replace(province, converting=empire, converting_since=position.round)
        events.append(event("converting", player=empire, place=pid, rule="E8.8"))
        return replace(position, provinces={**position.provinces, pid: changed})
    wanted = list(choice.buildings) if choice is not None and choice.action == "occupy" else _best_occupation(province)
    return _occupy(position, empire, pid, wanted, events)


def _best_occupation(province: ProvinceState) -> list[str]:
    """ED14: the buildings that bring him the most production, cities first on a tie."""
    caravans = [b for b in province.buildings() if b.startswith("caravan:")]
    ranked = [b for b in ("city",) if province.city] + caravans
    if province.temple and province.city:
        ranked.insert(1, "temple")
    if province.market and caravans:
        ranked.append("market")
    return ranked


def _occupy(position: Position, empire: str, pid: str, wanted: list[str], events: list[Event]) -> Position:
    province = position.provinces[pid]
    occupied = dict(province.occupied)
    free = province.legions.get(empire, 0) - province.stationed(empire)
    taken = []
    for building in wanted:
        if free == 0:
            break
        if building in province.buildings() and occupied.get(building) != empire:
            occupied[building] = empire
            taken.append(building)
            free -= 1
    events.append(event("occupy", player=empire, place=pid, buildings=taken, rule="E8.7"))
    return replace(position, provinces={**position.provinces, pid: replace(province, occupied=occupied)})


def _sack(
    board: Board,
    position: Position,
    empire: str,
    pid: str,
    building: str,
    for_good: bool,
    dice: Dice,
    events: list[Event],
) -> Position:
    """E8.6: one building destroyed and its gain (doubled by plunder double, E11.1)."""
    province = position.provinces[pid]
    site = board.provinces[pid].city
    gain: Counter[str] = Counter()
    legendary: Counter[str] = Counter()
    pile = Counter(position.legendary_pile)
    times = 2 if position.effects(board, empire, "plunder_double") else 1
    if building.startswith("caravan:"):
        gain[building.split(":", 1)[1]] += times
        caravans = list(province.caravans)
        caravans.remove(building.split(":", 1)[1])
        province = replace(province, caravans=tuple(caravans))
    elif building in ("market", "temple"):
        province = replace(province, **{building: False})  # type: ignore[arg-type]
    else:
        for _ in range(times):
            tokens = sorted(pile.elements())
            if site is CityKind.LEGENDARY and for_good and tokens:
                good = tokens[choose_index(dice, len(tokens), t("E8.6 legendary good for %(empire)s", empire=empire))]
                pile[good] -= 1
                legendary[good] += 1
            else:
                gain[TAX] += 1
        province = replace(province, city=False)
    occupied = {b: who for b, who in province.occupied.items() if b in province.buildings()}
    province = replace(province, occupied=MappingProxyType(occupied))
    player = position.players[empire]
    player = replace(
        player,
        resources=frozen_counts(Counter(player.resources) + gain),
        legendary=frozen_counts(Counter(player.legendary) + legendary),
    )
    events.append(
        event(
            "sack",
            player=empire,
            place=pid,
            building=building,
            gained=dict(sorted((gain + Counter({f"legendary {k}": n for k, n in legendary.items()})).items())),
            rule="E8.6",
        )
    )
    return replace(
        position,
        provinces={**position.provinces, pid: province},
        players={**position.players, empire: player},
        legendary_pile=frozen_counts(pile),
    )
