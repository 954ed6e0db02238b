"""One player's turn in progress (M3.2): the position as his lines change it, what the turn has
used up (each ship's and army's moves, the one building, the sale rolls), and the pieces bought
that come onto the board only at its end (T:57)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from adjudicator.core.events import Event, EventValue, event
from adjudicator.rulesets.mediterraneum.board import COAST, Board
from adjudicator.rulesets.mediterraneum.model import Options, Position
from adjudicator.rulesets.mediterraneum.orders import ART, Order
from adjudicator.rulesets.mediterraneum.prices import cost, shortfall


@dataclass
class Turn:
    board: Board
    position: Position
    colour: str
    options: Options
    events: list[Event]
    new_ships: list[str] = field(default_factory=list)  # the cities on whose coasts they go
    new_armies: int = 0
    built: bool = False  # T:73: one building a turn
    moves: dict[str, int] = field(default_factory=dict)  # "ship:1" / "army:2" -> spaces moved
    came_from: dict[int, str] = field(default_factory=dict)  # army -> the land it left this turn (MD29)
    rolled: set[int] = field(default_factory=set)  # ships that rolled for a sale this turn (T:36)
    dismiss: bool = False
    line: int = 0  # the order line being carried out, which a refusal names

    @property
    def money(self) -> int:
        return self.position.players[self.colour].money

    def shown(self, order: Order) -> str:
        """An order's line as the reports quote it: with the board's names, not the ids that
        validation resolved (`ship 1 to Mare Africum`, not `ship 1 to mare-africum`)."""
        return named(self.board, order).to_text()

    def note(self, kind: str, **data: EventValue) -> None:
        self.events.append(event(kind, player=self.colour, **data))

    def refuse(self, order: str, reason: str, rule: str) -> None:
        """A line that cannot be carried out as the turn stands: said in the report, never silent."""
        where = {"line": self.line} if self.line else {}
        self.events.append(event("order_failed", player=self.colour, order=order, reason=reason, rule=rule, **where))

    def pay(self, order: Order, rule: str) -> bool:
        """Pay the line's price (`prices.cost`) from his purse, or refuse the line when it is
        short (T:49: a running total)."""
        amount = cost(self.board, self.position, self.colour, order)
        short = shortfall(amount, self.money)
        if short is not None:
            self.refuse(self.shown(order), short, rule)
            return False
        self.position = self.position.paid(self.colour, amount)
        return True


def named(board: Board, order: Order) -> Order:
    """The order with every id the board knows (places, goods, art, buildings, cards) as its name."""
    changes: dict[str, object] = {}
    for item in fields(order):
        value = getattr(order, item.name)
        if isinstance(value, str) and value:
            changes[item.name] = _name(board, value)
        elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            changes[item.name] = tuple(_name(board, v) for v in value)
    return replace(order, **changes)  # type: ignore[arg-type]


def _name(board: Board, value: str) -> str:
    if value.startswith(ART):
        art = value.removeprefix(ART)
        return ART + board.art[art].name if art in board.art else value
    city, _, coast = value.partition(" ")
    if coast == COAST and city in board.cities:
        return f"{board.cities[city].name} {COAST}"
    for table in (board.cities, board.lands, board.seas, board.goods, board.buildings, board.trade_cards):
        if value in table:
            return str(table[value].name)
    return value
