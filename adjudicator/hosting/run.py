"""One hosting pass over a root (one game, or a folder of games sharing intake.toml): what a
moderator would do by hand, in his order. Collect new mail and post files; then for each
game: adjudicate while its phase is due (every order in, after the game's `delay`; or the
deadline plus grace passed), queue and send the reports, send the reminders that are due.

A pass is idempotent: everything it does is keyed so that doing it again is a no-op (mail by
Message-ID, outgoing mail by identity, phases by the state file), and one pass at a time
holds the root. A game whose pass fails is paused with the reason, and the moderator is
mailed once; the other games go on.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.core.controls import shown_name
from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError, UsageError
from adjudicator.delivery.compose import make_message
from adjudicator.delivery.messages import reminder_messages, report_messages
from adjudicator.delivery.outbox import Hitch, flush, mail_identity, queue
from adjudicator.delivery.smtp import DeliveryError, SmtpSettings, game_smtp, shared_smtp
from adjudicator.game import pause as state
from adjudicator.game.directory import Folder, GameDirectory, game_lock
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import declared_id, has_own_mailbox
from adjudicator.game.pause import Pause
from adjudicator.game.schedule import utc_now
from adjudicator.game.storage import file_lock
from adjudicator.game.submissions import missing_orders, submitted
from adjudicator.intake.collect import CollectBusyError, CollectReport, collect, mailbox_settings
from adjudicator.intake.imap import ImapError
from adjudicator.intake.threads import THREAD_SUFFIXES
from adjudicator.reports.phase import adjudicated_slugs

MAX_PHASES_PER_PASS = 50  # a stepwise turn whose orders all came early resolves step after step
COLLECTED = "collected"  # where a drop folder's files go once collected
UNUSED = "unused"  # where a drop folder's files go that no game could use (named in the pass's output)
DROP_KINDS = frozenset({".txt", ".eml", *THREAD_SUFFIXES})  # what collect reads from a folder
RUN_LOCK = ".run.lock"  # one pass per root at a time
GAME_LOCK = ".hosting.lock"  # one pass per game (a game may sit in two roots run at once)

Stop = Callable[[], bool]


@dataclass
class GameReport:
    """What one pass did for one game, and where it stands: its one line."""

    gid: str
    actions: list[str] = field(default_factory=list)
    standing: str = ""
    needs: str = ""  # why the moderator is needed (the game is paused)
    wake: datetime | None = None  # when something falls due without any mail

    @property
    def line(self) -> str:
        if self.needs:
            done = f" ({'; '.join(self.actions)})" if self.actions else ""
            return f"{self.gid}: NEEDS THE MODERATOR: {self.needs}{done}"
        what = "; ".join(self.actions) if self.actions else "nothing due"
        return f"{self.gid}: {what}" + (f"; {self.standing}" if self.standing else "")


@dataclass
class PassReport:
    mail: list[str] = field(default_factory=list)
    games: list[GameReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # trouble that passes (a mail server away)
    problems: list[str] = field(default_factory=list)  # trouble the moderator must fix (wrong settings)
    busy: str = ""  # another pass holds the root: this one did nothing

    @property
    def acted(self) -> bool:
        return bool(self.mail) or any(g.actions for g in self.games)

    @property
    def needs_moderator(self) -> list[str]:
        return [*self.problems, *(f"{g.gid}: {g.needs}" for g in self.games if g.needs)]

    @property
    def wake(self) -> datetime | None:
        return min((g.wake for g in self.games if g.wake is not None), default=None)

    @property
    def text(self) -> str:
        if self.busy:
            return self.busy
        lines = [*self.mail, *(g.line for g in self.games), *(f"warning: {w}" for w in self.warnings)]
        lines += [f"NEEDS THE MODERATOR: {problem}" for problem in self.problems]
        if not (self.acted or self.warnings or self.needs_moderator):
            lines.append("Nothing to do.")
        return "\n".join(lines)


def game_folders(root: Path) -> list[Path]:
    """The game at `root`, or the games in the folders under it."""
    if GameDirectory(root).game_file.exists():
        return [root]
    folders = sorted(p for p in root.iterdir() if GameDirectory(p).game_file.exists()) if root.is_dir() else []
    if not folders:
        raise UsageError(f"{root} holds no game (no game.toml in it or in the folders under it)")
    return folders


def run_pass(root: Path, now: datetime | None = None, stop: Stop = lambda: False) -> PassReport:
    """One pass over `root`; `now` is the time the pass acts at (tests move it), `stop` is asked
    between mails and between games (SIGTERM in --watch)."""
    report = PassReport()
    root = root.absolute()  # the paths a pass writes into its messages and mails work from anywhere
    with file_lock(root / RUN_LOCK) as mine:
        if not mine:
            report.busy = f"another 'adjudicator run' is working on {root}; this one did nothing"
            return report
        _pass(root, report, now or utc_now(), stop)
    return report


def _pass(root: Path, report: PassReport, now: datetime, stop: Stop) -> None:
    folders = game_folders(root)
    games: dict[str, Game] = {}
    loaded_at: dict[str, float] = {}  # when each game was read: a change by another command since is seen
    failed: list[GameReport] = []
    for folder in folders:
        started = time.time()
        loaded = _load(root, folder, now)
        if isinstance(loaded, Game):
            games[loaded.settings.id], loaded_at[loaded.settings.id] = loaded, started
        else:
            failed.append(loaded)
    broken = {g.gid: "the game cannot be loaded now (see its line)" for g in failed}
    _collect(root, games, broken, now, stop, report)
    report.games += failed
    for gid, game in games.items():
        if stop():  # the replies to the mail read are sent all the same
            report.games.append(_send(game, GameReport(gid, standing="stopped before adjudicating")))
            continue
        report.games.append(_host(root, game, loaded_at[gid], now))


def _load(root: Path, folder: Path, now: datetime) -> Game | GameReport:
    """A game, or the report of one that cannot be loaded (it is paused, the moderator told)."""
    try:
        return Game.load(folder)
    except AdjudicatorError as error:
        return _fail(root, folder, declared_id(folder), None, str(error), "", now)
    except Exception as error:
        log = write_crash_log(folder, error)
        return _fail(root, folder, declared_id(folder), None, f"internal error: {one_line(error)}", str(log), now)


def _collect(
    root: Path, games: dict[str, Game], held: dict[str, str], now: datetime, stop: Stop, out: PassReport
) -> None:
    """New mail (the root's mailbox and each game's own) and the drop folders' files, each
    answered at once. A mailbox that cannot be read holds up nothing else."""
    if not games:
        return
    sources = [(root, games)]
    sources += [(g.directory.root, {gid: g}) for gid, g in games.items() if g.directory.root != root]
    for where, which in sources:
        if where == root or has_own_mailbox(next(iter(which.values()))):
            try:
                mailbox = mailbox_settings(where, which)[0] is not None
            except AdjudicatorError as error:
                out.problems.append(f"the mail settings for {where} are wrong: {error}")
                mailbox = False
            if mailbox:
                _read(out, where, which, dict(imap=True, now=now, stop=stop, held=held))
        drop = Folder(where).drop
        if drop.is_dir():
            files = _files_in(drop)
            got = _read(out, where, which, dict(folder=drop, now=now))
            if got is not None:
                out.mail += _set_aside(files, set(got.unkept), now)


def _read(out: PassReport, where: Path, games: dict[str, Game], how: dict[str, Any]) -> CollectReport | None:
    """One collect; what it read goes into the pass's lines. None when it could not run."""
    try:
        got = collect(where, games=games, deliver=False, **how)
    except CollectBusyError:
        out.warnings.append(f"another 'adjudicator collect' is reading mail for {where}; the next pass reads it")
        return None
    except (ImapError, DeliveryError) as error:  # the server is away: the next pass tries again
        out.warnings.append(f"mail not read for {where}: {error}")
        return None
    except AdjudicatorError as error:  # the settings are wrong (a password variable not set, …)
        out.problems.append(f"mail not read for {where}: {error}")
        return None
    except Exception as error:  # a bug: the games are still hosted, and the moderator is told where to look
        log = write_crash_log(where, error)
        out.problems.append(f"mail not read for {where}: internal error: {one_line(error)} (details in {log})")
        return None
    out.mail += got.lines
    out.warnings += got.problems
    return got


def _files_in(folder: Path) -> dict[Path, tuple[int, int]]:
    """The files of a drop folder as a pass finds them (modified time and size)."""
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir() if p.is_file()}


def _set_aside(files: dict[Path, tuple[int, int]], unkept: set[str], now: datetime) -> list[str]:
    """Collected files go to drop/collected/ (their text is kept in inbox/ as well), so the
    next pass reads only new ones; a file changed while it was read stays to be read again.
    A file no game kept (it names no game, it cannot be read, it is of a kind never read)
    goes to drop/unused/, and is named."""
    said = []
    for path, seen in files.items():
        with contextlib.suppress(FileNotFoundError):
            if (path.stat().st_mtime_ns, path.stat().st_size) != seen:
                continue
            unused = path.name in unkept or path.suffix.lower() not in DROP_KINDS
            target = path.parent / (UNUSED if unused else COLLECTED) / f"{now:%Y%m%dT%H%M%S}-{path.name}"
            target.parent.mkdir(mode=0o700, exist_ok=True)
            target.parent.chmod(0o700)  # raw mails hold passwords: the moderator's eyes only
            os.replace(path, target)
            target.chmod(0o600)
            moved = target.parent / shown_name(target)
            if path.suffix.lower() not in DROP_KINDS:
                kinds = ", ".join(sorted(DROP_KINDS))
                said.append(f"{shown_name(path)}: not read (only {kinds} files are); moved to {moved}")
            elif unused:
                said.append(f"{shown_name(path)}: moved to {moved}; fix it and put it back into {path.parent}")
    return said


def _host(root: Path, game: Game, started: float, now: datetime) -> GameReport:
    """Everything due for one game, under its own lock (a moderator's command waits for it).
    `started`: when the game was read (collecting mail changes no position)."""
    folder = game.directory.root
    with file_lock(folder / GAME_LOCK) as mine:
        if not mine:
            return GameReport(game.settings.id, standing="another run is working on this game")
        report = GameReport(game.settings.id)
        try:
            _host_game(game, started, now, report)
        except AdjudicatorError as error:
            return _fail(root, folder, game.settings.id, game, str(error), "", now, report)
        except Exception as error:
            log = write_crash_log(folder, error)
            return _fail(
                root, folder, game.settings.id, game, f"internal error: {one_line(error)}", str(log), now, report
            )
        return report


def _host_game(game: Game, started: float, now: datetime, report: GameReport) -> None:
    folder = game.directory.root
    pause = state.paused(folder)
    if pause is None:
        _queue_reports(game, report)
        _give_deadline(game, now, report)
        for _ in range(MAX_PHASES_PER_PASS):
            due = _due(game, now, report)
            if due is None:
                break
            reason, force = due
            from adjudicator.hosting.adjudication import adjudicate

            result = adjudicate(game, force=force, now=now, started=started)
            report.actions.append(f"{result.label} adjudicated ({reason})")
            if result.site_problem:  # the game goes on; the line tells the moderator
                report.actions.append(f"warning: {result.site_problem}")
            if result.report_problem:
                raise AdjudicatorError(
                    f"{result.label} is resolved but its reports could not be made: {result.report_problem}"
                )
            started = time.time()
            game = Game.load(folder)
            _queue_reports(game, report)
            _give_deadline(game, now, report)
        _remind(game, now, report)
    report.standing = _standing(game, pause, report.wake)
    _send(game, report)
    if pause is not None and pause.needs_moderator:
        report.needs = _needs(pause, folder)


def _needs(pause: Pause, folder: Path) -> str:
    details = f" (details in {pause.log})" if pause.log else ""
    since = f"{pause.since:%Y-%m-%d %H:%M} UTC"
    return f"paused since {since}: {pause.reason}{details}; fix it, then 'adjudicator resume {folder}'"


def _give_deadline(game: Game, now: datetime, report: GameReport) -> None:
    """A phase without a deadline gets one from [schedule], counted from now, when the game
    gives its kind of phase a duration (the first phase, a phase after a pause, …)."""
    if game.phase_info.winner is not None or game.deadline() is not None:
        return
    span = (game.settings.schedule.durations or {}).get(game.phase_info.phase)
    if span is not None:
        with game_lock(game.directory):
            game.set_deadline(now + span)
        report.actions.append(f"deadline set to {game.settings.schedule.local(now + span)}")


def _due(game: Game, now: datetime, report: GameReport) -> tuple[str, bool] | None:
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


def _remind(game: Game, now: datetime, report: GameReport) -> None:
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


def _queue_reports(game: Game, report: GameReport) -> None:
    """The last adjudicated phase's reports, queued once (also those a crash or the moderator's
    own `adjudicate` left unsent: a mail sent before is never queued again)."""
    slugs = adjudicated_slugs(game)
    if not slugs or state.reports_queued(game.directory.root) == slugs[-1]:
        return
    queued = queue(game.directory.outbox, report_messages(game))
    state.mark_reports_queued(game.directory.root, slugs[-1])
    if queued:
        report.actions.append(f"{len(queued)} report(s) of {slugs[-1]} queued")


def _send(game: Game, report: GameReport) -> GameReport:
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


def _standing(game: Game, pause: Pause | None, wake: datetime | None) -> str:
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


def _fail(
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
    report.needs = _needs(pause, folder)
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
