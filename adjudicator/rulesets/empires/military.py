"""The military phase (E7, E8): each player's turn in the Military Leader's order: conversions
due, trireme moves, naval battles, legion moves, land battles, conquests and what the conqueror
does. The four-capitals victory (E10.2) is checked after the phase, by the engine.

A line that cannot be carried out when its turn comes is skipped with the reason and the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from adjudicator.dice import Dice, choose_index
from adjudicator.events import Event, event
from adjudicator.i18n import t
from adjudicator.rulesets.empires.board import Board, CityKind, Title
from adjudicator.rulesets.empires.combat import Side, fight, land_losses, sea_losses
from adjudicator.rulesets.empires.geography import borders_empire, chain_coasts, covered
from adjudicator.rulesets.empires.model import Position, ProvinceState, frozen_counts
from adjudicator.rulesets.empires.orders import Conquest, Move, NavalAttack, Order, Sail, Standing, TurnOrder
from adjudicator.rulesets.empires.trade import table_order_from
from adjudicator.rulesets.payment import TAX

STANDING_KEYS = ("legendary", "take")  # kept until changed (ED16); title choices too, by prefix
# NOTE: a building a conqueror would sack (E8.6), in "no %(building)s to sack"; "legendary" is the legendary city.
BUILDING_WORDS = {"city": t("city"), "market": t("market"), "temple": t("temple"), "legendary": t("legendary")}


def military_order(position: Position, orders: Mapping[str, Sequence[Order]]) -> list[str]:
    """E3.3, ED16: the Military Leader's sequence, the rest after him in table order."""
    leader = position.titles.get(Title.MILITARY)
    named = [o for o in orders.get(leader or "", ()) if isinstance(o, TurnOrder)]
    wanted = [e for e in (named[-1].empires if named else ()) if e in position.playing]
    return list(dict.fromkeys([*wanted, *table_order_from(leader, position.playing)]))


def resolve_military(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice
) -> tuple[Position, list[Event]]:
    events: list[Event] = []
    order = military_order(position, orders)
    events.append(event("military_order", order=order, rule="E7.1"))
    position = record_standing(position, orders)
    peace = peace_pairs(board, position, orders, events)
    for empire in order:
        position = military_turn(board, position, empire, orders.get(empire, ()), dice, events, peace)
    return replace(position, sequence=tuple(order)), events


def record_standing(position: Position, orders: Mapping[str, Sequence[Order]]) -> Position:
    """ED16: the choices sent with the military orders, kept until changed."""
    standing = {e: dict(choices) for e, choices in position.standing.items()}
    for empire, lines in orders.items():
        for order in lines:
            if isinstance(order, Standing) and order.key != "peace":
                key = f"{order.key}:{order.place}" if order.place else order.key  # legendary:<province>
                standing.setdefault(empire, {})[key] = order.value
    return replace(position, standing=standing)


def peace_pairs(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], events: list[Event]
) -> frozenset[frozenset[str]]:
    """E11.1 impose peace: the tile's owner names one player; neither attacks the other."""
    pairs = set()
    for empire, lines in orders.items():
        if empire not in position.players or not position.effects(board, empire, "impose_peace"):
            continue
        named = [o.value for o in lines if isinstance(o, Standing) and o.key == "peace"]
        if named and named[-1] in position.players and named[-1] != empire:
            pairs.add(frozenset((empire, named[-1])))
            events.append(event("peace", empire=empire, other=named[-1], rule="E11.1"))
    return frozenset(pairs)


def military_turn(
    board: Board,
    position: Position,
    empire: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    peace: frozenset[frozenset[str]] = frozenset(),
) -> Position:
    """One player's military turn (E7.1): triremes, naval battles, then legions and land battles."""
    events.append(event("turn_of", empire=empire, phase="military"))
    position = _conversions(board, position, empire, events)
    turn = _Turn(board, empire, events, peace)
    for order in orders:
        if isinstance(order, Sail):
            position = turn.sail(position, order)
    for order in orders:
        if isinstance(order, NavalAttack):
            position = turn.naval(position, order, dice)
    for order in orders:
        if isinstance(order, Move):
            position = turn.move(position, order)
    position = turn.land_battles(position, dice)
    choices = {o.destination: replace(o.then, province=o.destination) for o in orders if isinstance(o, Move) and o.then}
    choices |= {o.province: o for o in orders if isinstance(o, Conquest)}
    for province in turn.conquered:
        position = _conquest(board, position, empire, province, choices.get(province), dice, events)
    return position


class _Turn:
    """What one military turn has done so far: units moved, battles fought, provinces conquered."""

    def __init__(self, board: Board, empire: str, events: list[Event], peace: frozenset[frozenset[str]]) -> None:
        self.board, self.empire, self.events, self.peace = board, empire, events, peace
        self.sailed: Counter[str] = Counter()  # triremes arrived in each sea (they moved already)
        self.marched: Counter[str] = Counter()  # legions arrived in each province
        self.entered: list[str] = []
        self.naval_seas: set[str] = set()
        self.conquered: list[str] = []

    def skip(self, order: Order, reason: str) -> None:
        self.events.append(event("order_skipped", empire=self.empire, line=order.line, reason=reason))

    def at_peace(self, other: str) -> bool:
        return frozenset((self.empire, other)) in self.peace

    def sail(self, position: Position, order: Sail) -> Position:
        board, empire = self.board, self.empire
        if order.origin not in board.seas or order.destination not in board.seas:
            self.skip(order, t("E7.2: triremes sail from a sea to a sea"))
            return position
        if order.destination not in board.seas[order.origin].seas:
            self.skip(
                order,
                t(
                    "E7.2: %(destination)s does not border %(origin)s",
                    destination=_name(board, order.destination),
                    origin=_name(board, order.origin),
                ),
            )
            return position
        ready = position.seas[order.origin].triremes.get(empire, 0) - self.sailed[order.origin]
        if order.count > ready:
            self.skip(
                order,
                t(
                    "E7.2: only %(count)s of your triremes in %(sea)s can still move",
                    count=max(ready, 0),
                    sea=_name(board, order.origin),
                ),
            )
            return position
        seas = dict(position.seas)
        seas[order.origin] = seas[order.origin].with_ships(empire, -order.count)
        seas[order.destination] = seas[order.destination].with_ships(empire, order.count)
        self.sailed[order.destination] += order.count
        self.events.append(
            event("sail", empire=empire, count=order.count, origin=order.origin, destination=order.destination)
        )
        return replace(position, seas=seas)

    def naval(self, position: Position, order: NavalAttack, dice: Dice) -> Position:
        board, empire, sea = self.board, self.empire, order.sea
        mine = position.seas[sea].triremes.get(empire, 0) if sea in position.seas else 0
        theirs = position.seas[sea].triremes.get(order.enemy, 0) if sea in position.seas else 0
        if not mine or not theirs:
            self.skip(
                order,
                t(
                    "E7.2: a naval battle needs your triremes and %(enemy)s's in %(sea)s",
                    enemy=order.enemy,
                    sea=_name(board, sea),
                ),
            )
        elif sea in self.naval_seas:
            self.skip(order, t("E7.2: one naval battle per sea in a turn (%(sea)s)", sea=_name(board, sea)))
        elif self.at_peace(order.enemy):
            self.skip(order, t("E11.1: peace is imposed between you and %(enemies)s this phase", enemies=order.enemy))
        else:
            self.naval_seas.add(sea)
            hits_on_me, hits_on_them, battle = fight(
                board, position, Side(empire, mine), Side(order.enemy, theirs), sea, dice
            )
            state, _ = sea_losses(position.seas[sea], empire, hits_on_me)
            state, _ = sea_losses(state, order.enemy, hits_on_them)
            self.events.append(battle)
            return replace(position, seas={**position.seas, sea: state})
        return position

    def move(self, position: Position, order: Move) -> Position:
        board, empire = self.board, self.empire
        if order.origin not in board.provinces or order.destination not in board.provinces:
            self.skip(order, t("E7.3: legions move from a province to a province"))
            return position
        ready = position.provinces[order.origin].legions.get(empire, 0) - self.marched[order.origin]
        if order.count > ready:
            self.skip(
                order,
                t(
                    "E7.3: only %(count)s of your legions in %(province)s can still move",
                    count=max(ready, 0),
                    province=_name(board, order.origin),
                ),
            )
            return position
        by_land = order.destination in board.provinces[order.origin].land
        if not by_land and order.destination not in chain_coasts(board, position, empire, order.origin):
            self.skip(
                order,
                t(
                    "E7.3: %(destination)s is neither next to %(origin)s nor joined to it by a chain of your triremes",
                    destination=_name(board, order.destination),
                    origin=_name(board, order.origin),
                ),
            )
            return position
        if order.destination in covered(board, position):
            self.skip(
                order,
                t("E2.1: %(province)s is covered and out of play (ED20)", province=_name(board, order.destination)),
            )
            return position
        target = position.provinces[order.destination]
        enemies = target.units() - {empire}
        if any(self.at_peace(other) for other in enemies):
            self.skip(
                order,
                t("E11.1: peace is imposed between you and %(enemies)s this phase", enemies=", ".join(sorted(enemies))),
            )
            return position
        provinces = dict(position.provinces)
        provinces[order.origin] = _leave(provinces[order.origin], empire, order.count)
        legions = {**target.legions, empire: target.legions.get(empire, 0) + order.count}
        conqueror = target.conqueror if target.conqueror in (None, empire) else None  # E8.5: he loses it
        provinces[order.destination] = replace(target, legions=MappingProxyType(legions), conqueror=conqueror)
        self.marched[order.destination] += order.count
        if order.destination not in self.entered:
            self.entered.append(order.destination)
        self.events.append(
            event(
                "move",
                empire=empire,
                count=order.count,
                origin=order.origin,
                destination=order.destination,
                by="land" if by_land else "sea",
            )
        )
        return replace(position, provinces=provinces)

    def land_battles(self, position: Position, dice: Dice) -> Position:
        """E7.4, ED14: a battle in every province his legions entered that holds other units,
        and in every province at war where his legions stayed; an empty enemy province
        entered is conquered without dice."""
        board, empire = self.board, self.empire
        at_war = [pid for pid, p in position.provinces.items() if p.at_war and p.legions.get(empire, 0)]
        for pid in list(dict.fromkeys([*self.entered, *at_war])):
            province = position.provinces[pid]
            if not province.legions.get(empire, 0):
                continue
            enemies = table_order_from(empire, list(province.units() - {empire}))
            fought = False
            for enemy in enemies:
                current = position.provinces[pid]
                mine = current.legions.get(empire, 0)
                if not mine or enemy not in current.units() or self.at_peace(enemy):
                    continue
                fought = True
                attacker = Side(empire, mine, current.fortress == empire)
                defender = Side(enemy, current.legions.get(enemy, 0), current.fortress == enemy)
                hits_on_me, hits_on_them, battle = fight(board, position, attacker, defender, pid, dice)
                current, mine_lost, my_fort = land_losses(current, empire, hits_on_me)
                current, their_lost, their_fort = land_losses(current, enemy, hits_on_them)
                self.events.append(battle)
                self.events.append(
                    event(
                        "losses",
                        place=pid,
                        attacker=empire,
                        defender=enemy,
                        attacker_lost=mine_lost,
                        defender_lost=their_lost,
                        fortress_lost=empire if my_fort else enemy if their_fort else None,
                        war=current.at_war,
                        rule="E8.4" if current.at_war else "E8.2",
                    )
                )
                position = replace(position, provinces={**position.provinces, pid: current})
            after = position.provinces[pid]
            owner = after.influence
            alone = after.units() == {empire}
            if alone and owner not in (None, empire) and (fought or pid in self.entered):
                position = replace(position, provinces={**position.provinces, pid: replace(after, conqueror=empire)})
                self.conquered.append(pid)
                self.events.append(event("conquest", empire=empire, place=pid, previous=owner, rule="E8.5"))
        return position


def _name(board: Board, place: str) -> str:
    if place in board.provinces:
        return board.provinces[place].name
    return board.seas[place].name if place in board.seas else place


def _leave(province: ProvinceState, empire: str, count: int) -> ProvinceState:
    """Legions leave (E8.7: what they stood on is released); a conqueror who takes all his
    legions out is conqueror no more."""
    left = province.without_legions(empire, count)
    return replace(left, conqueror=None) if left.conqueror == empire and not left.legions.get(empire) else left


# ---- conversions and conquests ---------------------------------------------------------------


def _conversions(board: Board, position: Position, empire: str, events: list[Event]) -> Position:
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
            events.append(event("converted", empire=empire, place=pid, previous=p.influence, rule="E8.8"))
    return replace(position, provinces=provinces)


def _converted(province: ProvinceState, empire: str) -> ProvinceState:
    return replace(province, influence=empire, converting=None, converting_since=0, conqueror=None)


def _conquest(
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
                empire=empire,
                line=choice.line,
                reason=t("E8.6: no %(building)s to sack", building=BUILDING_WORDS.get(building, building)),
            )
        )
    if choice is not None and choice.action == "convert":
        if position.effects(board, empire, "auto_convert") and borders_empire(board, position, empire, pid):
            events.append(event("converted", empire=empire, place=pid, previous=province.influence, rule="E11.1"))
            return replace(position, provinces={**position.provinces, pid: _converted(province, empire)})
        changed = replace(province, converting=empire, converting_since=position.round)
        events.append(event("converting", empire=empire, place=pid, rule="E8.8"))
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
    events.append(event("occupy", empire=empire, place=pid, buildings=taken, rule="E8.7"))
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
            empire=empire,
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
