"""Which phases a game's history holds resolved, found by number or slug: for `report`, the
outbox and `run`, without the report makers (issue 31)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.errors import UsageError
from adjudicator.game.game import Game
from adjudicator.game.storage import read_toml


def adjudicated_slugs(game: Game) -> list[str]:
    """Every resolved phase, oldest first (each history file read: for the site and lists)."""
    return [p.stem for p in sorted(game.directory.history.glob("*.toml")) if is_adjudicated(p.stem, read_toml(p))]


def last_adjudicated(game: Game) -> str | None:
    """The last resolved phase: the one before the phase state.toml has open (state.toml is
    written last when a phase is resolved, so it is the word on what is), found by its number
    without reading history, since `run` asks it of every game on every pass (issue 31)."""
    for path in sorted(game.directory.history.glob("*.toml"), reverse=True):
        number = path.stem[:3]
        if number.isdigit() and 0 < int(number) < game.phase_number:
            return path.stem
    return None


def is_adjudicated(slug: str, history: Mapping[str, Any]) -> bool:
    """Whether a history file records a resolved phase (the setup, phase 0, is no phase to report)."""
    return "events" in history and slug[:3] != "000"


def phase_slug(game: Game, phase: str | None = None) -> str:
    """A resolved phase by number or slug (default: the last one); a clear error for any other."""
    if phase is None:
        last = last_adjudicated(game)
        if last is None:
            raise UsageError("no phase has been adjudicated yet; run 'adjudicator adjudicate GAME' first")
        return last
    named = [game.directory.history_file(phase)] if game.directory.history_file(phase).exists() else []
    if not named and phase.isdigit():
        named = sorted(game.directory.history.glob(f"{int(phase):03d}-*.toml"))
    if named and is_adjudicated(named[0].stem, read_toml(named[0])):
        return named[0].stem
    slugs = adjudicated_slugs(game)
    if not slugs:
        raise UsageError("no phase has been adjudicated yet; run 'adjudicator adjudicate GAME' first")
    raise UsageError(f"no adjudicated phase '{phase}'; the phases are {', '.join(slugs)}")
