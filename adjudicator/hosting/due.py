"""What falls due for one game in a pass: a deadline to give the new phase, adjudication
(every order in, or the deadline and grace passed), reminders, the reports to queue, and the
outbox to send; and the game's standing, the end of its line."""

from __future__ import annotations

import functools
from datetime import datetime

from adjudicator.delivery.messages import reminder_messages, report_messages
from adjudicator.delivery.outbox import Hitch, flush, queue
from adjudicator.delivery.smtp import game_smtp
from adjudicator.game import pause as state
from adjudicator.game.directory import game_lock
from adjudicator.game.game import Game
from adjudicator.game.history import last_adjudicated
from adjudicator.game.pause import Pause
from adjudicator.game.submissions import missing_orders, submitted
from adjudicator.hosting.pass_report import GameReport


def give_deadline(game: Game, now: datetime, report: GameReport) -> None:
    """A phase without a deadline gets one from [schedule], counted from now, when the game
    gives its kind of phase a duration (the first phase, a phase after a pause, …)."""
    if game.phase_info.winner is not None or game.deadline() is not None:
        return
    span = (game.settings.schedule.durations or {}).get(game.phase_info.phase)
    if span is not None:
        with game_lock(game.directory):
            game.set_deadline(now + span)
        report.actions.append(f"deadline set to {game.settings.schedule.local(now + span)}")


def due_now(game: Game, now: datetime, report: GameReport) -> tuple[str, bool] | None:
    """Why the phase is to be adjudicated now, and whether missing players get default
    orders; None when it is not (yet), noting when it will be."""
    if game.phase_info.winner is not None:
        return None
    schedule = game.settings.schedule
    missing = missing_orders(game)
    if not missing:
        due = game.due()
        times = [when for civ, when in submitted(game).items() if civ in due and when is not None]
        ready = max(times) + schedule.delay if times and schedule.delay else now
        if now >= ready:
            return "every order is in", False
        report.wake = ready
        return None
    deadline = game.deadline()
    if deadline is None:
        return None
    if now >= deadline + schedule.grace:
        return f"the deadline passed; default orders for {', '.join(missing)}", True
    report.wake = _earliest(report.wake, deadline + schedule.grace)
    return None


def remind(game: Game, now: datetime, report: GameReport) -> None:
    """The reminder whose time has come (the latest one only, when a pass was missed), once
    to each player still missing, and when the next is due."""
    deadline = game.deadline()
    times = game.settings.schedule.remind
    if deadline is None or now >= deadline or not times:
        return
    missing = missing_orders(game)
    if not missing:
        return
    come = [before for before in times if deadline - before <= now]
    if come:
        sent = queue(game.directory.outbox, reminder_messages(game, min(come)))
        if sent:
            report.actions.append(f"reminded {', '.join(missing)}")
    later = [deadline - before for before in times if deadline - before > now]
    if later:
        report.wake = _earliest(report.wake, min(later))


def queue_reports(game: Game, report: GameReport) -> None:
    """The last adjudicated phase's reports, queued once (also those a crash or the moderator's
    own `adjudicate` left unsent: a mail sent before is never queued again)."""
    last = last_adjudicated(game)
    if last is None or state.reports_queued(game.directory.root) == last:
        return
    queued = queue(game.directory.outbox, report_messages(game))
    state.mark_reports_queued(game.directory.root, last)
    if queued:
        report.actions.append(f"{len(queued)} report(s) of {last} queued")


def send_outbox(game: Game, report: GameReport) -> GameReport:
    """Everything waiting in the game's outbox/: receipts, reports, reminders. Mail that cannot
    go waits there; wrong settings need the moderator, but hold up nothing else."""
    flushed = flush(game.directory.outbox, functools.partial(game_smtp, game))
    if flushed.hitch is Hitch.NO_SETTINGS:
        report.standing += f"; {flushed.waiting} mail(s) wait in outbox/ (no [delivery.smtp])"
    elif flushed.hitch is Hitch.SERVER_AWAY:  # the next pass tries again
        report.actions.append(f"mail waits in outbox/: {flushed.error}")
    elif flushed.hitch is Hitch.SETTINGS_WRONG:
        report.needs = report.needs or f"{flushed.waiting} mail(s) wait in outbox/: {flushed.error}"
    elif flushed.sent:
        report.actions.append(f"{flushed.sent} mail(s) sent")
    return report


def standing_of(game: Game, pause: Pause | None, wake: datetime | None) -> str:
    info = game.phase_info
    if info.winner is not None:
        return f"the game is over: {info.winner} won"
    where = f"{info.label}" + (f" ({info.step} to move)" if info.step else "")
    if pause is not None and not pause.needs_moderator:
        return f"{where}: paused by the moderator" + (f" ({pause.reason})" if pause.reason else "")
    missing = missing_orders(game)
    deadline = game.deadline()
    due = f", due {game.settings.schedule.local(deadline)}" if deadline else ""
    if missing:
        return f"{where}: waiting for {', '.join(missing)}{due}"
    if wake is not None:
        return f"{where}: every order is in; adjudicated at {game.settings.schedule.local(wake)} ([schedule] delay)"
    return f"{where}: every order is in{due}"


def _earliest(a: datetime | None, b: datetime) -> datetime:
    return b if a is None or b < a else a
