"""Mare Nostrum orders as values, and the Lark transformer that builds them.

Orders hold names exactly as written; `validate.py` resolves them against the board, so a
misspelt place is reported with a suggestion instead of hiding inside the parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from lark import Token, Transformer, v_args

from adjudicator.rulesets.mare_nostrum.components import Phase, Piece, Unit


@dataclass(frozen=True, slots=True)
class CardCount:
    card: str
    count: int = 1

    def to_text(self) -> str:
        return self.card if self.count == 1 else f"{self.count} {self.card}"


def _cards_text(cards: tuple[CardCount, ...]) -> str:
    return ", ".join(c.to_text() for c in cards)


# ---- Trade (R5) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TradeSize:
    size: int
    line: int = 0

    def to_text(self) -> str:
        return f"trade {self.size}"


@dataclass(frozen=True, slots=True)
class Offer:
    cards: tuple[CardCount, ...]
    line: int = 0

    def to_text(self) -> str:
        return f"offer {_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Take:
    """A ranked picking preference: a card, `commodity`, `tax` or `any`, optionally from one player."""

    choice: str
    source: str | None = None
    line: int = 0

    def to_text(self) -> str:
        return f"take {self.choice}" + (f" from {self.source}" if self.source else "")


@dataclass(frozen=True, slots=True)
class Give:
    cards: tuple[CardCount, ...]
    line: int = 0

    def to_text(self) -> str:
        return f"give {_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class UlyssesForce:
    target: str
    line: int = 0

    def to_text(self) -> str:
        return f"ulysses {self.target}"


# ---- Build (R6) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnSequence:
    civs: tuple[str, ...]
    line: int = 0

    def to_text(self) -> str:
        return "sequence " + ", ".join(self.civs)


@dataclass(frozen=True, slots=True)
class Build:
    piece: Piece
    province: str | None  # None when only a city site was named
    count: int = 1
    site: str | None = None
    commodity: str | None = None
    payment: tuple[CardCount, ...] | None = None
    line: int = 0

    def to_text(self) -> str:
        count = f"{self.count} " if self.count != 1 else ""
        text = f"build {count}{self.piece}"
        if self.piece is Piece.CARAVAN and self.commodity:
            text += f" on {self.commodity}"
        if self.province:
            text += f" in {self.province}"
        if self.site:
            text += f" at {self.site}"
        if self.payment:
            text += f" with {_cards_text(self.payment)}"
        return text


@dataclass(frozen=True, slots=True)
class Buy:
    card: str
    payment: tuple[CardCount, ...] | None = None
    line: int = 0

    def to_text(self) -> str:
        return f"buy {self.card}" + (f" with {_cards_text(self.payment)}" if self.payment else "")


@dataclass(frozen=True, slots=True)
class Exchange:
    give: str
    get: str
    line: int = 0

    def to_text(self) -> str:
        return f"exchange {self.give} for {self.get}"


@dataclass(frozen=True, slots=True)
class Keep:
    cards: tuple[CardCount, ...]
    line: int = 0

    def to_text(self) -> str:
        return f"keep {_cards_text(self.cards)}"


# ---- Military (R7, R8) ---------------------------------------------------------------


class Consequence(StrEnum):
    OCCUPY = "occupy"
    CONVERT = "convert"
    SACK = "sack"


@dataclass(frozen=True, slots=True)
class Then:
    """What a victorious mover does in the province (R8.5); `target` says what is sacked."""

    consequence: Consequence
    target: str | None = None  # "city", "city SITE", "caravan ICON", "temple", "market"

    def to_text(self) -> str:
        if self.consequence is Consequence.SACK and self.target:
            kind, _, rest = self.target.partition(" ")
            target = f"caravan on {rest}" if kind == "caravan" else self.target
            return f"then sack {target}"
        return f"then {self.consequence}"


@dataclass(frozen=True, slots=True)
class Sail:
    origin: str
    destination: str
    count: int = 1
    line: int = 0

    def to_text(self) -> str:
        units = "trireme" if self.count == 1 else f"{self.count} triremes"
        return f"sail {units} from {self.origin} to {self.destination}"


@dataclass(frozen=True, slots=True)
class NavalAttack:
    target: str
    sea: str
    line: int = 0

    def to_text(self) -> str:
        return f"attack {self.target} in {self.sea}"


@dataclass(frozen=True, slots=True)
class Move:
    origin: str
    destination: str
    count: int = 1
    via: tuple[str, ...] = ()
    attack: tuple[str, ...] = ()
    then: Then | None = None
    line: int = 0

    def to_text(self) -> str:
        units = "legion" if self.count == 1 else f"{self.count} legions"
        text = f"move {units} from {self.origin} to {self.destination}"
        if self.via:
            text += " via " + ", ".join(self.via)
        if self.attack:
            text += " attack " + ", ".join(self.attack)
        if self.then:
            text += " " + self.then.to_text()
        return text


@dataclass(frozen=True, slots=True)
class Casualties:
    units: tuple[Unit, ...]
    line: int = 0

    def to_text(self) -> str:
        return "casualties " + ", ".join(self.units)


@dataclass(frozen=True, slots=True)
class Helen:
    """Helen of Troy control (R8.9): off, on everywhere, or only in one province."""

    active: bool
    province: str | None = None
    line: int = 0

    def to_text(self) -> str:
        if not self.active:
            return "helen off"
        return f"helen in {self.province}" if self.province else "helen on"


@dataclass(frozen=True, slots=True)
class RoleChoice:
    """R3.2: the current holder decides a tie among others."""

    role: str
    civ: str
    line: int = 0

    def to_text(self) -> str:
        return f"role {self.role} to {self.civ}"


@dataclass(frozen=True, slots=True)
class Artemis:
    commodity: str
    line: int = 0

    def to_text(self) -> str:
        return f"artemis {self.commodity}"


Order = (
    TradeSize
    | Offer
    | Take
    | Give
    | UlyssesForce
    | TurnSequence
    | Build
    | Buy
    | Exchange
    | Keep
    | Sail
    | NavalAttack
    | Move
    | Casualties
    | Helen
    | RoleChoice
    | Artemis
)

# Which phase's orders each kind is (DESIGN.md, "The order language"). Choices that take
# effect at the next turn's start (R3.2 role ties, R4 Artemis) are given in the military
# phase, the last mail before that start (rulings D9).
ORDER_PHASES: dict[type, Phase] = {
    TradeSize: Phase.TRADE,
    Offer: Phase.TRADE,
    Take: Phase.TRADE,
    Give: Phase.TRADE,
    UlyssesForce: Phase.TRADE,
    Build: Phase.BUILD,
    Buy: Phase.BUILD,
    Exchange: Phase.BUILD,
    Keep: Phase.BUILD,
    Sail: Phase.MILITARY,
    NavalAttack: Phase.MILITARY,
    Move: Phase.MILITARY,
    Casualties: Phase.MILITARY,
    Helen: Phase.MILITARY,
    RoleChoice: Phase.MILITARY,
    Artemis: Phase.MILITARY,
}
# `TurnSequence` belongs to both sequential phases (R3.3).


@dataclass(frozen=True, slots=True)
class _Via:
    seas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Attacks:
    civs: tuple[str, ...]


@v_args(inline=True)
class OrderTransformer(Transformer[Token, Order]):
    """Parse tree -> order value. Line numbers are added by the caller."""

    def start(self, item: Order) -> Order:
        return item

    # shared pieces
    def name(self, *words: Token) -> str:
        return " ".join(str(w) for w in words)

    def names(self, *names: str) -> tuple[str, ...]:
        return names

    def count(self, value: Token) -> int:
        return int(value)

    def counted_card(self, value: Token, card: str) -> CardCount:
        return CardCount(card, int(value))

    def card_times(self, card: str, value: Token) -> CardCount:
        return CardCount(card, int(str(value).lstrip("xX")))

    def single_card(self, card: str) -> CardCount:
        return CardCount(card)

    def cards(self, *cards: CardCount) -> tuple[CardCount, ...]:
        return cards

    def payment(self, cards: tuple[CardCount, ...]) -> tuple[CardCount, ...]:
        return cards

    def site(self, name: str) -> str:
        return name

    def card_name(self, *words: Token) -> str:
        return " ".join(str(w) for w in words)

    # trade
    def trade_size(self, value: Token) -> TradeSize:
        return TradeSize(int(value))

    def offer(self, cards: tuple[CardCount, ...]) -> Offer:
        return Offer(cards)

    def take(self, choice: str, source: str | None = None) -> Take:
        return Take(choice, source)

    def give(self, cards: tuple[CardCount, ...]) -> Give:
        return Give(cards)

    def ulysses(self, target: str) -> UlyssesForce:
        return UlyssesForce(target)

    # build
    def sequence(self, civs: tuple[str, ...]) -> TurnSequence:
        return TurnSequence(civs)

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

    def build(self, *parts: object) -> Build:
        count, piece, province, site, payment = _build_parts(parts, has_province=True)
        return Build(piece, province, count, site=site, payment=payment)

    def build_at_site(self, *parts: object) -> Build:
        count, piece, _, site, payment = _build_parts(parts, has_province=False)
        return Build(piece, None, count, site=site, payment=payment)

    def build_caravan(self, province: str, *rest: object) -> Build:
        commodity = next((r for r in rest if isinstance(r, str)), None)
        payment = next((r for r in rest if isinstance(r, tuple)), None)
        return Build(Piece.CARAVAN, province, commodity=commodity, payment=payment)

    def build_caravan_on(self, commodity: str, province: str, payment: tuple[CardCount, ...] | None = None) -> Build:
        return Build(Piece.CARAVAN, province, commodity=commodity, payment=payment)

    def buy(self, card: str, payment: tuple[CardCount, ...] | None = None) -> Buy:
        return Buy(card, payment)

    def exchange(self, give: str, get: str) -> Exchange:
        return Exchange(give, get)

    def keep(self, cards: tuple[CardCount, ...]) -> Keep:
        return Keep(cards)

    # military
    def sail(self, *parts: object) -> Sail:
        count = parts[0] if isinstance(parts[0], int) else 1
        origin, destination = (p for p in parts if isinstance(p, str))
        return Sail(origin, destination, count)

    def naval_attack(self, target: str, sea: str) -> NavalAttack:
        return NavalAttack(target, sea)

    def via(self, *seas: str) -> _Via:
        return _Via(seas)

    def attacks(self, civs: tuple[str, ...]) -> _Attacks:
        return _Attacks(civs)

    def then(self, then: Then) -> Then:
        return then

    def occupy(self) -> Then:
        return Then(Consequence.OCCUPY)

    def convert(self) -> Then:
        return Then(Consequence.CONVERT)

    def sack(self, target: str) -> Then:
        return Then(Consequence.SACK, target)

    def sack_city(self, site: str | None = None) -> str:
        return f"city {site}" if site else "city"

    def sack_caravan(self, icon: str) -> str:
        return f"caravan {icon}"

    def sack_temple(self, *_: Token) -> str:
        return "temple"

    def sack_market(self) -> str:
        return "market"

    def move(self, *parts: object) -> Move:
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
            elif isinstance(part, Then):
                then = part
        return Move(origin, destination, count, via, attack, then)

    def casualties(self, *units: Piece) -> Casualties:
        return Casualties(tuple(Unit(str(u)) for u in units))

    def unit_kind(self, unit: Piece) -> Piece:
        return unit

    def helen(self, *parts: object) -> Helen:
        return next(p for p in parts if isinstance(p, Helen))

    def helen_off(self) -> Helen:
        return Helen(False)

    def helen_on(self) -> Helen:
        return Helen(True)

    def helen_in(self, province: str) -> Helen:
        return Helen(True, province)

    def role(self, role: str, civ: str) -> RoleChoice:
        return RoleChoice(role, civ)

    def artemis(self, _keyword: Token, commodity: str) -> Artemis:
        return Artemis(commodity)


def _build_parts(
    parts: tuple[object, ...], has_province: bool
) -> tuple[int, Piece, str | None, str | None, tuple[CardCount, ...] | None]:
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
