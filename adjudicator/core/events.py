"""Events: what happened, as plain data (a kind plus fields) that reports render.

Reports never re-run rules; everything a report tells must be in an event or the state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

from adjudicator.core.i18n import decode, encode

EventValue: TypeAlias = str | int | bool | Sequence["EventValue"] | Mapping[str, "EventValue"] | None


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: Mapping[str, EventValue] = field(default_factory=lambda: MappingProxyType({}))

    def to_data(self) -> dict[str, EventValue]:
        """For a history file: a message (`Msg`) becomes a table that keeps its translations."""
        return {"kind": self.kind, **{k: encode(v) for k, v in self.data.items()}}

    @classmethod
    def from_data(cls, data: Mapping[str, EventValue]) -> Event:
        fields = {k: decode(v) for k, v in data.items()}
        kind = fields.pop("kind")
        return cls(str(kind), fields)


def event(kind: str, **data: EventValue) -> Event:
    return Event(kind, data)


@dataclass(frozen=True, slots=True)
class RenamedField:
    """A field that events of `kinds` were written with under the name `old` before it became
    `new`. History files of games under way keep the old name; `game/event_records.py` reads
    them in the new one. A ruleset declares these (`Ruleset.renamed_event_fields`)."""

    old: str
    new: str
    kinds: frozenset[str]
