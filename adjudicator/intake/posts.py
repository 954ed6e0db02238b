"""Forum posts into orders: a post the moderator saved as a .txt file, and the posts of a
saved thread (intake/threads.py). The moderator vouches for posts, as with `submit`, so no
password is asked. Every post takes one path: read as the board shows it (forum.post_text),
kept raw in inbox/, counted once, checked, stored and recorded.

From a thread, each post's author is matched to a player by the `forum` name of his
[[player]], and each player's latest post with orders in the current phase is used. The phase
opened when its history file (history/<phase>.toml) was written: posts older than that are
from an earlier phase. Every post not used is named with the reason.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from adjudicator.core.controls import shown_name
from adjudicator.core.errors import AdjudicatorError, message_of
from adjudicator.core.limits import POST_CHARS
from adjudicator.game.directory import game_lock
from adjudicator.game.game import Game
from adjudicator.game.schedule import utc_now
from adjudicator.game.storage import PRIVATE, read_toml, write_toml_atomic
from adjudicator.game.submissions import check_password, check_submission, counted, store_submission
from adjudicator.intake.forum import post_text
from adjudicator.intake.mail import message_key
from adjudicator.intake.receive import already_done, inbox_paths, keep_raw
from adjudicator.intake.threads import ThreadError, ThreadPost, read_thread
from adjudicator.language.submission import TooManyOrders, parse_submission


@dataclass
class PostReport:
    """What to print: a line per post, and what the moderator must look at."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unkept: list[str] = field(default_factory=list)  # files not kept in any inbox/ (no game, unreadable)


@dataclass(frozen=True, slots=True)
class Post:
    """A saved post on its way to the orders."""

    label: str  # how the report names it: "rome.txt", "thread.xml post 4 by Anna"
    source: str  # the provenance stored with the orders: "file rome.txt", "thread.xml post 4 by Anna"
    raw: str  # as saved, kept in inbox/
    identity: str  # what makes it this post and no other (its key in inbox/)
    text: str  # the order text (post_text of what was saved)
    game: Game | None = None  # None: the post's `game` line says, or the folder's only game
    power: str | None = None  # the player the author is (threads); None: the `power` line says
    posted: datetime | None = None  # when the board says it was posted (threads)


def take_file(games: Mapping[str, Game], path: Path, report: PostReport) -> None:
    """A forum post pasted into a .txt file. A post is its saving: the same words saved again
    (a player who sends 'no orders' again next phase, in a new folder or the same file) are a
    new post; a file collected again as it was is not, however often `collect` runs. A file of
    more than POST_CHARS characters is not read (no post is that long)."""
    size, name = path.stat().st_size, shown_name(path)
    raw = path.read_text(encoding="utf-8", errors="replace") if size <= 4 * POST_CHARS else ""
    if len(raw) > POST_CHARS or size > 4 * POST_CHARS:
        report.lines.append(f"{name}: not read: {size:,} bytes; a post is at most {POST_CHARS:,} characters")
        report.problems.append(f"{name} was not read: it is longer than any post ({POST_CHARS:,} characters)")
        report.unkept.append(path.name)
        return
    saved = path.resolve().stat().st_mtime_ns
    identity = f"post {path.resolve()} {saved} {hashlib.sha256(raw.encode()).hexdigest()}"
    take_post(games, Post(name, f"file {name}", raw, identity, post_text(raw)), report)


def take_thread(games: Mapping[str, Game], path: Path, report: PostReport) -> None:
    """Every post of a saved thread: each player's latest post with orders in this phase is
    taken; every other post is named with the reason it was skipped."""
    try:
        thread = read_thread(path)
    except (ThreadError, OSError) as error:
        report.lines.append(f"{shown_name(path)}: not read: {error}")
        report.problems.append(f"{shown_name(path)} was not read: {error}")
        report.unkept.append(path.name)
        return
    read = [(item, *_thread_post(games, path, item)) for item in thread]
    latest: dict[tuple[str, str], ThreadPost] = {}
    for item, post, _reason in read:
        if post is not None and post.game is not None and post.power is not None:
            player = (post.game.settings.id, post.power)
            if player not in latest or _order(latest[player]) <= _order(item):
                latest[player] = item
    for item, post, reason in read:
        label = _label(path, item)
        if post is None or post.game is None or post.power is None:
            report.lines.append(f"{label}: skipped: {reason}")
            if reason.startswith("it says"):
                report.problems.append(f"{label} was skipped: {reason}")
        elif (later := latest[(post.game.settings.id, post.power)]) is not item:
            report.lines.append(f"{label}: skipped: {post.power} posted orders again later (post {later.number})")
        else:
            take_post(games, post, report)


def take_post(games: Mapping[str, Game], post: Post, report: PostReport) -> None:
    """One post, whatever it was saved as: kept raw, counted once, checked, stored, recorded.
    One bad post never stops the others; the moderator fixes it (a changed post is collected
    anew) or enters the orders with `submit`."""
    any_game = next(iter(games.values()))
    game = post.game
    if game is None:
        try:
            submission = parse_submission(post.text, any_game.parser, headers_only=True)
        except TooManyOrders as error:
            report.lines.append(f"{post.label}: skipped: {error}")
            report.unkept.append(post.label)
            return
        game = games.get(submission.game or "") if submission.game else (any_game if len(games) == 1 else None)
    if game is None:
        report.lines.append(f"{post.label}: skipped: it names no game of this folder (add a line 'game ID')")
        report.unkept.append(post.label)
        return
    key = message_key(b"", post.identity)
    if already_done(game.directory.inbox, key):
        status = read_toml(inbox_paths(game.directory.inbox, key)[1]).get("status", "")
        report.lines.append(f"{post.label}: already collected ({status})")
        return
    with game_lock(game.directory):
        keep_raw(game.directory.inbox, post.raw.encode(), key)  # kept as saved, before anything can go wrong
        try:
            checked = check_submission(game, post.text, post.power)
            check_password(game, checked, vouched=True)  # a post needs none; a wrong one is refused
        except AdjudicatorError as error:
            _record(game, key, post, "rejected", post.power, message_of(error))
            report.lines.append(f"{post.label}: not used: {error}")
            report.problems.append(f"{game.settings.id}: {post.label} was not used: {error}")
            return
        store_submission(game, checked, post.text, source=post.source, received=post.posted)
        _record(game, key, post, "accepted", checked.power, "")
    asked = " (its requests, such as 'status', are answered by mail only)" if checked.submission.requests else ""
    report.lines.append(f"{post.label}: {checked.power}: {counted(checked)}{asked}")
    report.lines += [f"  line {row.number}: {row.text}: {row.message}" for row in checked.echo if row.status == "ERROR"]


def _thread_post(games: Mapping[str, Game], path: Path, item: ThreadPost) -> tuple[Post | None, str]:
    """A post of a thread with its game and player, or the reason it is skipped. Its author is
    looked up first: a post by anyone else costs no parsing, however long it is."""
    author = item.author or "(no name)"
    theirs = [g for g in games.values() if any(p.posts_as(item.author) for p in g.settings.players)]
    if not theirs:
        return None, f'not a player: no [[player]] of {_where(games)} has forum = "{author}"'
    if len(item.body) > POST_CHARS:
        return None, f"it is {len(item.body):,} characters long; a post is at most {POST_CHARS:,}"
    text = post_text(item.body)
    any_game = next(iter(games.values()))
    try:
        submission = parse_submission(text, any_game.parser)
    except TooManyOrders as error:
        return None, str(error)
    if submission.game and submission.game not in games:
        return None, f"it is for game '{submission.game}', which is not in this folder"
    if submission.game:
        game = games[submission.game]
    elif len(theirs) > 1:
        return None, f"{author} plays in {len(theirs)} games here; the post needs a line 'game ID'"
    else:
        game = theirs[0]
    player = next((p for p in game.settings.players if p.posts_as(item.author)), None)
    if player is None:
        return None, f'not a player: no [[player]] of {game.settings.id} has forum = "{author}"'
    opened = game.opened()
    if opened is not None and item.posted is not None and item.posted < opened:
        when = f"{item.posted:%Y-%m-%d %H:%M %z}, before {game.phase_info.label} opened ({opened:%Y-%m-%d %H:%M %z})"
        return None, f"posted {when}"
    if not (submission.no_orders or submission.power or any(line.order is not None for line in submission.lines)):
        return None, "no orders in it"
    if submission.power and _civ(game, submission.power) not in (None, player.civ):
        return None, f"it says 'power {submission.power}', but {author} plays {player.civ}"
    where = f"{shown_name(path)} post {item.number}" + (f" (id {item.post_id})" if item.post_id else "")
    posted = item.posted.isoformat() if item.posted else "at an unknown time"
    digest = hashlib.sha256(item.body.encode()).hexdigest()
    identity = f"thread post {item.post_id or item.number} {item.author} {digest}"
    raw = f"# {where} by {author}, posted {posted}\n{item.body}"
    posted_utc = item.posted.astimezone(UTC) if item.posted else None
    return Post(_label(path, item), f"{where} by {author}", raw, identity, text, game, player.civ, posted_utc), ""


def _where(games: Mapping[str, Game]) -> str:
    return next(iter(games)) if len(games) == 1 else "any game here"


def _label(path: Path, item: ThreadPost) -> str:
    return f"{shown_name(path)} post {item.number} by {item.author or '(no name)'}"


def _civ(game: Game, text: str) -> str | None:
    try:
        return game.find_player_civ(text)
    except AdjudicatorError:
        return None  # an unknown name: the check names it with "did you mean"


def _order(item: ThreadPost) -> tuple[datetime, int]:
    """Posts of one player in the order he wrote them: by time, then by place in the thread."""
    return (item.posted or datetime.min.replace(tzinfo=UTC), item.number)


def _record(game: Game, key: str, post: Post, status: str, power: str | None, reason: str) -> None:
    write_toml_atomic(
        inbox_paths(game.directory.inbox, key)[1],
        {
            "status": status,
            "from": post.source,
            "received": post.posted or utc_now(),
            "power": power or "",
            "phase": game.slug,
            "reason": reason,
        },
        mode=PRIVATE,
    )
