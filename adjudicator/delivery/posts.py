"""The chat outbox: every post to a [[notify]] destination waits in outbox/notify/ first, like
mail (written before anything is sent, named by game, phase, kind and destination so that the
same post queued twice is one file), then `flush_posts` sends what waits, each destination in
the order its posts were queued, through Apprise (one URL scheme for Discord, Slack, Matrix,
Telegram, Mastodon, ntfy and a hundred more).

A destination that fails is tried again later, each time after a longer wait (BACKOFF), and
parked after PARK_AFTER failures in a row: its posts wait, `status` and `run` name it with its
error, and `adjudicator notify GAME --retry` takes it up again. A post is moved to sending/
before its request and to sent/ after it: one found in sending/ was cut off mid-send by a kill,
may or may not have arrived, and is kept in unsure/ for the moderator (`notify --resend`), never
sent twice on its own. Nothing here ever stops mail or adjudication."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode, urlsplit

from adjudicator.core.errors import UsageError
from adjudicator.game.destinations import Destination, mask
from adjudicator.game.directory import GameDirectory
from adjudicator.game.storage import file_lock, read_toml, write_toml_atomic

POSTS_FOLDER = "notify"  # outbox/notify/
SENDING, SENT, UNSURE = "sending", "sent", "unsure"
STATE_FILE = "destinations.toml"  # outbox/notify/destinations.toml: each destination's failures
BACKOFF = (
    timedelta(minutes=1),
    timedelta(minutes=2),
    timedelta(minutes=5),
    timedelta(minutes=10),
    timedelta(minutes=30),
    timedelta(hours=1),
)
PARK_AFTER = 8  # failures in a row (2 h 48 min of trying at the least) before it is parked
CONNECT_SECONDS, READ_SECONDS = 5, 15  # Apprise's cto and rto: a request that hangs costs 20 s at most
NOT_INSTALLED = (
    "the game has [[notify]] destinations but Apprise, which posts to them, is not installed: "
    "pip install -e '.[notify]' in the adjudicator's checkout, with its venv active"
)


@dataclass(frozen=True, slots=True)
class Post:
    """One message for one destination, as it will be sent."""

    identity: str  # game, phase, kind and destination: the file's name
    destination: str
    kind: str
    title: str
    body: str
    attach: str = ""  # a drawing (an SVG under the game folder) sent as a PNG picture
    caption: str = ""  # the text that goes with the picture
    queued: datetime | None = None
    parts_sent: int = 0  # the parts (see `parts`) that went already: a retry goes on from the next

    def to_data(self) -> dict[str, Any]:
        data = {"destination": self.destination, "kind": self.kind, "title": self.title, "body": self.body}
        data |= {"attach": self.attach, "caption": self.caption} if self.attach else {}
        return data | {"queued": self.queued} | ({"parts_sent": self.parts_sent} if self.parts_sent else {})

    @classmethod
    def from_file(cls, path: Path) -> Post:
        data = read_toml(path)
        return cls(
            path.stem,
            str(data["destination"]),
            str(data["kind"]),
            str(data["title"]),
            str(data["body"]),
            str(data.get("attach", "")),
            str(data.get("caption", "")),
            data.get("queued"),
            int(data.get("parts_sent", 0)),
        )


@dataclass(frozen=True, slots=True)
class Health:
    """A destination's record of failures: when to try it again, and whether it is parked."""

    failures: int = 0
    retry_at: datetime | None = None
    error: str = ""
    parked: bool = False
    since: datetime | None = None  # its first failure in this run of them

    def failed(self, error: str, now: datetime, permanent: bool = False) -> Health:
        failures = self.failures + 1
        wait = BACKOFF[min(failures, len(BACKOFF)) - 1]
        parked = permanent or failures >= PARK_AFTER
        return Health(failures, None if parked else now + wait, error, parked, self.since or now)

    def waits(self, now: datetime) -> bool:
        return self.parked or (self.retry_at is not None and now < self.retry_at)


@dataclass
class PostsFlushed:
    """What one flush of the chat outbox did, and what waits and why."""

    sent: int = 0
    waiting: int = 0
    retrying: list[str] = field(default_factory=list)  # "discord: <error>; tried again at …": it passes
    parked: list[str] = field(default_factory=list)  # "discord: <error>": the moderator must act, then --retry
    blocked: list[str] = field(default_factory=list)  # no address, no table: the moderator must act
    unsure: list[str] = field(default_factory=list)  # posts cut off mid-send, kept in unsure/
    setup: str = ""  # why nothing could be sent at all (Apprise missing)

    def news(self) -> list[str]:
        """What passes: posts sent, destinations to be tried again."""
        return ([f"{self.sent} post(s) sent"] if self.sent else []) + [f"posts wait: {x}" for x in self.retrying]

    def needs(self, game: GameDirectory) -> list[str]:
        """What the moderator must act on, each with how."""
        lines = [self.setup] if self.setup else []
        lines += [f"posts wait for {line}" for line in self.blocked]
        lines += [f"posts wait for {line}; 'adjudicator notify {game.root} --retry'" for line in self.parked]
        if self.unsure:
            cut = len(self.unsure)
            lines.append(f"{cut} post(s) were cut off mid-send and may not have arrived: {unsure_hint(game)}")
        return lines


def unsure_hint(game: GameDirectory) -> str:
    """What the moderator does with posts cut off mid-send: one home for `status` and `run`."""
    return (
        f"see {posts_folder(game.outbox) / UNSURE}; 'adjudicator notify {game.root} --resend' sends "
        "them again, or delete them once you have seen them arrive"
    )


def posts_folder(outbox: Path) -> Path:
    return outbox / POSTS_FOLDER


def queue_posts(outbox: Path, posts: Sequence[Post], now: datetime, *, again: bool = False) -> list[Path]:
    """Write each post to outbox/notify/IDENTITY.toml first; a post queued, sent or kept as
    unsure before is not queued again (`again` rewrites it: dry runs). Returns the files written."""
    folder = posts_folder(outbox)
    written = []
    for post in posts:
        name = f"{post.identity}.toml"
        places = (folder, folder / SENDING, folder / SENT, folder / UNSURE)
        if not again and any((where / name).exists() for where in places):
            continue
        path = folder / name
        write_toml_atomic(path, replace(post, queued=post.queued or now).to_data(), mode=0o600)
        written.append(path)
    return written


def waiting_posts(outbox: Path) -> list[Post]:
    """The posts not sent yet, in the order they were queued."""
    folder = posts_folder(outbox)
    posts = [Post.from_file(path) for path in folder.glob("*.toml") if path.name != STATE_FILE]
    return sorted(posts, key=lambda p: (p.queued.isoformat() if p.queued else "", p.identity))


def unsure_posts(outbox: Path) -> list[Path]:
    folder = posts_folder(outbox) / UNSURE
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def read_health(outbox: Path) -> dict[str, Health]:
    path = posts_folder(outbox) / STATE_FILE
    data = read_toml(path) if path.is_file() else {}
    return {name: Health(**table) for name, table in data.items() if isinstance(table, dict)}


def _write_health(outbox: Path, health: Mapping[str, Health]) -> None:
    data = {
        name: {key: getattr(h, key) for key in Health.__slots__ if getattr(h, key) not in (None, "", 0, False)}
        for name, h in health.items()
        if h != Health()
    }
    write_toml_atomic(posts_folder(outbox) / STATE_FILE, data, mode=0o600)


def status_lines(game: GameDirectory, names: Sequence[str], now: datetime) -> list[str]:
    """`status`'s view of the chat outbox: each destination's waiting posts and health, and
    the posts cut off mid-send."""
    outbox = game.outbox
    health = read_health(outbox)
    waiting = waiting_posts(outbox)
    lines = []
    for name in dict.fromkeys([*names, *(p.destination for p in waiting)]):
        count = sum(1 for p in waiting if p.destination == name)
        state = health.get(name, Health())
        line = f"{count} post(s) waiting" if count else "nothing waiting"
        if state.parked:
            line += (
                f"; PARKED after {state.failures} failure(s): {state.error} (adjudicator notify {game.root} --retry)"
            )
        elif state.failures:
            line += f"; {state.failures} failure(s), the last: {state.error}"
            if state.retry_at is not None and state.retry_at > now:
                line += f"; tried again after {state.retry_at:%Y-%m-%d %H:%M} UTC"
        if name not in names:
            line += "; no [[notify]] table names it now"
        lines.append(f"{name}: {line}")
    unsure = unsure_posts(outbox)
    if unsure:
        lines.append(f"{len(unsure)} post(s) cut off mid-send may not have arrived: {unsure_hint(game)}")
    return lines


def retry(outbox: Path, resend: bool = False) -> tuple[list[str], int]:
    """Every parked or waiting destination taken up again (and with `resend`, the posts in
    unsure/ queued again): the destinations named, and how many posts were put back."""
    health = read_health(outbox)
    again = [name for name, h in health.items() if h != Health()]
    _write_health(outbox, {})
    moved = 0
    if resend:
        for path in unsure_posts(outbox):
            os.replace(path, posts_folder(outbox) / path.name)
            moved += 1
    return again, moved


class Sender(Protocol):
    """What posts through a service: one message of title and text within the service's own
    limit, or a picture alone where it takes files."""

    def limits(self, url: str) -> tuple[int, bool]:
        """The characters a message of the service may hold, and whether it takes files."""
        ...

    def send(self, url: str, title: str, body: str, picture: bytes | None) -> str:
        """ "" when the service took it, else its error."""
        ...


Address = Callable[[Destination], str]  # the destination's URL (a secret), or UsageError


@contextmanager
def _sending(outbox: Path) -> Iterator[bool]:
    """One sender per chat outbox at a time (the mail's lock is another)."""
    folder = posts_folder(outbox)
    folder.mkdir(parents=True, exist_ok=True)
    with file_lock(folder / ".sending.lock", 30.0) as mine:
        yield mine


def flush_posts(
    outbox: Path,
    destinations: Sequence[Destination],
    address: Address,
    picture: Callable[[str], bytes],
    now: datetime,
    sender: Sender | None = None,
) -> PostsFlushed:
    """Send the posts that wait, each destination's in order, skipping a destination that
    waits for its next try or is parked. Never raises for a post that cannot go."""
    result = PostsFlushed()
    folder = posts_folder(outbox)
    if not folder.is_dir():
        return result
    with _sending(outbox) as mine:
        if not mine:
            return result  # another process is sending them
        _keep_unsure(folder)
        posts = waiting_posts(outbox)
        result.unsure = [path.stem for path in unsure_posts(outbox)]
        if not posts:
            return result
        if sender is None:
            try:
                sender = apprise_sender()
            except UsageError as error:
                result.setup, result.waiting = str(error), len(posts)
                return result
        health = read_health(outbox)
        known = {d.name: d for d in destinations}
        for name in dict.fromkeys(post.destination for post in posts):
            mine_posts = [post for post in posts if post.destination == name]
            state = health.get(name, Health())
            destination = known.get(name)
            if destination is None:  # its [[notify]] table is gone: its posts wait until it is back
                result.blocked.append(f"{name}: no [[notify]] table names it now; {len(mine_posts)} post(s) wait")
                result.waiting += len(mine_posts)
                continue
            if state.waits(now):  # not tried now: `status` tells when it is; a parked one is said each time
                result.waiting += len(mine_posts)
                if state.parked:
                    _tell(result, name, state)
                continue
            try:
                url = address(destination)
            except UsageError as error:  # the moderator must act; no failure is counted
                result.blocked.append(f"{name}: {error}")
                result.waiting += len(mine_posts)
                continue
            for index, post in enumerate(mine_posts):
                failure = _send_one(folder, post, url, sender, picture)
                if not failure:
                    result.sent += 1
                    state = Health()
                    continue
                state = state.failed(mask(failure, url), now, permanent=failure.startswith(_REFUSED))
                result.waiting += len(mine_posts) - index
                _tell(result, name, state)
                break
            health[name] = state
        _write_health(outbox, health)
    return result


def _tell(result: PostsFlushed, name: str, state: Health) -> None:
    if state.parked:
        result.parked.append(f"{name}: parked after {state.failures} failure(s): {state.error}")
    elif state.retry_at is not None:
        result.retrying.append(f"{name}: {state.error}; tried again after {state.retry_at:%H:%M} UTC")


def _keep_unsure(folder: Path) -> None:
    """A post left in sending/ was cut off by a kill: it may have arrived, so it is kept aside."""
    sending = folder / SENDING
    for path in sorted(sending.glob("*.toml")) if sending.is_dir() else []:
        (folder / UNSURE).mkdir(exist_ok=True)
        os.replace(path, folder / UNSURE / path.name)


def _send_one(folder: Path, post: Post, url: str, sender: Sender, picture: Callable[[str], bytes]) -> str:
    """Send one post part by part, in sending/ for the time of its requests, the parts that
    went counted in its file after each; "" or the error (the post waits again, from its
    first part not sent)."""
    name = f"{post.identity}.toml"
    for sub in (SENDING, SENT):
        (folder / sub).mkdir(exist_ok=True)
    os.replace(folder / name, folder / SENDING / name)
    failure = ""
    for index, (title, body, attach) in enumerate(parts(post, *sender.limits(url))):
        if index < post.parts_sent:
            continue
        try:
            drawn = picture(attach) if attach else None
        except (OSError, ValueError) as trouble:  # the drawing is gone: said instead
            title, body, drawn = "", f"(The map could not be drawn: {trouble}.)", None
        failure = sender.send(url, title, body, drawn)
        if failure:
            break
        post = replace(post, parts_sent=index + 1)
        write_toml_atomic(folder / SENDING / name, post.to_data(), mode=0o600)
    os.replace(folder / SENDING / name, (folder / SENT if not failure else folder) / name)  # a failed one waits again
    return failure


def parts(post: Post, limit: int, files: bool = True) -> list[tuple[str, str, str]]:
    """The messages a post is sent as: its text in pieces of whole lines within the service's
    `limit` (the title with the first), then its picture with its caption where the service
    takes `files` (a Slack webhook does not), so that a retry sends again only what did not go.
    Each is (title, text, drawing)."""
    pieces: list[str] = []
    budget = max(limit - len(post.title) - 8, 200)  # room for the title and the service's own line breaks
    for line in post.body.splitlines():
        while len(line) > budget:  # a line longer than a message: cut at its last space within
            cut = line.rfind(" ", 0, budget)
            cut = cut if cut > budget // 2 else budget
            _add(pieces, line[:cut], budget)
            line = line[cut:].lstrip()
        _add(pieces, line, budget)
    texts = [(post.title if index == 0 else "", piece.strip("\n"), "") for index, piece in enumerate(pieces)]
    return texts + ([("", post.caption, post.attach)] if post.attach and files else [])


def _add(pieces: list[str], line: str, budget: int) -> None:
    if pieces and len(pieces[-1]) + 1 + len(line) <= budget:
        pieces[-1] += "\n" + line
    else:
        pieces.append(line)


_REFUSED = "Apprise does not read"  # an address no Apprise plugin takes: it will not heal by waiting


def tuned(url: str) -> str:
    """The destination's URL with the judge's timeouts where it sets none, so that a hanging
    service cannot hold a `run` pass. Apprise reads its parameters at the very end of an
    address, after a Matrix room's `#`, which is no fragment to it. (Long posts are split by
    `parts`, not by Apprise, whose split a failed part would send again whole.)"""
    _, mark, query = url.partition("?")
    given = {key for key, _ in parse_qsl(query, keep_blank_values=True)}
    wanted = {key: value for key, value in (("cto", CONNECT_SECONDS), ("rto", READ_SECONDS)) if key not in given}
    if not wanted:
        return url
    return url + ("&" if mark else "?") + urlencode(wanted)


def apprise_sender() -> Sender:
    """Posts sent through Apprise; UsageError when it is not installed."""
    try:
        import apprise
    except ImportError:
        raise UsageError(NOT_INSTALLED) from None
    import tempfile

    class AppriseSender:
        def limits(self, url: str) -> tuple[int, bool]:
            plugin = apprise.Apprise.instantiate(tuned(url))
            if plugin is None:  # an address Apprise does not read: `send` says so
                return 2000, False
            return int(plugin.body_maxlen), bool(plugin.attachment_support)

        def send(self, url: str, title: str, body: str, picture: bytes | None) -> str:
            service = apprise.Apprise()
            if not service.add(tuned(url)):
                scheme = urlsplit(url).scheme
                return f"{_REFUSED} this address (its scheme is '{scheme}'); see Apprise's list of services"
            with tempfile.TemporaryDirectory(prefix="adjudicator-post-") as scratch:
                attach = None
                if picture is not None:
                    path = Path(scratch) / "map.png"
                    path.write_bytes(picture)
                    attach = apprise.AppriseAttachment(str(path))
                result = service.notify(
                    body=body, title=title, body_format=apprise.NotifyFormat.MARKDOWN, attach=attach
                )
            if result:
                return ""
            said = [entry.message for entry in result.logs() if entry.level in ("WARNING", "ERROR")]
            return said[-1] if said else "the service did not take the post"

    return AppriseSender()
