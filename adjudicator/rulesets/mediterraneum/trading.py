"""The trading lines of a turn (M4): ships bought, goods loaded, ships sailed, cargo sold, dumped
or stored, standing offers, payments. Each line is carried out as the turn stands when it comes,
or refused with its reason in the report."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from adjudicator.core.dice import Dice
from adjudicator.core.events import event
from adjudicator.core.i18n import Msg, t, term
from adjudicator.rulesets.mediterraneum.board import COAST
from adjudicator.rulesets.mediterraneum.chance import black, blue
from adjudicator.rulesets.mediterraneum.geography import ship_neighbours, space_id, space_name
from adjudicator.rulesets.mediterraneum.model import (
    HARBOUR,
    Ship,
    Status,
    city_of_space,
    lift_wants,
    lowest_free,
    storm_outcome,
    storm_sea,
)
from adjudicator.rulesets.mediterraneum.orders import (
    ART,
    BuyShip,
    CancelBuy,
    Dump,
    Load,
    Pay,
    Sail,
    Sell,
    StandingBuy,
    Store,
    cargo_text,
    roman,
)
from adjudicator.rulesets.mediterraneum.turn_state import Turn

OWNED = (Status.PROVINCE, Status.CAPITAL)


def _cargo(turn: Turn, cargo: str) -> str:
    """A cargo as a refusal names it: a good by its name in the reader's language, art as orders write it."""
    good = turn.board.goods.get(cargo)
    return term("card", good.name) if good is not None else cargo_text(cargo)


def _ship(turn: Turn, number: int, text: str) -> Ship | None:
    ship = turn.position.ship(turn.colour, number)
    if ship is None:
        turn.refuse(text, t("he has no ship %(ship)s on the board", ship=number), "M4.3")
    return ship


def _set_ship(turn: Turn, old: Ship, new: Ship | None) -> None:
    """Replace (or with None, remove) one ship."""
    ships = [new if s == old else s for s in turn.position.ships]
    turn.position = replace(turn.position, ships=tuple(s for s in ships if s is not None))


def _own(turn: Turn, city: str) -> bool:
    state = turn.position.cities[city]
    return state.owner == turn.colour and state.status in OWNED


def buy_ship(turn: Turn, order: BuyShip) -> None:
    text, limits = turn.shown(order), turn.board.limits
    if not _own(turn, order.city):
        turn.refuse(text, t("%(city)s is not his province or capital", city=turn.board.cities[order.city].name), "M4.2")
        return
    if len(turn.position.ships_of(turn.colour)) + len(turn.new_ships) >= limits["ships_per_player"]:
        turn.refuse(text, t("he has all his %(count)s ships", count=limits["ships_per_player"]), "M1.3")
        return
    coast = f"{COAST}:{order.city}"
    if len(turn.position.ships_at(coast)) + turn.new_ships.count(order.city) >= limits["ships_per_coast"]:
        turn.refuse(text, t("the coast holds %(count)s ships at most (T:19)", count=limits["ships_per_coast"]), "M1.3")
        return
    if turn.pay(order, "M4.2"):
        turn.new_ships.append(order.city)


def place_new_ships(turn: Turn) -> None:
    """T:57: the ships bought this turn come onto their coasts, each with the lowest free number."""
    for city in turn.new_ships:
        number = lowest_free(s.number for s in turn.position.ships_of(turn.colour))
        ship = Ship(turn.colour, number, f"{COAST}:{city}")
        turn.position = replace(turn.position, ships=(*turn.position.ships, ship))
        turn.note(
            "ship_built", ship=number, at=space_name(turn.board, ship.at), price=turn.board.prices["ship"], rule="M4.2"
        )


def load(turn: Turn, order: Load) -> None:
    text = turn.shown(order)
    ship = _ship(turn, order.ship, text)
    if ship is None:
        return
    city = city_of_space(ship.at)
    if ship.cargo:
        turn.refuse(
            text,
            t(
                "ship %(ship)s already carries %(cargo)s; one cargo a ship (T:39)",
                ship=ship.number,
                cargo=_cargo(turn, ship.cargo),
            ),
            "M4.4",
        )
    elif city is None:
        turn.refuse(text, t("ship %(ship)s is at sea; it loads in a harbour or on a coast", ship=ship.number), "M4.4")
    elif turn.position.horse_ship(turn.colour, ship.number):
        turn.refuse(text, t("ship %(ship)s carries a horse for cavalry and nothing else", ship=ship.number), "MD26")
    elif order.cargo.startswith(ART):
        card = order.cargo.removeprefix(ART)
        if turn.position.capital(turn.colour) != city or card not in turn.position.players[turn.colour].art:
            turn.refuse(text, t("art is loaded at his capital, and only art he holds"), "M7.7")
            return
        art = tuple(a for a in turn.position.players[turn.colour].art if a != card)
        turn.position = turn.position.with_player(turn.colour, art=art)
        _set_ship(turn, ship, replace(ship, cargo=order.cargo))
        turn.note("loaded", ship=ship.number, cargo=order.cargo, rule="M7.7")
    elif not _own(turn, city) or order.cargo not in turn.board.produces(city):
        turn.refuse(
            text,
            t("%(good)s is bought only at his own city whose land produces it", good=_cargo(turn, order.cargo)),
            "M4.4",
        )
    elif turn.pay(order, "M4.4"):
        _set_ship(turn, ship, replace(ship, cargo=order.cargo))
        turn.note("loaded", ship=ship.number, cargo=order.cargo, price=turn.board.prices["good"], rule="M4.4")


def sail(turn: Turn, order: Sail, dice: Dice) -> None:
    text = turn.shown(order)
    ship = _ship(turn, order.ship, text)
    if ship is None:
        return
    key = f"ship:{ship.number}"
    empty = not ship.cargo and not any(a.at == key for a in turn.position.armies_of(turn.colour))
    allowed = 2 if empty and turn.options.fast_empty_ships else 1
    for step in (space_id(turn.board, text) for text in order.path):
        if turn.moves.get(key, 0) >= allowed:
            turn.refuse(text, t("ship %(ship)s has no move left this turn", ship=ship.number), "M4.3")
            return
        if step not in ship_neighbours(turn.board, ship.at):
            where, to = space_name(turn.board, ship.at), space_name(turn.board, step)
            turn.refuse(text, t("%(to)s does not adjoin %(where)s", to=to, where=where), "M4.3")
            return
        full = _full(turn, step)
        if full:
            turn.refuse(text, full, "M1.3")
            return
        turn.moves[key] = turn.moves.get(key, 0) + 1
        moved = replace(ship, at=step)
        _set_ship(turn, ship, moved)
        turn.note("sailed", ship=ship.number, to=space_name(turn.board, step), rule="M4.3")
        ship = moved
        if storm_sea(turn.board, turn.position) == step:
            survivor = storm_roll(turn, ship, dice)
            if survivor is None:
                return
            ship = survivor


def _full(turn: Turn, where: str) -> Msg | None:
    limits = turn.board.limits
    here = len(turn.position.ships_at(where))
    name = space_name(turn.board, where)
    if city_of_space(where) is None and here >= limits["ships_per_sea"]:
        return t("%(space)s already holds %(count)s ships (T:19)", space=name, count=limits["ships_per_sea"])
    coming = turn.new_ships.count(city_of_space(where) or "") if where.startswith(COAST) else 0
    if where.startswith(COAST) and here + coming >= limits["ships_per_coast"]:
        if coming:
            return t(
                "%(space)s already holds %(count)s ships, the ships bought this turn included (T:19)",
                space=name,
                count=limits["ships_per_coast"],
            )
        return t("%(space)s already holds %(count)s ships (T:19)", space=name, count=limits["ships_per_coast"])
    return None


def storm_roll(turn: Turn, ship: Ship, dice: Dice) -> Ship | None:
    """T:114: a ship that enters the storm's sea rolls as the ships there did."""
    roll = blue(dice, t("M11.3 storm, %(player)s ship %(ship)s", player=ship.owner, ship=ship.number))
    outcome = storm_outcome(roll)
    turn.events.append(
        event("storm_roll", player=ship.owner, ship=ship.number, roll=roll, outcome=outcome, rule="M11.3")
    )
    if outcome == "safe":
        return ship
    if outcome == "sunk":
        sink(turn, ship)
        return None
    kept = replace(ship, cargo="")
    _set_ship(turn, ship, kept)
    return kept


def sink(turn: Turn, ship: Ship) -> None:
    turn.position = turn.position.without_ship(ship)


def sell(turn: Turn, order: Sell, dice: Dice) -> None:
    text = turn.shown(order)
    ship = _ship(turn, order.ship, text)
    if ship is None:
        return
    city = city_of_space(ship.at)
    if not ship.cargo:
        turn.refuse(text, t("ship %(ship)s carries nothing", ship=ship.number), "M4.5")
    elif city is None or not ship.at.startswith(HARBOUR):
        turn.refuse(text, t("ship %(ship)s sells only in a city's harbour", ship=ship.number), "M4.5")
    elif turn.position.cities[city].owner == turn.colour:
        _deliver_own(turn, ship, city, text)
    elif turn.position.cities[city].owner is not None:
        _sell_to_player(turn, ship, city, order.floor, text)
    else:
        _sell_by_die(turn, ship, city, order.floor, text, dice)


def _deliver_own(turn: Turn, ship: Ship, city: str, text: str) -> None:
    """T:38: to his own city for nothing, lifting a want disk, or a want card at his capital (T:111)."""
    state, player = turn.position.cities[city], turn.position.players[turn.colour]
    if ship.cargo in state.want:
        turn.position = turn.position.with_city(city, want=_less(state.want, ship.cargo))
    elif turn.position.capital(turn.colour) == city and ship.cargo in player.want_cards:
        turn.position = lift_wants(turn.board, turn.position, turn.colour, [ship.cargo])
    else:
        name = turn.board.cities[city].name
        turn.refuse(text, t("%(city)s does not want %(cargo)s", city=name, cargo=_cargo(turn, ship.cargo)), "M4.6")
        return
    _set_ship(turn, ship, replace(ship, cargo=""))
    turn.note("delivered", ship=ship.number, cargo=ship.cargo, city=turn.board.cities[city].name, rule="M4.6")


def _less(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """One copy of `item` taken out."""
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def _sell_to_player(turn: Turn, ship: Ship, city: str, floor: int, text: str) -> None:
    """T:38, M4.6: the owner's standing offer for it at this city, at his posted price."""
    owner = turn.position.cities[city].owner
    assert owner is not None
    buyer = turn.position.players[owner]
    ceiling = buyer.buys.get(f"{ship.cargo}@{city}")
    name = turn.board.cities[city].name
    if ceiling is None:
        turn.refuse(
            text,
            t(
                "%(owner)s has no standing offer for %(cargo)s at %(city)s",
                owner=owner,
                cargo=_cargo(turn, ship.cargo),
                city=name,
            ),
            "M4.6",
        )
        return
    if ceiling < floor:
        turn.refuse(
            text,
            t(
                "%(owner)s offers %(price)s, below his floor of %(floor)s",
                owner=owner,
                price=roman(ceiling),
                floor=roman(floor),
            ),
            "M4.6",
        )
        return
    if buyer.money < ceiling:
        turn.refuse(text, t("%(owner)s cannot pay the %(price)s he offered", owner=owner, price=roman(ceiling)), "M4.6")
        return
    if not _receive(turn, owner, city, ship.cargo):
        turn.refuse(
            text,
            t("%(city)s has no want, warehouse room or use for %(cargo)s", city=name, cargo=_cargo(turn, ship.cargo)),
            "M4.6",
        )
        return
    buys = {k: v for k, v in buyer.buys.items() if k != f"{ship.cargo}@{city}"}
    turn.position = turn.position.paid(owner, ceiling).with_player(owner, buys=MappingProxyType(buys))
    turn.position = turn.position.paid(turn.colour, -ceiling)
    _set_ship(turn, ship, replace(ship, cargo=""))
    turn.note("sold", ship=ship.number, cargo=ship.cargo, city=name, buyer=owner, price=ceiling, rule="M4.6")


def _receive(turn: Turn, owner: str, city: str, cargo: str) -> bool:
    """Where a good bought by a city's owner goes (MD14): it lifts a want disk there, else a want
    card at his capital, else it goes into a warehouse of his capital with room; art joins his art."""
    position = turn.position
    if cargo.startswith(ART):
        if position.capital(owner) != city:
            return False
        turn.position = position.with_player(owner, art=(*position.players[owner].art, cargo.removeprefix(ART)))
        return True
    state, player = position.cities[city], position.players[owner]
    if cargo in state.want:
        turn.position = position.with_city(city, want=_less(state.want, cargo))
        return True
    if position.capital(owner) != city:
        return False
    if cargo in player.want_cards:
        turn.position = lift_wants(turn.board, position, owner, [cargo])
        return True
    room = _warehouse_room(turn, city, cargo)
    if room is None:
        return False
    houses = list(state.warehouses)
    houses[room] = (*houses[room], cargo)
    turn.position = position.with_city(city, warehouses=tuple(houses))
    return True


def _warehouse_room(turn: Turn, city: str, good: str) -> int | None:
    """The first warehouse of this capital with room for the good (T:66-67), if any."""
    if good in turn.board.produces(city):
        return None
    for index, house in enumerate(turn.position.cities[city].warehouses):
        if len(house) < turn.board.limits["warehouse_goods"]:
            return index
    return None


def _sell_by_die(turn: Turn, ship: Ship, city: str, floor: int, text: str, dice: Dice) -> None:
    """T:35-36, T:41: a city that wants the good pays what the black die shows; 0 no sale."""
    state, name = turn.position.cities[city], turn.board.cities[city].name
    if ship.cargo not in state.want:
        turn.refuse(text, t("%(city)s does not want %(cargo)s", city=name, cargo=_cargo(turn, ship.cargo)), "M4.5")
        return
    if ship.number in turn.rolled:
        turn.refuse(text, t("ship %(ship)s has rolled for a sale this turn already", ship=ship.number), "M4.5")
        return
    turn.rolled.add(ship.number)
    price = black(
        turn.board,
        dice,
        t("M4.5 sale price, %(player)s ship %(ship)s at %(city)s", player=turn.colour, ship=ship.number, city=name),
    )
    if price == 0 or price < floor:
        turn.note("not_sold", ship=ship.number, cargo=ship.cargo, city=name, roll=price, floor=floor, rule="M4.5")
        return
    turn.position = turn.position.with_city(city, want=_less(state.want, ship.cargo)).paid(turn.colour, -price)
    _set_ship(turn, ship, replace(ship, cargo=""))
    turn.note("sold", ship=ship.number, cargo=ship.cargo, city=name, roll=price, price=price, rule="M4.5")


def dump(turn: Turn, order: Dump) -> None:
    ship = _ship(turn, order.ship, turn.shown(order))
    if ship is None:
        return
    if not ship.cargo:
        turn.refuse(turn.shown(order), t("ship %(ship)s carries nothing", ship=ship.number), "M4.7")
        return
    _set_ship(turn, ship, replace(ship, cargo=""))
    turn.note("dumped", ship=ship.number, cargo=ship.cargo, at=space_name(turn.board, ship.at), rule="M4.7")


def store(turn: Turn, order: Store) -> None:
    text = turn.shown(order)
    ship = _ship(turn, order.ship, text)
    if ship is None:
        return
    capital = turn.position.capital(turn.colour)
    if capital is None or city_of_space(ship.at) != capital:
        turn.refuse(text, t("ship %(ship)s is not at his capital", ship=ship.number), "M7.8")
    elif not ship.cargo or ship.cargo.startswith(ART):
        turn.refuse(text, t("ship %(ship)s carries no good", ship=ship.number), "M7.8")
    elif ship.cargo in turn.board.produces(capital):
        turn.refuse(
            text,
            t("%(good)s is produced in his capital's land and may not be stored there (T:67)", good=ship.cargo),
            "M7.8",
        )
    else:
        room = _warehouse_room(turn, capital, ship.cargo)
        if room is None:
            turn.refuse(text, t("his capital has no warehouse with room; he builds one first"), "M7.8")
            return
        houses = list(turn.position.cities[capital].warehouses)
        houses[room] = (*houses[room], ship.cargo)
        turn.position = turn.position.with_city(capital, warehouses=tuple(houses))
        _set_ship(turn, ship, replace(ship, cargo=""))
        turn.note("stored", ship=ship.number, cargo=ship.cargo, rule="M7.8")


def standing_buy(turn: Turn, order: StandingBuy) -> None:
    text = turn.shown(order)
    if turn.position.cities[order.city].owner != turn.colour:
        turn.refuse(text, t("%(city)s is not his city", city=turn.board.cities[order.city].name), "M4.6")
        return
    buys = {**turn.position.players[turn.colour].buys, f"{order.cargo}@{order.city}": order.ceiling}
    turn.position = turn.position.with_player(turn.colour, buys=MappingProxyType(dict(sorted(buys.items()))))
    turn.note(
        "offer_posted", cargo=order.cargo, city=turn.board.cities[order.city].name, ceiling=order.ceiling, rule="M4.6"
    )


def cancel_buy(turn: Turn, order: CancelBuy) -> None:
    key = f"{order.cargo}@{order.city}"
    buys = turn.position.players[turn.colour].buys
    if key not in buys:
        turn.refuse(turn.shown(order), t("he has no such standing offer"), "M4.6")
        return
    kept = {k: v for k, v in buys.items() if k != key}
    turn.position = turn.position.with_player(turn.colour, buys=MappingProxyType(kept))
    turn.note("offer_withdrawn", cargo=order.cargo, city=turn.board.cities[order.city].name, rule="M4.6")


def pay(turn: Turn, order: Pay) -> None:
    if turn.pay(order, "M3.6"):
        turn.position = turn.position.paid(order.colour, -order.amount)
        turn.note("paid", to=order.colour, amount=order.amount, rule="M3.6")
