"""A game's chat destinations: the [[notify]] tables of game.toml and of the games folder's
intake.toml (one Discord channel for a whole club), each a service the judge posts to, what it
posts there, and whose handles mention the players. The address itself (a webhook URL holds
its token) is a secret: it is read from secrets.toml or the environment when a post goes, and
never from game.toml, which a moderator may show or commit."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from adjudicator.core.errors import DataError, UsageError
from adjudicator.core.fields import Fields
from adjudicator.game.players import HANDLE_KEYS
from adjudicator.game.storage import read_toml

SECRETS_TABLE = "notify"  # secrets.toml [notify]: NAME = "the destination's URL"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
# The words of a service's address that are the same in everyone's (the rest may be a token)
_ADDRESS_WORDS = frozenset({"", "api", "webhooks", "webhook", "hooks", "hook", "services", "v1", "v2", "v3", "bot"})


class PostKind(StrEnum):
    """What a destination is sent (its `send` list)."""

    REPORT = "report"  # each resolved phase's public report, the map attached where the service takes files
    OPEN = "open"  # a short line when a phase opens: its deadline, and who is to send orders
    REMINDERS = "reminders"  # at [schedule] remind times: due in N hours, waiting on these players
    FINAL = "final"  # the final standings when the game ends


NOTIFY_KEYS = frozenset({"name", "url_env", "send", "mentions"})

# How a URL's scheme tells whose handles its posts use (Apprise's schemes, and webhook hosts)
_SERVICE_OF_SCHEME = {
    "discord": "discord",
    "slack": "slack",
    "matrix": "matrix",
    "matrixs": "matrix",
    "tgram": "telegram",
    "mastodon": "mastodon",
    "mastodons": "mastodon",
    "toot": "mastodon",
    "toots": "mastodon",
}
_SERVICE_OF_HOST = {"discord.com": "discord", "discordapp.com": "discord", "hooks.slack.com": "slack"}


@dataclass(frozen=True, slots=True)
class Destination:
    """One [[notify]] table: where posts go (by name: the address is a secret) and what."""

    name: str
    send: frozenset[PostKind]
    url_env: str = ""  # the environment variable holding the URL; else secrets.toml [notify] NAME
    mentions: str = ""  # whose handles ([[player]] discord = …) the posts use; "" guesses from the URL

    def to_data(self) -> dict[str, str | list[str]]:
        data: dict[str, str | list[str]] = {"name": self.name, "send": [str(k) for k in PostKind if k in self.send]}
        return data | {key: value for key, value in (("url_env", self.url_env), ("mentions", self.mentions)) if value}


def parse_destination(f: Fields) -> Destination:
    """A [[notify]] table, every key checked (its address is looked up only when it is used)."""
    if "url" in f.data:
        raise f.error(
            "url",
            "a destination's address holds its token, so it is a secret: put it in secrets.toml under [notify] "
            '(NAME = "https://…"), or in an environment variable named by url_env',
        )
    f.only(NOTIFY_KEYS)
    name = f.text("name")
    if not _NAME.match(name):
        raise f.error("name", f"'{name}' is not a name; use up to 32 lower-case letters, digits, - and _ (discord)")
    kinds = f.texts("send", [str(kind) for kind in PostKind])
    for index, kind in enumerate(kinds):
        if kind not in tuple(PostKind):
            raise DataError(f"{f.key('send')}[{index}]", f"'{kind}' is not a kind of post; use {', '.join(PostKind)}")
    mentions = f.text("mentions", "")
    if mentions and mentions not in HANDLE_KEYS:
        raise f.error("mentions", f"'{mentions}' names no handle of [[player]]; use one of {', '.join(HANDLE_KEYS)}")
    return Destination(name, frozenset(PostKind(kind) for kind in kinds), f.text("url_env", ""), mentions)


def parse_destinations(tables: Sequence[Fields]) -> tuple[Destination, ...]:
    """The [[notify]] tables of one file, their names distinct."""
    found: dict[str, Destination] = {}
    for f in tables:
        destination = parse_destination(f)
        if destination.name in found:
            raise f.error("name", f"'{destination.name}' names two destinations; give each its own name")
        found[destination.name] = destination
    return tuple(found.values())


def game_destinations(own: Sequence[Destination], shared: Mapping[str, Any]) -> tuple[Destination, ...]:
    """A game's destinations (its game.toml's) and its games folder's (`shared`: the folder's
    intake.toml, as read); a game's own table of the same name replaces the folder's."""
    names = {d.name for d in own}
    folder = parse_destinations(Fields(shared).tables("notify", []))
    return (*own, *(d for d in folder if d.name not in names))


def destination_url(destination: Destination, secrets_files: Sequence[Path]) -> str:
    """The destination's address: from its environment variable, else from the first of
    `secrets_files` (the game's, then the games folder's) that names it under [notify]."""
    if destination.url_env:
        value = os.environ.get(destination.url_env, "")
        if not value:
            raise UsageError(
                f"the environment variable {destination.url_env} is not set; export it with the address of "
                f"destination '{destination.name}'"
            )
        return value
    for path in secrets_files:
        table = read_toml(path).get(SECRETS_TABLE, {}) if path.is_file() else {}
        kept = table.get(destination.name) if isinstance(table, dict) else None
        if isinstance(kept, str) and kept:
            return kept
    raise UsageError(
        f"destination '{destination.name}' has no address: add {destination.name} = \"…\" under [notify] in "
        f"{secrets_files[0]}, or set url_env in its [[notify]] table"
    )


def service_of(destination: Destination, url: str) -> str:
    """Whose handles the destination's posts mention: its `mentions`, else its URL's service."""
    if destination.mentions:
        return destination.mentions
    parts = urlsplit(url)
    return _SERVICE_OF_SCHEME.get(parts.scheme.lower(), "") or _SERVICE_OF_HOST.get((parts.hostname or "").lower(), "")


def mask(text: str, url: str) -> str:
    """`text` with every secret part of `url` starred: its user and password, what stands for a
    host and is no host name (discord://WEBHOOK_ID/TOKEN, tgram://BOT:TOKEN/), and every path
    segment, query value and fragment but the few words services put in every address
    (`api/webhooks`), each as written and percent-decoded, in any case. What the moderator
    reads, and every log."""
    if not url:
        return text
    parts = urlsplit(url)
    secrets = {parts.username or "", parts.password or ""}
    for piece in re.split(r"[@:]", parts.netloc):  # a host name and a port stay; a bot token does not
        if "." not in piece and piece.lower() != "localhost" and not (piece.isdigit() and len(piece) <= 5):
            secrets.add(piece)
    pieces = {*parts.path.split("/"), parts.fragment, *(value for _, value in parse_qsl(parts.query))}
    secrets |= {piece for piece in pieces if piece.lower() not in _ADDRESS_WORDS}
    secrets |= {unquote(secret) for secret in secrets}
    ordered = sorted((s for s in secrets if len(s) >= 3), key=len, reverse=True)
    starred = url
    for secret in ordered:
        starred = _star(starred, secret)
    text = _star(text, url, starred if starred != url else "****")  # the whole address, whatever its pieces
    for secret in ordered:
        text = _star(text, secret)
    return text


def _star(text: str, secret: str, instead: str = "****") -> str:
    return re.sub(re.escape(secret), lambda _: instead, text, flags=re.IGNORECASE)
