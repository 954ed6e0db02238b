"""The moderator's hand on hosting: pause a game (`run` then adjudicates, reminds and
reports nothing for it, but still reads and answers its mail) and resume it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError, UsageError
from adjudicator.game import pause as state
from adjudicator.game.game import Game
from adjudicator.game.pause import Pause
from adjudicator.game.schedule import utc_now
from adjudicator.game.submissions import missing_orders


def pause_game(folder: Path, reason: str, now: datetime | None = None) -> str:
    """The moderator pauses a game: no adjudication, reminders or reports by `run` until resumed.
    Paused again, it keeps its pause and takes the new reason."""
    game = Game.load(folder)
    earlier = state.paused(folder)
    if earlier is not None and not earlier.needs_moderator:
        state.resume(folder)
        state.pause(folder, Pause(reason or earlier.reason, earlier.since, "moderator"))
        since = game.settings.schedule.local(earlier.since)
        return f"{game.settings.id} was already paused (since {since}); the reason is now: {reason or earlier.reason}"
    state.pause(folder, Pause(reason, now or utc_now(), "moderator"))
    return (
        f"{game.settings.id} is paused: 'adjudicator run' reads and answers its mail, "
        "but adjudicates, reminds and reports nothing until 'adjudicator resume'"
    )


def resume_game(folder: Path, now: datetime | None = None) -> str:
    """Lift the pause in force. A pause after a failure is lifted only once the game loads
    again; a pause of the moderator's own under it stays."""
    if not (folder / "game.toml").exists():
        raise UsageError(f"{folder} holds no game (no game.toml)")
    top = state.paused(folder)
    try:
        game: Game | None = Game.load(folder)
    except AdjudicatorError as error:
        if top is None or top.needs_moderator:
            raise UsageError(f"{folder.name} stays paused until it loads again: {error}") from None
        game = None
    was, under = state.resume(folder)
    if was is None:
        return f"{folder.name} was not paused; nothing changed"
    why = was.reason or "no reason given"
    lifted = f"the pause since {was.since:%Y-%m-%d %H:%M} UTC ({why}) is lifted"
    if under is not None:
        return (
            f"{folder.name}: {lifted}, but it is still paused since {under.since:%Y-%m-%d %H:%M} UTC "
            f"({under.reason or 'no reason given'}); 'adjudicator resume' again lifts that"
        )
    text = f"{folder.name} is running again ({lifted})"
    if game is None:
        return text
    deadline, missing = game.deadline(), missing_orders(game)
    if deadline is not None and missing and (now or utc_now()) >= deadline + game.settings.schedule.grace:
        text += (
            f"; its deadline {game.settings.schedule.local(deadline)} has passed, so the next pass adjudicates "
            f"with default orders for {', '.join(missing)} (set a new one first with 'adjudicator deadline')"
        )
    return text
