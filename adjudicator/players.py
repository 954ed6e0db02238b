"""Players of a game: who plays which civilization, their address, and their secret.

Only a salted scrypt hash of each secret goes into game.toml; the secret itself is shown
once at creation and kept in secrets.toml (mode 600) for the moderator.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from adjudicator.errors import UsageError

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
_SECRET_CHARS = re.compile(r"^[A-Za-z0-9_.!@$%^&*+=?/~-]{6,128}$")
_EMAIL = re.compile(r"^[^@\s<>\"]+@[^@\s<>\"]+\.[^@\s<>\"]+$")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A `--player CIV:EMAIL[:SECRET]` argument, before the civilization is checked."""

    civ: str
    email: str
    secret: str | None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Player:
    civ: str
    email: str
    secret_hash: str  # scrypt$n$r$p$salt$hash
    name: str = ""  # as the player wants to be called in reports (any text; escaped there)

    def accepts(self, secret: str) -> bool:
        return verify_secret(secret, self.secret_hash)


def parse_player_spec(text: str) -> PlayerSpec:
    """CIV:EMAIL[:SECRET[:NAME]]; an empty SECRET is generated; NAME may hold anything."""
    parts = text.split(":", 3)
    if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
        raise UsageError(f"'{text}' is not CIV:EMAIL or CIV:EMAIL:SECRET, e.g. Rome:anna@example.org")
    civ, email = parts[0].strip(), parts[1].strip()
    if not _EMAIL.match(email):
        raise UsageError(f"'{email}' is not an email address (player {civ})")
    secret = parts[2] if len(parts) >= 3 and parts[2] else None
    if secret is not None:
        check_secret_text(secret)
    name = parts[3].strip() if len(parts) == 4 else ""
    if "\n" in name or "\r" in name:
        raise UsageError(f"the name of player {civ} must be one line")
    return PlayerSpec(civ, email, secret, name)


def check_secret_text(secret: str) -> None:
    """Secrets travel in a `password` order line, so no spaces, `#` (comment) or `;` (separator)."""
    if not _SECRET_CHARS.match(secret):
        raise UsageError(
            "a secret is 6 to 128 characters of letters, digits and _.!@$%^&*+=?/~- "
            "(no spaces, '#', ';' or ':'); leave it out to have one generated"
        )


def new_secret() -> str:
    return secrets.token_urlsafe(9)


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_secret(secret: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        actual = hashlib.scrypt(secret.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p))
    except ValueError:
        return False
    return hmac.compare_digest(actual.hex(), digest)
