"""The military phase (E7, E8): each player's turn in the Military Leader's order: conversions
due, trireme moves, naval battles, legion moves, land battles, conquests and what the conqueror
does (conquest.py). The four-capitals victory (E10.2, ED17) is checked after each step that can
change who controls a capital: the game ends there, in the middle of the phase or of the turn.

A line that cannot be carried out when its turn comes is skipped with the reason and the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.claims import capital_victory
from adjudicator.rulesets.empires.combat import Side, fight, land_losses, sea_losses
from adjudicator.rulesets.empires.conquest import choice_dropped, conquest, conquest_choices, conversions
from adjudicator.rulesets.empires.geography import chain_coasts, covered
from adjudicator.rulesets.empires.model import Position, ProvinceState
from adjudicator.rulesets.empires.orders import Move, NavalAttack, Order, Sail, Standing, TurnOrder
from adjudicator.rulesets.empires.trade import table_order_from

STANDING_KEYS = ("legendary", "take")  # kept until changed (ED16); title choices too, by prefix


def military_order(position: Position, orders: Mapping[str, Sequence[Order]]) -> list[str]:
    """E3.3, ED16: the Military Leader's sequence, the rest after him in table order."""
    leader = position.titles.get(Title.MILITARY)
    named = [o for o in orders.get(leader or "", ()) if isinstance(o, TurnOrder)]
    wanted = [e for e in (named[-1].empires if named else ()) if e in position.playing]
    return list(dict.fromkeys([*wanted, *table_order_from(leader, position.playing)]))


def resolve_military(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice
) -> tuple[Position, list[Event]]:
    """Every player's turn in the leader's order, until the game is won (ED17)."""
    events: list[Event] = []
    order = military_order(position, orders)
    events.append(event("military_order", order=order, rule="E7.1"))
    position = record_standing(replace(position, sequence=tuple(order)), orders)
    peace = peace_pairs(board, position, orders, events)
    for empire in order:
        position = military_turn(board, position, empire, orders.get(empire, ()), dice, events, peace)
        if position.winner:
            break
    return position, events


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
            events.append(event("peace", player=empire, other=named[-1], rule="E11.1"))
    return frozenset(pairs)


def sail_problem(board: Board, origin: str, destination: str) -> str:
    """E7.2: why triremes can never sail from `origin` to `destination` ("" when they may)."""
    if origin not in board.seas or destination not in board.seas:
        return t("E7.2: triremes sail from a sea to a sea")
    if destination not in board.seas[origin].seas:
        return t(
            "E7.2: %(destination)s does not border %(origin)s",
            destination=_name(board, destination),
            origin=_name(board, origin),
        )
    return ""


def military_turn(
    board: Board,
    position: Position,
    empire: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    peace: frozenset[frozenset[str]] = frozenset(),
) -> Position:
    """One player's military turn (E7.1): conversions due, triremes, naval battles, then legions,
    land battles and conquests. It stops the moment the game is won (E10.2, ED17)."""
    events.append(event("turn_of", player=empire, phase="military"))
    turn = MilitaryTurn(board, empire, events, peace)
    position = turn.won(conversions(board, position, empire, events))
    if position.winner:
        return position
    for order in orders:
        if isinstance(order, Sail):
            position = turn.sail(position, order)
    for order in orders:
        if isinstance(order, NavalAttack):
            position = turn.naval(position, order, dice)
    for order in orders:
        if isinstance(order, Move):
            position = turn.won(turn.move(position, order))
            if position.winner:
                return position
    position = turn.land_battles(position, dice)
    choices, dropped = conquest_choices(orders)
    for province in turn.conquered:
        if position.winner:
            return position
        for lost, kept in dropped:
            if lost.province == province:
                turn.skip(lost, choice_dropped(board, lost, kept))
        position = turn.won(conquest(board, position, empire, province, choices.get(province), dice, events))
    return position


class MilitaryTurn:
    """What one military turn has done so far: units moved, battles fought, provinces conquered."""

    def __init__(self, board: Board, empire: str, events: list[Event], peace: frozenset[frozenset[str]]) -> None:
        self.board, self.empire, self.events, self.peace = board, empire, events, peace
        self.sailed: Counter[str] = Counter()  # triremes arrived in each sea (they moved already)
        self.marched: Counter[str] = Counter()  # legions arrived in each province
        self.entered: list[str] = []
        self.naval_seas: set[str] = set()
        self.conquered: list[str] = []

    def skip(self, order: Order, reason: str) -> None:
        self.events.append(event("order_skipped", player=self.empire, line=order.line, reason=reason))

    def at_peace(self, other: str) -> bool:
        return frozenset((self.empire, other)) in self.peace

    def won(self, position: Position) -> Position:
        """The position, won if E10.2 now holds for someone (ED17: at once)."""
        return capital_victory(self.board, position, self.events)

    def sail(self, position: Position, order: Sail) -> Position:
        board, empire = self.board, self.empire
        problem = sail_problem(board, order.origin, order.destination)
        if problem:
            self.skip(order, problem)
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
            event("sail", player=empire, count=order.count, origin=order.origin, destination=order.destination)
        )
        return replace(position, seas=seas)

    def naval_problem(self, position: Position, order: NavalAttack) -> str:
        """E7.2, E11.1: why this naval battle cannot be fought now ("" when it can)."""
        board, sea = self.board, order.sea
        mine = position.seas[sea].triremes.get(self.empire, 0) if sea in position.seas else 0
        theirs = position.seas[sea].triremes.get(order.enemy, 0) if sea in position.seas else 0
        if not mine or not theirs:
            return t(
                "E7.2: a naval battle needs your triremes and %(enemy)s's in %(sea)s",
                enemy=order.enemy,
                sea=_name(board, sea),
            )
        if sea in self.naval_seas:
            return t("E7.2: one naval battle per sea in a turn (%(sea)s)", sea=_name(board, sea))
        if self.at_peace(order.enemy):
            return t("E11.1: peace is imposed between you and %(enemies)s this phase", enemies=order.enemy)
        return ""

    def naval(self, position: Position, order: NavalAttack, dice: Dice) -> Position:
        problem = self.naval_problem(position, order)
        if problem:
            self.skip(order, problem)
            return position
        board, empire, sea = self.board, self.empire, order.sea
        mine, theirs = position.seas[sea].triremes[empire], position.seas[sea].triremes[order.enemy]
        self.naval_seas.add(sea)
        hits_on_me, hits_on_them, battle = fight(
            board, position, Side(empire, mine), Side(order.enemy, theirs), sea, dice
        )
        state, _ = sea_losses(position.seas[sea], empire, hits_on_me)
        state, _ = sea_losses(state, order.enemy, hits_on_them)
        self.events.append(battle)
        return replace(position, seas={**position.seas, sea: state})

    def move_problem(self, position: Position, order: Move) -> str:
        """E7.3, ED20, E11.1: why these legions cannot make this move now ("" when they can)."""
        board, empire = self.board, self.empire
        if order.origin not in board.provinces or order.destination not in board.provinces:
            return t("E7.3: legions move from a province to a province")
        ready = position.provinces[order.origin].legions.get(empire, 0) - self.marched[order.origin]
        if order.count > ready:
            return t(
                "E7.3: only %(count)s of your legions in %(province)s can still move",
                count=max(ready, 0),
                province=_name(board, order.origin),
            )
        by_land = order.destination in board.provinces[order.origin].land
        if not by_land and order.destination not in chain_coasts(board, position, empire, order.origin):
            return t(
                "E7.3: %(destination)s is neither next to %(origin)s nor joined to it by a chain of your triremes",
                destination=_name(board, order.destination),
                origin=_name(board, order.origin),
            )
        if order.destination in covered(board, position):
            return t("E2.1: %(province)s is covered and out of play (ED20)", province=_name(board, order.destination))
        return self.peace_problem(position, order.destination)

    def peace_problem(self, position: Position, province: str) -> str:
        """E11.1: units of an empire he is at peace with stand where his legions would go."""
        enemies = position.provinces[province].units() - {self.empire}
        if any(self.at_peace(other) for other in enemies):
            return t(
                "E11.1: peace is imposed between you and %(enemies)s this phase", enemies=", ".join(sorted(enemies))
            )
        return ""

    def move(self, position: Position, order: Move) -> Position:
        empire = self.empire
        problem = self.move_problem(position, order)
        if problem:
            self.skip(order, problem)
            return position
        target = position.provinces[order.destination]
        by_land = order.destination in self.board.provinces[order.origin].land
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
                player=empire,
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
        entered is conquered without dice. They stop the moment the game is won (ED17)."""
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
                position = self.won(replace(position, provinces={**position.provinces, pid: current}))
                if position.winner:
                    return position
            after = position.provinces[pid]
            owner = after.influence
            alone = after.units() == {empire}
            if alone and owner not in (None, empire) and (fought or pid in self.entered):
                position = replace(position, provinces={**position.provinces, pid: replace(after, conqueror=empire)})
                self.conquered.append(pid)
                self.events.append(event("conquest", player=empire, place=pid, previous=owner, rule="E8.5"))
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
