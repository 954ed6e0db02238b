"""One player's turn from his orders (M3.2, T:52-57): the founding first (T:44), the tax and the
upkeep (M3.9), the cards he must hand on, then his lines in the order he wrote them (M3.8), and
last the ships and armies he bought come onto the board (T:57) and a dismissed artist leaves (MD18)."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.rulesets.mediterraneum import empire, navy, trading, war
from adjudicator.rulesets.mediterraneum import orders as order_types
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.cards import give_card
from adjudicator.rulesets.mediterraneum.model import Options, Position
from adjudicator.rulesets.mediterraneum.turn_state import Turn

_HANDLED_APART = (order_types.Found, order_types.CardTo, order_types.Pass, order_types.Bid)


def play_turn(
    board: Board,
    position: Position,
    colour: str,
    orders: Sequence[order_types.Order],
    dice: Dice,
    options: Options,
    events: list[Event],
) -> Position:
    if not orders or all(isinstance(o, order_types.Pass) for o in orders):
        events.append(event("passed", player=colour, sent=bool(orders), rule="M3.3"))  # said, never silent
    turn = open_turn(board, position, colour, orders, options, events)
    hand_on_cards(turn, orders, dice)
    for order in lines(orders):
        carry_out(turn, order, dice)
    trading.place_new_ships(turn)
    empire.place_new_armies(turn)
    empire.end_patronage(turn)
    return turn.position


def open_turn(
    board: Board,
    position: Position,
    colour: str,
    orders: Sequence[order_types.Order],
    options: Options,
    events: list[Event],
) -> Turn:
    """His turn up to his lines, which needs no dice: the founding, wherever it is written
    (T:44), then the tax due and the upkeep (M3.9)."""
    turn = Turn(board, position, colour, options, events)
    founding = next((o for o in orders if isinstance(o, order_types.Found)), None)
    if founding is not None:
        turn.line = founding.line
        empire.found(turn, founding)
        turn.line = 0
    empire.collect(turn)
    return turn


def lines(orders: Sequence[order_types.Order]) -> list[order_types.Order]:
    """His lines carried out one by one, in the order written (M3.8): all but the founding,
    the cards he hands on and `pass`."""
    return [order for order in orders if not isinstance(order, _HANDLED_APART)]


def carry_out(turn: Turn, order: order_types.Order, dice: Dice) -> None:
    turn.line = order.line
    match order:
        case order_types.BuyShip():
            trading.buy_ship(turn, order)
        case order_types.Load():
            trading.load(turn, order)
        case order_types.Sail():
            navy.sail(turn, order, dice)  # cavalry's two ships sail together (M9.6)
        case order_types.Sell():
            trading.sell(turn, order, dice)
        case order_types.Dump():
            trading.dump(turn, order)
        case order_types.Store():
            trading.store(turn, order)
        case order_types.Pay():
            trading.pay(turn, order)
        case order_types.StandingBuy():
            trading.standing_buy(turn, order)
        case order_types.CancelBuy():
            trading.cancel_buy(turn, order)
        case order_types.Build():
            empire.build(turn, order)
        case order_types.RaiseArmy():
            empire.raise_army(turn, order)
        case order_types.Patron():
            empire.patron(turn, order)
        case order_types.Dismiss():
            empire.dismiss(turn, turn.shown(order))
        case order_types.Upgrade():
            empire.upgrade(turn, order)
        case order_types.March():
            war.march(turn, order, dice)
        case order_types.Embark():
            navy.embark(turn, order)
        case order_types.Land():
            navy.land(turn, order)
        case order_types.Mount():
            navy.mount(turn, order)
        case order_types.Attack():
            war.attack(turn, order, dice)
        case order_types.Capture():
            navy.capture(turn, order, dice)


def hand_on_cards(turn: Turn, orders: Sequence[order_types.Order], dice: Dice) -> None:
    """M11.4, M11.15: each gift or coup card he holds goes to the player his orders name, or
    else to the next player in seating order (MD32)."""
    named = {o.kind: o.colour for o in orders if isinstance(o, order_types.CardTo)}
    for card in turn.position.players[turn.colour].holding:
        kind = str(turn.board.trade_cards[card].kind)
        order = turn.position.order
        target = named.get(kind) or order[(order.index(turn.colour) + 1) % len(order)]
        if target == turn.colour:
            target = order[(order.index(turn.colour) + 1) % len(order)]
        turn.position = give_card(turn.board, turn.position, turn.colour, card, target, dice, turn.events)
