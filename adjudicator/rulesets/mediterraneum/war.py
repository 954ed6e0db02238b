"""Armies at war on land (M8, M10, T:75-108): marching with river and mountain rolls, attacks on
cities, taking a capital, and field battles with their retreats. Ships at war are in navy.py."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from fractions import Fraction
from functools import partial

from adjudicator.core.dice import Dice
from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.kit.odds import Odds, both, dice_sum, mapped
from adjudicator.rulesets.mediterraneum.board import Against, Board
from adjudicator.rulesets.mediterraneum.cards import discard
from adjudicator.rulesets.mediterraneum.chance import blue, pick
from adjudicator.rulesets.mediterraneum.geography import land_of_army, marches_to
from adjudicator.rulesets.mediterraneum.model import Army, CityState, Position, Status, defence, lift_wants
from adjudicator.rulesets.mediterraneum.orders import Attack, March
from adjudicator.rulesets.mediterraneum.turn_state import Turn

NEED = {"unowned": 4, "province": 5, "capital": 6}  # T:78-80
MOST_MOVES = 2  # cavalry's two land spaces (T:96)


def army_of(turn: Turn, number: int, text: str) -> Army | None:
    army = turn.position.army(turn.colour, number)
    if army is None:
        turn.refuse(text, t("he has no army %(army)s on the board", army=number), "M8.1")
    return army


def set_army(turn: Turn, old: Army, new: Army | None) -> None:
    armies = [new if a == old else a for a in turn.position.armies]
    turn.position = replace(turn.position, armies=tuple(a for a in armies if a is not None))


def moves_used(turn: Turn, army: Army) -> int:
    return turn.moves.get(f"army:{army.number}", 0)


def use_move(turn: Turn, army: Army) -> None:
    key = f"army:{army.number}"
    turn.moves[key] = turn.moves.get(key, 0) + 1


def _end_move(turn: Turn, army: Army) -> None:
    """Its move is over for the turn: a failed river or mountain roll (T:87), or a fight."""
    turn.moves[f"army:{army.number}"] = MOST_MOVES


def _fought(turn: Turn, army: Army) -> bool:
    return f"fought:{army.number}" in turn.moves


def _fight(turn: Turn, army: Army) -> None:
    """M10.1: each army fights once a turn, and the fight ends its move."""
    turn.moves[f"fought:{army.number}"] = 1
    _end_move(turn, army)


def foreign(turn: Turn, land: str) -> bool:
    return any(a.owner != turn.colour for a in turn.position.armies_at(land))


def march(turn: Turn, order: March, dice: Dice) -> None:
    """T:77, T:87, T:96: a land space a turn (cavalry two); a river crossed on a 3+, a mountain
    entered on a 4+ and left without a roll; a failed roll ends the move; no entering a land
    another player's army holds (MD42)."""
    text = turn.shown(order)
    army = army_of(turn, order.army, text)
    if army is None:
        return
    allowed = MOST_MOVES if army.cavalry else 1
    for land in order.path:
        start = land_of_army(turn.board, army.at)
        if start is None:
            turn.refuse(
                text,
                t("army %(army)s is aboard a ship; it goes ashore with 'army %(army)s land'", army=army.number),
                "M9.2",
            )
            return
        if moves_used(turn, army) >= allowed or (
            turn.board.lands[start].mountain and army.since == turn.position.count
        ):
            turn.refuse(text, t("army %(army)s has no move left this turn", army=army.number), "M8.3")
            return
        if not marches_to(turn.board, army.at, land):
            turn.refuse(
                text,
                t(
                    "%(to)s does not adjoin %(where)s",
                    to=turn.board.lands[land].name,
                    where=turn.board.lands[start].name,
                ),
                "M8.3",
            )
            return
        if foreign(turn, land):
            turn.refuse(
                text,
                t(
                    "another player's army holds %(land)s; attack it from next door (MD42)",
                    land=turn.board.lands[land].name,
                ),
                "M8.3",
            )
            return
        if len(turn.position.armies_at(land)) >= turn.board.limits["armies_per_land"]:
            turn.refuse(text, t("%(land)s holds its 3 armies (T:19)", land=turn.board.lands[land].name), "M8.3")
            return
        use_move(turn, army)
        river = land in turn.board.lands[start].rivers
        for need, what, rule in ((3, "river", river), (4, "mountain", turn.board.lands[land].mountain)):
            if rule:
                crossing = (
                    t("M8.3 river, %(player)s army %(army)s", player=turn.colour, army=army.number)
                    if what == "river"
                    else t("M8.3 mountain, %(player)s army %(army)s", player=turn.colour, army=army.number)
                )
                roll = blue(dice, crossing)
                turn.note("crossing", army=army.number, what=what, roll=roll, passed=roll >= need, rule="M8.3")
                if roll < need:
                    _end_move(turn, army)
                    return
        crossed = river or (army.crossed and army.since == turn.position.count)
        moved = replace(army, at=land, since=turn.position.count, crossed=crossed)
        turn.came_from[army.number] = start
        set_army(turn, army, moved)
        turn.note("marched", army=army.number, to=turn.board.lands[land].name, rule="M8.3")
        army = moved


def tactic_bonus(turn: Turn, name: str, against: Against, text: str) -> tuple[int, bool]:
    """The bonus of a tactic card he names and holds (T:86), spent whatever the outcome (T:104)."""
    if not name:
        return 0, True
    match = turn.board.tactic_names.find(name)
    held = turn.position.players[turn.colour].tactics
    card = next((c for c in match.keys if c in held), None)
    shown = (
        f"{turn.board.trade_cards[match.keys[0]].name} ({turn.board.trade_cards[match.keys[0]].tactic})"
        if match.keys
        else name
    )
    if card is None:
        turn.refuse(text, t("he holds no %(card)s card", card=shown), "M11.16")
        return 0, False
    if turn.board.trade_cards[card].against is not against:
        turn.refuse(text, _wrong_target(shown, turn.board.trade_cards[card].against, against), "M11.16")
        return 0, False
    left = list(held)
    left.remove(card)
    turn.position = discard(turn.position.with_player(turn.colour, tactics=tuple(left)), card)
    return 1, True


def _wrong_target(card: str, wanted: Against | None, against: Against) -> Msg:
    """A tactic card played in the wrong fight (M11.16), one whole sentence for each pair."""
    if against is Against.CITY:
        if wanted is Against.SHIP:
            return t("%(card)s is played against ships, not against a city", card=card)
        return t("%(card)s is played against armies, not against a city", card=card)
    if against is Against.SHIP:
        if wanted is Against.CITY:
            return t("%(card)s is played against cities, not against a ship", card=card)
        return t("%(card)s is played against armies, not against a ship", card=card)
    if wanted is Against.CITY:
        return t("%(card)s is played against cities, not against an army", card=card)
    return t("%(card)s is played against ships, not against an army", card=card)


def attack(turn: Turn, order: Attack, dice: Dice) -> None:
    text = turn.shown(order)
    armies = [army_of(turn, n, text) for n in order.armies]
    if any(a is None for a in armies) or len(set(order.armies)) != len(order.armies):
        return
    chosen = [a for a in armies if a is not None]
    fought = [a.number for a in chosen if _fought(turn, a)]
    if fought:
        turn.refuse(
            text, t("army %(army)s has fought this turn; each army fights once a turn", army=fought[0]), "M10.1"
        )
    elif order.target in turn.board.cities:
        _attack_city(turn, chosen, order, text, dice)
    else:
        _field_battle(turn, chosen, order, text, dice)


def _attack_city(turn: Turn, armies: list[Army], order: Attack, text: str, dice: Dice) -> None:
    """T:77-82, T:86, T:89, T:104: from the city's land, where the armies stood since an earlier
    turn; a 1 loses the first army named; a 6 always takes it (MD22)."""
    city, board = order.target, turn.board
    state, name = turn.position.cities[city], board.cities[city].name
    land = board.cities[city].land
    if state.owner == turn.colour:
        turn.refuse(text, t("%(city)s is his own", city=name), "M8.4")
        return
    aboard = [a.number for a in armies if a.at.startswith("ship:")]
    if aboard:
        turn.refuse(
            text,
            t(
                "army %(army)s is aboard a ship: cities are taken by land; it lands first and attacks from the "
                "land in a later turn (T:91)",
                army=aboard[0],
            ),
            "M8.4",
        )
        return
    if any(a.at != land or a.since >= turn.position.count or moves_used(turn, a) for a in armies):
        turn.refuse(
            text,
            t("the armies must have stood in %(land)s since an earlier turn (T:77)", land=board.lands[land].name),
            "M8.4",
        )
        return
    bonus, ok = tactic_bonus(turn, order.tactic, Against.CITY, text)
    if not ok:
        return
    need = city_need(board, state, bonus + (len(armies) > 1))
    roll = blue(dice, t("M8.4 attack on %(city)s, %(player)s", city=name, player=turn.colour))
    for army in armies:
        _fight(turn, army)
    outcome = city_outcome(roll, need)
    taken = outcome is CityOutcome.TAKEN
    turn.note("city_attack", city=name, armies=list(order.armies), need=need, roll=roll, taken=taken, rule="M8.4")
    if outcome is CityOutcome.ARMY_LOST:
        set_army(turn, armies[0], None)
        turn.note("army_lost", army=armies[0].number, rule="M8.4")
    elif taken:
        loser = state.owner
        for inside in turn.position.armies_at(city):  # the holder's plundering army falls with his city (MD23)
            set_army(turn, inside, None)
            turn.note("army_destroyed", owner=inside.owner, army=inside.number, rule="MD23")
        turn.position = turn.position.with_city(city, owner=turn.colour, status=Status.TAKEN, want=state.want)
        if state.status is Status.CAPITAL and loser is not None:
            _take_capital(turn, loser, city)
        else:
            set_army(turn, armies[0], replace(armies[0], at=city, since=turn.position.count))
            turn.note("city_taken", city=name, army=armies[0].number, former=loser or "", rule="M8.5")


def _take_capital(turn: Turn, loser: str, city: str) -> None:
    """T:104-107, MD24: his money and art come at once; the warehouses and buildings stay in the
    city, now the conqueror's; the army stays outside (T:103)."""
    beaten = turn.position.players[loser]
    turn.position = turn.position.paid(turn.colour, -beaten.money)
    mine = turn.position.players[turn.colour]
    turn.position = turn.position.with_player(turn.colour, art=mine.art + beaten.art)
    turn.position = lift_wants(turn.board, turn.position, loser, beaten.want_cards)  # to the discard pile
    turn.position = turn.position.with_player(loser, money=0, art=())
    turn.note("capital_taken", city=turn.board.cities[city].name, loser=loser, money=beaten.money, rule="M8.7")


def _field_battle(turn: Turn, armies: list[Army], order: Attack, text: str, dice: Dice) -> None:
    """T:88, T:97-102: the attackers, together in one land and perhaps just moved there, against
    the armies next door; both roll the blue die, ties again; by 2 or more one army of the loser
    goes; by 1 the loser retreats (MD29), and a defender's land left empty is entered."""
    board, target = turn.board, order.target
    start = armies[0].at
    if start not in board.lands or any(a.at != start for a in armies):
        turn.refuse(text, t("the attacking armies must stand together in one land"), "M10.1")
        return
    defenders = [a for a in turn.position.armies_at(target) if a.owner != turn.colour]
    if target not in board.lands[start].land or not defenders:
        turn.refuse(
            text,
            t("no other player's army stands there, in a land next to %(land)s", land=board.lands[start].name),
            "M10.1",
        )
        return
    bonus, ok = tactic_bonus(turn, order.tactic, Against.ARMY, text)
    if not ok:
        return
    attack_bonus, defend_bonus = field_bonuses(turn.board, turn.position, armies, defenders, target)
    attack_bonus += bonus
    margin = duel(dice, attack_bonus, defend_bonus, t("M10.1 battle for %(land)s", land=board.lands[target].name))
    for army in armies:
        _fight(turn, army)
    turn.note(
        "battle", land=board.lands[target].name, defender=defenders[0].owner, armies=list(order.armies),
        attack_bonus=attack_bonus, defend_bonus=defend_bonus, margin=margin, rule="M10.1",
    )  # fmt: skip
    outcome = field_outcome(margin)
    if outcome is FieldOutcome.DEFENDER_LOST:
        _destroy(
            turn, pick(defenders, dice, t("MD29 which of %(player)s's armies", player=defenders[0].owner)), "M10.2"
        )
    elif outcome is FieldOutcome.ATTACKER_LOST:
        _destroy(turn, armies[0], "M10.2")
    elif outcome is FieldOutcome.ATTACKER_RETREATS:
        _attacker_retreats(turn, armies, target, order.retreat)
    else:
        _defender_retreats(turn, defenders, start, order.retreat, dice)
        if not turn.position.armies_at(target):
            for army in armies:
                current = turn.position.army(turn.colour, army.number)
                if current is not None:
                    set_army(turn, current, replace(current, at=target, since=turn.position.count, crossed=False))
            turn.note("moved_in", armies=list(order.armies), land=board.lands[target].name, rule="M10.3")


class CityOutcome(Enum):
    TAKEN = "taken"
    HELD = "held"
    ARMY_LOST = "army lost"


class FieldOutcome(Enum):
    DEFENDER_LOST = "defender lost"
    DEFENDER_RETREATS = "defender retreats"
    ATTACKER_RETREATS = "attacker retreats"
    ATTACKER_LOST = "attacker lost"


def city_need(board: Board, state: CityState, bonus: int) -> int:
    """T:78-82: the blue die an attack on a city needs, its gate and tower added, a tactic card and
    a second army taken off, never below 2 or above 6."""
    kind = "unowned" if state.owner is None else "capital" if state.status is Status.CAPITAL else "province"
    return min(6, max(2, NEED[kind] - bonus + defence(board, state)))


def city_outcome(roll: int, need: int) -> CityOutcome:
    """T:81-82, MD22: a 1 loses the first army named; the need or more takes the city."""
    return CityOutcome.ARMY_LOST if roll == 1 else CityOutcome.TAKEN if roll >= need else CityOutcome.HELD


def field_bonuses(
    board: Board, position: Position, armies: Sequence[Army], defenders: Sequence[Army], target: str
) -> tuple[int, int]:
    """T:97-99, without a tactic card: a second army and cavalry for the attacker; a mountain, a
    river just crossed and cavalry for the defender."""
    attack = (len(armies) > 1) + any(a.cavalry for a in armies)
    crossed = any(a.crossed and a.since == position.count for a in armies)
    return attack, board.lands[target].mountain + crossed + any(a.cavalry for a in defenders)


def field_outcome(margin: int) -> FieldOutcome:
    """T:100-101: by 2 or more one army of the loser goes; by 1 the loser retreats."""
    if margin >= 2:
        return FieldOutcome.DEFENDER_LOST
    if margin <= -2:
        return FieldOutcome.ATTACKER_LOST
    return FieldOutcome.ATTACKER_RETREATS if margin == -1 else FieldOutcome.DEFENDER_RETREATS


def duel_margins(attack_bonus: int, defend_bonus: int) -> Odds[int]:
    """What `duel` returns, exactly: both roll the blue die with their bonuses, a tie rolled again."""
    margins = mapped(both(dice_sum(1, per_die=attack_bonus), dice_sum(1, per_die=defend_bonus)), _margin)
    decided = 1 - margins.get(0, Fraction(0))
    return {m: p / decided for m, p in margins.items() if m}


def field_odds(attack_bonus: int, defend_bonus: int) -> Odds[FieldOutcome]:
    """A field battle's outcome, exactly (T:97-101)."""
    return mapped(duel_margins(attack_bonus, defend_bonus), field_outcome)


def city_odds(need: int) -> Odds[CityOutcome]:
    """An attack on a city's outcome, exactly: one blue die."""
    return mapped(dice_sum(1), partial(_city_outcome_of, need))


def _margin(rolled: tuple[int, int]) -> int:
    return rolled[0] - rolled[1]


def _city_outcome_of(need: int, roll: int) -> CityOutcome:
    return city_outcome(roll, need)


def duel(dice: Dice, attack_bonus: int, defend_bonus: int, purpose: str) -> int:
    """The attacker's total less the defender's, bonuses added, ties rolled again (T:97)."""
    while True:
        mine = blue(dice, t("%(purpose)s, attacker", purpose=purpose)) + attack_bonus
        theirs = blue(dice, t("%(purpose)s, defender", purpose=purpose)) + defend_bonus
        if mine != theirs:
            return mine - theirs


def _destroy(turn: Turn, army: Army, rule: str, retreat: bool = False) -> None:
    set_army(turn, army, None)
    turn.note("army_destroyed", owner=army.owner, army=army.number, retreat=retreat, rule=rule)


def _move_back(turn: Turn, army: Army, land: str) -> None:
    """A retreat: no river or mountain roll (MD29)."""
    set_army(turn, army, replace(army, at=land, since=turn.position.count, crossed=False))
    turn.note("retreated", owner=army.owner, army=army.number, to=turn.board.lands[land].name, rule="M10.3")


def _attacker_retreats(turn: Turn, armies: list[Army], target: str, wanted: str) -> None:
    """T:99, MD29: each attacker to the named land, else the land it came from this turn, else
    the first open land next to it; never the defender's. One with nowhere to go is removed, one
    army at most (T:102); the others stay."""
    removed = False
    for army in armies:
        start = army.at
        open_lands = [
            x for x in turn.board.lands[start].land
            if x != target and not foreign(turn, x)
            and len(turn.position.armies_at(x)) < turn.board.limits["armies_per_land"]
        ]  # fmt: skip
        came = turn.came_from.get(army.number, "")
        choice = next((x for x in (wanted, came, *open_lands) if x and x in open_lands), "")
        if choice:
            _move_back(turn, army, choice)
        elif not removed:
            removed = True
            _destroy(turn, army, "M10.3", retreat=True)
        else:
            turn.note("held", owner=army.owner, army=army.number, rule="M10.4")


def _defender_retreats(turn: Turn, defenders: list[Army], start: str, wanted: str, dice: Dice) -> None:
    """T:100-102, MD29: the defenders go where the attacker names, else to the first land open to
    them; a retreat across a river, into a mountain or into a land with any army is not made:
    one army, picked by the blue die, is removed instead, and the others stay."""
    board, land = turn.board, defenders[0].at
    lands = [x for x in board.lands[land].land if x != start]

    def blocked(x: str) -> bool:
        return x in board.lands[land].rivers or board.lands[x].mountain or bool(turn.position.armies_at(x))

    choice = wanted if wanted in lands else next((x for x in lands if not blocked(x)), "")
    if choice and not blocked(choice):
        for army in defenders:
            _move_back(turn, army, choice)
        return
    lost = pick(defenders, dice, t("MD29 which of %(player)s's armies", player=defenders[0].owner))
    _destroy(turn, lost, "M10.3", retreat=True)
    for army in defenders:
        if army != lost:
            turn.note("held", owner=army.owner, army=army.number, rule="M10.4")
