"""The Lark transformer: a parse tree of grammar/mediterraneum.lark -> an order value. Names stay
as written; validate.py resolves them against the board."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from lark import Token, v_args

from adjudicator.language.headers import SharedPieces, bounded_number
from adjudicator.rulesets.mediterraneum import orders as order_types
from adjudicator.rulesets.mediterraneum.orders import ART, MAX_MONEY, NOT_ROMAN, from_roman

_Action = Callable[[int], order_types.Order]  # an order waiting for the number of its ship or army


@dataclass(frozen=True, slots=True)
class _Attack:
    target: str
    tactic: str = ""
    retreat: str = ""


@dataclass(frozen=True, slots=True)
class _Named:
    role: str
    value: str


def _money(value: Token) -> int:
    """A sum as written; NOT_ROMAN for a malformed numeral (`IIII`) and never more than one past
    MAX_MONEY, so that validation refuses the line with its reason."""
    text = str(value)
    if text.isdigit():
        return bounded_number(text, MAX_MONEY)
    amount = from_roman(text)
    return NOT_ROMAN if amount is None else min(amount, MAX_MONEY + 1)


@v_args(inline=True)
class OrderTransformer(SharedPieces[order_types.Order]):
    def money(self, value: Token) -> int:
        return _money(value)

    def found(self, city: str) -> order_types.Found:
        return order_types.Found(city)

    def buy_ship(self, city: str) -> order_types.BuyShip:
        return order_types.BuyShip(city)

    # ships
    def ship_order(self, number: int, action: _Action) -> order_types.Order:
        return action(number)

    def art_cargo(self, card: str) -> str:
        return ART + card

    def good_cargo(self, good: str) -> str:
        return good

    def load(self, cargo: str) -> _Action:
        return partial(order_types.Load, cargo=cargo)

    def sail(self, path: tuple[str, ...]) -> _Action:
        return partial(order_types.Sail, path=path)

    def floor(self, amount: int) -> int:
        return amount

    def sell(self, floor: int | None = None) -> _Action:
        return partial(order_types.Sell, floor=floor or 0)

    def dump(self) -> _Action:
        return order_types.Dump

    def store(self) -> _Action:
        return order_types.Store

    def sink(self) -> _Named:
        return _Named("sink", "sink")

    def release(self) -> _Named:
        return _Named("sink", "")

    def capture(self, owner: str, target: int, *named: _Named) -> _Action:
        roles = {n.role: n.value for n in named}
        return partial(
            order_types.Capture,
            owner=owner,
            target=target,
            sink=bool(roles.get("sink")),
            tactic=roles.get("tactic", ""),
        )

    # armies
    def army_order(self, number: int, action: _Action | _Attack) -> order_types.Order:
        if isinstance(action, _Attack):
            return order_types.Attack((number,), action.target, action.tactic, action.retreat)
        return action(number)

    def group_attack(self, *parts: int | _Attack) -> order_types.Attack:
        """`army 1 and 2 attack …`, `army 1, 2 and 3 attack …` (T:89)."""
        *numbers, action = parts
        assert isinstance(action, _Attack)
        return order_types.Attack(
            tuple(n for n in numbers if isinstance(n, int)), action.target, action.tactic, action.retreat
        )

    def march(self, path: tuple[str, ...]) -> _Action:
        return partial(order_types.March, path=path)

    def board(self, ship: int) -> _Action:
        return partial(order_types.Embark, ship=ship)

    def land(self) -> _Action:
        return order_types.Land

    def mount(self) -> _Action:
        return order_types.Mount

    def tactic(self, name: str) -> _Named:
        return _Named("tactic", name)

    def retreat(self, name: str) -> _Named:
        return _Named("retreat", name)

    def attack(self, target: str, *named: _Named) -> _Attack:
        roles = {n.role: n.value for n in named}
        return _Attack(target, roles.get("tactic", ""), roles.get("retreat", ""))

    def army_action(self, action: _Attack) -> _Attack:
        return action

    # the empire
    def build(self, building: str) -> order_types.Build:
        return order_types.Build(building)

    def raise_army(self) -> order_types.RaiseArmy:
        return order_types.RaiseArmy()

    def patron(self) -> order_types.Patron:
        return order_types.Patron()

    def dismiss(self) -> order_types.Dismiss:
        return order_types.Dismiss()

    def upgrade(self, city: str) -> order_types.Upgrade:
        return order_types.Upgrade(city)

    # cards, money, standing orders
    def gift_to(self, colour: str) -> order_types.CardTo:
        return order_types.CardTo("gift", colour)

    def coup_to(self, colour: str) -> order_types.CardTo:
        return order_types.CardTo("coup", colour)

    def pay(self, amount: int, colour: str) -> order_types.Pay:
        return order_types.Pay(amount, colour)

    def standing_buy(self, cargo: str, city: str, ceiling: int) -> order_types.StandingBuy:
        return order_types.StandingBuy(cargo, city, ceiling)

    def cancel_buy(self, cargo: str, city: str) -> order_types.CancelBuy:
        return order_types.CancelBuy(cargo, city)

    def bid(self, amount: int, city: str = "") -> order_types.Bid:
        return order_types.Bid(amount, city)

    def pass_turn(self) -> order_types.Pass:
        return order_types.Pass()
