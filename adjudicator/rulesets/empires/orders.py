"""Empires orders as values (docs/rules-empires.md, "Orders by mail"): what the engine reads.
Each has `to_text`, its canonical line, which parses back to the same order."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rulesets.empires.model import Phase


@dataclass(frozen=True, slots=True)
class TradeSide:
    """E5.1: the Master of Commerce's chosen side (the number each player puts up)."""

    size: int
    line: int = 0

    def to_text(self) -> str:
        return f"trade {self.size}"


@dataclass(frozen=True, slots=True)
class Offer:
    """E5.3: a ranked list of tokens ("tax" or a good); the first held, up to the size, are offered."""

    tokens: tuple[str, ...]
    line: int = 0

    def to_text(self) -> str:
        return "offer " + ", ".join(self.tokens)


@dataclass(frozen=True, slots=True)
class Take:
    """E5.4, ED18: a ranked pick: a good, `tax`, `good` (any good) or `any`, maybe from one player."""

    choice: str
    source: str | None = None
    line: int = 0

    def to_text(self) -> str:
        return f"take {self.choice}" + (f" from {self.source}" if self.source else "")


@dataclass(frozen=True, slots=True)
class Give:
    """E5.5: the Master's ranked choice of the token that evens out the trade."""

    tokens: tuple[str, ...]
    line: int = 0

    def to_text(self) -> str:
        return "give " + ", ".join(self.tokens)


Order = TradeSide | Offer | Take | Give

ORDER_PHASES: dict[type, Phase] = {TradeSide: Phase.TRADE, Offer: Phase.TRADE, Take: Phase.TRADE, Give: Phase.TRADE}
