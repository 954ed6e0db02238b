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

import time
from datetime import datetime
from pathlib import Path

from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError
from adjudicator.game import pause as state
from adjudicator.game.directory import game_folders
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import declared_id
from adjudicator.game.schedule import utc_now
from adjudicator.game.storage import file_lock
from adjudicator.hosting.due import due_now, give_deadline, queue_reports, remind, send_outbox, standing_of
from adjudicator.hosting.failure import fail, needs_of
from adjudicator.hosting.incoming import collect_all
from adjudicator.hosting.pass_report import GameReport, PassReport, Stop

MAX_PHASES_PER_PASS = 50  # a stepwise turn whose orders all came early resolves step after step
RUN_LOCK = ".run.lock"  # one pass per root at a time
GAME_LOCK = ".hosting.lock"  # one pass per game (a game may sit in two roots run at once)


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
    collect_all(root, games, broken, now, stop, report)
    report.games += failed
    for gid, game in games.items():
        if stop():  # the replies to the mail read are sent all the same
            report.games.append(send_outbox(game, GameReport(gid, standing="stopped before adjudicating"), now))
            continue
        report.games.append(_host(root, game, loaded_at[gid], now))


def _load(root: Path, folder: Path, now: datetime) -> Game | GameReport:
    """A game, or the report of one that cannot be loaded (it is paused, the moderator told)."""
    try:
        return Game.load(folder)
    except AdjudicatorError as error:
        return fail(root, folder, declared_id(folder), None, str(error), "", now)
    except Exception as error:
        log = write_crash_log(folder, error)
        return fail(root, folder, declared_id(folder), None, f"internal error: {one_line(error)}", str(log), now)


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
            return fail(root, folder, game.settings.id, game, str(error), "", now, report)
        except Exception as error:
            log = write_crash_log(folder, error)
            return fail(
                root, folder, game.settings.id, game, f"internal error: {one_line(error)}", str(log), now, report
            )
        return report


def _host_game(game: Game, started: float, now: datetime, report: GameReport) -> None:
    folder = game.directory.root
    pause = state.paused(folder)
    if pause is None:
        queue_reports(game, report, now)
        give_deadline(game, now, report)
        for _ in range(MAX_PHASES_PER_PASS):
            due = due_now(game, now, report)
            if due is None:
                break
            reason, force = due
            from adjudicator.hosting.adjudication import adjudicate

            result = adjudicate(game, force=force, now=now, started=started)
            report.actions.append(f"{result.label} adjudicated ({reason})")
            report.actions.extend(result.seat_changes)  # players warned, seats opened: the moderator reads it here
            if result.site_problem:  # the game goes on; the line tells the moderator
                report.actions.append(f"warning: {result.site_problem}")
            if result.report_problem:
                raise AdjudicatorError(
                    f"{result.label} is resolved but its reports could not be made: {result.report_problem}"
                )
            started = time.time()
            game = Game.load(folder)
            queue_reports(game, report, now)
            give_deadline(game, now, report)
        remind(game, now, report)
    report.standing = standing_of(game, pause, report.wake)
    send_outbox(game, report, now)
    if pause is not None and pause.needs_moderator:
        report.needs = needs_of(pause, folder)
