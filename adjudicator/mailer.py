"""Outgoing mail: messages built with the standard library (so no header injection through
a name or a subject), kept in outbox/ first, then sent over SMTP when the game has settings."""

from __future__ import annotations

import ipaddress
import os
import shutil
import smtplib
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from adjudicator.errors import AdjudicatorError, DataError, UsageError
from adjudicator.fields import Fields
from adjudicator.schedule import utc_now
from adjudicator.settings_check import SMTP_KEYS
from adjudicator.storage import write_bytes_atomic

SECURITY = ("tls", "starttls", "plain")


class DeliveryError(AdjudicatorError):
    """The SMTP server could not be reached or refused the mail; it stays in outbox/."""


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


def queue(outbox: Path, messages: Sequence[EmailMessage], label: str) -> list[Path]:
    """Write each message to outbox/ first: a failed send never loses it."""
    stamp = utc_now().strftime("%Y%m%dT%H%M%S")
    paths = []
    for number, message in enumerate(messages, start=1):
        path = outbox / f"{stamp}-{label}-{number:02d}.eml"
        write_bytes_atomic(path, bytes(message))
        paths.append(path)
    return paths


def send_queued(settings: SmtpSettings, paths: Sequence[Path]) -> int:
    """Send queued .eml files and move each to outbox/sent/ once the server took it."""
    import email
    import email.policy

    if not paths:
        return 0
    context = ssl.create_default_context(cafile=settings.cafile or None)
    try:
        if settings.security == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(settings.host, settings.port, context=context, timeout=30)
        else:
            client = smtplib.SMTP(settings.host, settings.port, timeout=30)
            if settings.security == "starttls":
                client.starttls(context=context)
        with client:
            if settings.user:
                client.login(settings.user, settings.password())
            for path in paths:
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                client.send_message(message)
                sent = path.parent / "sent" / path.name
                sent.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(path), sent)
    except (OSError, smtplib.SMTPException) as error:
        raise DeliveryError(
            f"could not send through {settings.host}:{settings.port} ({error}); "
            "the mails wait in outbox/ for the next 'adjudicator send'"
        ) from None
    return len(paths)
