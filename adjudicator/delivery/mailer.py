"""Outgoing mail: messages built with the standard library (so no header injection through
a name or a subject), kept in outbox/ first, then sent over SMTP when the game has settings."""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
import smtplib
import ssl
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError, DataError, UsageError
from adjudicator.core.fields import Fields
from adjudicator.game.schedule import utc_now
from adjudicator.game.settings_check import SMTP_KEYS
from adjudicator.game.storage import file_lock, write_bytes_atomic

SECURITY = ("tls", "starttls", "plain")
SENT_FOLDER = "sent"


class DeliveryError(AdjudicatorError):
    """The SMTP server could not be reached or refused the mail; it stays in outbox/."""


class UnsendableError(DeliveryError):
    """Mail cannot go until the moderator acts (a password variable not exported), as opposed
    to a server away for a while: every sender keeps what it did and says what waits."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_security(f: Fields, host: str) -> str:
    security: str = f.text("security", "tls")
    if security not in SECURITY:
        raise f.error("security", f"'{security}' is not one of {', '.join(SECURITY)}")
    if security == "plain" and not is_loopback(host):
        raise f.error("security", "plain (unencrypted) connections may go only to this machine; use tls or starttls")
    return security


def secret_from_env(f: Fields, key: str = "password_env") -> str:
    name = f.text(key, "")
    if not name:
        return ""
    value = os.environ.get(name)
    if value is None:
        raise DataError(f.key(key), f"the environment variable {name} is not set; export it with the password")
    return value


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    host: str
    port: int
    security: str
    user: str
    password_env: str
    sender: str
    sender_name: str
    list_address: str
    cafile: str
    moderator: str = ""  # where `run` writes when a game needs the moderator (default: `from`)

    @classmethod
    def from_fields(cls, f: Fields) -> SmtpSettings:
        f.only(SMTP_KEYS)
        host = f.text("host")
        security = check_security(f, host)
        return cls(
            host,
            f.integer("port", 465 if security == "tls" else 587, minimum=1),
            security,
            f.text("user", ""),
            f.text("password_env", ""),
            f.text("from"),
            f.text("from_name", ""),
            f.text("list", ""),
            f.text("cafile", ""),
            f.text("moderator", "") or f.text("from"),
        )

    def password(self) -> str:
        if not self.password_env:
            return ""
        value = os.environ.get(self.password_env)
        if value is None:
            raise UsageError(f"the environment variable {self.password_env} is not set; export the SMTP password")
        return value


def _one_line(text: str) -> str:
    """Names and subjects come from players: a line break in them must not start a header."""
    return " ".join(text.split())


def make_message(
    *,
    sender: str,
    sender_name: str,
    to: str,
    to_name: str,
    subject: str,
    body: str,
    in_reply_to: str = "",
    domain: str = "adjudicator.invalid",
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = Address(_one_line(sender_name), addr_spec=sender)
    message["To"] = Address(_one_line(to_name), addr_spec=to)
    message["Subject"] = _one_line(subject)
    message["Date"] = format_datetime(utc_now())
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or domain)
    if in_reply_to:
        message["In-Reply-To"] = _one_line(in_reply_to)
        message["References"] = _one_line(in_reply_to)
    message.set_content(body)
    return message


def placeholder_address(game: str) -> str:
    """The From of a game's mail queued while no [delivery.smtp] says one: nobody can answer
    it, so no mail ever leaves with it (`as_sent`)."""
    return f"moderator@{game}.invalid"


def as_sent(message: EmailMessage, settings: SmtpSettings) -> EmailMessage:
    """A queued mail as it leaves: from the address [delivery.smtp] sets at this moment (issue
    29: welcome mails queued by `new` before the settings went out from, and told the players
    to write to, `moderator@GAME.invalid`). The placeholder in its text becomes that address."""
    old = message["From"].addresses[0] if message["From"] is not None else Address("", addr_spec=settings.sender)
    if old.addr_spec == settings.sender and not settings.sender_name:
        return message
    del message["From"]
    message["From"] = Address(_one_line(settings.sender_name or old.display_name), addr_spec=settings.sender)
    if old.addr_spec.endswith(".invalid") and message["Message-ID"] is not None:  # it was made from the address
        del message["Message-ID"]
        message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or "adjudicator.invalid")
    if old.addr_spec.endswith(".invalid") and not message.is_multipart():
        text = message.get_content()
        if isinstance(text, str) and old.addr_spec in text:
            message.set_content(text.replace(old.addr_spec, settings.sender))
    return message


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
    import email
    import email.policy

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
