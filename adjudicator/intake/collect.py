"""Collecting orders for one game or for every game under a folder, from an IMAP mailbox or
from a folder of .eml and .txt files, and answering each mail with a receipt."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from adjudicator.core.controls import shown_name
from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError, UsageError
from adjudicator.delivery.compose import moderator_address
from adjudicator.delivery.outbox import Hitch, flush, mail_identity, queue
from adjudicator.delivery.smtp import game_smtp
from adjudicator.game.directory import ROOT_SETTINGS, Folder, GameDirectory, game_folders, game_lock
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import declared_id, folder_settings, has_own_mailbox, settings_file, settings_from
from adjudicator.game.schedule import utc_now
from adjudicator.game.storage import (
    PRIVATE,
    deferred_directory_sync,
    file_lock,
    write_bytes_atomic,
    write_toml_atomic,
)
from adjudicator.game.submissions import counted
from adjudicator.intake.imap import ImapError, ImapSettings, Mailbox
from adjudicator.intake.mail import message_key
from adjudicator.intake.posts import PostReport, take_file, take_thread
from adjudicator.intake.receive import Fate, MailFate, PasswordChecks, private_folder, receive
from adjudicator.intake.replies import receipt, registered_player
from adjudicator.intake.routing import route
from adjudicator.intake.threads import THREAD_SUFFIXES
from adjudicator.intake.throttle import Throttle
from adjudicator.reports.render import Renderer

MARK_BATCH = 50  # mails saved before their folders are fsynced and the server is told, at once


@dataclass
class CollectReport(PostReport):
    @property
    def text(self) -> str:
        body = "\n".join(self.lines) or "No new mail."
        return body + ("\n" + "\n".join(f"warning: {p}" for p in self.problems) if self.problems else "")


def games_under(root: Path) -> dict[str, Game]:
    """The game at `root`, or every game in the folders under it, loaded, by id."""
    games = (Game.load(folder) for folder in game_folders(root))
    return {game.settings.id: game for game in games}


class CollectBusyError(AdjudicatorError):
    """Another collect is reading mail for the same folder."""


@contextmanager
def _collecting(root: Path) -> Iterator[None]:
    """One collect per folder at a time: a second one would race the first for each mail."""
    with file_lock(Folder(root).collect_lock) as mine:
        if not mine:
            raise CollectBusyError(
                f"another 'adjudicator collect' is reading mail for {root} right now; "
                "let it finish, then run collect again if mail is still waiting"
            )
        yield


@dataclass
class _Run:
    """One collect run: the games, what to print, and what it keeps between mails (in memory)."""

    root: Path
    games: dict[str, Game]
    report: CollectReport = field(default_factory=CollectReport)
    checks: PasswordChecks = field(init=False)  # from `now`: the throttle counts back from it
    renderers: dict[str, Renderer] = field(default_factory=dict)
    senders: dict[str, str] = field(default_factory=dict)
    taken: int = 0
    connected: bool = False
    now: datetime | None = None  # when the mails count as received (None: the clock's time)
    stop: Callable[[], bool] = lambda: False  # asked between mails: finish the one in hand, then stop
    held: Mapping[str, str] = field(default_factory=dict)  # games whose mail stays on the server, and why

    def __post_init__(self) -> None:
        self.checks = PasswordChecks(throttle=Throttle(self.now or utc_now()))

    def answer(self, game: Game, outcome: MailFate) -> bool:
        """Queue the reply to one mail in the game's outbox/ at once (before the mail counts as
        done); False when none is due. A mail without the player's password is answered only at
        a registered player's address, and only so often (limits.REPLIES_PER_ADDRESS, _PER_GAME):
        forged mails never make the judge mail anyone else, nor flood a player."""
        gid = game.settings.id
        if gid not in self.renderers:
            self.renderers[gid], self.senders[gid] = Renderer(game.ruleset.name), moderator_address(game)
        throttle = self.checks.throttle
        sender = outcome.mail.sender if outcome.mail is not None else ""
        if not outcome.authenticated and not throttle.may_reply(game, sender):
            if outcome.status == Fate.REJECTED and registered_player(game, sender) is not None:
                self.report.problems.append(f"{gid}: no reply to {sender}: too many rejected mails from there today")
            return False
        reply = receipt(game, outcome, self.renderers[gid], self.senders[gid])
        if reply is None:
            return False
        if not outcome.authenticated:
            throttle.replied(game, sender)
        kind = {Fate.ACCEPTED: "receipt", Fate.LATE: "receipt", Fate.ANSWERED: "answer"}.get(
            outcome.status, "rejection"
        )
        identity = mail_identity(gid, game.slug, f"{kind}-{outcome.key}", str(reply["To"].addresses[0].addr_spec))
        queue(game.directory.outbox, [(identity, reply)])
        return True


def collect(
    root: Path,
    *,
    imap: bool = False,
    folder: Path | None = None,
    mark: bool = True,
    games: dict[str, Game] | None = None,
    now: datetime | None = None,
    stop: Callable[[], bool] | None = None,
    held: Mapping[str, str] | None = None,
    deliver: bool = True,
) -> CollectReport:
    """Read every new mail or file, store what it says, answer it. Each mail is saved raw
    before anything else and its reply is queued in outbox/ as soon as it is read; the replies
    are sent at the end (and a later run sends what an interrupted one left). With mark=False
    the mails are saved and processed but not marked processed (for tests of crash recovery).
    `games`: the games of `root`, already loaded; `stop`: asked between mails, it ends the
    reading after the mail in hand (the rest stay on the server); `held`: game ids whose mail
    stays on the server (their game cannot be loaded now); `deliver`: send the replies at the
    end (else they wait in outbox/ for whoever sends next)."""
    games = games if games is not None else games_under(root)
    run = _Run(root, games, now=now, held={**_siblings(root, games), **(held or {})})
    if stop is not None:
        run.stop = stop
    with _collecting(root):
        lost: ImapError | None = None
        if imap:
            try:
                _read_mailbox(run, mark)
            except ImapError as error:
                if not run.connected:
                    raise
                lost = error
        if folder is not None:
            with deferred_directory_sync():
                _read_folder(run, folder)
        if deliver:
            _deliver(run)
    if lost is not None:
        raise ImapError(
            f"{lost}; the {run.taken} mail(s) read before that are saved and answered, "
            "so run 'adjudicator collect' again once the server is back to read the rest"
        )
    return run.report


def _siblings(root: Path, games: dict[str, Game]) -> dict[str, str]:
    """The other games of the folder a single game sits in, when it reads the folder's shared
    mailbox: their mail is theirs, left on the server for a collect of the whole folder."""
    if (
        not (len(games) == 1 and GameDirectory(root).game_file.exists())
        or not Folder(root.parent).settings_file.exists()
    ):
        return {}
    if has_own_mailbox(next(iter(games.values()))):
        return {}
    return {
        declared_id(folder): f"it is read by a collect (or run) of the whole folder {root.parent}"
        for folder in root.parent.iterdir()
        if folder != root and GameDirectory(folder).game_file.exists()
    }


def _read_folder(run: _Run, folder: Path) -> None:
    """Mails saved as .eml, posts saved as .txt and whole threads (.xml, .html)."""
    for path in _files(folder):
        if path.suffix.lower() == ".eml":
            _take(run, path.read_bytes())
            continue
        try:
            if path.suffix.lower() in THREAD_SUFFIXES:
                take_thread(run.games, path, run.report)
            else:
                take_file(run.games, path, run.report)
        except Exception as error:  # a post or thread we did not foresee: the next file is read all the same
            log = write_crash_log(run.root, error)
            name = shown_name(path)
            run.report.lines.append(f"{name}: not read: internal error: {one_line(error)} (details in {log})")
            run.report.problems.append(f"{name} was not read: internal error (details in {log})")
            run.report.unkept.append(path.name)


def mailbox_settings(root: Path, games: dict[str, Game]) -> tuple[ImapSettings | None, Path]:
    """The mailbox a collect of `root` reads: one game's [intake.imap] (with its folder's
    intake.toml), or ROOT/intake.toml's for a folder of games; and the file that says so."""
    if len(games) == 1 and GameDirectory(root).game_file.exists():
        path = settings_file(next(iter(games.values())), "intake.imap")
    else:
        path = Folder(root).settings_file
    return settings_from(path, folder_settings(root, "intake.imap", games), ImapSettings.from_fields), path


def _read_mailbox(run: _Run, mark: bool) -> None:
    settings, settings_path = mailbox_settings(run.root, run.games)
    if settings is None:
        raise UsageError(f"no [intake.imap] settings in {settings_path}; see the README's 'Orders by mail'")
    with Mailbox(settings) as mailbox:
        run.connected = True
        messages = mailbox.new_messages()
        while batch := _take_batch(run, messages):
            if mark:
                for fate, quarantine in (("done", False), ("quarantine", True)):
                    mailbox.mark_all_processed([uid for uid, f in batch if f == fate], quarantine=quarantine)
            if run.stop():
                break


def _take_batch(run: _Run, messages: Iterator[tuple[int, bytes]]) -> list[tuple[int, str]]:
    """Up to MARK_BATCH mails, each saved, read and answered; the folders written are fsynced
    once, when the batch is done, and only then may the server hear that the mails are safe.
    Returns each mail's uid and its fate: done, quarantine, or held (it stays on the server).
    When asked to stop, the batch ends after the mail in hand."""
    done: list[tuple[int, str]] = []
    with deferred_directory_sync():
        for uid, raw in itertools.islice(messages, MARK_BATCH):
            done.append((uid, _take(run, raw)))
            if run.stop():
                break
    return done


def _files(folder: Path) -> Iterator[Path]:
    """The mails (.eml), posts (.txt) and saved threads (.xml, .html, .htm) of a folder."""
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder of .eml, .txt, .xml or .html files")
    kinds = {".txt", ".eml", *THREAD_SUFFIXES}  # a link is not followed: it may point anywhere
    yield from sorted(p for p in folder.iterdir() if p.suffix.lower() in kinds and p.is_file() and not p.is_symlink())


def _take(run: _Run, raw: bytes) -> str:
    """One mail; returns its fate: done, quarantine (no game, it cannot be read, or handling it
    failed), or held. Whatever goes wrong with one mail costs that mail only: it is kept in
    quarantine/ with the reason (and a log for a bug), never read again, and the next goes on."""
    run.taken += 1
    try:
        return _route_and_receive(run, raw)
    except Exception as error:  # a mail we did not foresee (MemoryError and RecursionError too): never all mail
        log = write_crash_log(run.root, error)
        return _quarantine(run, raw, f"internal error while reading it: {one_line(error)} (details in {log})")


def _route_and_receive(run: _Run, raw: bytes) -> str:
    routed = route(run.games, raw, run.held)
    game, mail, reason = routed.game, routed.mail, routed.reason
    if routed.held:
        run.report.lines.append(f"held: {routed.held}")
        return "held"
    if game is None:
        return _quarantine(run, raw, reason, mail.message_id if mail else "")
    with game_lock(game.directory):
        outcome = receive(game, raw, run.now, mail=mail, checks=run.checks, answer=run.answer, refused=routed.refused)
    run.report.lines.append(_describe(game, outcome))
    run.report.problems += [f"{game.settings.id}: {outcome.power}: {flag}" for flag in outcome.flags]
    if outcome.status == Fate.REJECTED and (outcome.mail is None or not outcome.mail.sender):
        run.report.problems.append(f"{game.settings.id}: a mail with no sender address was rejected: {outcome.reason}")
    return "done"


def _quarantine(run: _Run, raw: bytes, reason: str, message_id: str = "") -> str:
    """Keep a mail no game can take in the root's quarantine/, raw, with why (once per mail)."""
    key = message_key(raw, message_id)
    folder = private_folder(Folder(run.root).quarantine)
    if (folder / f"{key}.toml").exists():
        run.report.lines.append(f"already quarantined: {folder / key}.eml")
        return "quarantine"
    write_bytes_atomic(folder / f"{key}.eml", raw, mode=PRIVATE)  # the raw bytes first, whatever they hold
    write_toml_atomic(folder / f"{key}.toml", {"reason": reason}, mode=PRIVATE)
    run.report.lines.append(f"quarantined: {reason}")
    return "quarantine"


def _describe(game: Game, outcome: MailFate) -> str:
    who = outcome.power or (outcome.mail.sender if outcome.mail else "") or "an unknown sender"
    detail = f": {outcome.reason}" if outcome.reason else ""
    if outcome.checked is not None and outcome.status == Fate.ACCEPTED:
        detail = f": {counted(outcome.checked)}"
    if outcome.answers:
        detail += f" ({', '.join(a.request.split()[0] for a in outcome.answers)} answered)"
    return f"{game.settings.id}: {outcome.status} from {who}{detail}"


def _deliver(run: _Run) -> None:
    """Send what waits in each game's outbox/: this run's replies and any an earlier run left.
    Mail that cannot go waits, and a warning says why, below every line of what the run took:
    the orders are in whatever becomes of the mail."""
    for gid, game in run.games.items():
        flushed = flush(game.directory.outbox, functools.partial(game_smtp, game))
        if not flushed.queued:
            continue
        if flushed.hitch is Hitch.NO_SETTINGS:
            run.report.lines.append(
                f"{gid}: {flushed.waiting} mail(s) wait in outbox/ (no [delivery.smtp] in game.toml or {ROOT_SETTINGS})"
            )
        elif flushed.error is not None:  # the server is away, or the settings are wrong: said, not raised
            run.report.problems.append(f"{gid}: {flushed.error}")
        else:
            run.report.lines.append(f"{gid}: {flushed.sent} mail(s) sent")
