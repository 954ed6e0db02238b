"""The SMTP side of outgoing mail: a game's [delivery.smtp] settings (game.toml over its
folder's intake.toml), and a queued mail as it leaves, from the address the settings give now."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError, DataError, UsageError
from adjudicator.core.fields import Fields
from adjudicator.delivery.compose import header_safe
from adjudicator.game.directory import Folder
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import game_settings, settings_file, settings_from, table_of
from adjudicator.game.settings_check import SMTP_KEYS

SECURITY = ("tls", "starttls", "plain")


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


def game_smtp(game: Game) -> SmtpSettings | None:
    """The game's [delivery.smtp], from game.toml over its folder's intake.toml; None: outbox only."""
    return settings_from(
        settings_file(game, "delivery.smtp"), game_settings(game, "delivery.smtp"), SmtpSettings.from_fields
    )


def shared_smtp(root: Path) -> SmtpSettings | None:
    """The [delivery.smtp] of a folder of games (its intake.toml), for mail about the folder."""
    path = Folder(root).settings_file
    data = table_of(path, "delivery.smtp")
    return settings_from(path, Fields(data, "delivery.smtp"), SmtpSettings.from_fields) if data is not None else None


def as_sent(message: EmailMessage, settings: SmtpSettings) -> EmailMessage:
    """A queued mail as it leaves: from the address [delivery.smtp] sets at this moment (issue
    29: welcome mails queued by `new` before the settings went out from, and told the players
    to write to, `moderator@GAME.invalid`). The placeholder in its text becomes that address."""
    old = message["From"].addresses[0] if message["From"] is not None else Address("", addr_spec=settings.sender)
    if old.addr_spec == settings.sender and not settings.sender_name:
        return message
    del message["From"]
    message["From"] = Address(header_safe(settings.sender_name or old.display_name), addr_spec=settings.sender)
    if old.addr_spec.endswith(".invalid") and message["Message-ID"] is not None:  # it was made from the address
        del message["Message-ID"]
        message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or "adjudicator.invalid")
    if old.addr_spec.endswith(".invalid") and not message.is_multipart():
        text = message.get_content()
        if isinstance(text, str) and old.addr_spec in text:
            message.set_content(text.replace(old.addr_spec, settings.sender))
    return message
