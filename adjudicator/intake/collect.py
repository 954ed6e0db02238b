"""Collecting orders for one game or for every game under a folder, from an IMAP mailbox or
from a folder of .eml and .txt files, and answering each mail with a receipt."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from adjudicator.core.controls import shown_name
from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError, DataError, GameFileError, UsageError
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import t
from adjudicator.core.passwords import without_secret
from adjudicator.delivery.mailer import (
    DeliveryError,
    SmtpSettings,
    mail_identity,
    make_message,
    pending,
    placeholder_address,
    queue,
    send_queued,
)
from adjudicator.game.game import Game
from adjudicator.game.players import Player
from adjudicator.game.schedule import utc_now
from adjudicator.game.settings_check import check_intake_file
from adjudicator.game.storage import (
    PRIVATE,
    GameDirectory,
    deferred_directory_sync,
    file_lock,
    game_lock,
    read_toml,
    write_bytes_atomic,
    write_toml_atomic,
)
from adjudicator.game.submissions import counted
from adjudicator.intake.imap import ImapError, ImapSettings, Mailbox
from adjudicator.intake.mail import MailRejected, MailText, message_key
from adjudicator.intake.posts import PostReport, take_file, take_thread
from adjudicator.intake.receive import (
    Outcome,
    PasswordChecks,
    UnreadableMail,
    current_orders_text,
    mail_headers,
    private_folder,
    read_mail,
    receive,
)
from adjudicator.intake.threads import THREAD_SUFFIXES
from adjudicator.intake.throttle import Throttle
from adjudicator.language.reading import TooManyOrders, parse_submission
from adjudicator.reports.render import Renderer

ROOT_SETTINGS = "intake.toml"
MARK_BATCH = 50  # mails saved before their folders are fsynced and the server is told, at once


@dataclass
class CollectReport(PostReport):
    @property
    def text(self) -> str:
        body = "\n".join(self.lines) or "No new mail."
        return body + ("\n" + "\n".join(f"warning: {p}" for p in self.problems) if self.problems else "")


def games_under(root: Path) -> dict[str, Game]:
    """The game at `root`, or every game in the folders under it."""
    if GameDirectory(root).game_file.exists():
        game = Game.load(root)
        return {game.settings.id: game}
    games = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        if GameDirectory(folder).game_file.exists():
            game = Game.load(folder)
            games[game.settings.id] = game
    if not games:
        raise UsageError(f"{root} holds no game (no game.toml in it or in the folders under it)")
    return games


def _table(path: Path, table: str) -> dict[str, object] | None:
    if not path.exists():
        return None
    document = read_toml(path)
    if path.name == ROOT_SETTINGS:
        check_intake_file(path, document)
    section, _, name = table.partition(".")
    data = document.get(section, {}).get(name)
    return data if isinstance(data, dict) else None


def _settings(root: Path, table: str, games: dict[str, Game]) -> Fields | None:
    """[intake.imap] or [delivery.smtp] for a collect of `root`: one game's (with what its
    folder's intake.toml gives), or ROOT/intake.toml's for a folder of games."""
    if len(games) == 1 and (root / "game.toml").exists():
        return game_settings(next(iter(games.values())), table)
    data = _table(root / ROOT_SETTINGS, table)
    return Fields(data, table) if data is not None else None


def settings_file(game: Game, table: str) -> Path:
    """Where a game's settings table comes from: game.toml, else the games folder's intake.toml."""
    shared = game.directory.root.parent / ROOT_SETTINGS
    if _table(game.directory.game_file, table) is None and _table(shared, table) is not None:
        return shared
    return game.directory.game_file


def game_settings(game: Game, table: str) -> Fields | None:
    """A settings table of one game ([intake.imap], [delivery.smtp]): the intake.toml of the
    folder the game is in applies to it, and each key game.toml gives overrides it."""
    shared = _table(game.directory.root.parent / ROOT_SETTINGS, table)
    own = _table(game.directory.game_file, table)
    if shared is None and own is None:
        return None
    return Fields({**(shared or {}), **(own or {})}, table)


def game_smtp(game: Game) -> SmtpSettings | None:
    """The game's [delivery.smtp], from game.toml over its folder's intake.toml; None: outbox only."""
    return smtp_settings(settings_file(game, "delivery.smtp"), game_settings(game, "delivery.smtp"))


def shared_smtp(root: Path) -> SmtpSettings | None:
    """The [delivery.smtp] of a folder of games (its intake.toml), for mail about the folder."""
    path = root / ROOT_SETTINGS
    data = _table(path, "delivery.smtp")
    return smtp_settings(path, Fields(data, "delivery.smtp")) if data is not None else None


def imap_settings(path: Path, fields: Fields | None) -> ImapSettings | None:
    try:
        return ImapSettings.from_fields(fields) if fields is not None else None
    except DataError as error:
        raise GameFileError.from_data_error(path, error) from None


def smtp_settings(path: Path, fields: Fields | None) -> SmtpSettings | None:
    try:
        return SmtpSettings.from_fields(fields) if fields is not None else None
    except DataError as error:
        raise GameFileError.from_data_error(path, error) from None


@dataclass(frozen=True, slots=True)
class Route:
    """Where a mail goes: its game (None: quarantine, for `reason`), the mail as read (None
    when it cannot be read as orders), or `held`: it stays on the server for now, because."""

    game: Game | None
    mail: MailText | None
    reason: str = ""
    held: str = ""
    refused: MailRejected | None = None  # why the mail cannot be read as orders (its game says so)


def route(games: dict[str, Game], raw: bytes, held: Mapping[str, str] | None = None) -> Route:
    """Which game a mail is for: its subject tag, else its `game` line, else the only game,
    else the one game whose player sent it. A mail for a game in `held` (id -> why) stays on
    the server: a game that cannot be loaded now, or one that another collect reads."""
    held = held or {}
    try:
        mail = read_mail(raw)
    except UnreadableMail as error:
        return Route(None, None, f"{error}; read it, and enter its orders with 'adjudicator submit' if they are sound")
    except MailRejected as error:  # too big, no text: its game answers it, if the subject names one
        wanted = mail_headers(raw).subject_tag()
        if wanted is not None and wanted in held:
            return Route(None, None, held=f"a mail for {wanted} stays on the server: {held[wanted]}")
        if wanted in games:
            return Route(games[wanted], None, refused=error)
        if len(games) == 1:
            return Route(next(iter(games.values())), None, refused=error)
        return Route(None, None, str(error))
    wanted = mail.subject_tag()
    if wanted is None:
        any_game = next(iter(games.values()))
        try:
            wanted = parse_submission(mail.text, any_game.parser, any_game.ruleset.is_order, headers_only=True).game
        except TooManyOrders:
            wanted = None  # its game, if any, refuses it with the reason
    if wanted is None:
        if len(games) == 1:
            return Route(next(iter(games.values())), mail)
        theirs = [g for g in games.values() if any(p.email.lower() == mail.sender for p in g.settings.players)]
        if len(theirs) == 1 and mail.sender:
            return Route(theirs[0], mail)
        return Route(None, mail, "the mail names no game: put [game-id] in the subject or a line 'game ID' in the text")
    if wanted in held:
        return Route(
            None, mail, held=f"a mail for {wanted} from {mail.sender or '?'} stays on the server: {held[wanted]}"
        )
    if wanted in games:
        return Route(games[wanted], mail)
    return Route(None, mail, f"there is no game '{wanted}' here (games: {', '.join(games)})")


class CollectBusyError(AdjudicatorError):
    """Another collect is reading mail for the same folder."""


@contextmanager
def _collecting(root: Path) -> Iterator[None]:
    """One collect per folder at a time: a second one would race the first for each mail."""
    with file_lock(root / ".collect.lock") as mine:
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

    def answer(self, game: Game, outcome: Outcome) -> bool:
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
            if outcome.status == "rejected" and _registered_player(game, sender) is not None:
                self.report.problems.append(f"{gid}: no reply to {sender}: too many rejected mails from there today")
            return False
        reply = receipt(game, outcome, self.renderers[gid], self.senders[gid])
        if reply is None:
            return False
        if not outcome.authenticated:
            throttle.replied(game, sender)
        kind = {"accepted": "receipt", "late": "receipt", "answered": "answer"}.get(outcome.status, "rejection")
        identity = mail_identity(gid, game.slug, f"{kind}-{outcome.key}", str(reply["To"].addresses[0].addr_spec))
        queue(game.directory.root / "outbox", [(identity, reply)])
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
    if not (len(games) == 1 and (root / "game.toml").exists()) or not (root.parent / ROOT_SETTINGS).exists():
        return {}
    if has_own_mailbox(next(iter(games.values()))):
        return {}
    return {
        declared_id(folder): f"it is read by a collect (or run) of the whole folder {root.parent}"
        for folder in root.parent.iterdir()
        if folder != root and (folder / "game.toml").exists()
    }


def declared_id(folder: Path) -> str:
    """A game folder's id as its game.toml says, read raw (the game itself may not load, and
    its mail is still known by that id); the folder's name when even that cannot be read."""
    try:
        return str(read_toml(folder / "game.toml")["game"]["id"])
    except (AdjudicatorError, KeyError, TypeError):
        return folder.name


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


def has_own_mailbox(game: Game) -> bool:
    """Whether the game's game.toml names a mailbox of its own ([intake.imap])."""
    return _table(game.directory.game_file, "intake.imap") is not None


def mailbox_settings(root: Path, games: dict[str, Game]) -> tuple[ImapSettings | None, Path]:
    """The mailbox a collect of `root` reads: one game's [intake.imap] (with its folder's
    intake.toml), or ROOT/intake.toml's for a folder of games; and the file that says so."""
    if len(games) == 1 and (root / "game.toml").exists():
        path = settings_file(next(iter(games.values())), "intake.imap")
    else:
        path = root / ROOT_SETTINGS
    return imap_settings(path, _settings(root, "intake.imap", games)), path


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
    if outcome.status == "rejected" and (outcome.mail is None or not outcome.mail.sender):
        run.report.problems.append(f"{game.settings.id}: a mail with no sender address was rejected: {outcome.reason}")
    return "done"


def _quarantine(run: _Run, raw: bytes, reason: str, message_id: str = "") -> str:
    """Keep a mail no game can take in the root's quarantine/, raw, with why (once per mail)."""
    key = message_key(raw, message_id)
    folder = private_folder(run.root / "quarantine")
    if (folder / f"{key}.toml").exists():
        run.report.lines.append(f"already quarantined: {folder / key}.eml")
        return "quarantine"
    write_bytes_atomic(folder / f"{key}.eml", raw, mode=PRIVATE)  # the raw bytes first, whatever they hold
    write_toml_atomic(folder / f"{key}.toml", {"reason": reason}, mode=PRIVATE)
    run.report.lines.append(f"quarantined: {reason}")
    return "quarantine"


def _describe(game: Game, outcome: Outcome) -> str:
    who = outcome.power or (outcome.mail.sender if outcome.mail else "") or "an unknown sender"
    detail = f": {outcome.reason}" if outcome.reason else ""
    if outcome.checked is not None and outcome.status == "accepted":
        detail = f": {counted(outcome.checked)}"
    if outcome.answers:
        detail += f" ({', '.join(a.request.split()[0] for a in outcome.answers)} answered)"
    return f"{game.settings.id}: {outcome.status} from {who}{detail}"


def receipt(
    game: Game, outcome: Outcome, renderer: Renderer | None = None, sender: str | None = None
) -> EmailMessage | None:
    """The answer to a mail: every line with OK or its error and the orders now on file. A
    mail that did not show the player's password is answered at a registered player's address
    only, and its reply echoes nothing of it (not even the subject): the judge relays no
    stranger's words. Whatever a password opened goes to that player's registered address."""
    if outcome.status == "duplicate" or outcome.mail is None:
        return None
    sender = sender or moderator_address(game)
    if not outcome.authenticated:
        known = _registered_player(game, outcome.mail.sender)
        if outcome.status != "rejected" or known is None:
            return None
        lang = game.settings.language_of(known.civ)
        renderer = renderer if renderer is not None and renderer.lang == lang else Renderer(game.ruleset.name, lang)
        body = renderer.render("rejection.txt.j2", game=game, mail=None, reason=outcome.reason, answers=())
        return make_message(
            sender=sender,
            sender_name=moderator_name(game, lang),
            to=outcome.mail.sender,
            to_name="",
            subject=f"[{game.settings.id}] " + t("Your mail was not accepted").render(lang),
            body=body,
            in_reply_to=outcome.mail.message_id,  # a header the client threads by, never shown as text
        )
    player = game.settings.player(outcome.power or "")
    assert player is not None
    lang = game.settings.language_of(player.civ)
    if renderer is None or renderer.lang != lang:
        renderer = Renderer(game.ruleset.name, lang)
    label = game.phase_info.label
    if outcome.status == "rejected":  # the password was right: the player's own address hears why
        body = renderer.render(
            "rejection.txt.j2", game=game, mail=outcome.mail, reason=outcome.reason, answers=outcome.answers
        )
        subject = t("Not accepted: %(civ)s, %(label)s", civ=player.civ, label=label)
    elif outcome.status == "answered":
        body = renderer.render("answer.txt.j2", game=game, mail=outcome.mail, answers=outcome.answers)
        subject = t("Answer: %(civ)s, %(label)s", civ=player.civ, label=label)
    else:
        assert outcome.checked is not None
        body = renderer.render(
            "receipt.txt.j2",
            checked=outcome.checked,
            stored=None,
            late=outcome.status == "late",
            current=current_orders_text(game, player.civ),
            answers=outcome.answers,
        )
        if outcome.status == "late":
            subject = t("LATE orders: %(civ)s, %(label)s", civ=player.civ, label=label)
        else:
            subject = t("Orders received: %(civ)s, %(label)s", civ=player.civ, label=label)
    body = without_secret(body, outcome.password)  # an error quoting a line quotes no secret
    return to_player(game, player, subject.render(lang), body, sender=sender, in_reply_to=outcome.mail.message_id)


def _registered_player(game: Game, address: str) -> Player | None:
    """The player of this game whose registered address this is, if any."""
    return next((p for p in game.settings.players if address and p.email.lower() == address), None)


def to_player(
    game: Game, player: Player, subject: str, body: str, *, sender: str | None = None, in_reply_to: str = ""
) -> EmailMessage:
    """A mail from the game's moderator to one of its players, subject tagged with the game."""
    return make_message(
        sender=sender or moderator_address(game),
        sender_name=moderator_name(game, game.settings.language_of(player.civ)),
        to=player.email,
        to_name=player.name,
        subject=f"[{game.settings.id}] {subject}",
        body=body,
        in_reply_to=in_reply_to,
    )


def moderator_name(game: Game, lang: str) -> str:
    """The name the game's mail comes from, in the reader's language: `demo moderator`."""
    return t("%(game)s moderator", game=game.settings.id).render(lang)


def moderator_address(game: Game) -> str:
    """The From of the game's mail: [delivery.smtp] from, else a placeholder for outbox-only games."""
    fields = game_settings(game, "delivery.smtp")
    address: str = fields.text("from", "") if fields is not None else ""
    return address or placeholder_address(game.settings.id)


def _deliver(run: _Run) -> None:
    """Send what waits in each game's outbox/: this run's replies and any an earlier run left."""
    for gid, game in run.games.items():
        outbox = game.directory.root / "outbox"
        waiting = len(pending(outbox))
        if not waiting:
            continue
        settings = game_smtp(game)
        if settings is None:
            run.report.lines.append(
                f"{gid}: {waiting} mail(s) wait in outbox/ (no [delivery.smtp] in game.toml or {ROOT_SETTINGS})"
            )
            continue
        try:
            run.report.lines.append(f"{gid}: {send_queued(settings, outbox)} mail(s) sent")
        except DeliveryError as error:
            run.report.problems.append(f"{gid}: {error}")
