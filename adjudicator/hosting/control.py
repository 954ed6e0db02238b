"""The moderator's hand on hosting: pause a game (`run` then adjudicates, reminds and
reports nothing for it, but still reads and answers its mail) and resume it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from adjudicator.errors import AdjudicatorError, UsageError
from adjudicator.game import Game
from adjudicator.hosting import state
from adjudicator.hosting.state import Pause
from adjudicator.outgoing import missing_orders
from adjudicator.schedule import utc_now


def pause_game(folder: Path, reason: str, now: datetime | None = None) -> str:
    """The moderator pauses a game: no adjudication, reminders or reports by `run` until resumed."""
    game = Game.load(folder)
    earlier = state.paused(folder)
    if earlier is not None and not earlier.needs_moderator:
        return f"{game.settings.id} is already paused (since {game.settings.schedule.local(earlier.since)})"
    state.pause(folder, Pause(reason, now or utc_now(), "moderator"))
    return (
        f"{game.settings.id} is paused: 'adjudicator run' reads and answers its mail, "
        "but adjudicates, reminds and reports nothing until 'adjudicator resume'"
    )


def resume_game(folder: Path, now: datetime | None = None) -> str:
    """Lift a pause, once the game loads again (a game still broken stays paused)."""
    if not (folder / "game.toml").exists():
        raise UsageError(f"{folder} holds no game (no game.toml)")
    try:
        game = Game.load(folder)
    except AdjudicatorError as error:
        raise UsageError(f"{folder.name} stays paused until it loads again: {error}") from None
    was = state.resume(folder)
    if was is None:
        return f"{folder.name} was not paused; nothing changed"
    why = was.reason or "no reason given"
    text = f"{folder.name} is running again (it was paused since {was.since:%Y-%m-%d %H:%M} UTC: {why})"
    deadline, missing = game.deadline(), missing_orders(game)
    if deadline is not None and missing and (now or utc_now()) >= deadline + game.settings.schedule.grace:
        text += (
            f"; its deadline {game.settings.schedule.local(deadline)} has passed, so the next pass adjudicates "
            f"with default orders for {', '.join(missing)} (set a new one first with 'adjudicator deadline')"
        )
    return text
