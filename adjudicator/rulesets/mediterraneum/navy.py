"""Ships at war (M9, T:90-96): armies going aboard and ashore, horses, cavalry's two ships
sailing together, and warships capturing merchant ships."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from enum import Enum
from fractions import Fraction
from functools import partial

from adjudicator.core.dice import Dice
from adjudicator.core.i18n import t
from adjudicator.rulesets.kit.odds import Odds, dice_sum, mapped
from adjudicator.rulesets.mediterraneum import trading
from adjudicator.rulesets.mediterraneum.board import COAST, Against
from adjudicator.rulesets.mediterraneum.chance import blue
from adjudicator.rulesets.mediterraneum.geography import ship_neighbours, space_id, space_name
from adjudicator.rulesets.mediterraneum.model import Position, Ship, city_of_space, storm_sea
from adjudicator.rulesets.mediterraneum.orders import Capture, Embark, Land, Mount, Sail
from adjudicator.rulesets.mediterraneum.prices import HORSES, horse_aboard
from adjudicator.rulesets.mediterraneum.trading import sink
from adjudicator.rulesets.mediterraneum.turn_state import Turn
from adjudicator.rulesets.mediterraneum.war import (
    army_of,
    duel,
    duel_margins,
    foreign,
    moves_used,
    set_army,
    tactic_bonus,
    use_move,
)


def embark(turn: Turn, order: Embark) -> None:
    """T:90, T:96, MD26: aboard his ship at a harbour or coast of the army's land (cavalry takes a
    second, empty ship there for its horse); going aboard is the army's move."""
    text = turn.shown(order)
    army = army_of(turn, order.army, text)
    ship = turn.position.ship(turn.colour, order.ship)
    if army is None:
        return
    if ship is None:
        turn.refuse(text, t("he has no ship %(ship)s on the board", ship=order.ship), "M4.3")
        return
    city = city_of_space(ship.at)
    if army.at not in turn.board.lands or city is None or turn.board.cities[city].land != army.at:
        turn.refuse(
            text,
            t(
                "ship %(ship)s is not at a harbour or coast of army %(army)s's land",
                ship=ship.number,
                army=army.number,
            ),
            "M9.1",
        )
        return
    if moves_used(turn, army) or _aboard(turn, ship):
        turn.refuse(
            text,
            t("army %(army)s has moved, or ship %(ship)s carries an army", army=army.number, ship=ship.number),
            "M9.1",
        )
        return
    horse = 0
    if army.cavalry:
        spare = [s for s in turn.position.ships_at(ship.at) if s.owner == turn.colour and s != ship]
        spare = [s for s in spare if not s.cargo and not _aboard(turn, s)]
        if not spare:
            turn.refuse(text, t("cavalry needs a second empty ship of his there for its horse (T:96)"), "M9.6")
            return
        horse = spare[0].number
    use_move(turn, army)
    set_army(turn, army, replace(army, at=f"ship:{ship.number}", horse_ship=horse))
    turn.note("embarked", army=army.number, ship=ship.number, horse_ship=horse, rule="M9.1")


def _aboard(turn: Turn, ship: Ship) -> bool:
    """The ship carries an army, or a cavalry army's horse (MD26)."""
    return any(
        a.owner == ship.owner and (a.at == f"ship:{ship.number}" or a.horse_ship == ship.number)
        for a in turn.position.armies
    )


def _warship(turn: Turn, ship: Ship) -> bool:
    return is_warship(turn.position, ship)


def is_warship(position: Position, ship: Ship) -> bool:
    """An army aboard makes a warship (T:90); a ship with only a horse is none."""
    return any(a.owner == ship.owner and a.at == f"ship:{ship.number}" for a in position.armies)


class CaptureOutcome(Enum):
    CAPTURED = "captured"
    PREY_SUNK = "prey sunk"
    MISSED = "missed"
    REPELLED = "repelled"  # a guarding warship held him off
    SHIP_SUNK = "ship sunk"  # a guarding warship sank him


def capture_total(roll: int, bonus: int) -> int:
    """T:93: the blue die and a tactic card's bonus; a 1 is a 1 whatever the card."""
    return roll + bonus if roll > 1 else 1


def capture_result(total: int) -> CaptureOutcome:
    """T:93: 4 or more captures the merchant ship, 2 or 3 sinks it, a 1 misses."""
    return CaptureOutcome.CAPTURED if total >= 4 else CaptureOutcome.PREY_SUNK if total >= 2 else CaptureOutcome.MISSED


def sea_fight_result(margin: int) -> CaptureOutcome | None:
    """M9.5, a sea fight against a guarding warship: by 2 or more he sinks it and goes on (None);
    by 2 or more the other way his own ship sinks; anything less holds him off."""
    return None if margin >= 2 else CaptureOutcome.SHIP_SUNK if margin <= -2 else CaptureOutcome.REPELLED


def capture_odds(guards: int, bonus: int = 0) -> Odds[CaptureOutcome]:
    """A capture's outcome, exactly: a sea fight against each guarding warship in turn, then the
    capture's roll."""
    fight = mapped(duel_margins(bonus, 0), sea_fight_result)
    odds: dict[CaptureOutcome, Fraction] = defaultdict(Fraction)
    reach = Fraction(1)  # the chance that he comes past the guards fought so far
    for _ in range(guards):
        for result, chance in fight.items():
            if result is not None:
                odds[result] += reach * chance
        reach *= fight.get(None, Fraction(0))
    for outcome, chance in mapped(dice_sum(1), partial(_capture_of, bonus)).items():
        odds[outcome] += reach * chance
    return dict(odds)


def _capture_of(bonus: int, roll: int) -> CaptureOutcome:
    return capture_result(capture_total(roll, bonus))


def land(turn: Turn, order: Land) -> None:
    """T:91, MD26: ashore into the land of the city whose harbour or coast the ship is at; the
    horse comes off its ship with it."""
    text = turn.shown(order)
    army = army_of(turn, order.army, text)
    if army is None:
        return
    ship = turn.position.ship(turn.colour, int(army.at.removeprefix("ship:"))) if army.at.startswith("ship:") else None
    city = city_of_space(ship.at) if ship else None
    if city is None:
        turn.refuse(text, t("army %(army)s is not aboard a ship at a harbour or coast", army=army.number), "M9.2")
        return
    target = turn.board.cities[city].land
    if moves_used(turn, army):
        turn.refuse(text, t("army %(army)s has moved this turn", army=army.number), "M9.2")
        return
    if foreign(turn, target):
        turn.refuse(text, t("another player's army holds %(land)s (MD42)", land=turn.board.lands[target].name), "M9.2")
        return
    if len(turn.position.armies_at(target)) >= turn.board.limits["armies_per_land"]:
        turn.refuse(text, t("%(land)s holds its 3 armies (T:19)", land=turn.board.lands[target].name), "M1.3")
        return
    use_move(turn, army)
    set_army(turn, army, replace(army, at=target, since=turn.position.count, horse_ship=0, crossed=False))
    turn.note("landed", army=army.number, land=turn.board.lands[target].name, rule="M9.2")


def mount(turn: Turn, order: Mount) -> None:
    """T:96, MD26: a horse from his ship at the land's city, or bought (I) in a land of his city
    that breeds them; mounting is not a move."""
    text = turn.shown(order)
    army = army_of(turn, order.army, text)
    if army is None:
        return
    city = turn.board.city_of(army.at) if army.at in turn.board.lands else None
    if army.cavalry or city is None:
        turn.refuse(text, t("army %(army)s is cavalry already or stands in no city's land", army=army.number), "M9.6")
        return
    ship = horse_aboard(turn.board, turn.position, army)
    if ship is not None:
        ships_left = [replace(s, cargo="") if s == ship else s for s in turn.position.ships]
        turn.position = replace(turn.position, ships=tuple(ships_left))
    elif turn.position.cities[city].owner != turn.colour or HORSES not in turn.board.produces(city):
        turn.refuse(text, t("no horse: bring one by ship, or be in a land of his own city that breeds them"), "M9.6")
        return
    elif not turn.pay(order, "M9.6"):
        return
    set_army(turn, army, replace(army, cavalry=True))
    turn.note("mounted", army=army.number, ship=ship.number if ship else 0, rule="M9.6")


def sail(turn: Turn, order: Sail, dice: Dice) -> None:
    """M4.3 with T:96 and MD26: cavalry's ship and its horse's ship sail as one, a space a turn
    and only where both fit; any other ship sails on its own."""
    ship = turn.position.ship(turn.colour, order.ship)
    partner = _partner(turn, ship) if ship is not None else None
    if ship is None or partner is None:
        trading.sail(turn, order, dice)
        return
    text, board = turn.shown(order), turn.board
    step = space_id(board, order.path[0])
    limit = _ship_limit(turn, step)
    if len(order.path) > 1 or turn.moves.get(f"ship:{partner.number}", 0):
        turn.refuse(
            text,
            t(
                "ship %(ship)s sails with ship %(partner)s, cavalry and its horse, one space a turn",
                ship=ship.number,
                partner=partner.number,
            ),
            "M9.6",
        )
        return
    coming = turn.new_ships.count(city_of_space(step) or "") if step.startswith(COAST) else 0
    if (
        step in ship_neighbours(board, ship.at)
        and limit is not None
        and len(turn.position.ships_at(step)) + coming + 2 > limit
    ):
        turn.refuse(
            text,
            t("%(space)s has no room for both of cavalry's ships (T:19, T:96)", space=space_name(board, step)),
            "M9.6",
        )
        return
    trading.sail(turn, order, dice)
    if not turn.moves.get(f"ship:{ship.number}", 0):
        return
    follower = replace(partner, at=step)
    turn.position = replace(turn.position, ships=tuple(follower if s == partner else s for s in turn.position.ships))
    turn.moves[f"ship:{partner.number}"] = turn.moves[f"ship:{ship.number}"]
    turn.note("sailed", ship=partner.number, to=space_name(board, step), rule="M9.6")
    if storm_sea(board, turn.position) == step:
        trading.storm_roll(turn, follower, dice)


def _partner(turn: Turn, ship: Ship) -> Ship | None:
    """The other ship of a cavalry army at sea: its horse's ship, or the ship the army is on."""
    for army in turn.position.armies_of(ship.owner):
        if army.horse_ship and army.at == f"ship:{ship.number}":
            return turn.position.ship(ship.owner, army.horse_ship)
        if army.horse_ship == ship.number and army.at.startswith("ship:"):
            return turn.position.ship(ship.owner, int(army.at.removeprefix("ship:")))
    return None


def _ship_limit(turn: Turn, where: str) -> int | None:
    """How many ships the space holds (T:19): a sea 3, a coast 2, a harbour any."""
    if city_of_space(where) is None:
        return turn.board.limits["ships_per_sea"]
    return turn.board.limits["ships_per_coast"] if where.startswith(COAST) else None


def capture(turn: Turn, order: Capture, dice: Dice) -> None:
    """T:86, T:92-95: a warship against another player's merchant ship in its sea (or the next sea
    when that one holds three ships); each warship of the victim's there fights first (MD28); a
    naval tactic adds 1 to every roll of the attack (MD30). 4-6 captured, 2-3 sunk, 1 missed."""
    text = turn.shown(order)
    ship = turn.position.ship(turn.colour, order.ship)
    prey = turn.position.ship(order.owner, order.target) if order.owner in turn.position.players else None
    if ship is None or prey is None:
        turn.refuse(text, t("there is no such ship"), "M9.4")
        return
    if not _warship(turn, ship) or city_of_space(ship.at) is not None:
        turn.refuse(
            text, t("ship %(ship)s is no warship at sea (an army aboard makes one, T:90)", ship=ship.number), "M9.4"
        )
        return
    if _warship(turn, prey):
        turn.refuse(
            text,
            t(
                "%(owner)s's ship %(ship)s is a warship; only merchant ships are captured",
                owner=prey.owner,
                ship=prey.number,
            ),
            "M9.4",
        )
        return
    near = prey.at == ship.at or (
        prey.at in ship_neighbours(turn.board, ship.at) and len(turn.position.ships_at(prey.at)) >= 3
    )
    if city_of_space(prey.at) is not None or not near or f"capture:{ship.number}" in turn.moves:
        turn.refuse(
            text,
            t("%(owner)s's ship %(ship)s is not within reach (T:92, T:94)", owner=order.owner, ship=prey.number),
            "M9.4",
        )
        return
    bonus, ok = tactic_bonus(turn, order.tactic, Against.SHIP, text)
    if not ok:
        return
    turn.moves[f"capture:{ship.number}"] = 1
    for guard in [s for s in turn.position.ships_at(prey.at) if s.owner == prey.owner and _warship(turn, s)]:
        margin = duel(
            dice, bonus, 0, t("M9.5 sea fight, %(player)s ship %(ship)s", player=turn.colour, ship=ship.number)
        )
        turn.note("sea_fight", against=prey.owner, ship=guard.number, margin=margin, rule="M9.5")
        result = sea_fight_result(margin)
        if result is not CaptureOutcome.REPELLED:
            loser = ship if result is CaptureOutcome.SHIP_SUNK else guard
            sink(turn, loser)
            turn.note("ship_sunk", owner=loser.owner, ship=loser.number, rule="M9.5")
        if result is not None:
            return
    roll = blue(dice, t("M9.4 capture, %(player)s ship %(ship)s", player=turn.colour, ship=ship.number))
    total = capture_total(roll, bonus)
    outcome = capture_result(total)
    if outcome is CaptureOutcome.CAPTURED:
        cargo = prey.cargo
        taken = replace(ship, cargo=cargo) if cargo and not ship.cargo else ship
        turn.position = replace(turn.position, ships=tuple(taken if s == ship else s for s in turn.position.ships))
        if order.sink:
            sink(turn, prey)
        else:
            released = replace(prey, cargo="" if taken.cargo == cargo and cargo else prey.cargo)
            turn.position = replace(
                turn.position, ships=tuple(released if s == prey else s for s in turn.position.ships)
            )
        turn.note(
            "captured", owner=prey.owner, ship=prey.number, cargo=cargo, taken=taken.cargo == cargo and bool(cargo),
            sunk=order.sink, roll=roll, total=total, rule="M9.4",
        )  # fmt: skip
    elif outcome is CaptureOutcome.PREY_SUNK:
        sink(turn, prey)
        turn.note("ship_sunk", owner=prey.owner, ship=prey.number, roll=roll, total=total, rule="M9.4")
    else:
        turn.note("capture_missed", owner=prey.owner, ship=prey.number, roll=roll, rule="M9.4")
