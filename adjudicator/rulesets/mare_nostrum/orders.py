"""Mare Nostrum orders as values; `transformer.py` builds them from parse trees.

Orders hold names exactly as written; `validate.py` resolves them against the board, so a
misspelt place is reported with a suggestion instead of hiding inside the parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from adjudicator.rulesets.kit.orders import Take as Take  # the same `take` line in both trade chains
from adjudicator.rulesets.kit.orders import Written
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
class TradeSize(Written):
    size: int

    def to_text(self) -> str:
        return f"trade {self.size}"


@dataclass(frozen=True, slots=True)
class Offer(Written):
    cards: tuple[CardCount, ...]

    def to_text(self) -> str:
        return f"offer {_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Give(Written):
    cards: tuple[CardCount, ...]

    def to_text(self) -> str:
        return f"give {_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class UlyssesForce(Written):
    target: str

    def to_text(self) -> str:
        return f"ulysses {self.target}"


# ---- Build (R6) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnSequence(Written):
    civs: tuple[str, ...]

    def to_text(self) -> str:
        return "sequence " + ", ".join(self.civs)


@dataclass(frozen=True, slots=True)
class Build(Written):
    piece: Piece
    province: str | None  # None when only a city site was named
    count: int = 1
    site: str | None = None
    commodity: str | None = None
    payment: tuple[CardCount, ...] | None = None

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
class Buy(Written):
    card: str
    payment: tuple[CardCount, ...] | None = None

    def to_text(self) -> str:
        return f"buy {self.card}" + (f" with {_cards_text(self.payment)}" if self.payment else "")


@dataclass(frozen=True, slots=True)
class Exchange(Written):
    give: str
    get: str

    def to_text(self) -> str:
        return f"exchange {self.give} for {self.get}"


@dataclass(frozen=True, slots=True)
class Keep(Written):
    cards: tuple[CardCount, ...]

    def to_text(self) -> str:
        return f"keep {_cards_text(self.cards)}"


# ---- Military (R7, R8) ---------------------------------------------------------------


class Consequence(StrEnum):
    OCCUPY = "occupy"
    CONVERT = "convert"
    SACK = "sack"


@dataclass(frozen=True, slots=True)
class Then:
    """What a victorious mover does in the province (R8.5); `target` says what is sacked,
    `targets` what is occupied (R8.6; none: the choice that yields the most cards)."""

    consequence: Consequence
    target: str | None = None  # "city", "city SITE", "caravan ICON", "temple", "market"
    targets: tuple[str, ...] = ()  # the same forms, for occupy

    def to_text(self) -> str:
        if self.consequence is Consequence.SACK and self.target:
            return f"then sack {_target_text(self.target)}"
        if self.targets:
            return f"then {self.consequence} " + ", ".join(_target_text(t) for t in self.targets)
        return f"then {self.consequence}"


def _target_text(target: str) -> str:
    kind, _, rest = target.partition(" ")
    return f"caravan on {rest}" if kind == "caravan" else target


@dataclass(frozen=True, slots=True)
class Sail(Written):
    origin: str
    destination: str
    count: int = 1

    def to_text(self) -> str:
        units = "trireme" if self.count == 1 else f"{self.count} triremes"
        return f"sail {units} from {self.origin} to {self.destination}"


@dataclass(frozen=True, slots=True)
class NavalAttack(Written):
    target: str
    sea: str

    def to_text(self) -> str:
        return f"attack {self.target} in {self.sea}"


@dataclass(frozen=True, slots=True)
class Move(Written):
    origin: str
    destination: str
    count: int = 1
    via: tuple[str, ...] = ()
    attack: tuple[str, ...] = ()
    then: Then | None = None
    at_once: bool = False  # D6: this line fights its own battle before later lines arrive

    def to_text(self) -> str:
        units = "legion" if self.count == 1 else f"{self.count} legions"
        text = f"move {units} from {self.origin} to {self.destination}"
        if self.via:
            text += " via " + ", ".join(self.via)
        if self.attack:
            text += " attack " + ", ".join(self.attack)
        if self.then:
            text += " " + self.then.to_text()
        if self.at_once:
            text += " at once"
        return text


@dataclass(frozen=True, slots=True)
class Casualties(Written):
    units: tuple[Unit, ...]

    def to_text(self) -> str:
        return "casualties " + ", ".join(self.units)


@dataclass(frozen=True, slots=True)
class Helen(Written):
    """Helen of Troy control (R8.9): off, on everywhere, or only in one province."""

    active: bool
    province: str | None = None

    def to_text(self) -> str:
        if not self.active:
            return "helen off"
        return f"helen in {self.province}" if self.province else "helen on"


@dataclass(frozen=True, slots=True)
class RoleChoice(Written):
    """R3.2: the current holder decides a tie among others."""

    role: str
    civ: str

    def to_text(self) -> str:
        return f"role {self.role} to {self.civ}"


@dataclass(frozen=True, slots=True)
class Artemis(Written):
    commodity: str

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


def order_types() -> tuple[type, ...]:
    """Every kind of order the transformer makes of a line (and nothing else makes), for the
    parser's check; a function, so that the declaration names it without importing this module."""
    return (*ORDER_PHASES, TurnSequence)
