"""One player's turn in progress (M3.2): the position as his lines change it, what the turn has
used up (each ship's and army's moves, the one building, the sale rolls), and the pieces bought
that come onto the board only at its end (T:57)."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.events import Event, EventValue, event
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import Options, Position
from adjudicator.rulesets.mediterraneum.orders import roman


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

    @property
    def money(self) -> int:
        return self.position.players[self.colour].money

    def note(self, kind: str, **data: EventValue) -> None:
        self.events.append(event(kind, player=self.colour, **data))

    def refuse(self, order: str, reason: str, rule: str) -> None:
        """A line that cannot be carried out as the turn stands: said in the report, never silent."""
        self.events.append(event("order_failed", player=self.colour, order=order, reason=reason, rule=rule))

    def pay(self, amount: int, order: str, rule: str) -> bool:
        """Pay from his purse, or refuse the line when it is short (T:49: a running total)."""
        if amount > self.money:
            left = f"only {roman(self.money)} is left" if self.money else "nothing is left"
            self.refuse(order, f"it costs {roman(amount)} and {left}", rule)
            return False
        self.position = self.position.paid(self.colour, amount)
        return True
