"""Which phases a game's history holds resolved, found by number or slug: for `report`, the
outbox and `run`, without the report makers (issue 31)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.errors import UsageError
from adjudicator.game.game import Game


def adjudicated_slugs(game: Game) -> list[str]:
    """Every resolved phase, oldest first."""
    return [path.stem for path in sorted(game.directory.history.glob("*.toml")) if _resolved(game, path.stem)]


def last_adjudicated(game: Game) -> str | None:
    """The last resolved phase, found without reading history, since `run` asks it of every
    game on every pass (issue 31)."""
    for path in sorted(game.directory.history.glob("*.toml"), reverse=True):
        if _resolved(game, path.stem):
            return path.stem
    return None


def _resolved(game: Game, slug: str) -> bool:
    """Whether a history file's phase is resolved: one before the phase state.toml has open
    (state.toml is written last when a phase is resolved, so it is the word on what is; the
    setup, phase 0, is no phase to report). Each adjudication, a stepwise step too, is a number."""
    number = slug[:3]
    return number.isdigit() and 0 < int(number) < game.phase_number


def is_adjudicated(slug: str, history: Mapping[str, Any]) -> bool:
    """Whether a history file's content records a resolved phase, for the site, whose summary of
    a file is kept by its content; it agrees with `_resolved` once state.toml is written."""
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
    if named and _resolved(game, named[0].stem):
        return named[0].stem
    slugs = adjudicated_slugs(game)
    if not slugs:
        raise UsageError("no phase has been adjudicated yet; run 'adjudicator adjudicate GAME' first")
    raise UsageError(f"no adjudicated phase '{phase}'; the phases are {', '.join(slugs)}")
