"""Events: what happened, as plain data (a kind plus fields) that reports render.

Reports never re-run rules; everything a report tells must be in an event or the state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

EventValue: TypeAlias = str | int | bool | Sequence["EventValue"] | Mapping[str, "EventValue"] | None


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: Mapping[str, EventValue] = field(default_factory=lambda: MappingProxyType({}))

    def to_data(self) -> dict[str, EventValue]:
        return {"kind": self.kind, **self.data}

    @classmethod
    def from_data(cls, data: Mapping[str, EventValue]) -> Event:
        fields = dict(data)
        kind = fields.pop("kind")
        return cls(str(kind), fields)


def event(kind: str, **data: EventValue) -> Event:
    return Event(kind, data)
