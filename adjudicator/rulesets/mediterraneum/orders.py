"""Mare Mediterraneum orders as values (docs/rules-mediterraneum.md, "Orders by mail"): what the
engine reads. Each has `to_text`, its canonical line, which parses back to the same order; money
is written in Roman numerals, as on the coins' tally (M1)."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rulesets.kit.orders import Written

ART = "art:"  # a cargo or a standing buy of an art card: `art:<card id>`
MAX_MONEY = 999  # no purse comes near it (the box holds 100 MILLE, T:23): more is refused, never used
NOT_ROMAN = -1  # a sum written as a malformed Roman numeral (`IIII`): validation refuses it
WAREHOUSE = "warehouse"  # `build warehouse` (M7.8): the one building not in the supply


def roman(value: int) -> str:
    """MILIA as the translation writes them: I, IV, XIV; zero as 0."""
    if value <= 0:
        return "0"
    parts = (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
        (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    )  # fmt: skip
    text = ""
    for amount, letters in parts:
        while value >= amount:
            text += letters
            value -= amount
    return text


_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def from_roman(text: str) -> int | None:
    """A Roman numeral's value, or None when it is not a well-formed one (`IIII`, `VX`)."""
    letters = text.lower()
    if not letters or any(ch not in _ROMAN for ch in letters):
        return None
    total = 0
    for i, ch in enumerate(letters):
        value = _ROMAN[ch]
        total += -value if i + 1 < len(letters) and _ROMAN[letters[i + 1]] > value else value
    return total if roman(total).lower() == letters else None


def cargo_text(cargo: str) -> str:
    return f"art {cargo.removeprefix(ART)}" if cargo.startswith(ART) else cargo


@dataclass(frozen=True, slots=True)
class Found(Written):
    """M5.1: found his empire in one of his provinces (done first in the turn, T:44)."""

    city: str

    def to_text(self) -> str:
        return f"found empire at {self.city}"


@dataclass(frozen=True, slots=True)
class BuyShip(Written):
    """M4.2: a ship on the coast of one of his cities, placed at the end of the turn."""

    city: str

    def to_text(self) -> str:
        return f"buy ship at {self.city}"


@dataclass(frozen=True, slots=True)
class Load(Written):
    """M4.4, M7.7: a good (I) or an art card of his onto the ship."""

    ship: int
    cargo: str  # a good, or `art:<card>`

    def to_text(self) -> str:
        return f"ship {self.ship} load {cargo_text(self.cargo)}"


@dataclass(frozen=True, slots=True)
class Sail(Written):
    """M4.3: one space (two for an empty ship with `fast_empty_ships`)."""

    ship: int
    path: tuple[str, ...]

    def to_text(self) -> str:
        return f"ship {self.ship} to " + ", ".join(self.path)


@dataclass(frozen=True, slots=True)
class Sell(Written):
    """M4.5, M4.6: sell the cargo in this harbour, not below `floor`."""

    ship: int
    floor: int = 0

    def to_text(self) -> str:
        return f"ship {self.ship} sell" + (f" at least {roman(self.floor)}" if self.floor else "")


@dataclass(frozen=True, slots=True)
class Dump(Written):
    """M4.7: throw the cargo overboard."""

    ship: int

    def to_text(self) -> str:
        return f"ship {self.ship} dump"


@dataclass(frozen=True, slots=True)
class Store(Written):
    """M7.8: the cargo into a warehouse of his capital."""

    ship: int

    def to_text(self) -> str:
        return f"ship {self.ship} store"


@dataclass(frozen=True, slots=True)
class Capture(Written):
    """M9.4: a warship attacks another player's merchant ship, perhaps with a naval tactic card."""

    ship: int
    owner: str
    target: int
    sink: bool = False
    tactic: str = ""

    def to_text(self) -> str:
        text = f"ship {self.ship} capture {self.owner} ship {self.target}"
        return text + (f" with {self.tactic}" if self.tactic else "") + (" and sink" if self.sink else "")


@dataclass(frozen=True, slots=True)
class March(Written):
    """M8.3: one land space (cavalry two)."""

    army: int
    path: tuple[str, ...]

    def to_text(self) -> str:
        return f"army {self.army} to " + ", ".join(self.path)


@dataclass(frozen=True, slots=True)
class Embark(Written):
    """M9.1: the army goes aboard his ship."""

    army: int
    ship: int

    def to_text(self) -> str:
        return f"army {self.army} board ship {self.ship}"


@dataclass(frozen=True, slots=True)
class Land(Written):
    """M9.2: the army goes ashore into the land of the city whose harbour or coast its ship is at."""

    army: int

    def to_text(self) -> str:
        return f"army {self.army} land"


@dataclass(frozen=True, slots=True)
class Mount(Written):
    """M9.6: a horse under the army."""

    army: int

    def to_text(self) -> str:
        return f"army {self.army} mount"


@dataclass(frozen=True, slots=True)
class Attack(Written):
    """M8.4 (a city) or M10 (the armies in an adjacent land), with one to three armies."""

    armies: tuple[int, ...]
    target: str
    tactic: str = ""
    retreat: str = ""

    def to_text(self) -> str:
        numbers = [str(n) for n in self.armies]
        who = " and ".join([", ".join(numbers[:-1]), numbers[-1]] if len(numbers) > 2 else numbers)
        text = f"army {who} attack {self.target}"
        return (
            text
            + (f" with {self.tactic}" if self.tactic else "")
            + (f" retreat {self.retreat}" if self.retreat else "")
        )


@dataclass(frozen=True, slots=True)
class Build(Written):
    """M7.1-M7.3, M7.8: one building a turn, or a warehouse."""

    building: str

    def to_text(self) -> str:
        return f"build {self.building}"


@dataclass(frozen=True, slots=True)
class RaiseArmy(Written):
    """M8.1: IV, in his capital's land."""

    def to_text(self) -> str:
        return "raise army"


@dataclass(frozen=True, slots=True)
class Patron(Written):
    """M7.4: the art patronage card on offer."""

    def to_text(self) -> str:
        return "patron"


@dataclass(frozen=True, slots=True)
class Dismiss(Written):
    """M7.5: give up the artist, for good."""

    def to_text(self) -> str:
        return "dismiss artist"


@dataclass(frozen=True, slots=True)
class Upgrade(Written):
    """M8.6: a city his army took and left becomes a province."""

    city: str

    def to_text(self) -> str:
        return f"upgrade {self.city}"


@dataclass(frozen=True, slots=True)
class CardTo(Written):
    """M11.4, M11.15: where the gift or coup card he holds goes."""

    kind: str  # "gift" or "coup"
    colour: str

    def to_text(self) -> str:
        return f"gift to {self.colour}" if self.kind == "gift" else f"coup {self.colour}"


@dataclass(frozen=True, slots=True)
class Pay(Written):
    """M3.6: money to another player."""

    amount: int
    colour: str

    def to_text(self) -> str:
        return f"pay {roman(self.amount)} to {self.colour}"


@dataclass(frozen=True, slots=True)
class StandingBuy(Written):
    """M4.6: a standing offer for a good (or art card) brought to his city."""

    cargo: str
    city: str
    ceiling: int

    def to_text(self) -> str:
        return f"buy {cargo_text(self.cargo)} at {self.city} for up to {roman(self.ceiling)}"


@dataclass(frozen=True, slots=True)
class CancelBuy(Written):
    """M4.6: withdraw a standing offer."""

    cargo: str
    city: str

    def to_text(self) -> str:
        return f"cancel buy {cargo_text(self.cargo)} at {self.city}"


@dataclass(frozen=True, slots=True)
class Bid(Written):
    """M3.5: a sealed bid in an auction (a province auction names the city)."""

    amount: int
    city: str = ""

    def to_text(self) -> str:
        return f"bid {roman(self.amount)}" + (f" for {self.city}" if self.city else "")


@dataclass(frozen=True, slots=True)
class Pass(Written):
    """M3.3: nothing this turn."""

    def to_text(self) -> str:
        return "pass"


Order = (
    Found | BuyShip | Load | Sail | Sell | Dump | Store | Capture | March | Embark | Land | Mount | Attack | Build
    | RaiseArmy | Patron | Dismiss | Upgrade | CardTo | Pay | StandingBuy | CancelBuy | Bid | Pass
)  # fmt: skip
ORDER_TYPES: tuple[type, ...] = Order.__args__
TURN_ORDERS: tuple[type, ...] = tuple(t for t in ORDER_TYPES if t is not Bid)


def order_types() -> tuple[type, ...]:
    """Every kind of order the transformer makes of a line (and nothing else makes), for the
    parser's check; a function, so that the declaration names it without importing this module."""
    return ORDER_TYPES
