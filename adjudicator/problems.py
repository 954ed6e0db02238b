"""Per-line problems with orders: values kept next to their line, never raised.

Three kinds, as in python-chess (invalid / illegal / ambiguous) and godip (not understood /
not allowed): the line is not understood (`OrderSyntaxError`), it names something that does
not exist or could be several things (`UnknownName`, `AmbiguousName`), or it is understood
but the rules forbid it (`Rejection`, which cites its rule).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OrderSyntaxError:
    line: int
    column: int
    label: str
    expected: str = ""

    @property
    def message(self) -> str:
        if self.expected:
            return f"{self.label}; write it as: {self.expected}"
        return self.label


@dataclass(frozen=True, slots=True)
class UnknownName:
    line: int
    kind: str
    name: str
    suggestions: tuple[str, ...] = ()
    where: str = ""  # e.g. "in Ravenna" for a city site

    @property
    def message(self) -> str:
        text = f"unknown {self.kind} '{self.name}'" + (f" {self.where}" if self.where else "")
        if self.suggestions:
            text += "; did you mean " + " or ".join(f"'{s}'" for s in self.suggestions) + "?"
        return text


@dataclass(frozen=True, slots=True)
class AmbiguousName:
    line: int
    kind: str
    name: str
    candidates: tuple[str, ...]

    @property
    def message(self) -> str:
        options = " or ".join(f"'{c}'" for c in self.candidates)
        return f"'{self.name}' could be the {self.kind} {options}; write the full name"


@dataclass(frozen=True, slots=True)
class Rejection:
    line: int
    rule: str
    text: str

    @property
    def message(self) -> str:
        return f"{self.rule}: {self.text}" if self.rule else self.text


Problem = OrderSyntaxError | UnknownName | AmbiguousName | Rejection
