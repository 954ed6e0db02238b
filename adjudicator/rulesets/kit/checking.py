"""What every ruleset's order checks share: the line being checked, refusals that carry its
problem out of nested checks, names looked up with did-you-mean, and the loop that turns one
line into its verdict. A ruleset's validator subclasses `LineChecks` with what it looks up."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from adjudicator.core.names import NameIndex
from adjudicator.language.problems import Rejection
from adjudicator.language.submission import OrderLine
from adjudicator.rulesets.kit.lookup import Refused, find_name

K = TypeVar("K")
OrderT = TypeVar("OrderT")


@dataclass(kw_only=True)
class LineChecks:
    """The line under check (refusals name it) and the notes its checks leave for the receipt."""

    line: int = 0
    notes: list[str] = field(default_factory=list)

    def refuse(self, rule: str, text: str) -> Refused:
        """The current line refused under `rule`: raise it."""
        return Refused(Rejection(self.line, rule, text))

    def find(self, index: NameIndex[K], text: str, kind: str, where: str = "", term_kind: str = "") -> K:
        """The one thing a name means, or the current line refused with did-you-mean."""
        return find_name(index, text, kind, self.line, where, term_kind)

    def depends(self, text: str) -> None:
        """The current line works only if something else happens first: say so on the receipt."""
        if text not in self.notes:
            self.notes.append(text)

    def note(self) -> str | None:
        """The receipt's note for the current line from `notes`, in the ruleset's own words; None
        (a ruleset whose checks leave no notes) keeps the line's note as it came."""
        return None


ChecksT = TypeVar("ChecksT", bound=LineChecks)


def check_line(
    checks: ChecksT, line: OrderLine[OrderT], check: Callable[[ChecksT, OrderT], OrderT]
) -> OrderLine[OrderT]:
    """One line's verdict: `check` gives the order with its names resolved, or raises `Refused`;
    a line the parser already stopped is returned as it is."""
    if line.problem is not None or line.order is None:
        return line
    checks.line = line.number
    checks.notes.clear()
    try:
        order = check(checks, line.order)
    except Refused as refused:
        return replace(line, problem=refused.problem)
    note = checks.note()
    return replace(line, order=order) if note is None else replace(line, order=order, note=note)
