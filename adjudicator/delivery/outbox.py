"""The outbox: every mail the judge writes waits in outbox/ first (so a failed send never loses
it, and a mail queued twice is one file, sent once), then `flush` sends what waits. `flush` is
the one sender: `collect`, `run`, `send` and the mail that tells the moderator a game paused
each word its result in their own way, under one policy (docs/hosting.md, "When mail cannot
go"): nothing is lost, what cannot go waits, and only wrong settings need the moderator."""

from __future__ import annotations

import email
import email.policy
import hashlib
import os
import re
import smtplib
import ssl
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from email.message import EmailMessage
from enum import StrEnum
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError, UsageError
from adjudicator.delivery.smtp import DeliveryError, SmtpSettings, UnsendableError, as_sent
from adjudicator.game.storage import file_lock, write_bytes_atomic

SENT_FOLDER = "sent"


def mail_identity(game: str, phase: str, kind: str, recipient: str) -> str:
    """The stable name of one outgoing mail (game, phase, kind, recipient): the same mail
    queued twice is one file, so it is sent at most once."""
    readable = re.sub(r"[^A-Za-z0-9@.+-]+", "_", f"{game}.{phase}.{kind}.{recipient.lower()}")[:160]
    digest = hashlib.sha256("\0".join((game, phase, kind, recipient.lower())).encode()).hexdigest()[:10]
    return f"{readable}.{digest}"


def queue(outbox: Path, messages: Sequence[tuple[str, EmailMessage]], *, again: bool = False) -> list[Path]:
    """Write each (identity, message) to outbox/IDENTITY.eml first, so a failed send never
    loses it; a mail already queued or already sent (outbox/sent/) is not queued again.
    `again` rewrites it (dry runs). Returns the files written."""
    paths = []
    for identity, message in messages:
        path = outbox / f"{identity}.eml"
        if not again and (path.exists() or (outbox / SENT_FOLDER / path.name).exists()):
            continue
        write_bytes_atomic(path, bytes(message), mode=0o600)  # a welcome mail holds its player's secret
        paths.append(path)
    return paths


def read_queued(path: Path) -> EmailMessage:
    """A mail this program queued in outbox/ (so a well-formed one), read back to be sent."""
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def pending(outbox: Path) -> list[Path]:
    """The mails in outbox/ not sent yet."""
    return sorted(outbox.glob("*.eml")) if outbox.is_dir() else []


def _sending(outbox: Path, wait_seconds: float = 30.0) -> AbstractContextManager[bool]:
    """One sender per outbox at a time; yields False when another process kept it busy."""
    return file_lock(outbox / ".sending.lock", wait_seconds)


def send_queued(settings: SmtpSettings, outbox: Path) -> int:
    """Send every mail waiting in outbox/ and move each to outbox/sent/ once the server took
    it; a mail another process sent meanwhile is not sent again. Returns how many were sent."""
    if not pending(outbox):
        return 0
    try:  # before connecting: a password not exported stops the sending, never what came before it
        password = settings.password() if settings.user else ""
    except UsageError as error:
        raise UnsendableError(f"{error}; {len(pending(outbox))} mail(s) wait in outbox/ until it is") from None
    context = ssl.create_default_context(cafile=settings.cafile or None)
    sent = 0
    with _sending(outbox) as mine:
        if not mine:
            return 0  # another process is sending this outbox; it sends these too
        try:
            if settings.security == "tls":
                client: smtplib.SMTP = smtplib.SMTP_SSL(settings.host, settings.port, context=context, timeout=30)
            else:
                client = smtplib.SMTP(settings.host, settings.port, timeout=30)
                if settings.security == "starttls":
                    client.starttls(context=context)
            with client:
                if settings.user:
                    client.login(settings.user, password)
                for path in pending(outbox):
                    client.send_message(as_sent(read_queued(path), settings))
                    target = outbox / SENT_FOLDER / path.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(path, target)
                    sent += 1
        except (OSError, smtplib.SMTPException) as error:
            raise DeliveryError(
                f"could not send through {settings.host}:{settings.port} ({error}); "
                f"{sent} mail(s) went out and the others wait in outbox/ for the next 'adjudicator send'"
            ) from None
    return sent


class Hitch(StrEnum):
    """Why mail still waits after a flush."""

    NO_SETTINGS = "no-settings"  # no [delivery.smtp]: an outbox-only game, by choice
    SERVER_AWAY = "server-away"  # the server could not be reached or refused: the next flush tries again
    SETTINGS_WRONG = "settings-wrong"  # a password not exported, a bad table: the moderator must act


@dataclass(frozen=True, slots=True)
class Flushed:
    """What one flush did: how many mails waited, went and still wait, and why they wait."""

    queued: int = 0  # waiting when the flush began
    sent: int = 0
    waiting: int = 0  # still in outbox/ when it ended
    hitch: Hitch | None = None
    error: AdjudicatorError | None = None  # the server's or the settings' own words (not for NO_SETTINGS)
    host: str = ""


def flush(outbox: Path, settings: Callable[[], SmtpSettings | None]) -> Flushed:
    """Send what waits in `outbox`, with the settings `settings` finds (read only when mail
    waits, so a game with nothing to send is never stopped by its settings). Never raises for
    mail that cannot go: the result says why it waits."""
    queued = len(pending(outbox))
    if not queued:
        return Flushed()
    try:
        chosen = settings()
        if chosen is None:
            return Flushed(queued, 0, queued, Hitch.NO_SETTINGS)
        sent = send_queued(chosen, outbox)
    except AdjudicatorError as error:
        left = len(pending(outbox))
        if isinstance(error, DeliveryError) and not isinstance(error, UnsendableError):  # the next flush tries again
            return Flushed(queued, queued - left, left, Hitch.SERVER_AWAY, error)
        return Flushed(queued, 0, left, Hitch.SETTINGS_WRONG, error)  # nothing went: the moderator must act
    return Flushed(queued, sent, len(pending(outbox)), host=chosen.host)
