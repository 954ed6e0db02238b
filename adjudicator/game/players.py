"""Players of a game: who plays which civilization, their address, and their secret.

Only a salted scrypt hash of each secret goes into game.toml; the secret itself is shown
once at creation and kept in secrets.toml (mode 600) for the moderator.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from email.headerregistry import Address

from adjudicator.core.controls import control_character
from adjudicator.core.errors import UsageError
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import check_language
from adjudicator.core.limits import ADDRESS_CHARS
from adjudicator.game.schedule import check_zone

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
_SECRET_CHARS = re.compile(r"^[A-Za-z0-9_.!@$%^&*+=?/~-]{6,128}$")
_EMAIL = re.compile(r"^[^@\s<>\"]+@[^@\s<>\"]+\.[^@\s<>\"]+$")
_HEX = re.compile(r"^[0-9a-f]+$")
# A player's handle on each chat service a game's [[notify]] destinations post to, written as that
# service mentions someone (Discord "<@123…>", Slack "<@U…>", Matrix "@anna:example.org", Telegram
# "@anna", Mastodon "@anna@example.social"): the posts that concern him mention him so.
HANDLE_KEYS = ("discord", "slack", "matrix", "telegram", "mastodon")
HANDLE_CHARS = 100
PLAYER_KEYS = frozenset(
    {"civ", "name", "email", "secret_hash", "forum", "lang", "timezone", *HANDLE_KEYS}
)  # a [[player]] of game.toml
OPEN_SEAT_KEYS = frozenset({"civ", "open"})  # a [[player]] whose seat is open: nobody plays it (game/seats.py)


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A `--player CIV:EMAIL[:SECRET]` argument, before the civilization is checked."""

    civ: str
    email: str
    secret: str | None
    name: str = ""
    lang: str = ""  # from `--player-lang CIV=LANG`


@dataclass(frozen=True, slots=True)
class Player:
    civ: str
    email: str
    secret_hash: str  # scrypt$n$r$p$salt$hash
    name: str = ""  # as the player wants to be called in reports (any text; escaped there)
    forum: str = ""  # his user name on the game's forum: whose posts in a saved thread are his
    lang: str = ""  # the language he reads (adjudicator/i18n.py); "" reads the game's
    timezone: str = ""  # the zone his deadlines are shown in; "" shows the game's ([schedule] timezone)
    open: bool = False  # nobody holds the seat: no address, no secret, default orders (game/seats.py)
    handles: tuple[tuple[str, str], ...] = ()  # (service, how it mentions him), HANDLE_KEYS' order

    def handle(self, service: str) -> str:
        """How the chat `service` mentions this player, or "" (no handle there)."""
        return dict(self.handles).get(service, "")

    def accepts(self, secret: str) -> bool:
        return not self.open and verify_secret(secret, self.secret_hash)

    def to_data(self) -> dict[str, str | bool]:
        if self.open:
            return {"civ": self.civ, "open": True}
        data: dict[str, str | bool] = {
            "civ": self.civ,
            "name": self.name,
            "email": self.email,
            "secret_hash": self.secret_hash,
        }
        optional = {"forum": self.forum, "lang": self.lang, "timezone": self.timezone, **dict(self.handles)}
        return data | {key: value for key, value in optional.items() if value}

    def posts_as(self, author: str) -> bool:
        """Whether a forum post by `author` is this player's (names compared as the boards do:
        case and runs of spaces aside)."""
        return bool(self.forum) and forum_name(self.forum) == forum_name(author)

    def mails_from(self, address: str) -> bool:
        """Whether a mail from `address` comes from this player's registered address (an open
        seat has none)."""
        return not self.open and bool(address) and self.email.lower() == address.lower()


def open_seat(civ: str) -> Player:
    """The [[player]] of a seat nobody holds."""
    return Player(civ, "", "", open=True)


@dataclass
class SecretChecks:
    """The secrets one run of a command (a `collect`, a demo) has checked: each distinct (player,
    secret) costs one scrypt check per run. Held in memory for the run only, never written
    anywhere, and keyed by the secret's SHA-256, never the secret."""

    results: dict[tuple[str, str, bytes], bool] = field(default_factory=dict)

    def accepts(self, player: Player, secret: str) -> bool:
        key = (player.civ, player.secret_hash, hashlib.sha256(secret.encode()).digest())
        if key not in self.results:
            self.results[key] = player.accepts(secret)
        return self.results[key]


def parse_player(f: Fields) -> Player:
    """A [[player]] of game.toml, every key checked; its civ is checked against the board later."""
    if f.data.get("open") is not None:
        f.only(OPEN_SEAT_KEYS)
        if f.data["open"] is not True:
            raise f.error("open", "write open = true for a seat nobody holds, or leave the key out")
        civ = f.text("civ")
        if not civ.strip():
            raise f.error("civ", 'empty; write the civilization of the open seat, e.g. civ = "Rome"')
        return open_seat(civ.strip())
    f.only(PLAYER_KEYS)
    civ, email, secret_hash = f.text("civ"), f.text("email"), f.text("secret_hash")
    if not civ.strip():
        raise f.error("civ", 'empty; write the civilization this player plays, e.g. civ = "Rome"')
    if not is_email_address(email):
        raise f.error(
            "email", f"'{email}' is not an address the judge can mail; write it as name@example.org, in ASCII"
        )
    if not is_secret_hash(secret_hash):
        raise f.error(
            "secret_hash",
            "not a hash written by the adjudicator (scrypt$N$r$p$salt$digest); put back the original, "
            "or the output of adjudicator.game.players.hash_secret for a new secret",
        )
    forum, name = f.line("forum", ""), f.line("name", "")  # one line each: reports show them
    lang, zone = f.checked("lang", check_language), f.checked("timezone", check_zone)
    handles = tuple((service, _handle(f, service)) for service in HANDLE_KEYS if f.data.get(service))
    return Player(civ.strip(), email, secret_hash, name, " ".join(forum.split()), lang, zone, handles=handles)


def _handle(f: Fields, service: str) -> str:
    """A chat handle goes into posts as it is written: one short line, no spaces."""
    handle: str = f.line(service).strip()
    if not handle or len(handle) > HANDLE_CHARS or any(c.isspace() for c in handle):
        example = _EXAMPLE_HANDLES[service]
        raise f.error(service, f"write the handle as {service} mentions the player, without spaces, e.g. {example}")
    return handle


_EXAMPLE_HANDLES = {
    "discord": '"<@123456789012345678>"',
    "slack": '"<@U024BE7LH>"',
    "matrix": '"@anna:example.org"',
    "telegram": '"@anna"',
    "mastodon": '"@anna@example.social"',
}


def forum_name(name: str) -> str:
    """A forum user name for comparing: boards do not let two users differ only in case."""
    return " ".join(name.split()).casefold()


def is_email_address(text: str) -> bool:
    return mail_address(text) is not None


def mail_address(text: str) -> str | None:
    """The address in lower case, or None when the judge cannot mail it: the one test of an
    address for players (`new`, game.toml) and for the sender of every mail. It is ASCII (the
    mailer speaks no SMTPUTF8: a domain goes in its xn-- form), at most ADDRESS_CHARS long, and
    one the email package builds a header from; `a..b@x` and `ä@x` once stopped every collect."""
    if not text or len(text) > ADDRESS_CHARS or not text.isascii() or not _EMAIL.match(text):
        return None
    if control_character(text):
        return None
    try:
        parsed = Address(addr_spec=text)
    except Exception:  # the email package refuses it: any of its defects
        return None
    return text.lower() if parsed.addr_spec == text else None


def is_secret_hash(stored: str) -> bool:
    """The shape `hash_secret` writes; anything else would make every password fail."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt" or not all(p.isdigit() for p in parts[1:4]):
        return False
    return all(_HEX.match(p) for p in parts[4:])


def parse_player_spec(text: str) -> PlayerSpec:
    """CIV:EMAIL[:SECRET[:NAME]]; an empty SECRET is generated; NAME may hold anything."""
    parts = text.split(":", 3)
    if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
        raise UsageError(f"'{text}' is not CIV:EMAIL or CIV:EMAIL:SECRET, e.g. Rome:anna@example.org")
    civ, email = parts[0].strip(), parts[1].strip()
    if not is_email_address(email):
        raise UsageError(
            f"'{email}' is not an address the judge can mail (player {civ}); write it as name@example.org, "
            "in ASCII (a domain in its xn-- form)"
        )
    secret = parts[2] if len(parts) >= 3 and parts[2] else None
    if secret is not None:
        check_secret_text(secret)
    name = parts[3].strip() if len(parts) == 4 else ""
    if found := control_character(name):
        raise UsageError(f"the name of player {civ} holds {found}; write it as one line of plain text")
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
