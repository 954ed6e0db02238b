"""The Lark transformer: a parse tree of grammar/mare_nostrum.lark -> an order value.

Line numbers are added by the generic front end (adjudicator/orders.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, v_args

from adjudicator.language.headers import SharedPieces, bounded_number
from adjudicator.rulesets.mare_nostrum import orders
from adjudicator.rulesets.mare_nostrum.components import Piece, Unit


@dataclass(frozen=True, slots=True)
class _Via:
    seas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Attacks:
    civs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _AtOnce:
    pass


@v_args(inline=True)
class OrderTransformer(SharedPieces[orders.Order]):
    """Parse tree -> order value. Line numbers are added by the caller."""

    def counted_card(self, value: Token, card: str) -> orders.CardCount:
        return orders.CardCount(card, bounded_number(str(value)))

    def card_times(self, card: str, value: Token) -> orders.CardCount:
        return orders.CardCount(card, bounded_number(str(value).lstrip("xX")))

    def single_card(self, card: str) -> orders.CardCount:
        return orders.CardCount(card)

    def cards(self, *cards: orders.CardCount) -> tuple[orders.CardCount, ...]:
        return cards

    def payment(self, cards: tuple[orders.CardCount, ...]) -> tuple[orders.CardCount, ...]:
        return cards

    def site(self, name: str) -> str:
        return name

    def card_name(self, *words: Token) -> str:
        return " ".join(str(w) for w in words)

    # trade
    def trade_size(self, value: Token) -> orders.TradeSize:
        return orders.TradeSize(bounded_number(str(value)))

    def offer(self, cards: tuple[orders.CardCount, ...]) -> orders.Offer:
        return orders.Offer(cards)

    def take(self, choice: str, source: str | None = None) -> orders.Take:
        return orders.Take(choice, source)

    def give(self, cards: tuple[orders.CardCount, ...]) -> orders.Give:
        return orders.Give(cards)

    def ulysses(self, target: str) -> orders.UlyssesForce:
        return orders.UlyssesForce(target)

    # build
    def sequence(self, civs: tuple[str, ...]) -> orders.TurnSequence:
        return orders.TurnSequence(civs)

    def city(self) -> Piece:
        return Piece.CITY

    def temple(self, *_: Token) -> Piece:
        return Piece.TEMPLE

    def market(self) -> Piece:
        return Piece.MARKET

    def fortress(self) -> Piece:
        return Piece.FORTRESS

    def legion(self) -> Piece:
        return Piece.LEGION

    def trireme(self) -> Piece:
        return Piece.TRIREME

    def influence(self) -> Piece:
        return Piece.INFLUENCE

    def build(self, *parts: object) -> orders.Build:
        count, piece, province, site, payment = _build_parts(parts, has_province=True)
        return orders.Build(piece, province, count, site=site, payment=payment)

    def build_at_site(self, *parts: object) -> orders.Build:
        count, piece, _, site, payment = _build_parts(parts, has_province=False)
        return orders.Build(piece, None, count, site=site, payment=payment)

    def build_caravan(self, province: str, *rest: object) -> orders.Build:
        commodity = next((r for r in rest if isinstance(r, str)), None)
        payment = next((r for r in rest if isinstance(r, tuple)), None)
        return orders.Build(Piece.CARAVAN, province, commodity=commodity, payment=payment)

    def build_caravan_on(
        self, commodity: str, province: str, payment: tuple[orders.CardCount, ...] | None = None
    ) -> orders.Build:
        return orders.Build(Piece.CARAVAN, province, commodity=commodity, payment=payment)

    def buy(self, card: str, payment: tuple[orders.CardCount, ...] | None = None) -> orders.Buy:
        return orders.Buy(card, payment)

    def exchange(self, give: str, get: str) -> orders.Exchange:
        return orders.Exchange(give, get)

    def keep(self, cards: tuple[orders.CardCount, ...]) -> orders.Keep:
        return orders.Keep(cards)

    # military
    def sail(self, *parts: object) -> orders.Sail:
        count = parts[0] if isinstance(parts[0], int) else 1
        origin, destination = (p for p in parts if isinstance(p, str))
        return orders.Sail(origin, destination, count)

    def naval_attack(self, target: str, sea: str) -> orders.NavalAttack:
        return orders.NavalAttack(target, sea)

    def via(self, *seas: str) -> _Via:
        return _Via(seas)

    def attacks(self, civs: tuple[str, ...]) -> _Attacks:
        return _Attacks(civs)

    def then(self, then: orders.Then) -> orders.Then:
        return then

    def occupy(self, *targets: str) -> orders.Then:
        return orders.Then(orders.Consequence.OCCUPY, targets=targets)

    def at_once(self) -> _AtOnce:
        return _AtOnce()

    def convert(self) -> orders.Then:
        return orders.Then(orders.Consequence.CONVERT)

    def sack(self, target: str) -> orders.Then:
        return orders.Then(orders.Consequence.SACK, target)

    def sack_city(self, site: str | None = None) -> str:
        return f"city {site}" if site else "city"

    def sack_caravan(self, icon: str) -> str:
        return f"caravan {icon}"

    def sack_temple(self, *_: Token) -> str:
        return "temple"

    def sack_market(self) -> str:
        return "market"

    def move(self, *parts: object) -> orders.Move:
        count = parts[0] if isinstance(parts[0], int) else 1
        origin, destination = (p for p in parts if isinstance(p, str))
        via: tuple[str, ...] = ()
        attack: tuple[str, ...] = ()
        then = None
        for part in parts:
            if isinstance(part, _Via):
                via = part.seas
            elif isinstance(part, _Attacks):
                attack = part.civs
            elif isinstance(part, orders.Then):
                then = part
        return orders.Move(
            origin, destination, count, via, attack, then, at_once=any(isinstance(p, _AtOnce) for p in parts)
        )

    def casualties(self, *units: Piece) -> orders.Casualties:
        return orders.Casualties(tuple(Unit(str(u)) for u in units))

    def unit_kind(self, unit: Piece) -> Piece:
        return unit

    def helen(self, *parts: object) -> orders.Helen:
        return next(p for p in parts if isinstance(p, orders.Helen))

    def helen_off(self) -> orders.Helen:
        return orders.Helen(False)

    def helen_on(self) -> orders.Helen:
        return orders.Helen(True)

    def helen_in(self, province: str) -> orders.Helen:
        return orders.Helen(True, province)

    def role(self, role: str, civ: str) -> orders.RoleChoice:
        return orders.RoleChoice(role, civ)

    def artemis(self, _keyword: Token, commodity: str) -> orders.Artemis:
        return orders.Artemis(commodity)


def _build_parts(
    parts: tuple[object, ...], has_province: bool
) -> tuple[int, Piece, str | None, str | None, tuple[orders.CardCount, ...] | None]:
    items = list(parts)
    count = items.pop(0) if isinstance(items[0], int) else 1
    piece = items.pop(0)
    assert isinstance(count, int) and isinstance(piece, Piece)
    province = items.pop(0) if has_province else None
    site = items.pop(0) if items and isinstance(items[0], str) else None
    assert site is None or isinstance(site, str)
    payment = items.pop(0) if items and isinstance(items[0], tuple) else None
    assert province is None or isinstance(province, str)
    assert payment is None or isinstance(payment, tuple)
    return count, piece, province, site, payment
