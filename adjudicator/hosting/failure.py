"""A game whose pass failed: paused with the reason, and the moderator mailed once."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError
from adjudicator.delivery.compose import make_message
from adjudicator.delivery.outbox import flush, mail_identity, queue
from adjudicator.delivery.smtp import SmtpSettings, game_smtp, shared_smtp
from adjudicator.game import pause as state
from adjudicator.game.directory import Folder, GameDirectory
from adjudicator.game.game import Game
from adjudicator.game.pause import Pause
from adjudicator.hosting.pass_report import GameReport


def needs_of(pause: Pause, folder: Path) -> str:
    details = f" (details in {pause.log})" if pause.log else ""
    since = f"{pause.since:%Y-%m-%d %H:%M} UTC"
    return f"paused since {since}: {pause.reason}{details}; fix it, then 'adjudicator resume {folder}'"


def fail(
    root: Path,
    folder: Path,
    gid: str,
    game: Game | None,
    reason: str,
    log: str,
    now: datetime,
    report: GameReport | None = None,
) -> GameReport:
    """Pause a game whose pass failed and tell the moderator, once per pause."""
    report = report or GameReport(gid)
    pause = state.paused(folder)
    if pause is None or not pause.needs_moderator:
        pause = Pause(reason, now, "run", log)
        state.pause(folder, pause)
        try:
            settings = game_smtp(game) if game is not None else _root_smtp(root)
        except AdjudicatorError:
            settings = None
        report.actions.append(_tell_moderator(folder, gid, settings, pause, game is not None))
    report.needs = needs_of(pause, folder)
    return report


def _root_smtp(root: Path) -> SmtpSettings | None:
    """The games folder's [delivery.smtp] (for a game too broken to read its own settings)."""
    return None if GameDirectory(root).game_file.exists() else shared_smtp(root)


def _tell_moderator(folder: Path, gid: str, settings: SmtpSettings | None, pause: Pause, loaded: bool) -> str:
    if settings is None:
        return "paused (no [delivery.smtp] to mail the moderator)"
    meanwhile = (
        "Players' mail is still read and answered in the meantime."
        if loaded
        else "Its players' mail stays on the server until the game can be loaded again."
    )
    body = (
        f"Game {gid} in {folder} is paused: {pause.reason}\n"
        + (f"Details: {pause.log}\n" if pause.log else "")
        + "\nNothing is adjudicated, reminded or reported for it until you fix that and run\n\n"
        f"    adjudicator resume {folder}\n\n"
        f"{meanwhile}\n"
    )
    message = make_message(
        sender=settings.sender,
        sender_name=f"{gid} judge",
        to=settings.moderator,
        to_name="",
        subject=f"[{gid}] paused: it needs you",
        body=body,
    )
    outbox = Folder(folder).outbox
    queue(outbox, [(mail_identity(gid, "hosting", f"paused-{pause.since:%Y%m%dT%H%M%S}", settings.moderator), message)])
    if flush(outbox, lambda: settings).hitch is not None:  # the server is away, or its settings are what failed
        return f"paused; the mail to {settings.moderator} waits in outbox/"
    return f"paused; {settings.moderator} was mailed"
