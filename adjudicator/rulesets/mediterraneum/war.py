"""Armies and warships (M8-M10, T:75-108): marching with river and mountain rolls, going aboard
and ashore, cavalry, attacks on cities, field battles with retreats, and capturing ships."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.dice import Dice
from adjudicator.rulesets.mediterraneum.board import Against
from adjudicator.rulesets.mediterraneum.cards import discard
from adjudicator.rulesets.mediterraneum.chance import blue
from adjudicator.rulesets.mediterraneum.context import Turn
from adjudicator.rulesets.mediterraneum.geography import sea_of, ship_neighbours
from adjudicator.rulesets.mediterraneum.model import Army, Ship, Status, city_of_space, defence
from adjudicator.rulesets.mediterraneum.orders import Attack, Capture, Embark, Land, March, Mount
from adjudicator.rulesets.mediterraneum.trading import sink

NEED = {"unowned": 4, "province": 5, "capital": 6}  # T:78-80


def _army(turn: Turn, number: int, text: str) -> Army | None:
    army = turn.position.army(turn.colour, number)
    if army is None:
        turn.refuse(text, f"you have no army {number} on the board", "M8.1")
    return army


def _set_army(turn: Turn, old: Army, new: Army | None) -> None:
    armies = [new if a == old else a for a in turn.position.armies]
    turn.position = replace(turn.position, armies=tuple(a for a in armies if a is not None))


def _moved(turn: Turn, army: Army) -> int:
    return turn.moves.get(f"army:{army.number}", 0)


def _use_move(turn: Turn, army: Army) -> None:
    key = f"army:{army.number}"
    turn.moves[key] = turn.moves.get(key, 0) + 1


def _land_of(turn: Turn, army: Army) -> str | None:
    """The land an army stands in or by: its own, or the land of the city it is inside."""
    if army.at in turn.board.lands:
        return army.at
    if army.at in turn.board.cities:
        return turn.board.cities[army.at].land
    return None


def _foreign(turn: Turn, land: str) -> bool:
    return any(a.owner != turn.colour for a in turn.position.armies_at(land))


def march(turn: Turn, order: March, dice: Dice) -> None:
    """T:77, T:87, T:96: a land space a turn (cavalry two); a river crossed on a 3+, a mountain
    entered on a 4+ and left without a roll; no entering a land another player's army holds (MD)."""
    text = order.to_text()
    army = _army(turn, order.army, text)
    if army is None:
        return
    allowed = 2 if army.cavalry else 1
    for land in order.path:
        start = _land_of(turn, army)
        if start is None:
            turn.refuse(
                text, f"army {army.number} is aboard a ship; it goes ashore with 'army {army.number} land'", "M9.2"
            )
            return
        if _moved(turn, army) >= allowed or (turn.board.lands[start].mountain and army.since == turn.position.count):
            turn.refuse(text, f"army {army.number} has no move left this turn", "M8.3")
            return
        if land not in turn.board.lands[start].land and not (army.at in turn.board.cities and land == start):
            turn.refuse(text, f"{turn.board.lands[land].name} does not adjoin {turn.board.lands[start].name}", "M8.3")
            return
        if _foreign(turn, land) or len(turn.position.armies_at(land)) >= turn.board.limits["armies_per_land"]:
            turn.refuse(text, f"{turn.board.lands[land].name} is held or full (T:19)", "M8.3")
            return
        _use_move(turn, army)
        river = land in turn.board.lands[start].rivers
        for need, what, rule in ((3, "river", river), (4, "mountain", turn.board.lands[land].mountain)):
            if rule:
                roll = blue(dice, f"M8.3 {what}, {turn.colour} army {army.number}")
                turn.note("crossing", army=army.number, what=what, roll=roll, passed=roll >= need, rule="M8.3")
                if roll < need:
                    return
        moved = replace(army, at=land, since=turn.position.count, crossed=river)
        _set_army(turn, army, moved)
        turn.note("marched", army=army.number, to=turn.board.lands[land].name, rule="M8.3")
        army = moved


def embark(turn: Turn, order: Embark) -> None:
    """T:90, T:96: aboard his ship at a harbour or coast of the army's land (cavalry takes a
    second ship there for its horse); going aboard is the army's move."""
    text = order.to_text()
    army = _army(turn, order.army, text)
    ship = turn.position.ship(turn.colour, order.ship)
    if army is None:
        return
    if ship is None:
        turn.refuse(text, f"you have no ship {order.ship} on the board", "M4.2")
        return
    city = city_of_space(ship.at)
    if army.at not in turn.board.lands or city is None or turn.board.cities[city].land != army.at:
        turn.refuse(text, f"ship {ship.number} is not at a harbour or coast of army {army.number}'s land", "M9.1")
        return
    if _moved(turn, army) or _aboard(turn, ship):
        turn.refuse(text, f"army {army.number} has moved, or ship {ship.number} carries an army", "M9.1")
        return
    horse = 0
    if army.cavalry:
        spare = [s for s in turn.position.ships_at(ship.at) if s.owner == turn.colour and s != ship]
        spare = [s for s in spare if not s.cargo and not _aboard(turn, s)]
        if not spare:
            turn.refuse(text, "cavalry needs a second empty ship of yours there for its horse (T:96)", "M9.6")
            return
        horse = spare[0].number
    _use_move(turn, army)
    _set_army(turn, army, replace(army, at=f"ship:{ship.number}", horse_ship=horse))
    turn.note("embarked", army=army.number, ship=ship.number, rule="M9.1")


def _aboard(turn: Turn, ship: Ship) -> bool:
    return any(
        a.owner == ship.owner and (a.at == f"ship:{ship.number}" or a.horse_ship == ship.number)
        for a in turn.position.armies
    )


def land(turn: Turn, order: Land) -> None:
    """T:91: ashore into the land of the city whose harbour or coast the ship is at."""
    text = order.to_text()
    army = _army(turn, order.army, text)
    if army is None:
        return
    ship = turn.position.ship(turn.colour, int(army.at.removeprefix("ship:"))) if army.at.startswith("ship:") else None
    city = city_of_space(ship.at) if ship else None
    if city is None:
        turn.refuse(text, f"army {army.number} is not aboard a ship at a harbour or coast", "M9.2")
        return
    target = turn.board.cities[city].land
    if _moved(turn, army) or _foreign(turn, target):
        turn.refuse(text, f"army {army.number} has moved, or another player's army holds the land", "M9.2")
        return
    if len(turn.position.armies_at(target)) >= turn.board.limits["armies_per_land"]:
        turn.refuse(text, f"{turn.board.lands[target].name} holds its 3 armies (T:19)", "M1.3")
        return
    _use_move(turn, army)
    _set_army(turn, army, replace(army, at=target, since=turn.position.count, horse_ship=0))
    turn.note("landed", army=army.number, land=turn.board.lands[target].name, rule="M9.2")


def mount(turn: Turn, order: Mount) -> None:
    """T:96, MD: a horse from his ship at the land's city, or bought (I) in a land of his city
    that breeds them."""
    text = order.to_text()
    army = _army(turn, order.army, text)
    if army is None:
        return
    city = turn.board.city_of(army.at) if army.at in turn.board.lands else None
    if army.cavalry or city is None:
        turn.refuse(text, f"army {army.number} is cavalry already or stands in no city's land", "M9.6")
        return
    ships = [s for s in turn.position.ships_of(turn.colour) if city_of_space(s.at) == city and s.cargo == "horses"]
    if ships:
        ships_left = [replace(s, cargo="") if s == ships[0] else s for s in turn.position.ships]
        turn.position = replace(turn.position, ships=tuple(ships_left))
    elif turn.position.cities[city].owner != turn.colour or "horses" not in turn.board.produces(city):
        turn.refuse(text, "no horse: bring one by ship, or be in a land of your city that breeds them", "M9.6")
        return
    elif not turn.pay(turn.board.prices["good"], text, "M9.6"):
        return
    _set_army(turn, army, replace(army, cavalry=True))
    turn.note("mounted", army=army.number, rule="M9.6")


def _tactic(turn: Turn, name: str, against: Against, text: str) -> tuple[int, bool]:
    """The bonus of a tactic card he names and holds (T:86), spent whatever the outcome (T:104)."""
    if not name:
        return 0, True
    match = turn.board.tactic_names.find(name)
    held = turn.position.players[turn.colour].tactics
    card = next((c for c in match.keys if c in held), None)
    if card is None or turn.board.trade_cards[card].against is not against:
        turn.refuse(text, f"you hold no tactic card '{name}' for use against a {against}", "M11.16")
        return 0, False
    left = list(held)
    left.remove(card)
    turn.position = discard(turn.position.with_player(turn.colour, tactics=tuple(left)), card)
    return 1, True


def attack(turn: Turn, order: Attack, dice: Dice) -> None:
    text = order.to_text()
    armies = [_army(turn, n, text) for n in order.armies]
    if any(a is None for a in armies) or len(set(order.armies)) != len(order.armies):
        return
    chosen = [a for a in armies if a is not None]
    if order.target in turn.board.cities:
        _attack_city(turn, chosen, order, text, dice)
    else:
        _field_battle(turn, chosen, order, text, dice)


def _attack_city(turn: Turn, armies: list[Army], order: Attack, text: str, dice: Dice) -> None:
    """T:77-82, T:86, T:89, T:104: from the city's land, where the armies stood since an earlier
    turn; a 1 loses an army; a 6 always takes it (MD)."""
    city, board = order.target, turn.board
    state, name = turn.position.cities[city], board.cities[city].name
    land = board.cities[city].land
    if state.owner == turn.colour:
        turn.refuse(text, f"{name} is yours", "M8.4")
        return
    if any(a.at != land or a.since >= turn.position.count or _moved(turn, a) for a in armies):
        turn.refuse(
            text, f"the armies must have stood in {board.lands[land].name} since an earlier turn (T:77)", "M8.4"
        )
        return
    bonus, ok = _tactic(turn, order.tactic, Against.CITY, text)
    if not ok:
        return
    kind = "unowned" if state.owner is None else "capital" if state.status is Status.CAPITAL else "province"
    bonus += len(armies) > 1
    need = min(6, max(2, NEED[kind] - bonus + defence(board, state)))
    roll = blue(dice, f"M8.4 attack on {name}, {turn.colour}")
    for army in armies:
        _use_move(turn, army)
    taken = roll != 1 and roll >= need
    turn.note("city_attack", city=name, armies=list(order.armies), need=need, roll=roll, taken=taken, rule="M8.4")
    if roll == 1:
        _set_army(turn, armies[0], None)
        turn.note("army_lost", army=armies[0].number, rule="M8.4")
    elif taken:
        loser = state.owner
        turn.position = turn.position.with_city(city, owner=turn.colour, status=Status.TAKEN, want=state.want)
        if kind == "capital" and loser is not None:
            _take_capital(turn, loser, city)
        else:
            _set_army(turn, armies[0], replace(armies[0], at=city, since=turn.position.count))


def _take_capital(turn: Turn, loser: str, city: str) -> None:
    """T:104-107, MD: his money and art come at once; the warehouses and buildings stay in the
    city, now the conqueror's; the army stays outside (T:103)."""
    beaten = turn.position.players[loser]
    turn.position = turn.position.paid(turn.colour, -beaten.money)
    mine = turn.position.players[turn.colour]
    turn.position = turn.position.with_player(turn.colour, art=mine.art + beaten.art)
    turn.position = turn.position.with_player(loser, money=0, art=(), want_cards=())
    turn.note("capital_taken", city=turn.board.cities[city].name, loser=loser, money=beaten.money, rule="M8.7")


def _field_battle(turn: Turn, armies: list[Army], order: Attack, text: str, dice: Dice) -> None:
    """T:97-102: both roll the blue die, ties again; by 2 or more the loser's army goes; a beaten
    attacker by 1 falls back; a beaten defender by 1 retreats where the attacker says, and the
    attacker moves in; one army at most is removed a turn."""
    board, target = turn.board, order.target
    start = armies[0].at
    if any(a.at != start or _moved(turn, a) for a in armies) or start not in board.lands:
        turn.refuse(text, "the attacking armies stand together in one land and have not moved", "M10.1")
        return
    defenders = [a for a in turn.position.armies_at(target) if a.owner != turn.colour]
    if target not in board.lands[start].land or not defenders:
        turn.refuse(text, f"no other player's army stands in a land next to {board.lands[start].name} there", "M10.1")
        return
    bonus, ok = _tactic(turn, order.tactic, Against.ARMY, text)
    if not ok:
        return
    attack_bonus = bonus + (len(armies) > 1) + any(a.cavalry for a in armies)
    crossed = any(a.crossed and a.since == turn.position.count for a in armies)
    defend_bonus = board.lands[target].mountain + crossed + any(a.cavalry for a in defenders)
    margin = _duel(turn, dice, attack_bonus, defend_bonus, f"M10.1 battle for {board.lands[target].name}")
    for army in armies:
        _use_move(turn, army)
    defender = defenders[0]
    turn.note("battle", land=board.lands[target].name, defender=defender.owner, margin=margin, rule="M10.1")
    if margin >= 2:
        _set_army(turn, defender, None)
        turn.note("army_destroyed", owner=defender.owner, army=defender.number, rule="M10.2")
    elif margin <= -2:
        _set_army(turn, armies[0], None)
        turn.note("army_destroyed", owner=turn.colour, army=armies[0].number, rule="M10.2")
    elif margin == -1:
        _retreat(turn, armies[0], start, forbidden=target, wanted="")
    else:
        _retreat(turn, defender, target, forbidden=start, wanted=order.retreat)
        if not turn.position.armies_at(target):
            for army in armies:
                current = turn.position.army(turn.colour, army.number)
                if current is not None:
                    _set_army(turn, current, replace(current, at=target, since=turn.position.count))


def _duel(turn: Turn, dice: Dice, attack_bonus: int, defend_bonus: int, purpose: str) -> int:
    """The attacker's roll less the defender's, bonuses added, ties rolled again (T:97)."""
    while True:
        mine = blue(dice, f"{purpose}, attacker") + attack_bonus
        theirs = blue(dice, f"{purpose}, defender") + defend_bonus
        if mine != theirs:
            return mine - theirs


def _retreat(turn: Turn, army: Army, start: str, forbidden: str, wanted: str) -> None:
    """T:99-101: to an adjacent land that is not the enemy's; across a river, into a mountain or
    into an occupied land he is removed instead. `wanted` is the land the winner named."""
    board = turn.board
    options = [x for x in board.lands[start].land if x != forbidden]
    target = wanted if wanted in options else (options[0] if options else "")
    blocked = (
        not target
        or target in board.lands[start].rivers
        or board.lands[target].mountain
        or bool(turn.position.armies_at(target))
    )
    if blocked:
        _set_army(turn, army, None)
        turn.note("army_destroyed", owner=army.owner, army=army.number, retreat=True, rule="M10.3")
    else:
        _set_army(turn, army, replace(army, at=target, since=turn.position.count))
        turn.note("retreated", owner=army.owner, army=army.number, to=board.lands[target].name, rule="M10.3")


def capture(turn: Turn, order: Capture, dice: Dice) -> None:
    """T:92-95: a warship against another player's ship in its sea (or the next sea when that one
    holds three ships); a warship of the victim's there fights first (MD: it always defends its
    owner's ships). 4-6 captured, 2-3 sunk, 1 missed."""
    text = order.to_text()
    ship = turn.position.ship(turn.colour, order.ship)
    prey = turn.position.ship(order.owner, order.target) if order.owner in turn.position.players else None
    if ship is None or prey is None:
        turn.refuse(text, "there is no such ship", "M9.4")
        return
    if not _aboard(turn, ship) or city_of_space(ship.at) is not None:
        turn.refuse(text, f"ship {ship.number} is no warship at sea (an army aboard makes one, T:90)", "M9.4")
        return
    sea = sea_of(turn.board, prey.at)
    near = prey.at == ship.at or (
        prey.at in ship_neighbours(turn.board, ship.at) and len(turn.position.ships_at(prey.at)) >= 3
    )
    if city_of_space(prey.at) is not None or not near or f"capture:{ship.number}" in turn.moves:
        turn.refuse(text, f"{order.owner}'s ship {prey.number} is not within reach (T:92, T:94)", "M9.4")
        return
    turn.moves[f"capture:{ship.number}"] = 1
    guards = [s for s in turn.position.ships_at(sea) if s.owner == prey.owner and _aboard(turn, s)]
    if guards:
        margin = _duel(turn, dice, 0, 0, f"M9.5 sea fight, {turn.colour} ship {ship.number}")
        turn.note("sea_fight", against=prey.owner, margin=margin, rule="M9.5")
        loser = guards[0] if margin > 0 else ship
        if abs(margin) >= 2:
            sink(turn, loser)
            turn.note("ship_sunk", owner=loser.owner, ship=loser.number, rule="M9.5")
        if margin < 2:
            return
    roll = blue(dice, f"M9.4 capture, {turn.colour} ship {ship.number}")
    if roll >= 4:
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
        turn.note("captured", owner=prey.owner, ship=prey.number, cargo=cargo, sunk=order.sink, roll=roll, rule="M9.4")
    elif roll >= 2:
        sink(turn, prey)
        turn.note("ship_sunk", owner=prey.owner, ship=prey.number, roll=roll, rule="M9.4")
    else:
        turn.note("capture_missed", owner=prey.owner, ship=prey.number, roll=roll, rule="M9.4")
