"""A phase's events as history/ keeps them, read in today's field names.

A game under way keeps the history files an earlier version wrote: its events may name a field
as they no longer do (2003's `civ` and Empires' `empire` before every ruleset named the player
an event is about `player`). Every reader of history's events goes through `stored_events`:
a phase's reports and the campaign site (`reports/phase.py`), and `replay`
(`hosting/adjudication.py`), which compares them with the events the engine makes today.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.rulesets import Ruleset


def stored_events(ruleset: Ruleset[Any, Any, Any], history: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The events of a history file as TOML keeps them (a message still a table), each field the
    ruleset has renamed since (`Ruleset.renamed_event_fields`) under its new name, in its place."""
    events = []
    for stored in history["events"]:
        kind = stored.get("kind")
        names = {
            f.old: f.new
            for f in ruleset.renamed_event_fields
            if kind in f.kinds and f.old in stored and f.new not in stored
        }
        events.append({names.get(key, key): value for key, value in stored.items()})
    return events
