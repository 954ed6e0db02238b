"""Collecting orders for one game or for every game under a folder, from an IMAP mailbox or
from a folder of .eml and .txt files, and answering each mail with a receipt."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from adjudicator.errors import AdjudicatorError, DataError, GameFileError, UsageError
from adjudicator.fields import Fields
from adjudicator.game import Game
from adjudicator.intake.imap import ImapSettings, Mailbox
from adjudicator.intake.mail import MailRejected, message_key, parse_mail
from adjudicator.intake.receive import (
    Outcome,
    already_done,
    current_orders_text,
    inbox_paths,
    keep_raw,
    receive,
)
from adjudicator.mailer import DeliveryError, SmtpSettings, make_message, queue, send_queued
from adjudicator.orders import parse_submission
from adjudicator.reports import Renderer
from adjudicator.settings_check import check_intake_file
from adjudicator.storage import GameDirectory, game_lock, read_toml, write_bytes_atomic, write_toml_atomic
from adjudicator.submissions import check_submission, store_submission

ROOT_SETTINGS = "intake.toml"


@dataclass
class CollectReport:
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

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


def _settings(root: Path, table: str, games: dict[str, Game]) -> Fields | None:
    """[intake.imap] or [delivery.smtp]: from the game's game.toml, or from ROOT/intake.toml."""
    path = root / "game.toml" if len(games) == 1 and (root / "game.toml").exists() else root / ROOT_SETTINGS
    if not path.exists():
        return None
    if path.name == ROOT_SETTINGS:
        check_intake_file(path)
    section, _, name = table.partition(".")
    data = read_toml(path).get(section, {}).get(name)
    return Fields(data, table) if isinstance(data, dict) else None


def game_settings(game: Game, table: str) -> Fields | None:
    """A settings table of one game's game.toml ([intake.imap], [delivery.smtp])."""
    return _settings(game.directory.root, table, {game.settings.id: game})


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


def route(games: dict[str, Game], raw: bytes) -> tuple[Game | None, str]:
    """Which game a mail is for: its subject tag, else its `game` line, else the only game."""
    try:
        mail = parse_mail(raw)
    except MailRejected as error:
        return (next(iter(games.values())), "") if len(games) == 1 else (None, str(error))
    wanted = mail.subject_tag()
    if wanted is None:
        any_game = next(iter(games.values()))
        header = parse_submission(mail.text, any_game.parser, any_game.ruleset.is_order)
        wanted = header.game
    if wanted is None:
        if len(games) == 1:
            return next(iter(games.values())), ""
        return None, "the mail names no game: put [game-id] in the subject or a line 'game ID' in the text"
    if wanted in games:
        return games[wanted], ""
    return None, f"there is no game '{wanted}' here (games: {', '.join(games)})"


def collect(root: Path, *, imap: bool = False, folder: Path | None = None, mark: bool = True) -> CollectReport:
    """Read every new mail or file, store what it says, answer it. With mark=False the mails
    are saved and processed but not marked processed (for tests of crash recovery)."""
    games = games_under(root)
    report = CollectReport()
    replies: dict[str, list[EmailMessage]] = {gid: [] for gid in games}
    if imap:
        settings_path = root / ("game.toml" if (root / "game.toml").exists() else ROOT_SETTINGS)
        settings = imap_settings(settings_path, _settings(root, "intake.imap", games))
        if settings is None:
            raise UsageError(f"no [intake.imap] settings in {settings_path}; see the README's 'Orders by mail'")
        with Mailbox(settings) as mailbox:
            for uid, raw in mailbox.new_messages():
                quarantined = _take(root, games, raw, report, replies)
                if mark:
                    mailbox.mark_processed(uid, quarantine=quarantined)
    if folder is not None:
        for path in _files(folder):
            if path.suffix.lower() == ".eml":
                _take(root, games, path.read_bytes(), report, replies)
            else:
                _take_text(games, path, report)
    _deliver(root, games, replies, report)
    return report


def _files(folder: Path) -> Iterator[Path]:
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder of .txt and .eml files")
    yield from sorted(p for p in folder.iterdir() if p.suffix.lower() in (".txt", ".eml") and p.is_file())


def _take(
    root: Path, games: dict[str, Game], raw: bytes, report: CollectReport, replies: dict[str, list[EmailMessage]]
) -> bool:
    """One mail; returns True when it went to quarantine (no game)."""
    game, reason = route(games, raw)
    if game is None:
        key = message_key(raw, "")
        write_bytes_atomic(root / "quarantine" / f"{key}.eml", raw)
        write_toml_atomic(root / "quarantine" / f"{key}.toml", {"reason": reason})
        report.lines.append(f"quarantined: {reason}")
        return True
    with game_lock(game.directory):
        outcome = receive(game, raw)
    report.lines.append(_describe(game, outcome))
    report.problems += [f"{game.settings.id}: {outcome.power}: {flag}" for flag in outcome.flags]
    reply = receipt(game, outcome)
    if reply is not None:
        replies[game.settings.id].append(reply)
    return False


def _take_text(games: dict[str, Game], path: Path, report: CollectReport) -> None:
    """A forum post pasted into a .txt file: the moderator vouches for it, as with `submit`."""
    text = path.read_text(encoding="utf-8", errors="replace")
    any_game = next(iter(games.values()))
    submission = parse_submission(text, any_game.parser, any_game.ruleset.is_order)
    game = (
        games.get(submission.game or "")
        if submission.game
        else (next(iter(games.values())) if len(games) == 1 else None)
    )
    if game is None:
        report.lines.append(f"{path.name}: skipped: it names no game of this folder (add a line 'game ID')")
        return
    # A post is its file: the same words pasted into a new file (a player who sends
    # 'no orders' again next phase) are a new post; a file collected again is not.
    key = message_key(b"", f"post {path.name} {hashlib.sha256(text.encode()).hexdigest()}")
    if already_done(game.directory.inbox, key):
        status = read_toml(inbox_paths(game.directory.inbox, key)[1]).get("status", "")
        report.lines.append(f"{path.name}: already collected ({status})")
        return
    with game_lock(game.directory):
        keep_raw(game.directory.inbox, text.encode(), key)  # kept before anything can go wrong
        try:
            checked = check_submission(game, text, None)
        except AdjudicatorError as error:
            # One bad post never stops the others; the moderator fixes it (a changed file is
            # collected anew) or enters the orders with `submit`.
            _record_post(game, key, path, "rejected", None, str(error))
            report.lines.append(f"{path.name}: not used: {error}")
            report.problems.append(f"{game.settings.id}: {path.name} was not used: {error}")
            return
        store_submission(game, checked, text, source=f"file {path.name}")
        _record_post(game, key, path, "accepted", checked.power, "")
    report.lines.append(f"{path.name}: {checked.power}: {checked.accepted} orders, {checked.errors} errors")


def _record_post(game: Game, key: str, path: Path, status: str, power: str | None, reason: str) -> None:
    write_toml_atomic(
        inbox_paths(game.directory.inbox, key)[1],
        {"status": status, "from": f"file {path.name}", "power": power or "", "phase": game.slug, "reason": reason},
    )


def _describe(game: Game, outcome: Outcome) -> str:
    who = outcome.power or (outcome.mail.sender if outcome.mail else "?")
    detail = f": {outcome.reason}" if outcome.reason else ""
    if outcome.checked is not None and outcome.status == "accepted":
        detail = f": {outcome.checked.accepted} orders, {outcome.checked.errors} errors"
    return f"{game.settings.id}: {outcome.status} from {who}{detail}"


def receipt(game: Game, outcome: Outcome) -> EmailMessage | None:
    """The answer to a mail: every line with OK or its error and the orders now on file; a
    rejection says why and echoes nothing, since the sender is not known to be the player."""
    if outcome.status == "duplicate" or outcome.mail is None:
        return None
    renderer = Renderer(game.ruleset.name)
    sender = moderator_address(game)
    tag = f"[{game.settings.id}]"
    if outcome.status == "rejected":
        body = renderer.render("rejection.txt.j2", game=game, mail=outcome.mail, reason=outcome.reason)
        return make_message(
            sender=sender,
            sender_name=f"{game.settings.id} moderator",
            to=outcome.mail.sender,
            to_name=outcome.mail.sender_name,
            subject=f"{tag} Not accepted: {outcome.mail.subject}",
            body=body,
            in_reply_to=outcome.mail.message_id,
        )
    player = game.settings.player(outcome.power or "")
    assert player is not None and outcome.checked is not None
    body = renderer.render(
        "receipt.txt.j2",
        checked=outcome.checked,
        stored=None,
        late=outcome.status == "late",
        current=current_orders_text(game, player.civ),
    )
    label = "LATE orders" if outcome.status == "late" else "Orders received"
    return make_message(
        sender=sender,
        sender_name=f"{game.settings.id} moderator",
        to=player.email,
        to_name=player.name,
        subject=f"{tag} {label}: {player.civ}, {game.phase_info.label}",
        body=body,
        in_reply_to=outcome.mail.message_id,
    )


def moderator_address(game: Game) -> str:
    """The From of the game's mail: [delivery.smtp] from, else a placeholder for outbox-only games."""
    fields = game_settings(game, "delivery.smtp")
    address: str = fields.text("from", "") if fields is not None else ""
    return address or f"moderator@{game.settings.id}.invalid"


def _deliver(root: Path, games: dict[str, Game], replies: dict[str, list[EmailMessage]], report: CollectReport) -> None:
    for gid, messages in replies.items():
        if not messages:
            continue
        game = games[gid]
        paths = queue(game.directory.root / "outbox", messages, "receipt")
        fields = game_settings(game, "delivery.smtp")
        settings = smtp_settings(game.directory.game_file, fields)
        if settings is not None:
            try:
                report.lines.append(f"{gid}: {send_queued(settings, paths)} receipt(s) sent")
            except DeliveryError as error:
                report.problems.append(str(error))
        else:
            report.lines.append(f"{gid}: {len(paths)} receipt(s) written to outbox/ (no [delivery.smtp])")
