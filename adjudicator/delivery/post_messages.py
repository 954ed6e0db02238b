"""What the judge posts to a game's chat destinations ([[notify]]), and the one way they are
sent for a game: the public report of each resolved phase with its map, the line that opens
the next phase, the reminders that name who is still awaited, the final standings, and a test.
Players are mentioned by their handle on the destination's service ([[player]] discord = …)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from adjudicator.core.errors import UsageError
from adjudicator.core.i18n import Msg, t
from adjudicator.delivery.messages import DRY_RUN_FOLDER
from adjudicator.delivery.outbox import mail_identity
from adjudicator.delivery.posts import (
    POSTS_FOLDER,
    Post,
    PostsFlushed,
    apprise_sender,
    flush_posts,
    queue_posts,
)
from adjudicator.game.destinations import Destination, PostKind, destination_url, mask, service_of
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import destinations_of, secrets_files
from adjudicator.game.schedule import utc_now
from adjudicator.game.submissions import missing_orders
from adjudicator.reports.phase import CHAT, PhaseReports, load_record, record_label

_BLANK_LINES = re.compile(r"\n{3,}")
_CHANNEL_PINGS = re.compile(r"(@|<!)(everyone|here|channel)\b", re.IGNORECASE)


def _address(game: Game) -> tuple[Sequence[Destination], dict[str, str]]:
    """The game's destinations, and whose handles each one's posts use (its service)."""
    destinations = destinations_of(game)
    services = {}
    for destination in destinations:
        try:
            url = destination_url(destination, secrets_files(game))
        except UsageError:  # its posts are queued all the same; sending says what is missing
            url = ""
        services[destination.name] = service_of(destination, url)
    return destinations, services


def _named(game: Game, civs: Iterable[str], service: str) -> str:
    """The civilizations, each with its player's handle on `service` where he gave one."""
    names = []
    for civ in civs:
        player = game.settings.player(civ)
        handle = player.handle(service) if player is not None and service else ""
        names.append(f"{civ} ({handle})" if handle else civ)
    return ", ".join(names)


def _post(
    game: Game,
    phase: str,
    kind: str,
    destination: Destination,
    title: str,
    body: str,
    attach: str = "",
    caption: str = "",
) -> Post:
    identity = mail_identity(game.settings.id, phase, kind, f"notify-{destination.name}")
    text = _BLANK_LINES.sub("\n\n", body).strip()
    return Post(identity, destination.name, kind, _unpinged(title), _unpinged(text), attach, _unpinged(caption))


def _unpinged(text: str) -> str:
    """No name in a report (a player's, a forum's) may ping a whole channel: Discord and Slack
    read @everyone, @here and @channel so; a zero-width space after the @ keeps the word."""
    return _CHANNEL_PINGS.sub(lambda match: f"{match[1]}\u200b{match[2]}", text)


def phase_posts(game: Game) -> list[Post]:
    """For each destination, what the last resolved phase brings: its public report (the map
    attached), the line that opens the next phase, and the final standings when it ended."""
    destinations, services = _address(game)
    if not destinations:
        return []
    record = load_record(game)
    reports = PhaseReports(game, record)
    lang = game.settings.lang
    context = reports.context
    winner, upcoming = context["winner"], context["next"]
    gid = game.settings.id
    resolved = t("%(game)s: %(label)s", game=gid, label=record_label(game, record.before)).render(lang)
    opened = t("%(game)s: %(label)s", game=gid, label=upcoming["label"]).render(lang)
    chat_report = functools.cache(lambda: reports.public(CHAT))  # one rendering for every destination
    attach = game.directory.page_file(record.slug, "map.svg").relative_to(game.directory.root).as_posix()
    posts: list[Post] = []
    for destination in destinations:
        service = services[destination.name]
        due = _named(game, upcoming["due"], service)
        if PostKind.REPORT in destination.send:
            caption = context["map_alt"].render(lang)  # the map in a sentence: who holds what
            posts.append(_post(game, record.slug, "report", destination, resolved, chat_report(), attach, caption))
        if PostKind.OPEN in destination.send and not winner and upcoming["due"]:
            opening = t("Next phase: %(label)s.", label=upcoming["label"]).render(lang)
            posts.append(_post(game, game.slug, "open", destination, opened, f"{opening} {_due(game, due)}"))
        if PostKind.FINAL in destination.send and winner:
            over = t("The game is over: %(winner)s won.", winner=winner).render(lang)
            posts.append(_post(game, record.slug, "final", destination, over, _standings(game, lang)))
    return posts


def _due(game: Game, civs: str, deadline: datetime | None = None) -> str:
    deadline = deadline or game.deadline()
    lang = game.settings.lang
    if deadline is None:
        return t("Orders are due from %(civs)s.", civs=civs).render(lang)
    return t("Orders are due from %(civs)s by %(deadline)s.", civs=civs, deadline=game.settings.local(deadline)).render(
        lang
    )


def _standings(game: Game, lang: str) -> str:
    lines = [f"**{t('Standings').render(lang)}**"]
    for standing in game.ruleset.standings(game.board, game.position):
        counts = " · ".join(f"{_in(measure, lang)} {count}" for measure, count in standing.counts.items())
        lines.append(f"- {standing.civ}: {counts}")
    return "\n".join(lines)


def _in(text: str, lang: str) -> str:
    """A measure's name in `lang` (the rulesets name them with messages)."""
    return text.render(lang) if isinstance(text, Msg) else text


def reminder_posts(game: Game, before: timedelta | None = None) -> list[Post]:
    """Who is still awaited, mentioned: at a [schedule] remind time (`before` the deadline, from
    `run`) once per deadline and time, or by the moderator's `remind` once per deadline."""
    missing = missing_orders(game)
    deadline = game.deadline()
    if not missing or deadline is None:
        return []
    destinations, services = _address(game)
    kind = f"waiting-{deadline:%Y%m%dT%H%M}"
    if before is not None:
        kind += f"-{int(before.total_seconds() // 60)}m"
    title = t("Reminder: orders for %(label)s", label=game.phase_info.label).render(game.settings.lang)
    return [
        _post(game, game.slug, kind, d, title, _due(game, _named(game, missing, services[d.name]), deadline))
        for d in destinations
        if PostKind.REMINDERS in d.send
    ]


def test_post(game: Game, destination: Destination) -> Post:
    """What `notify --test` sends: a post the players of the channel understand too."""
    lang, gid = game.settings.lang, game.settings.id
    title = t("%(game)s: a test post", game=gid).render(lang)
    body = t(
        "The moderator of %(game)s is trying this destination: the game's posts will come here.", game=game.settings.id
    )
    return Post("test", destination.name, "test", title, body.render(lang))


def test_destinations(game: Game, destinations: Sequence[Destination]) -> list[tuple[str, bool]]:
    """A test post sent to each destination now, outside the outbox: a line for each, and
    whether it went."""
    files = secrets_files(game)
    try:
        sender = apprise_sender()
    except UsageError as error:
        return [(str(error), False)]
    lines = []
    for destination in destinations:
        try:
            url = destination_url(destination, files)
        except UsageError as error:
            lines.append((f"{destination.name}: not sent: {error}", False))
            continue
        post = test_post(game, destination)
        failure = sender.send(url, post.title, post.body, None)
        said = f"not sent: {mask(failure, url)}" if failure else "sent"
        lines.append((f"{destination.name}: {said}", not failure))
    return lines


def deliver_posts(game: Game, dry_run: bool, posts: Sequence[Post]) -> list[str]:
    """`send`'s and `remind`'s part for chat: `posts` queued and what waits sent; a dry run
    writes them to outbox/dry-run/notify/ only. Lines for the moderator."""
    if not destinations_of(game):
        return []
    now = utc_now()
    if dry_run:
        written = queue_posts(game.directory.outbox / DRY_RUN_FOLDER, posts, now, again=True)
        folder = game.directory.outbox / DRY_RUN_FOLDER / POSTS_FOLDER
        return [f"{len(written)} post(s) written to {folder} (dry run: nothing posted)"]
    return post_now(game, posts).lines


@dataclass(frozen=True, slots=True)
class Posted:
    """What a moderator's command did for chat: its lines, and whether nothing needs him."""

    lines: list[str]
    ok: bool


def post_now(game: Game, posts: Sequence[Post], said: Sequence[str] = ()) -> Posted:
    """`posts` queued (once each), then everything waiting sent; the lines for the moderator
    (after `said`), and whether nothing waits for him."""
    now = utc_now()
    queue_game_posts(game, posts, now)
    flushed = flush_game_posts(game, now)
    needs = flushed.needs(game.directory)
    return Posted([*said, *flushed.news(), *needs] or ["no post waits"], not needs)


def queue_game_posts(game: Game, posts: Sequence[Post], now: datetime) -> int:
    """Queue posts in the game's outbox (once each); how many were new."""
    return len(queue_posts(game.directory.outbox, posts, now))


def flush_game_posts(game: Game, now: datetime) -> PostsFlushed:
    """Send what waits in the game's chat outbox, each address read from its secrets now."""
    files = secrets_files(game)

    @functools.cache  # a map drawn once a flush, whatever the destinations
    def picture(relative: str) -> bytes:
        from adjudicator.reports.picture import svg_to_png

        drawing = game.directory.root / relative
        published = drawing.with_suffix(".png")  # drawn already when the reports are published (map_url)
        if published.is_file():
            return published.read_bytes()
        return svg_to_png(drawing.read_text(encoding="utf-8"))

    return flush_posts(game.directory.outbox, destinations_of(game), lambda d: destination_url(d, files), picture, now)
