"""What every order value of every ruleset keeps besides what it orders: the line it was written
on. Written once here, so an order class states only its own fields and its canonical text
(`to_text`, which `rulesets.Order` names for generic code)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Written:
    """An order as a player writes it on one line. `line` is the number of that line in his
    orders (0 for an order the engine makes itself): the front end sets it, so that a refusal
    or a receipt names the line. Keyword-only, so each order's own fields keep their places."""

    line: int = field(default=0, kw_only=True)


@dataclass(frozen=True, slots=True)
class Take(Written):
    """A ranked pick in a trade (R5.4, E5.4, ED18): a card or good, or a class of them
    (`commodity`, `good`, `tax`, `any`), maybe from one player."""

    choice: str
    source: str | None = None

    def to_text(self) -> str:
        return f"take {self.choice}" + (f" from {self.source}" if self.source else "")
