"""Empires orders as values (docs/rules-empires.md, "Orders by mail"): what the engine reads.
Each has `to_text`, its canonical line, which parses back to the same order."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rulesets.empires.model import Phase
from adjudicator.rulesets.kit.orders import Take as Take  # the same `take` line in both trade chains
from adjudicator.rulesets.kit.orders import Written


@dataclass(frozen=True, slots=True)
class TradeSide(Written):
    """E5.1: the Master of Commerce's chosen side (the number each player puts up)."""

    size: int

    def to_text(self) -> str:
        return f"trade {self.size}"


@dataclass(frozen=True, slots=True)
class Offer(Written):
    """E5.3: a ranked list of tokens ("tax" or a good); the first held, up to the size, are offered."""

    tokens: tuple[str, ...]

    def to_text(self) -> str:
        return "offer " + ", ".join(self.tokens)


@dataclass(frozen=True, slots=True)
class Give(Written):
    """E5.5: the Master's ranked choice of the token that evens out the trade."""

    tokens: tuple[str, ...]

    def to_text(self) -> str:
        return "give " + ", ".join(self.tokens)


@dataclass(frozen=True, slots=True)
class TurnOrder(Written):
    """E3.3: the leader's order for the purchase or military turns (ED16: a partial one puts
    those named first)."""

    empires: tuple[str, ...]

    def to_text(self) -> str:
        return "sequence " + ", ".join(self.empires)


_PLURALS = {
    "influence": "influence",
    "fortress": "fortresses",
    "city": "cities",
    "legendary": "legendary cities",
}
MAX_COUNT = 99  # no holding or stock comes near it: a line naming more is refused, never expanded


@dataclass(frozen=True, slots=True)
class Build(Written):
    """E6.4-E6.6: one piece, `count` times, into a province (a sea for a trireme); a caravan names
    its good; `pay` names the set (E6.3), empty for the adjudicator's choice."""

    piece: str  # influence, legion, trireme, fortress, caravan, market, city, capital, legendary, temple
    place: str
    count: int = 1
    good: str | None = None
    pay: tuple[str, ...] = ()

    def to_text(self) -> str:
        what = {"legendary": "legendary city"}.get(self.piece, self.piece)
        if self.count > 1:
            what = f"{self.count} {_PLURALS.get(self.piece, what + 's')}"
        on = f" on {self.good}" if self.good else ""
        paid = f" with {', '.join(self.pay)}" if self.pay else ""
        return f"build {what}{on} in {self.place}{paid}"


@dataclass(frozen=True, slots=True)
class Buy(Written):
    """E6.7, E6.8: a face-up hero or wonder, or the Pyramids."""

    tile: str
    pay: tuple[str, ...] = ()

    def to_text(self) -> str:
        return f"buy {self.tile}" + (f" with {', '.join(self.pay)}" if self.pay else "")


@dataclass(frozen=True, slots=True)
class Copy(Written):
    """E11.1 copy ability: the tile whose effects he has this round."""

    tile: str

    def to_text(self) -> str:
        return f"copy {self.tile}"


@dataclass(frozen=True, slots=True)
class Sail(Written):
    """E7.2: triremes into a neighbouring sea."""

    count: int
    origin: str
    destination: str

    def to_text(self) -> str:
        return f"sail {self.count} trireme{'s' if self.count > 1 else ''} from {self.origin} to {self.destination}"


@dataclass(frozen=True, slots=True)
class NavalAttack(Written):
    """E7.2: a naval battle against the named enemy's triremes in a sea where his own stand."""

    enemy: str
    sea: str

    def to_text(self) -> str:
        return f"attack {self.enemy} in {self.sea}"


@dataclass(frozen=True, slots=True)
class Move(Written):
    """E7.3: legions into a neighbouring province, or along a chain of his triremes (`via`)."""

    count: int
    origin: str
    destination: str
    via: tuple[str, ...] = ()
    then: Conquest | None = None  # what he does if this move conquers the destination

    def to_text(self) -> str:
        legions = f"{self.count} legions" if self.count > 1 else "legion"
        via = f" via {', '.join(self.via)}" if self.via else ""
        then = f" then {self.then.consequence()}" if self.then else ""
        return f"move {legions} from {self.origin} to {self.destination}{via}{then}"


@dataclass(frozen=True, slots=True)
class Conquest(Written):
    """E8.5-E8.8: what the conqueror does in a province he conquers this turn: `sack` one building
    (`caravan:wine`, `market`, `temple`, `city`), `occupy` buildings, or `convert`."""

    action: str  # sack | occupy | convert
    province: str
    buildings: tuple[str, ...] = ()
    for_good: bool = False  # a sacked legendary city pays a legendary good instead of tax

    def consequence(self) -> str:
        """The words before `in PROVINCE` (also what follows `then` on a move line)."""
        if self.action == "convert":
            return "convert"
        named = ", ".join(_building_text(b) for b in self.buildings)
        return f"{self.action} {named}".rstrip() + (" for good" if self.for_good else "")

    def to_text(self) -> str:
        if self.for_good:  # the canonical place of `for good` is after the province
            return f"{self.action} {', '.join(_building_text(b) for b in self.buildings)} in {self.province} for good"
        return f"{self.consequence()} in {self.province}"


def _building_text(building: str) -> str:
    return {"legendary": "legendary city"}.get(building, building.replace("caravan:", "caravan on "))


@dataclass(frozen=True, slots=True)
class Standing(Written):
    """ED16: a choice kept until changed: `legendary good|tax`, `title military to Greece, Rome`,
    `take wine` (the Colossus), `peace Rome` (the Statue of Zeus, this phase)."""

    key: str  # legendary | title:<title> | take | peace
    value: str
    place: str = ""  # the legendary city a `legendary` line names

    def to_text(self) -> str:
        if self.key.startswith("title:"):
            return f"title {self.key.split(':', 1)[1]} to {self.value}"
        if self.key == "legendary":
            return f"legendary {self.place} {self.value}"
        if self.key == "take":
            return f"colossus {self.value}"
        return f"{self.key} {self.value}"


Order = (
    TradeSide | Offer | Take | Give | TurnOrder | Build | Buy | Copy | Sail | NavalAttack | Move | Conquest | Standing
)

ORDER_PHASES: dict[type, Phase] = {
    TradeSide: Phase.TRADE,
    Offer: Phase.TRADE,
    Take: Phase.TRADE,
    Give: Phase.TRADE,
    Build: Phase.PURCHASE,
    Buy: Phase.PURCHASE,
    Copy: Phase.PURCHASE,
    Sail: Phase.MILITARY,
    NavalAttack: Phase.MILITARY,
    Move: Phase.MILITARY,
    Conquest: Phase.MILITARY,
    Standing: Phase.MILITARY,
}  # a TurnOrder belongs to the phase it is sent in (purchase or military)


def order_types() -> tuple[type, ...]:
    """Every kind of order the transformer makes of a line (and nothing else makes), for the
    parser's check; a function, so that the declaration names it without importing this module."""
    return (*ORDER_PHASES, TurnOrder)
