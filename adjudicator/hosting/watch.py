"""`adjudicator run ROOT --watch`: passes as mail arrives (IMAP IDLE), when a deadline, a
reminder or a delay falls due, and at least every `poll` seconds (for drop folders and for
mailboxes without IDLE). A lost connection is retried with growing pauses. SIGTERM or
SIGINT ends it cleanly: the mail in hand is finished, saved and answered, the server is told
which mails are done, and the rest stay on the server for the next start.
"""

from __future__ import annotations

import contextlib
import imaplib
import select
import signal
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Any

from imapclient.exceptions import IMAPClientError

from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError
from adjudicator.game.directory import game_folders
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import has_own_mailbox
from adjudicator.game.schedule import utc_now
from adjudicator.hosting.run import run_pass
from adjudicator.intake.collect import mailbox_settings
from adjudicator.intake.imap import ImapError, ImapSettings, Mailbox

IDLE_RENEW_SECONDS = 25 * 60  # RFC 2177: re-issue IDLE at least every 29 minutes
BACKOFF_FIRST, BACKOFF_MAX = 1.0, 300.0
TICK = 0.5  # how often a wait looks at the stop flag


class StopFlag:
    """Set by SIGTERM or SIGINT; asked between mails, between games and while waiting."""

    def __init__(self) -> None:
        self.reason = ""

    def __call__(self) -> bool:
        return bool(self.reason)

    def install(self) -> None:
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, self._handle)

    def _handle(self, number: int, _frame: FrameType | None) -> None:
        self.reason = signal.Signals(number).name


class MailWaiter:
    """An IMAP connection idling on the orders folder: tells when new mail may be there."""

    def __init__(self, settings: ImapSettings, say: Callable[[str], None]) -> None:
        self.settings = settings
        self.say = say
        self.mailbox: Mailbox | None = None
        self.idle_since = 0.0
        self.pause = BACKOFF_FIRST
        self.retry_at = 0.0
        self.no_idle = False  # the server cannot IDLE: the passes every --poll seconds read it

    def wait(self, seconds: float) -> bool:
        """Up to `seconds`; True when mail may have come (new mail, or a connection made again)."""
        if self.no_idle:
            time.sleep(seconds)
            return False
        if self.mailbox is None:
            if time.monotonic() < self.retry_at:
                time.sleep(min(seconds, self.retry_at - time.monotonic()))
                return False
            return self._connect()
        try:
            if time.monotonic() - self.idle_since > IDLE_RENEW_SECONDS:
                self.mailbox.client.idle_done()
                self._idle()
            responses = self.mailbox.client.idle_check(timeout=seconds)
            if not responses:
                responses, closed = self._recheck()
                if closed:
                    self._lost("the server closed the connection")
                    return False
        except (OSError, IMAPClientError, imaplib.IMAP4.abort) as error:
            self._lost(f"{type(error).__name__}: {' '.join(str(error).split()) or 'closed'}")
            return False
        return any(len(r) > 1 and r[1] == b"EXISTS" for r in responses)

    def _recheck(self) -> tuple[list[Any], bool]:
        """imapclient's idle_check returns nothing, quietly, once the server has closed the
        connection; the socket then stays readable with nothing to read. Readable twice with
        nothing read means closed. Returns what was read meanwhile, and whether it is closed."""
        assert self.mailbox is not None
        client = self.mailbox.client
        for _ in range(2):
            if not select.select([client.socket()], [], [], 0)[0]:
                return [], False
            responses = client.idle_check(timeout=0)
            if responses:
                return responses, False
        return [], True

    def close(self) -> None:
        if self.mailbox is not None:
            with contextlib.suppress(OSError, IMAPClientError, imaplib.IMAP4.abort):
                self.mailbox.client.idle_done()
            self.mailbox.__exit__()
            self.mailbox = None

    def _connect(self) -> bool:
        try:
            self.mailbox = Mailbox(self.settings)
            if not self.mailbox.client.has_capability("IDLE"):
                self.say(f"mail: {self.settings.host} cannot IDLE; its mail is read at each pass (--poll)")
                self.no_idle = True
                self.close()
                return False
            self._idle()
        except (ImapError, OSError, IMAPClientError, imaplib.IMAP4.abort) as error:
            self._lost(str(error))
            return False
        if self.pause > BACKOFF_FIRST:
            self.say(f"mail: connected to {self.settings.host} again")
        self.pause = BACKOFF_FIRST
        return True

    def _idle(self) -> None:
        assert self.mailbox is not None
        self.mailbox.client.idle()
        self.idle_since = time.monotonic()

    def _lost(self, why: str) -> None:
        self.close()
        self.say(f"mail: no connection to {self.settings.host} ({why}); trying again in {self.pause:.0f} s")
        self.retry_at = time.monotonic() + self.pause
        self.pause = min(self.pause * 2, BACKOFF_MAX)


def watch(
    root: Path,
    say: Callable[[str], None],
    stop: StopFlag,
    poll: float = 60.0,
    clock: Callable[[], datetime] = utc_now,
) -> None:
    """Pass after pass until stopped; `say` prints a line (with the time) for a log."""

    def stamped(text: str) -> None:
        for line in text.splitlines():
            say(f"{clock():%Y-%m-%d %H:%M:%S} {line}")

    waiters = _waiters(root, stamped)
    hosts = ", ".join(sorted({f"{w.settings.host} {w.settings.folder}" for w in waiters}))
    how = f"new mail by IMAP IDLE on {hosts}" if waiters else "no mailbox"
    stamped(f"watching {root} ({how}; a pass at least every {poll:.0f} s); SIGTERM stops it")
    told: list[str] = []  # the warnings and needs said last: not said again at every pass
    try:
        while not stop():
            until = time.monotonic() + poll
            text, acted, trouble, wake = _pass(root, clock(), stop)
            if acted or trouble != told:
                stamped(text)
                told = trouble
            if wake is not None:
                until = min(until, time.monotonic() + max(1.0, (wake - clock()).total_seconds()))
            _wait(waiters, until, stop)
    finally:
        for waiter in waiters:
            waiter.close()
    stamped(f"stopped ({stop.reason}); mail not yet read stays on the server for the next start")


def _pass(root: Path, now: datetime, stop: StopFlag) -> tuple[str, bool, list[str], datetime | None]:
    """One pass: what to print, whether it did anything, its trouble, and when to wake. A
    pass that fails as a whole (the root's settings, a bug) is said, and the watch goes on."""
    try:
        report = run_pass(root, now, stop)
    except AdjudicatorError as error:
        return f"error: {error}", False, [str(error)], None
    except Exception as error:
        text = f"internal error: {one_line(error)}; details in {write_crash_log(root, error)}"
        return text, False, [one_line(error)], None
    return report.text, report.acted, [*report.warnings, *report.needs_moderator], report.wake


def _waiters(root: Path, say: Callable[[str], None]) -> list[MailWaiter]:
    """One idling connection per mailbox the passes read: the root's, and each game's own."""
    games: dict[str, Game] = {}
    for folder in game_folders(root):
        with contextlib.suppress(AdjudicatorError):
            game = Game.load(folder)
            games[game.settings.id] = game
    found: dict[tuple[str, int, str, str], ImapSettings] = {}
    candidates = [(root, games)] if games else []
    candidates += [
        (g.directory.root, {gid: g}) for gid, g in games.items() if g.directory.root != root and has_own_mailbox(g)
    ]
    for where, which in candidates:
        try:
            settings = mailbox_settings(where, which)[0]
        except AdjudicatorError as error:
            say(f"mail: not watched for {where}: {error}")
            continue
        if settings is not None:
            found.setdefault((settings.host, settings.port, settings.user, settings.folder), settings)
    return [MailWaiter(settings, say) for settings in found.values()]


def _wait(waiters: list[MailWaiter], until: float, stop: StopFlag) -> None:
    """Until `until` (monotonic), new mail in any mailbox, or a stop, whichever comes first."""
    while not stop():
        left = until - time.monotonic()
        if left <= 0:
            return
        if not waiters:
            time.sleep(min(TICK, left))
        for waiter in waiters:
            if waiter.wait(min(TICK / len(waiters), left)):
                return
