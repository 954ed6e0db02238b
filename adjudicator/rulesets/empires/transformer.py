"""The Lark transformer: a parse tree of grammar/empires.lark -> an order value. Names stay
as written; validate.py resolves them against the board. Line numbers are added by the
generic front end (adjudicator/orders.py)."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, v_args

from adjudicator.language.headers import SharedPieces, bounded_number
from adjudicator.rulesets.empires import orders
from adjudicator.rulesets.empires.orders import MAX_COUNT


@dataclass(frozen=True, slots=True)
class _Via:
    seas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Consequence:
    action: str
    buildings: tuple[str, ...] = ()
    for_good: bool = False


@dataclass(frozen=True, slots=True)
class _Payment:
    tokens: tuple[str, ...]


@v_args(inline=True)
class OrderTransformer(SharedPieces[orders.Order]):
    def counted_token(self, value: Token, kind: str) -> tuple[str, ...]:
        return (kind,) * _bounded(str(value))

    def token_times(self, kind: str, value: Token) -> tuple[str, ...]:
        return (kind,) * _bounded(str(value).lstrip("xX"))

    def single_token(self, kind: str) -> tuple[str, ...]:
        return (kind,)

    def tokens(self, *groups: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(kind for group in groups for kind in group)

    def payment(self, tokens: tuple[str, ...]) -> _Payment:
        return _Payment(tokens)

    # trade
    def trade_side(self, value: Token) -> orders.TradeSide:
        return orders.TradeSide(bounded_number(str(value)))

    def offer(self, tokens: tuple[str, ...]) -> orders.Offer:
        return orders.Offer(tokens)

    def take(self, choice: str, source: str | None = None) -> orders.Take:
        return orders.Take(choice, source)

    def give(self, tokens: tuple[str, ...]) -> orders.Give:
        return orders.Give(tokens)

    # purchase
    def sequence(self, empires: tuple[str, ...]) -> orders.TurnOrder:
        return orders.TurnOrder(empires)

    def influence(self) -> str:
        return "influence"

    def legion(self) -> str:
        return "legion"

    def trireme(self) -> str:
        return "trireme"

    def fortress(self) -> str:
        return "fortress"

    def market(self) -> str:
        return "market"

    def temple(self) -> str:
        return "temple"

    def legendary(self, *args: object) -> object:
        # `legendary` is both a piece (build legendary city) and a standing order
        # (legendary CITY good|tax); the piece has no arguments.
        if not args:
            return "legendary"
        city = str(args[0])
        choice = str(args[1]).lower() if len(args) > 1 else "tax"
        return orders.Standing("legendary", choice, place=city)

    def capital(self) -> str:
        return "capital"

    def city(self) -> str:
        return "city"

    def build(self, *parts: object) -> orders.Build:
        count = next((p for p in parts if isinstance(p, int)), 1)
        piece, place = [p for p in parts if isinstance(p, str)]
        return orders.Build(piece, place, count, pay=_paid(parts))

    def build_caravan(self, *parts: object) -> orders.Build:
        count = next((p for p in parts if isinstance(p, int)), 1)
        good, place = [p for p in parts if isinstance(p, str)]
        return orders.Build("caravan", place, count, good=good, pay=_paid(parts))

    def build_caravan_in(self, *parts: object) -> orders.Build:
        count = next((p for p in parts if isinstance(p, int)), 1)
        place, good = [p for p in parts if isinstance(p, str)]
        return orders.Build("caravan", place, count, good=good, pay=_paid(parts))

    def copy(self, tile: str) -> orders.Copy:
        return orders.Copy(tile)

    def buy(self, tile: str, payment: _Payment | None = None) -> orders.Buy:
        return orders.Buy(tile, payment.tokens if payment else ())

    # military
    def sail(self, *parts: object) -> orders.Sail:
        count = next((p for p in parts if isinstance(p, int)), 1)
        origin, destination = [p for p in parts if isinstance(p, str)]
        return orders.Sail(count, origin, destination)

    def naval_attack(self, enemy: str, sea: str) -> orders.NavalAttack:
        return orders.NavalAttack(enemy, sea)

    def via(self, *seas: str) -> _Via:
        return _Via(seas)

    def then(self, consequence: _Consequence) -> _Consequence:
        return consequence

    def move(self, *parts: object) -> orders.Move:
        count = next((p for p in parts if isinstance(p, int)), 1)
        origin, destination = [p for p in parts if isinstance(p, str)]
        via = next((p.seas for p in parts if isinstance(p, _Via)), ())
        then = next((p for p in parts if isinstance(p, _Consequence)), None)
        conquest = orders.Conquest(then.action, destination, then.buildings, then.for_good) if then else None
        return orders.Move(count, origin, destination, via, conquest)

    def for_choice(self, choice: Token) -> bool:
        return str(choice).lower() == "good"

    def sack(self, target: str, for_good: bool = False) -> _Consequence:
        return _Consequence("sack", (target,), for_good)

    def occupy(self, *targets: str) -> _Consequence:
        return _Consequence("occupy", targets)

    def convert(self) -> _Consequence:
        return _Consequence("convert")

    def conquest(self, consequence: _Consequence, province: str, for_good: bool = False) -> orders.Conquest:
        return orders.Conquest(consequence.action, province, consequence.buildings, consequence.for_good or for_good)

    def convert_province(self, province: str) -> orders.Conquest:
        return orders.Conquest("convert", province)

    def caravan_target(self, good: str) -> str:
        return f"caravan:{good}"

    def market_target(self) -> str:
        return "market"

    def temple_target(self) -> str:
        return "temple"

    def legendary_target(self) -> str:
        return "legendary"

    def city_target(self) -> str:
        return "city"

    # standing choices
    def title(self, title: str, empires: tuple[str, ...]) -> orders.Standing:
        return orders.Standing(f"title:{title.lower()}", ", ".join(empires))

    def take_choice(self, good: str) -> orders.Standing:
        return orders.Standing("take", good)

    def peace(self, empire: str) -> orders.Standing:
        return orders.Standing("peace", empire)


def _bounded(digits: str) -> int:
    """A count as written, but never more than one past MAX_COUNT: validation refuses that
    line, and nothing is ever spelt out a billion times (the soak wrote 10^40)."""
    return bounded_number(digits, MAX_COUNT)


def _paid(parts: tuple[object, ...]) -> tuple[str, ...]:
    return next((p.tokens for p in parts if isinstance(p, _Payment)), ())
