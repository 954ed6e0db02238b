"""Issue 33 through the product: a real game folder with [[notify]] tables and its first phase
adjudicated, then `adjudicator send`, `notify` and `status` as a moderator runs them, against
stand-ins for the services on loopback (tests/http_receiver.py for Discord, Slack and plain JSON
webhooks, tests/matrix_server.py for a real Synapse). What arrives is checked as the channel's
members would see it: the whole report in order and within the service's limits, the map as a
PNG, mentions that still ping, and the webhook's token nowhere a moderator could read it."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from apprise.plugins.matrix import NotifyMatrix
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.delivery import post_messages
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.hosting.adjudication import adjudicate
from tests.conftest import FIVE, player_args
from tests.http_receiver import Answer, Received, Receiver, TlsReceiver, http_receiver, receiver, tls_receiver
from tests.mail_servers import PASSWORD, USER, SmtpServer, free_port, smtp_server
from tests.matrix_server import MatrixServer, http

__all__ = ["receiver", "tls_receiver"]  # the fixtures, imported for pytest to find (matrix_server: conftest)

runner = CliRunner()
GAME_ID = "chat-game"
ADJUDICATED = datetime(2027, 3, 2, 9, 0, tzinfo=UTC)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SECOND = timedelta(seconds=1)

DISCORD_ID, DISCORD_TOKEN = "1234567890123456789", "Tk9_secret-AbCdEf0123456789"
DISCORD_URL = f"discord://{DISCORD_ID}/{DISCORD_TOKEN}"
DISCORD_PATH = f"/api/webhooks/{DISCORD_ID}/{DISCORD_TOKEN}"
# Apprise sends Discord plain `content` (at most 2000 characters, the title included) unless the
# URL says ?format=markdown, and only then an embed (4096 for its description): the judge's URLs
# do not, so 2000 is the limit that counts (checked below: no post carries `embeds`).
DISCORD_CONTENT_LIMIT = 2000
DISCORD_HANDLES = {"Rome": "<@123456789012345678>", "Egypt": "<@876543210987654321>"}  # the others gave none

SLACK_TOKENS = ("T1234ABCD", "B5678EFGH", "abcdefghijklmnopqrstuvwx")
SLACK_URL = "slack://{}/{}/{}".format(*SLACK_TOKENS)
SLACK_HANDLES = {"Rome": "<@U12345>", "Carthage": "<@U67890>"}


# The game, and the moderator's commands


def cli(*args: str) -> tuple[int, str]:
    """The CLI in-process as a moderator runs it: its exit code and everything it printed
    (Click's `output` holds stdout and stderr as a terminal shows them)."""
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def adjudicated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A five-player game whose first phase (T1 trade, everyone on default orders) is resolved:
    made once for the module, since adjudicating costs more than everything a test sends."""
    folder = tmp_path_factory.mktemp("template") / GAME_ID
    game, _ = Game.create(folder, [parse_player_spec(p) for p in player_args(FIVE)])
    adjudicate(game, force=True, now=ADJUDICATED)
    return folder


@pytest.fixture
def game(adjudicated: Path, tmp_path: Path) -> Game:
    """A copy of the resolved game of this test's own, its outbox still empty."""
    folder = tmp_path / GAME_ID
    shutil.copytree(adjudicated, folder)
    return Game.load(folder)


def give_handles(game: Game, service: str, handles: dict[str, str]) -> None:
    """`SERVICE = "HANDLE"` in the [[player]] tables of the civilizations named."""
    text = game.directory.game_file.read_text(encoding="utf-8")
    for civ, handle in handles.items():
        line = f'civ = "{civ}"\n'
        assert line in text
        text = text.replace(line, f'{line}{service} = "{handle}"\n', 1)
    game.directory.game_file.write_text(text, encoding="utf-8")


def add_destination(game: Game, name: str, url: str, send: list[str] | None = None) -> None:
    """A [[notify]] table in game.toml, its address in secrets.toml [notify], as the docs say."""
    kinds = f"send = {json.dumps(send)}\n" if send is not None else ""
    with game.directory.game_file.open("a", encoding="utf-8") as settings:
        settings.write(f'\n[[notify]]\nname = "{name}"\n{kinds}')
    secrets = game.directory.secrets_file
    text = secrets.read_text(encoding="utf-8")
    if "\n[notify]\n" not in text:
        text += "\n[notify]\n"
    secrets.write_text(f"{text}{name} = {json.dumps(url)}\n", encoding="utf-8")


def loaded(game: Game) -> Game:
    """The game as a new command reads it, after its files were edited."""
    return Game.load(game.directory.root)


def outbox_text(game: Game) -> str:
    """Every file under GAME/outbox/ (mails, posts, destinations.toml, …), as one text."""
    files = sorted(path for path in game.directory.outbox.rglob("*") if path.is_file())
    assert files
    return "\n".join(path.read_bytes().decode("utf-8", "replace") for path in files)


def report_post_body(game: Game) -> str:
    """The public report in the chat format, as the game's first destination is sent it."""
    return next(post.body for post in post_messages.phase_posts(game) if post.kind == "report")


def what_happened(game: Game) -> list[str]:
    """The report's "What happened" items, in order: what must reach the channel whole."""
    section = report_post_body(game).split("**What happened**", 1)[1].split("\n**", 1)[0]
    items = [line for line in section.splitlines() if line.startswith("- ")]
    assert len(items) > 10, section
    return items


def assert_in_order(text: str, items: list[str]) -> None:
    """Each item whole in `text`, each after the one before (items may repeat)."""
    at = 0
    for item in items:
        found = text.find(item, at)
        assert found >= 0, f"{item!r} is not in what arrived after position {at}:\n{text[at:]}"
        at = found + len(item)


def waiting_posts(game: Game) -> list[Path]:
    """The posts queued in outbox/notify/ and not sent yet."""
    folder = game.directory.outbox / "notify"
    return sorted(path for path in folder.glob("*.toml") if path.name != "destinations.toml")


def read_post(path: Path) -> dict[str, Any]:
    """A queued post's file, as the outbox keeps it."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


def health(game: Game) -> dict[str, Any]:
    """outbox/notify/destinations.toml: each failing destination's failures and retry time."""
    return tomllib.loads((game.directory.outbox / "notify" / "destinations.toml").read_text(encoding="utf-8"))


# Discord


@pytest.fixture
def discord(tls_receiver: TlsReceiver) -> TlsReceiver:
    """discord.com routed to the TLS receiver, answering 204 as Discord does."""
    tls_receiver.route("discord.com")
    tls_receiver.default = Answer(204)
    return tls_receiver


def discord_posts(requests: list[Received]) -> tuple[list[dict[str, Any]], list[bytes]]:
    """Each request's JSON payload (a multipart upload's `payload_json`), and the files uploaded."""
    payloads: list[dict[str, Any]] = []
    files: list[bytes] = []
    for request in requests:
        if not request.headers["content-type"].startswith("multipart/form-data"):
            payloads.append(request.json())
            continue
        for part in request.parts():
            if part.filename is None:
                assert part.name == "payload_json"
                payloads.append(json.loads(part.data))
            else:
                assert (part.name, part.filename, part.content_type) == ("files[0]", "map.png", "image/png")
                files.append(part.data)
    return payloads, files


def test_send_posts_the_whole_report_the_map_and_pinging_mentions_to_discord(
    game: Game, discord: TlsReceiver, caplog: pytest.LogCaptureFixture
) -> None:
    """The report is over 2000 characters: it must come in several posts, none too long for
    Discord (which refuses the whole post otherwise), nothing lost or out of order; the 'open'
    line's <@id> must stay as it is, in `content`, with nothing restricting mentions, or nobody
    is pinged."""
    give_handles(game, "discord", DISCORD_HANDLES)
    add_destination(game, "discord", DISCORD_URL)
    game = loaded(game)
    expected = what_happened(game)
    assert len(report_post_body(game)) > DISCORD_CONTENT_LIMIT  # so the split is put to the test

    code, printed = cli("send", str(game.directory.root))

    assert code == 0, printed
    assert "2 post(s) sent" in printed
    requests = discord.received
    assert {(r.method, r.path, r.headers["host"]) for r in requests} == {("POST", DISCORD_PATH, "discord.com")}
    payloads, files = discord_posts(requests)
    contents = [payload.get("content", "") for payload in payloads]
    assert all("embeds" not in payload for payload in payloads)  # plain content: 2000 is the limit
    assert all(len(content) <= DISCORD_CONTENT_LIMIT for content in contents), [len(c) for c in contents]

    opening_at = next(index for index, content in enumerate(contents) if content.startswith(f"{GAME_ID}: T1 build"))
    report = [content for content in contents[:opening_at] if content]  # the map's upload carries no text
    assert len(report) >= 3, contents
    assert report[0].startswith(f"{GAME_ID}: T1 trade\r\n")  # the title heads the first part only
    assert not any(content.startswith(GAME_ID) for content in report[1:])
    assert_in_order("\n".join(report), expected)
    assert "**What happened**" in report[0]

    (picture,) = files
    assert picture.startswith(PNG_MAGIC) and len(picture) > 10_000  # the board, not a placeholder

    opening = contents[opening_at]
    assert opening == (
        f"{GAME_ID}: T1 build\r\nNext phase: T1 build. Orders are due from Rome (<@123456789012345678>), "
        "Carthage, Greece, Babylon, Egypt (<@876543210987654321>)."
    )
    opening_payload = payloads[contents.index(opening)]
    assert "allowed_mentions" not in opening_payload  # Discord's default then: every mention in content pings

    code, status = cli("status", str(game.directory.root))
    assert code == 0, status
    assert "discord: nothing waiting" in status
    for where, text in (("send", printed), ("status", status), ("outbox", outbox_text(game)), ("log", caplog.text)):
        assert DISCORD_TOKEN not in text, where
        assert DISCORD_ID not in text, where


def test_a_report_that_fails_part_way_is_not_posted_twice(game: Game, discord: TlsReceiver) -> None:
    """Discord takes the report's first part but refuses its second once; after the backoff,
    each part and the map must be in the channel once, in order."""
    add_destination(game, "discord", DISCORD_URL, send=["report"])
    game = loaded(game)
    expected = what_happened(game)
    discord.answer(Answer(204), Answer(500, body=b"broken"))  # the 2nd request is the report's second part

    code, printed = cli("send", str(game.directory.root))

    assert code == 0 and "posts wait: discord:" in printed, printed
    retry_at = health(game)["discord"]["retry_at"]
    assert post_messages.flush_game_posts(loaded(game), retry_at + SECOND).sent == 1
    accepted = [request for index, request in enumerate(discord.received) if index != 1]  # all but the refused one
    payloads, files = discord_posts(accepted)
    texts = [payload["content"] for payload in payloads if payload.get("content")]
    assert len(files) == 1 and len(texts) == len(set(texts)) >= 3, texts  # each part once
    assert texts[0].startswith(f"{GAME_ID}: T1 trade\r\n")
    assert_in_order("\n".join(texts), expected)


# Slack


@pytest.fixture
def slack(tls_receiver: TlsReceiver) -> TlsReceiver:
    """hooks.slack.com routed to the TLS receiver, answering `ok` as Slack's webhooks do."""
    tls_receiver.route("hooks.slack.com")
    tls_receiver.default = Answer(200, {"Content-Type": "text/html"}, b"ok")
    return tls_receiver


def test_send_posts_to_a_slack_webhook_with_the_mentions_intact(game: Game, slack: TlsReceiver) -> None:
    """Slack shows `<@U…>` as a mention only unescaped; a webhook takes no file, so the report
    must go without its map rather than fail for ever."""
    give_handles(game, "slack", SLACK_HANDLES)
    add_destination(game, "slack", SLACK_URL)
    game = loaded(game)

    code, printed = cli("send", str(game.directory.root))

    assert code == 0, printed
    assert "2 post(s) sent" in printed
    requests = slack.received
    assert {(r.method, r.path) for r in requests} == {("POST", "/services/" + "/".join(SLACK_TOKENS))}
    texts = [attachment["text"] for r in requests for attachment in r.json()["attachments"]]
    assert_in_order("\n".join(texts), [item.replace("&", "&amp;") for item in what_happened(game)])
    (opening,) = [text for text in texts if text.startswith("Next phase: T1 build.")]
    assert "Rome (<@U12345>), Carthage (<@U67890>), Greece, Babylon, Egypt." in opening
    assert SLACK_TOKENS[2] not in printed + outbox_text(game)


# Matrix (a real Synapse)


def new_room_messages(server: MatrixServer, seen: set[str]) -> list[dict[str, Any]]:
    """The room's messages since `seen` (the room is shared by the session's tests), as Bela reads them."""
    return [event for event in server.messages(reader="bela") if event["event_id"] not in seen]


def room_message_ids(server: MatrixServer) -> set[str]:
    """The room's messages so far, to tell this test's own from earlier tests'."""
    return {event["event_id"] for event in server.messages(reader="bela")}


@pytest.fixture
def matrix_game(game: Game, matrix_server: MatrixServer, monkeypatch: pytest.MonkeyPatch) -> Game:
    """The game posting to the test room as the bot, Rome and Carthage giving their Matrix IDs
    (Anna's and Bela's); Apprise's pause of 0.5 s before each Matrix request is taken out."""
    monkeypatch.setattr(NotifyMatrix, "request_rate_per_sec", 0)
    give_handles(game, "matrix", {"Rome": matrix_server.user_id("anna"), "Carthage": matrix_server.user_id("bela")})
    return game


@pytest.mark.slow
def test_send_posts_the_report_map_and_mentions_to_a_matrix_room(
    matrix_game: Game,
    matrix_server: MatrixServer,
) -> None:
    """What the players in a Matrix room read: the report, the map as an image of its own
    (m.image whose bytes are a PNG), and the opening line naming @anna:localhost, which
    Synapse's push rules count as a mention of Anna: her notifications list it, highlighted."""
    add_destination(matrix_game, "matrix", matrix_server.apprise_url().replace("%23", "#"))  # as the README writes it
    game = loaded(matrix_game)
    seen = room_message_ids(matrix_server)

    code, printed = cli("send", str(game.directory.root))

    assert code == 0, printed
    assert "2 post(s) sent" in printed
    new = new_room_messages(matrix_server, seen)
    assert {event["sender"] for event in new} == {matrix_server.user_id(matrix_server.bot_user)}
    texts = [event for event in new if event["content"].get("msgtype") == "m.text"]
    (image,) = [event["content"] for event in new if event["content"].get("msgtype") == "m.image"]
    assert image["info"]["mimetype"] == "image/png"
    assert matrix_server.media(image["url"], reader="bela").startswith(PNG_MAGIC)

    assert texts[0]["content"]["body"].startswith(f"# {GAME_ID}: T1 trade\r\n")
    assert_in_order("\n".join(event["content"]["body"] for event in texts), what_happened(game))
    anna, bela = matrix_server.user_id("anna"), matrix_server.user_id("bela")
    (opening,) = [event for event in texts if event["content"]["body"].startswith(f"# {GAME_ID}: T1 build")]
    assert f"Orders are due from Rome ({anna}), Carthage ({bela}), Greece, Babylon," in opening["content"]["body"]
    highlighted = http(
        "GET",
        f"{matrix_server.base_url}/_matrix/client/v3/notifications?only=highlight",
        token=matrix_server.tokens["anna"],
    )["notifications"]
    assert opening["event_id"] in {n["event"]["event_id"] for n in highlighted if n["room_id"] == matrix_server.room_id}
    assert matrix_server.bot_password not in printed + outbox_text(game)


@pytest.mark.slow
def test_each_post_reaches_a_matrix_room_as_one_message(matrix_game: Game, matrix_server: MatrixServer) -> None:
    """A 120-character opening line is far below Matrix's 65 kB: one post, one message."""
    add_destination(matrix_game, "matrix", matrix_server.apprise_url(), send=["open"])
    game = loaded(matrix_game)
    seen = room_message_ids(matrix_server)

    code, printed = cli("send", str(game.directory.root))

    assert code == 0 and "1 post(s) sent" in printed, printed
    bodies = [event["content"]["body"] for event in new_room_messages(matrix_server, seen)]
    assert len(bodies) == 1, bodies
    assert bodies[0].endswith("Greece, Babylon, Egypt.")


# notify --test


def test_notify_test_says_which_destination_took_the_post_and_masks_the_failing_ones(
    game: Game, receiver: Receiver
) -> None:
    """One line per destination, in game.toml's order; exit code 1 when any failed, and the
    addresses' secrets (user, password, token path) nowhere in what is printed."""
    closed = free_port()
    refused = f"json://judge:Pa55-word99@127.0.0.1:{closed}/hooks/Refus3dToken42"
    add_destination(game, "works", f"json://127.0.0.1:{receiver.port}/hooks/game")
    add_destination(game, "refused", refused)
    with http_receiver() as broken:
        broken.default = Answer(500, body=b"Internal error")
        broken_url = f"json://judge:Br0ken-pass77@127.0.0.1:{broken.port}/hooks/Br0kenToken77"
        add_destination(game, "broken", broken_url)

        code, printed = cli("notify", str(game.directory.root), "--test")

        assert len(broken.wait_for(1)) == 1
    assert code == 1, printed
    lines = printed.splitlines()
    assert len(lines) == 3, printed
    assert lines[0] == "works: sent"
    assert lines[1].startswith("refused: not sent: ")
    assert lines[2].startswith("broken: not sent: ") and "500" in lines[2]
    for secret in ("Pa55-word99", "Refus3dToken42", "Br0ken-pass77", "Br0kenToken77"):
        assert secret not in printed
    (request,) = receiver.wait_for(1)
    assert request.path == "/hooks/game"
    message = request.json()
    assert message["title"] == f"{GAME_ID}: a test post"
    assert GAME_ID in message["message"]
    assert not (game.directory.outbox / "notify").exists() or not waiting_posts(game)  # nothing queued by a test


# Failing destinations: mail goes, posts wait, then go once


@pytest.fixture
def smtp_game(game: Game, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Game, SmtpServer]]:
    """The game with [delivery.smtp] pointing at a real SMTP server on loopback."""
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    with smtp_server() as smtp:
        with game.directory.game_file.open("a", encoding="utf-8") as settings:
            settings.write(
                f'\n[delivery.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "plain"\nuser = "{USER}"\n'
                f'password_env = "ADJ_TEST_MAIL_PASSWORD"\nfrom = "{USER}"\nlist = "list@example.org"\n'
            )
        yield loaded(game), smtp


def test_failing_destinations_hold_up_no_mail_and_their_posts_go_once_after_the_backoff(
    smtp_game: tuple[Game, SmtpServer], receiver: Receiver
) -> None:
    """A 429 with Retry-After and a 500: the mail still goes; both destinations' posts wait in
    outbox/notify/ with the failure and its retry time recorded (status shows them); a flush
    before that time asks nothing of them; one after it sends each post once, in order, and a
    flush after that sends nothing."""
    game, smtp = smtp_game
    with http_receiver() as failing:
        receiver.answer(Answer(429, {"Retry-After": "30"}, b"slow down"))
        failing.answer(Answer(500, body=b"broken"))
        add_destination(game, "limited", f"json://127.0.0.1:{receiver.port}/limited")
        add_destination(game, "failing", f"json://127.0.0.1:{failing.port}/failing", send=["open"])  # no map: faster
        game = loaded(game)

        code, printed = cli("send", str(game.directory.root))

        assert code == 0, printed
        mailed = {address for _, recipients, _ in smtp.received for address in recipients}
        assert mailed == {*(f"{civ.lower()}@example.org" for civ in FIVE), "list@example.org"}, printed
        assert "posts wait: limited: Failed to send JSON POST notification: error=429." in printed
        assert (
            "posts wait: failing: Failed to send JSON POST notification: Internal server error., error=500." in printed
        )
        assert [len(receiver.received), len(failing.received)] == [1, 1]  # each stops at its first failure
        queued = sorted((post["destination"], post["kind"]) for post in map(read_post, waiting_posts(game)))
        assert queued == [("failing", "open"), ("limited", "open"), ("limited", "report")]
        recorded = health(game)
        assert set(recorded) == {"limited", "failing"}
        assert "error=429" in recorded["limited"]["error"] and "error=500" in recorded["failing"]["error"]
        for entry in recorded.values():
            assert entry["failures"] == 1 and "parked" not in entry
            # The first backoff (1 min) happens to exceed the Retry-After of 30 s: Apprise passes it on to nobody.
            assert timedelta(seconds=30) <= entry["retry_at"] - entry["since"] <= timedelta(hours=1)

        code, status = cli("status", str(game.directory.root))
        assert code == 0, status
        limited = (
            "limited: 2 post(s) waiting; 1 failure(s), the last: Failed to send JSON POST notification: error=429."
        )
        assert f"{limited}; tried again after " in status, status
        assert "failing: 1 post(s) waiting; 1 failure(s), the last:" in status, status

        retry_at = max(entry["retry_at"] for entry in recorded.values())
        early = post_messages.flush_game_posts(loaded(game), min(e["retry_at"] for e in recorded.values()) - SECOND)
        assert (early.sent, early.waiting) == (0, 3)
        assert [len(receiver.received), len(failing.received)] == [1, 1]

        flushed = post_messages.flush_game_posts(loaded(game), retry_at + SECOND)
        assert (flushed.sent, flushed.waiting, flushed.parked, flushed.retrying) == (3, 0, [], [])
        assert post_messages.flush_game_posts(loaded(game), retry_at + timedelta(hours=1)).sent == 0

        first, report, drawn, opening = (request.json() for request in receiver.wait_for(4))
        assert {request.path for request in receiver.received} == {"/limited"} and len(receiver.received) == 4
        assert first["message"] == report["message"] and "What happened" in report["message"]
        assert len(drawn["attachments"]) == 1 and drawn["message"].startswith(
            "The map after T1 trade. Who holds what: Rome: Provinces "
        )  # once it went
        assert opening["message"].startswith("Next phase: T1 build.")
        refused, accepted = (request.json() for request in failing.wait_for(2))
        assert len(failing.received) == 2 and refused == accepted
    assert waiting_posts(game) == []
    assert len(list((game.directory.outbox / "notify" / "sent").glob("*.toml"))) == 3
    assert health(game) == {}
