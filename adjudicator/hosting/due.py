"""What falls due for one game in a pass: a deadline to give the new phase, adjudication
(every order in, or the deadline and grace passed), reminders, the reports to queue, and the
outbox to send; and the game's standing, the end of its line."""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

from adjudicator.delivery.messages import reminder_messages, report_messages
from adjudicator.delivery.outbox import SENT_FOLDER, Hitch, flush, queue
from adjudicator.delivery.post_messages import flush_game_posts, phase_posts, queue_game_posts, reminder_posts
from adjudicator.delivery.smtp import game_smtp
from adjudicator.game import pause as state
from adjudicator.game.directory import game_lock
from adjudicator.game.game import Game
from adjudicator.game.history import last_adjudicated
from adjudicator.game.pause import Pause
from adjudicator.game.schedule import quiet_window, utc_now
from adjudicator.game.submissions import missing_orders, submitted
from adjudicator.hosting.pass_report import GameReport

DROPPED_FOLDER = "dropped"  # outbox/dropped/: reminders that quiet hours kept back until past the deadline


def give_deadline(game: Game, now: datetime, report: GameReport) -> None:
    """A phase without a deadline gets one from [schedule], counted from now, when the game
    gives its kind of phase a duration or sets `at` (the first phase, a phase after a pause, …)."""
    if game.phase_info.winner is not None or game.deadline() is not None:
        return
    deadline = game.settings.schedule.derived_deadline(now, game.phase_info.phase)
    if deadline is not None:
        with game_lock(game.directory):
            game.set_deadline(deadline)
        report.actions.append(f"deadline set to {game.settings.schedule.local(deadline)}")


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
    to each player still missing, and when the next is due. Each player's times keep out of
    his quiet hours ([schedule] quiet, in his zone): a reminder due in them goes the minute
    before they begin; one whose time came while they last goes at their end, or, when that
    is after the deadline, never (it is kept in outbox/dropped/ and named once)."""
    deadline = game.deadline()
    schedule = game.settings.schedule
    if deadline is None or now >= deadline or not schedule.remind:
        return
    outbox = game.directory.outbox
    reminded, dropped = [], []
    for civ in missing_orders(game):
        zone = game.settings.zone_of(civ)
        times = {before: schedule.reminder_time(deadline - before, zone) for before in schedule.remind}
        come = [before for before, at in times.items() if at <= now]
        messages = [m for m in reminder_messages(game, min(come), (civ,)) if not _known(outbox, m[0])] if come else []
        window = quiet_window(now, zone, schedule.quiet) if messages else None
        if messages and window is None:
            if queue(outbox, messages):
                reminded.append(civ)
        elif window is not None and window[1] < deadline:  # his quiet hours end before the deadline
            report.wake = _earliest(report.wake, window[1])
        elif window is not None:
            queue(outbox / DROPPED_FOLDER, messages)
            dropped.append(civ)
        later = [at for at in times.values() if at > now]
        if later:
            report.wake = _earliest(report.wake, min(later))
    if reminded:
        report.actions.append(f"reminded {', '.join(reminded)}")
    come = [before for before in schedule.remind if deadline - before <= now]
    if come and queue_game_posts(game, reminder_posts(game, min(come)), now):  # a channel keeps no quiet hours
        report.actions.append("reminder posted")
    if dropped:
        report.actions.append(f"no reminder for {', '.join(dropped)}: [schedule] quiet lasts past the deadline")


def _known(outbox: Path, identity: str) -> bool:
    """Whether this mail was queued, sent or dropped before: a reminder goes at most once."""
    name = f"{identity}.eml"
    return any((folder / name).exists() for folder in (outbox, outbox / SENT_FOLDER, outbox / DROPPED_FOLDER))


def queue_reports(game: Game, report: GameReport, now: datetime) -> None:
    """The last adjudicated phase's reports and posts, queued once (also those a crash or the
    moderator's own `adjudicate` left unsent: a mail or post sent before is never queued again)."""
    last = last_adjudicated(game)
    if last is None or state.reports_queued(game.directory.root) == last:
        return
    queued = queue(game.directory.outbox, report_messages(game))
    posted = queue_game_posts(game, phase_posts(game), now)
    state.mark_reports_queued(game.directory.root, last)
    if queued:
        report.actions.append(f"{len(queued)} report(s) of {last} queued")
    if posted:
        report.actions.append(f"{posted} post(s) of {last} queued")


def send_outbox(game: Game, report: GameReport, now: datetime | None = None) -> GameReport:
    """Everything waiting in the game's outbox/: receipts, reports, reminders, then the chat
    posts. What cannot go waits there; wrong settings need the moderator, but hold up nothing else."""
    _send_mail(game, report)
    _send_posts(game, report, now or utc_now())
    return report


def _send_posts(game: Game, report: GameReport, now: datetime) -> None:
    """The chat posts after the mail: a destination that fails waits or is parked, alone."""
    flushed = flush_game_posts(game, now)
    report.actions.extend(flushed.news())
    trouble = flushed.needs(game.directory)
    if trouble:
        report.needs = "; ".join(filter(None, [report.needs, *trouble]))


def _send_mail(game: Game, report: GameReport) -> None:
    flushed = flush(game.directory.outbox, functools.partial(game_smtp, game))
    if flushed.hitch is Hitch.NO_SETTINGS:
        report.standing += f"; {flushed.waiting} mail(s) wait in outbox/ (no [delivery.smtp])"
    elif flushed.hitch is Hitch.SERVER_AWAY:  # the next pass tries again
        report.actions.append(f"mail waits in outbox/: {flushed.error}")
    elif flushed.hitch is Hitch.SETTINGS_WRONG:
        report.needs = report.needs or f"{flushed.waiting} mail(s) wait in outbox/: {flushed.error}"
    elif flushed.sent:
        report.actions.append(f"{flushed.sent} mail(s) sent")


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
