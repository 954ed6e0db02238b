"""What a line costs and whether the purse covers it (M3.8, T:49): one answer for the order
form's note, the validator's rehearsal of the turn and the engine, which pays each price when
its line comes, from the money left then."""

from __future__ import annotations

from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.mediterraneum import orders as order_types
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import Army, Position, Ship, city_of_space
from adjudicator.rulesets.mediterraneum.orders import ART, WAREHOUSE, roman

HORSES = "horses"  # the good a horse for cavalry is (T:96)


def cost(board: Board, position: Position, colour: str, order: order_types.Order) -> int:
    """The line's price as the position stands when it comes; 0 for a line that costs nothing."""
    prices = board.prices
    match order:
        case order_types.Found():  # a dormant capital wakes for the same X (T:60)
            return prices["restore" if position.cities[order.city].dormant else "empire"]
        case order_types.BuyShip():
            return prices["ship"]
        case order_types.Load():  # his own art goes aboard for nothing (M7.7)
            return 0 if order.cargo.startswith(ART) else prices["good"]
        case order_types.Build():
            return prices["warehouse"] if order.building == WAREHOUSE else board.buildings[order.building].cost
        case order_types.RaiseArmy():
            return prices["army"]
        case order_types.Patron():
            deck = position.decks.patronage
            return board.patronage[deck[0]].cost if deck else 0
        case order_types.Upgrade():
            return prices["upgrade"]
        case order_types.Mount():  # a horse his ship brought is free; one bought costs what a good does (MD26)
            army = position.army(colour, order.army)
            return 0 if army is not None and horse_aboard(board, position, army) else prices["good"]
        case order_types.Pay():
            return order.amount
    return 0


def shortfall(price: int, money: int) -> Msg | None:
    """Why the purse does not cover a price, or None when it does."""
    if price <= money:
        return None
    if money:
        return t("it costs %(cost)s and only %(left)s is left", cost=roman(price), left=roman(money))
    return t("it costs %(cost)s and nothing is left", cost=roman(price))


def horse_aboard(board: Board, position: Position, army: Army) -> Ship | None:
    """His ship at the city of the army's land that carries a horse for it (T:96, MD26)."""
    city = board.city_of(army.at) if army.at in board.lands else None
    if city is None:
        return None
    return next((s for s in position.ships_of(army.owner) if city_of_space(s.at) == city and s.cargo == HORSES), None)
