"""One received mail, start to finish: kept raw first, then read, authenticated, checked,
stored as the player's orders (or set aside as late, or rejected), and answered.

Nothing is lost: the raw bytes are written to inbox/ before anything else happens, and a
sidecar inbox/<key>.toml records what became of the mail, so a second pass over the same
message (after a crash, or because the server offered it again) counts it only once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parseaddr
from enum import StrEnum
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError, message_of
from adjudicator.core.i18n import Msg, t
from adjudicator.core.limits import MAIL_HEADER_BYTES, PASSWORD_FAILURES
from adjudicator.core.passwords import redact_passwords
from adjudicator.game.game import Game
from adjudicator.game.players import SecretChecks, mail_address
from adjudicator.game.schedule import is_late, utc_now
from adjudicator.game.storage import PRIVATE, read_toml, write_bytes_atomic, write_text_atomic, write_toml_atomic
from adjudicator.game.submissions import (
    CheckedSubmission,
    check_submission,
    open_seat_refusal,
    order_files,
    store_submission,
)
from adjudicator.intake.mail import MailRejected, MailText, message_key, parse_mail
from adjudicator.intake.requests import PREVIEW, Answer, answer_requests, preview_answer
from adjudicator.intake.throttle import Throttle
from adjudicator.language.submission import TooManyOrders, parse_submission


class Fate(StrEnum):
    """What became of one mail, as the inbox sidecar files and collect's lines say it."""

    ACCEPTED = "accepted"
    LATE = "late"
    REJECTED = "rejected"
    DUPLICATE = "duplicate"
    ANSWERED = "answered"  # requests only: the orders on file are unchanged


@dataclass(frozen=True, slots=True)
class MailFate:
    """What became of one mail."""

    key: str
    status: Fate
    reason: str = ""
    power: str | None = None
    mail: MailText | None = None
    checked: CheckedSubmission | None = None
    stored: Path | None = None
    flags: tuple[str, ...] = field(default=())  # for the moderator: e.g. a From that is not the player's
    answers: tuple[Answer, ...] = ()  # the player's requests answered (only once his password was checked)
    authenticated: bool = False  # the mail carried the player's password: his replies go to his own address
    wrong_password: bool = False  # a password was given and was wrong (counted against guessing)
    password: str = ""  # the right password it carried: masked wherever the reply would repeat it (never stored)


class UnreadableMail(AdjudicatorError):
    """A mail the email package cannot take apart (a malformed header); it goes to quarantine."""


@dataclass
class PasswordChecks(SecretChecks):
    """The passwords one collect run has verified (`SecretChecks`), and the throttle that says
    when an address has guessed too often to be checked at all."""

    throttle: Throttle = field(kw_only=True)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def read_mail(raw: bytes) -> MailText:
    """parse_mail, with any failure of the email package on a malformed mail turned into
    UnreadableMail (MailRejected, a readable mail that holds no usable text, passes through)."""
    try:
        return parse_mail(raw)
    except MailRejected:
        raise
    except Exception as error:  # untrusted bytes: whatever the email package trips on
        raise UnreadableMail(f"the mail cannot be read ({type(error).__name__}: {_one_line(str(error))})") from None


def mail_headers(raw: bytes) -> MailText:
    """Who sent a mail that cannot be read whole (too big, no text, over a limit) and about
    what: its first header lines only, each field cut to one line of at most 998 characters
    before it is decoded, so that a reply can still be addressed and the game found. No text."""
    try:
        headers = BytesHeaderParser(policy=compat32).parsebytes(raw[:MAIL_HEADER_BYTES])

        def field(name: str) -> str:
            value = _one_line(str(headers.get(name, "")))[:998]
            return _one_line(str(make_header(decode_header(value))))

        name, address = parseaddr(_one_line(str(headers.get("From", "")))[:998])
        name = _one_line(str(make_header(decode_header(name)))) if name else ""
        subject, message_id = field("Subject"), _one_line(str(headers.get("Message-ID", "")))[:998]
    except Exception:  # untrusted bytes: no usable header means no known sender
        return MailText("", "", "", "", "")
    return MailText(message_id, mail_address(address) or "", name, subject, "")


def private_folder(folder: Path) -> Path:
    """inbox/ and quarantine/ hold raw mails, passwords and all: only the owner may read them."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def inbox_paths(inbox: Path, key: str) -> tuple[Path, Path]:
    return inbox / f"{key}.eml", inbox / f"{key}.toml"


def already_done(inbox: Path, key: str) -> bool:
    raw, meta = inbox_paths(inbox, key)
    return meta.exists() and raw.exists()


def keep_raw(inbox: Path, raw: bytes, key: str) -> Path:
    path = inbox_paths(private_folder(inbox), key)[0]
    if not path.exists():
        write_bytes_atomic(path, raw, mode=PRIVATE)
    return path


Reply = Callable[[Game, MailFate], bool]  # queues the reply to a mail; False: none was due


def receive(
    game: Game,
    raw: bytes,
    received: datetime | None = None,
    *,
    mail: MailText | None = None,
    checks: PasswordChecks | None = None,
    answer: Reply | None = None,
    refused: MailRejected | None = None,
) -> MailFate:
    """Take one raw mail for this game; safe to call again with the same mail. `mail` is the
    mail already read (by routing), `answer` queues the reply: it is called before the mail is
    recorded as done, so a crash in between answers the mail again instead of never. `refused`:
    routing found the mail cannot be read as orders, and why (it is not read twice)."""
    received = received or utc_now()
    if mail is None:
        try:
            if refused is not None:
                raise refused
            mail = read_mail(raw)
        except MailRejected as rejected:
            headers = mail_headers(raw)
            key = message_key(raw, headers.message_id)
            if already_done(game.directory.inbox, key):
                return MailFate(key, Fate.DUPLICATE, "this mail was received before", mail=headers)
            keep_raw(game.directory.inbox, raw, key)
            return _record(game, MailFate(key, Fate.REJECTED, message_of(rejected), mail=headers), received, answer)
        except UnreadableMail as unreadable:
            key = message_key(raw, "")
            keep_raw(game.directory.inbox, raw, key)
            return _record(game, MailFate(key, Fate.REJECTED, str(unreadable)), received, answer)
    key = message_key(raw, mail.message_id)
    if already_done(game.directory.inbox, key):
        return MailFate(key, Fate.DUPLICATE, "this mail was received before", mail=mail)
    keep_raw(game.directory.inbox, raw, key)
    checks = checks or PasswordChecks(throttle=Throttle(received))
    return _record(game, _read_orders(game, key, mail, received, checks), received, answer)


def _read_orders(game: Game, key: str, mail: MailText, received: datetime, checks: PasswordChecks) -> MailFate:
    """Who sent the mail, checked on its header lines alone; only then are its orders read."""
    try:
        heads = parse_submission(mail.text, game.parser, headers_only=True)
    except TooManyOrders as error:
        return MailFate(key, Fate.REJECTED, message_of(error), mail=mail)
    power = heads.power
    if power is None:
        by_address = [p.civ for p in game.settings.players if p.mails_from(mail.sender)]
        power = by_address[0] if len(by_address) == 1 else None
    if power is None:
        word = Msg(game.ruleset.player_word.upper())  # CIVILIZATION: a placeholder of the order forms
        return MailFate(
            key, Fate.REJECTED, t("the mail names no power: add a line 'power %(word)s'", word=word), mail=mail
        )
    try:
        civ = game.find_player_civ(power)
    except AdjudicatorError:  # the stranger's word is not echoed: the game's powers are named instead
        powers = ", ".join(p.civ for p in game.settings.players)
        return MailFate(
            key, Fate.REJECTED, t("the mail names no power of this game (%(powers)s)", powers=powers), mail=mail
        )
    player = game.settings.player(civ)
    assert player is not None
    if heads.password is None:
        return MailFate(key, Fate.REJECTED, t("the mail has no 'password' line; nothing was changed"), civ, mail)
    wrong = t("the password for %(civ)s is wrong; nothing was changed", civ=civ)
    registered = player.mails_from(mail.sender)
    if not registered and not checks.throttle.may_guess(game, civ, mail.sender):
        # from the player's own address a password is always checked: a forged From that
        # guessed wrong five times must not lock him out (the guesser never sees an answer)
        return MailFate(key, Fate.REJECTED, wrong, civ, mail, wrong_password=True)
    if (vacant := open_seat_refusal(game, civ)) is not None:
        return MailFate(key, Fate.REJECTED, vacant, civ, mail)
    if not checks.accepts(player, heads.password):
        if _former_secret(game, civ, heads.password):
            former = t(
                "that is the secret of %(civ)s's former player: a new secret was mailed to %(civ)s's new player "
                "when he took the seat; nothing was changed",
                civ=civ,
            )
            return MailFate(key, Fate.REJECTED, former, civ, mail, wrong_password=True)
        count = checks.throttle.wrong_guess(game, civ, mail.sender)
        later = "are still checked" if registered else "are refused unchecked for an hour"
        where = mail.sender or "no address"
        warning = f"{count} wrong passwords for {civ} from {where} within an hour; later ones {later}"
        flags = (warning,) if count == PASSWORD_FAILURES else ()
        return MailFate(key, Fate.REJECTED, wrong, civ, mail, flags=flags, wrong_password=True)
    secret = heads.password
    submission = parse_submission(mail.text, game.parser)
    flags = () if registered else (f"sent from {mail.sender}, not {civ}'s registered {player.email}",)

    def answers() -> tuple[Answer, ...]:  # after the orders are stored, so `orders` and `status` show them
        asked = [r for r in submission.requests if r.command != PREVIEW]
        return answer_requests(game, civ, asked, received)

    def answered(replies: tuple[Answer, ...]) -> MailFate:
        ordered = tuple(sorted(replies, key=lambda a: a.line))
        return MailFate(
            key, Fate.ANSWERED, "", civ, mail, flags=flags, answers=ordered, authenticated=True, password=secret
        )

    def refused(error: AdjudicatorError) -> MailFate:
        return MailFate(
            key,
            Fate.REJECTED,
            message_of(error),
            civ,
            mail,
            flags=flags,
            answers=answers(),
            authenticated=True,
            password=secret,
        )

    if any(r.command == PREVIEW for r in submission.requests):  # tried and answered, never stored
        try:
            return answered((*answers(), preview_answer(game, civ, mail.text, submission)))
        except AdjudicatorError as error:
            return refused(error)
    if (
        (submission.requests or submission.lines)
        and not submission.no_orders
        and not any(line.order is not None for line in submission.lines)
    ):  # requests only, or lines that are no orders at all (a mistyped request): answered, orders kept
        unread = tuple(
            Answer(line.number, line.text, t("Not understood: %(problem)s", problem=line.problem.message))
            for line in submission.lines
            if line.problem is not None
        )
        return answered(answers() + unread)
    try:
        checked = check_submission(game, mail.text, civ)
    except AdjudicatorError as error:
        return refused(error)
    source = f"mail {mail.message_id or key} from {mail.sender}"
    if is_late(received, game.deadline(), game.settings.schedule.grace):
        late = game.directory.late_folder(game.slug) / f"{civ}-{received:%Y%m%dT%H%M%S}.txt"
        said = t(  # the first line of the orders accept-late stores, which the player reads
            "mail %(id)s from %(sender)s, received %(when)s",
            id=mail.message_id or key,
            sender=mail.sender,
            when=received.isoformat(),
        )
        text = f"# {said.render(game.settings.language_of(civ))}\n" + redact_passwords(mail.text, secret)
        write_text_atomic(late, text, mode=PRIVATE)  # the player's orders: the moderator's eyes only
        reason = "it came after the deadline; it counts only if the moderator accepts it"
        return MailFate(key, Fate.LATE, reason, civ, mail, checked, late, flags, answers(), True, password=secret)
    stored = store_submission(game, checked, mail.text, source=source, received=received)
    return MailFate(key, Fate.ACCEPTED, "", civ, mail, checked, stored, flags, answers(), True, password=secret)


def _record(game: Game, outcome: MailFate, received: datetime, answer: Reply | None = None) -> MailFate:
    """The sidecar that makes a second pass over the same mail a no-op (the reply is queued first)."""
    replied = answer(game, outcome) if answer is not None else False
    mail = outcome.mail
    write_toml_atomic(
        inbox_paths(game.directory.inbox, outcome.key)[1],
        {
            "message_id": mail.message_id if mail else "",
            "from": mail.sender if mail else "",
            "subject": mail.subject if mail else "",
            "received": received,
            "status": str(outcome.status),
            "reason": outcome.reason,
            "power": outcome.power or "",
            "phase": game.slug,
            "flags": list(outcome.flags),
            "authenticated": outcome.authenticated,
            "wrong_password": outcome.wrong_password,
            "replied": replied,
        },
        mode=PRIVATE,  # who wrote, about what and why it failed: the player's business, as the mail is
    )
    return outcome


def current_orders_text(game: Game, civ: str) -> str:
    path = order_files(game).get(civ)
    return path.read_text(encoding="utf-8") if path else ""


def settle_late(game: Game, civ: str) -> None:
    """The moderator accepted a player's late orders: their mails no longer need him."""
    for meta in game.directory.inbox.glob("*.toml"):
        entry = read_toml(meta)
        if entry.get("status") == "late" and entry.get("power") == civ and entry.get("phase") == game.slug:
            write_toml_atomic(meta, {**entry, "status": "late-accepted"}, mode=PRIVATE)


def _former_secret(game: Game, civ: str, secret: str) -> bool:
    """Whether `secret` was the secret of the player who held this seat before its holder now,
    whose successor may have been handed it (game/seats.py keeps it for this answer)."""
    from adjudicator.game import seats
    from adjudicator.game.players import verify_secret

    former = seats.load(game.directory).former(civ)
    return former is not None and bool(former.secret_hash) and verify_secret(secret, former.secret_hash)
