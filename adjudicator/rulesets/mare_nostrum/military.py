"""The military phase (R7, R8): each player in the Military Leader's sequence moves his
triremes, fights the naval battles he calls, moves his legions (battles at once), then
fights again wherever his units stay in a province at war. War is never stored: a province
is at war exactly while two players' units stand in it (R8.4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations, pairwise

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t, term, tn
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.combat import fight_land, fight_sea, tidy
from adjudicator.rulesets.mare_nostrum.components import PIECE_NAMES, TAX, UNIT_STOCK, Civ, ProvinceId, SeaId, Unit
from adjudicator.rulesets.mare_nostrum.geography import sea_chain_reach
from adjudicator.rulesets.mare_nostrum.orders import (
    Casualties,
    Consequence,
    Helen,
    Move,
    NavalAttack,
    Order,
    Sail,
    Then,
)
from adjudicator.rulesets.mare_nostrum.working import Working, WorkingProvince

HELEN = "Helen of Troy"


def casualty_policies(orders: Mapping[Civ, Sequence[Order]]) -> dict[Civ, Sequence[Unit]]:
    """R8.2: each player's last `casualties` order; empty means the default (D4)."""
    policies: dict[Civ, Sequence[Unit]] = {}
    for civ, given in orders.items():
        policies[civ] = next((o.units for o in reversed(list(given)) if isinstance(o, Casualties)), ())
    return policies


def apply_military_turn(
    w: Working, board: Board, civ: Civ, orders: Mapping[Civ, Sequence[Order]], dice: Dice, events: list[Event]
) -> None:
    """One player's military turn (R7.1)."""
    mine = list(orders.get(civ, ()))
    policies = casualty_policies(orders)
    at_war_before = [pid for pid, p in w.provinces.items() if p.at_war and civ in p.military()]
    moved: Counter[str] = Counter()
    for order in mine:
        if isinstance(order, Sail):
            _sail(w, board, civ, order, moved, events)
    for order in mine:
        if isinstance(order, NavalAttack):
            _naval_attack(w, board, civ, order, dice, events)
    fought = _move_legions(w, board, civ, [o for o in mine if isinstance(o, Move)], orders, dice, policies, events)
    for pid in at_war_before:
        province = w.provinces[pid]
        if pid in fought or civ not in province.military() or not province.at_war:
            continue
        for enemy in _enemies_in_order(w, province.military() - {civ}, ()):
            if civ in w.provinces[pid].military() and enemy in w.provinces[pid].military():
                fight_land(w, board, pid, civ, enemy, dice, policies, events, cause=t("war goes on (R8.4)"))
        if w.provinces[pid].military() == {civ}:
            apply_consequence(w, board, pid, civ, None, events)


def _as_written(board: Board, order: Sail | NavalAttack | Move) -> str:
    """The order with its places as the board prints them, for reports (orders hold ids)."""
    match order:
        case Sail():
            shown: Sail | NavalAttack | Move = replace(
                order, origin=board.place_name(order.origin), destination=board.place_name(order.destination)
            )
        case NavalAttack():
            shown = replace(order, sea=board.place_name(order.sea))
        case Move():
            shown = replace(
                order,
                origin=board.place_name(order.origin),
                destination=board.place_name(order.destination),
                via=tuple(board.place_name(s) for s in order.via),
            )
    return shown.to_text()


def _enemies_in_order(w: Working, enemies: set[Civ], named: Sequence[Civ]) -> list[Civ]:
    """D7: the ones the mover names, in his order; otherwise military sequence, then table order."""
    if named:
        return [c for c in named if c in enemies]
    order = [*w.sequence, *sorted(c for c in enemies if c not in w.sequence)]
    return [c for c in order if c in enemies]


def _sail(w: Working, board: Board, civ: Civ, order: Sail, moved: Counter[str], events: list[Event]) -> None:
    """R7.2: from port or sea to an adjacent sea, one step per trireme per turn."""
    origin, destination = order.origin, SeaId(order.destination)
    if origin in board.provinces:
        pool = w.provinces[ProvinceId(origin)].port
        reachable = board.provinces[ProvinceId(origin)].seas
    else:
        pool = w.seas[SeaId(origin)]
        reachable = board.seas[SeaId(origin)].seas
    available = pool[civ] - moved[origin]
    if available < order.count or destination not in reachable:
        reason = (
            tn(
                "R7.2: only %(count)s trireme(s) able to move there",
                "R7.2: only %(count)s trireme(s) able to move there",
                available,
            )
            if available < order.count
            else t(
                "R7.2: %(sea)s is not next to %(origin)s",
                sea=board.place_name(destination),
                origin=board.place_name(origin),
            )
        )
        events.append(
            event("order_skipped", player=civ, line=order.line, order=_as_written(board, order), reason=reason)
        )
        return
    pool[civ] -= order.count
    w.seas[destination][civ] += order.count
    moved[destination] += order.count
    events.append(event("sail", player=civ, line=order.line, origin=origin, destination=destination, count=order.count))


def _naval_attack(w: Working, board: Board, civ: Civ, order: NavalAttack, dice: Dice, events: list[Event]) -> None:
    sid, target = SeaId(order.sea), Civ(order.target)
    if w.seas[sid][civ] < 1 or w.seas[sid][target] < 1:
        sea = board.seas[sid].name
        reason = (
            t("R7.2: you have no trireme in %(sea)s", sea=sea)
            if w.seas[sid][civ] < 1
            else t("R7.2: %(civ)s has no trireme in %(sea)s", civ=target, sea=sea)
        )
        events.append(
            event(
                "order_skipped",
                player=civ,
                line=order.line,
                order=_as_written(board, order),
                reason=reason,
            )
        )
        return
    fight_sea(w, sid, civ, target, dice, board, events)


def _route_problem(w: Working, board: Board, civ: Civ, order: Move) -> str | None:
    origin, destination = ProvinceId(order.origin), ProvinceId(order.destination)
    if destination in board.provinces[origin].land and not order.via:
        return None
    chain = [sid for sid, fleet in w.seas.items() if fleet[civ] > 0]
    if order.via:
        seas = [SeaId(s) for s in order.via]
        linked = all(b in board.seas[a].seas for a, b in pairwise(seas))
        if (
            any(s not in chain for s in seas)
            or not linked
            or seas[0] not in board.provinces[origin].seas
            or seas[-1] not in board.provinces[destination].seas
        ):
            return t("R7.3: the route named is not an unbroken chain of your triremes between the two coasts")
        return None
    if destination in sea_chain_reach(board, origin, chain):
        return None
    there, here = board.provinces[destination].name, board.provinces[origin].name
    return t(
        "R7.3: %(destination)s is neither next to %(origin)s nor joined to it by your triremes",
        destination=there,
        origin=here,
    )


def _move_legions(
    w: Working,
    board: Board,
    civ: Civ,
    moves: list[Move],
    orders: Mapping[Civ, Sequence[Order]],
    dice: Dice,
    policies: Mapping[Civ, Sequence[Unit]],
    events: list[Event],
) -> set[ProvinceId]:
    """R7.3-R7.5: move in line order; all legions entering one province fight one battle
    together after the last line (D6), except that a line ending `at once` fights its battle
    as soon as it arrives, with whatever of the mover's legions stand there by then."""
    arrived: Counter[ProvinceId] = Counter()
    entered: dict[ProvinceId, list[Move]] = {}
    fought: set[ProvinceId] = set()
    for order in moves:
        origin, destination = ProvinceId(order.origin), ProvinceId(order.destination)
        available = w.provinces[origin].legions[civ] - arrived[origin]
        problem = _route_problem(w, board, civ, order)
        if available < order.count:
            problem = tn(
                "R7.3: only %(count)s of your legions in %(province)s can still move (D13)",
                "R7.3: only %(count)s of your legions in %(province)s can still move (D13)",
                available,
                province=board.provinces[origin].name,
            )
        if problem:
            events.append(
                event("order_skipped", player=civ, line=order.line, order=_as_written(board, order), reason=problem)
            )
            continue
        w.provinces[origin].legions[civ] -= order.count
        tidy(w.provinces[origin])
        w.provinces[destination].legions[civ] += order.count
        arrived[destination] += order.count
        entered.setdefault(destination, []).append(order)
        events.append(
            event(
                "move",
                player=civ,
                line=order.line,
                origin=origin,
                destination=destination,
                count=order.count,
                via=list(order.via),
            )
        )
        _helen(w, board, civ, destination, orders, events)
        if order.at_once:
            _battle(w, board, civ, destination, entered.pop(destination), dice, policies, events)
            fought.add(destination)
    for pid, arrivals in entered.items():
        _battle(w, board, civ, pid, arrivals, dice, policies, events)
    return fought | set(entered)


def _battle(
    w: Working,
    board: Board,
    civ: Civ,
    pid: ProvinceId,
    arrivals: Sequence[Move],
    dice: Dice,
    policies: Mapping[Civ, Sequence[Unit]],
    events: list[Event],
) -> None:
    """R7.5: the mover fights every enemy there, in the order he names (D7); alone at the
    end, he chooses what to do with the province at once (R8.5, D5)."""
    province = w.provinces[pid]
    named = [Civ(c) for o in arrivals for c in o.attack]
    for enemy in _enemies_in_order(w, province.military() - {civ}, named):
        if civ in province.military() and enemy in province.military():
            fight_land(w, board, pid, civ, enemy, dice, policies, events, cause=t("legions entered (R7.5)"))
    if province.military() == {civ}:
        then = next((o.then for o in reversed(arrivals) if o.then), None)
        apply_consequence(w, board, pid, civ, then, events)


def _helen(
    w: Working, board: Board, mover: Civ, pid: ProvinceId, orders: Mapping[Civ, Sequence[Order]], events: list[Event]
) -> None:
    """R8.9: once per military phase an enemy legion entering one of the owner's provinces
    changes sides, unless all eight of the owner's legions are in play."""
    owner = w.owner_of(HELEN)
    province = w.provinces[pid]
    if owner is None or owner == mover or province.influence != owner or HELEN in w.used:
        return
    setting = next((o for o in reversed(list(orders.get(owner, ()))) if isinstance(o, Helen)), Helen(True))
    if not setting.active or (setting.province is not None and setting.province != pid):
        return
    if w.units_on_board(owner, "legion") >= UNIT_STOCK["legion"]:
        return
    province.legions[mover] -= 1
    province.legions[owner] += 1
    w.used.append(HELEN)
    events.append(event("helen", player=owner, province=pid, from_civ=mover, rule="R8.9"))


def apply_consequence(
    w: Working, board: Board, pid: ProvinceId, civ: Civ, then: Then | None, events: list[Event]
) -> None:
    """R8.5-R8.7: alone in an enemy's province, the victor sacks, occupies or converts."""
    province = w.provinces[pid]
    owner = province.influence
    if owner is None or owner == civ:
        return
    choice = then or Then(Consequence.OCCUPY)
    if choice.consequence is Consequence.CONVERT:
        if board.civilizations[owner].capital == pid:
            events.append(
                event(
                    "consequence_changed",
                    province=pid,
                    player=civ,
                    wanted=t("convert"),
                    reason=t("R8.7: a capital can never be converted; occupied instead"),
                )
            )
        else:
            province.converting = civ
            province.occupied = {k: o for k, o in province.occupied.items() if o != civ}
            events.append(event("convert", province=pid, player=civ, owner=owner, rule="R8.7"))
            return
    if choice.consequence is Consequence.SACK:
        if _sack(w, pid, civ, choice.target or "", events):
            return
        events.append(
            event(
                "consequence_changed",
                province=pid,
                player=civ,
                wanted=t("sack %(target)s", target=choice.target),
                reason=t("R8.6: nothing of that kind stands there; occupied instead"),
            )
        )
    _occupy(w, board, pid, civ, choice.targets if choice.consequence is Consequence.OCCUPY else (), events)


def _sack(w: Working, pid: ProvinceId, civ: Civ, target: str, events: list[Event]) -> bool:
    """R8.6: destroy one city, caravan, temple or market; Nebuchadnezzar takes the card."""
    province = w.provinces[pid]
    kind, _, which = target.partition(" ")
    card: str | None = None
    destroyed: str
    if kind == "city" and province.cities:
        site = which if which in province.cities else province.cities[0]
        province.cities.remove(site)
        destroyed, card = t("city %(site)s", site=site), TAX
    elif kind == "caravan" and which in province.caravans:
        province.caravans.remove(which)
        destroyed, card = t("caravan on %(commodity)s", commodity=term("card", which)), which
    elif kind in ("temple", "market") and getattr(province, kind):
        setattr(province, kind, False)
        destroyed = PIECE_NAMES[kind]
    else:
        return False
    tidy(province)
    taken = 0
    if card is not None and w.has(civ, "Nebuchadnezzar"):
        taken = w.give_from_bank(civ, card)
    events.append(
        event("sack", province=pid, player=civ, destroyed=destroyed, card=card if taken else None, rule="R8.6")
    )
    return True


def _occupy(w: Working, board: Board, pid: ProvinceId, civ: Civ, targets: Sequence[str], events: list[Event]) -> None:
    """R8.6: a legion on each building the occupier names, in his order, while his legions
    last; naming none, the choice that yields him the most cards (cities first on a tie)."""
    province = w.provinces[pid]
    free = [key for key in _buildings(board, pid, province) if province.occupied.get(key) in (None, civ)]
    room = province.legions[civ] - (1 if province.converting == civ else 0)
    missing: list[str] = []
    if targets:
        chosen: list[str] = []
        for target in targets:
            key = _target_key(target, [k for k in free if k not in chosen])
            if key is None:
                missing.append(target)
            elif len(chosen) < room:
                chosen.append(key)
    else:
        chosen = _richest(free, room)
    province.occupied = {k: o for k, o in province.occupied.items() if o != civ} | dict.fromkeys(chosen, civ)
    extra = {"not_there": missing} if missing else {}
    events.append(
        event("occupy", province=pid, player=civ, occupied=chosen, owner=province.influence, rule="R8.6", **extra)
    )


def _buildings(board: Board, pid: ProvinceId, province: WorkingProvince) -> list[str]:
    """What a legion can stand on, in board order: cities, caravans, temple, market."""
    keys = [f"city:{s}" for s in board.provinces[pid].cities if s in province.cities]
    keys += [f"caravan:{i}" for i in board.provinces[pid].commodities if i in province.caravans]
    return keys + [k for k in ("temple", "market") if getattr(province, k)]


def _target_key(target: str, free: Sequence[str]) -> str | None:
    """`city` (the first free site), `city SITE`, `caravan ICON`, `temple`, `market`."""
    kind, _, which = target.partition(" ")
    wanted = f"{kind}:{which}" if which else kind
    return next((k for k in free if k == wanted or (not which and k.startswith(f"{kind}:"))), None)


def _richest(free: Sequence[str], room: int) -> list[str]:
    """The buildings to occupy that pay the occupier most (R4: a temple or market he also
    holds doubles what he holds of cities or caravans); ties: more cities, more buildings,
    then board order."""

    def rank(chosen: tuple[str, ...]) -> tuple[int, int, int, tuple[int, ...]]:
        cities = sum(1 for k in chosen if k.startswith("city:"))
        caravans = sum(1 for k in chosen if k.startswith("caravan:"))
        cards = cities * (2 if "temple" in chosen else 1) + caravans * (2 if "market" in chosen else 1)
        return cards, cities, len(chosen), tuple(-free.index(k) for k in chosen)

    options = [c for size in range(min(room, len(free)) + 1) for c in combinations(free, size)]
    best: tuple[str, ...] = max(options, key=rank)
    return list(best)
