"""The HTTP receivers of tests/http_receiver.py, proved with Apprise itself, and the request shapes
Apprise 2.3.0 sends to each chat service, written down against the services' published formats so
that a change in either shows here first:

- Discord, "Execute Webhook": POST /api/webhooks/{id}/{token}; JSON with `content` (at most 2000
  characters), `username`, `avatar_url`, `tts`, `embeds`, `allowed_mentions`; with files, a
  multipart/form-data body whose `payload_json` part holds that JSON and `files[n]` parts hold
  the files. Without the `wait` query parameter Discord answers 204 No Content.
- Slack, incoming webhooks: POST https://hooks.slack.com/services/T…/B…/X… with a JSON message
  (`text`, `blocks`, or legacy `attachments`); success is status 200 with the body `ok`.

How Apprise reports a failure (the HTTP status only inside a log line; Retry-After nowhere) is
in the last group of tests."""

from __future__ import annotations

import json
import logging
import re
import struct
import time
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import apprise
import pytest
import requests
from apprise.plugins.discord import NotifyDiscord

from tests.http_receiver import Answer, Receiver, TlsReceiver, receiver, tls_receiver

__all__ = ["receiver", "tls_receiver"]  # the fixtures, imported for pytest to find

DISCORD_ID, DISCORD_TOKEN = "1234567890123456789", "AbC-dEf_123"
DISCORD_PATH = f"/api/webhooks/{DISCORD_ID}/{DISCORD_TOKEN}"
SLACK_TOKENS = ("T1234ABCD", "B5678EFGH", "abcdefghijklmnopqrstuvwx")
SLACK_PATH = "/services/" + "/".join(SLACK_TOKENS)
DISCORD_MENTION, SLACK_MENTION = "<@123456789012345678>", "<@U12345>"


def tiny_png() -> bytes:
    """A valid 1×1 grey PNG; its signature holds CR LF and LF, which a careless multipart
    parser would mangle."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\x80")) + chunk(b"IEND", b"")
    )


def notifier(url: str) -> apprise.Apprise:
    """An Apprise object for one URL, refusing a URL it cannot parse (add() only returns False)."""
    notify = apprise.Apprise()
    assert notify.add(url), url
    return notify


def warnings_of(result: apprise.AppriseResult) -> list[str]:
    """The one-line reasons Apprise gives for a failure: its WARNING and ERROR log entries."""
    return [entry.message for entry in result.logs() if entry.level in ("WARNING", "ERROR")]


@pytest.fixture
def discord(tls_receiver: TlsReceiver) -> Iterator[TlsReceiver]:
    """discord.com routed to the TLS receiver, answering 204 as Discord does without ?wait=true."""
    tls_receiver.route("discord.com")
    tls_receiver.default = Answer(204)
    yield tls_receiver


@pytest.fixture
def slack(tls_receiver: TlsReceiver) -> Iterator[TlsReceiver]:
    """hooks.slack.com routed to the TLS receiver, answering `ok` as Slack's webhooks do."""
    tls_receiver.route("hooks.slack.com")
    tls_receiver.default = Answer(200, {"Content-Type": "text/html"}, b"ok")
    yield tls_receiver


# The receivers themselves


def test_chunked_and_sized_bodies_are_both_read(receiver: Receiver) -> None:
    requests.post(f"{receiver.url}/sized?a=1&a=2", data=b"whole", timeout=5)
    requests.post(f"{receiver.url}/chunked", data=iter([b"in ", b"pieces"]), timeout=5)
    sized, chunked = receiver.wait_for(2)
    assert (sized.path, sized.query, sized.body) == ("/sized", {"a": ["1", "2"]}, b"whole")
    assert chunked.headers["transfer-encoding"] == "chunked"
    assert chunked.body == b"in pieces"


def test_scripted_answers_come_in_order_then_the_default(receiver: Receiver) -> None:
    receiver.answer(Answer(201, {"X-Test": "yes"}, b"first"), Answer(503))
    first, second, third = (requests.get(receiver.url, timeout=5) for _ in range(3))
    assert (first.status_code, first.headers["X-Test"], first.content) == (201, "yes", b"first")
    assert second.status_code == 503
    assert (third.status_code, third.json()) == (200, {})


def test_wait_for_says_what_arrived_when_too_little_did(receiver: Receiver) -> None:
    requests.put(f"{receiver.url}/only", data=b"one", timeout=5)
    with pytest.raises(AssertionError, match=re.escape("""got 1: ["PUT /only b'one'"]""")):
        receiver.wait_for(2, timeout=0.2)


def test_routed_names_reach_the_tls_receiver_with_verification_on(
    tls_receiver: TlsReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    tls_receiver.route("chat.example.org")  # not in the first certificate: reissued
    assert requests.get("https://chat.example.org:8443/x", timeout=5).status_code == 200
    assert tls_receiver.wait_for(1)[0].headers["host"] == "chat.example.org:8443"
    monkeypatch.delenv("REQUESTS_CA_BUNDLE")
    with pytest.raises(requests.exceptions.SSLError):  # the public CAs do not know the test CA
        requests.get("https://chat.example.org/x", timeout=5)


def test_names_not_routed_are_refused(tls_receiver: TlsReceiver) -> None:
    with pytest.raises(requests.exceptions.ConnectionError, match="not routed to the test receiver"):
        requests.get("https://discord.com/api", timeout=5)
    assert tls_receiver.received == []


# Generic webhooks: json:// and form://


def test_json_webhook_carries_title_and_body(receiver: Receiver) -> None:
    assert notifier(f"json://127.0.0.1:{receiver.port}/hooks/game").notify(body="Spring 1 is out", title="Mare Nostrum")
    (request,) = receiver.wait_for(1)
    assert (request.method, request.path) == ("POST", "/hooks/game")
    assert request.headers["content-type"] == "application/json"
    assert request.json() == {
        "version": "1.0",
        "title": "Mare Nostrum",
        "message": "Spring 1 is out",
        "attachments": [],
        "type": "info",
    }


def test_form_webhook_carries_title_and_body(receiver: Receiver) -> None:
    assert notifier(f"form://127.0.0.1:{receiver.port}/hooks/game").notify(body="Spring 1 is out", title="Mare Nostrum")
    (request,) = receiver.wait_for(1)
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert request.form() == {"version": "1.0", "title": "Mare Nostrum", "message": "Spring 1 is out", "type": "info"}


# Discord


def test_discord_posts_the_text_as_content_with_the_mention_intact(discord: TlsReceiver) -> None:
    body = f"{DISCORD_MENTION}, your orders are due."
    assert notifier(f"discord://{DISCORD_ID}/{DISCORD_TOKEN}/").notify(body=body, title="Spring 1")
    (request,) = discord.wait_for(1)
    assert (request.method, request.path, request.headers["host"]) == ("POST", DISCORD_PATH, "discord.com")
    assert request.headers["content-type"] == "application/json; charset=utf-8"
    payload = request.json()
    assert payload["content"] == f"Spring 1\r\n{body}"  # the title joins the content: Discord has no title
    assert len(payload["content"]) <= 2000
    assert "allowed_mentions" not in payload  # so Discord parses (and pings) the mentions in content
    assert (payload["tts"], payload["wait"]) == (False, True)  # `wait` in the body, where Discord ignores it


def test_discord_markdown_format_sends_an_embed_and_pings_explicitly(discord: TlsReceiver) -> None:
    body = f"{DISCORD_MENTION} moves first.\n# Orders\nRome: hold"
    assert notifier(f"discord://{DISCORD_ID}/{DISCORD_TOKEN}/?format=markdown").notify(body=body, title="Spring 1")
    payload = discord.wait_for(1)[0].json()
    assert payload["content"] == f"👉 {DISCORD_MENTION}"  # mentions in an embed do not ping: repeated here
    # Discord's field is `allowed_mentions`; Apprise spells it `allow_mentions`, which Discord ignores
    # (so the content's mentions are parsed as usual, and they ping all the same).
    assert "allowed_mentions" not in payload
    assert payload["allow_mentions"] == {"parse": [], "users": ["123456789012345678"], "roles": []}
    (embed,) = payload["embeds"]
    assert (embed["title"], embed["description"]) == ("Spring 1", f"{DISCORD_MENTION} moves first.")
    assert embed["fields"] == [{"name": "Orders", "value": "```md\nRome: hold\n```"}]  # each heading: a field


def test_discord_attachment_follows_as_multipart_with_payload_json(discord: TlsReceiver, tmp_path: Path) -> None:
    picture = tmp_path / "map.png"
    picture.write_bytes(tiny_png())
    assert notifier(f"discord://{DISCORD_ID}/{DISCORD_TOKEN}/").notify(body="The map", attach=str(picture))
    text, upload = discord.wait_for(2)
    assert text.json()["content"] == "The map"  # the text first, alone
    assert upload.headers["content-type"].startswith("multipart/form-data; boundary=")
    payload_json, png = upload.parts()
    assert payload_json.name == "payload_json" and payload_json.filename is None
    assert "content" not in json.loads(payload_json.data)  # the upload carries no text
    assert (png.name, png.filename, png.content_type, png.data) == ("files[0]", "map.png", "image/png", tiny_png())


def test_discord_long_text_is_sent_whole_unless_overflow_split(discord: TlsReceiver) -> None:
    text = " ".join(f"unit{number:04d}" for number in range(500))  # 4,499 characters
    assert notifier(f"discord://{DISCORD_ID}/{DISCORD_TOKEN}/").notify(body=text)
    assert len(discord.wait_for(1)[0].json()["content"]) == len(text)  # as is: the real Discord answers 400
    discord.received.clear()

    assert notifier(f"discord://{DISCORD_ID}/{DISCORD_TOKEN}/?overflow=split").notify(body=text, title="Report")
    posts = [request.json()["content"] for request in discord.wait_for(3)]
    assert len(posts) == 3 and all(len(post) <= 2000 for post in posts)
    assert [post.split("\r\n", 1)[0] for post in posts] == ["Report [1/3]", "Report [2/3]", "Report [3/3]"]
    words = [word for post in posts for word in post.split("\r\n", 1)[1].split()]
    assert words == text.split()  # cut between words, nothing lost or repeated


# Slack


def test_slack_webhook_posts_legacy_attachments_with_the_mention_intact(slack: TlsReceiver) -> None:
    body = f"{SLACK_MENTION} & Rome: orders due"
    assert notifier("slack://{}/{}/{}".format(*SLACK_TOKENS)).notify(body=body, title="Spring 1")
    (request,) = slack.wait_for(1)
    assert (request.method, request.path, request.headers["host"]) == ("POST", SLACK_PATH, "hooks.slack.com")
    assert request.headers["content-type"] == "application/json; charset=utf-8"
    payload = request.json()
    assert "text" not in payload and "blocks" not in payload  # no top-level text: all in the attachment
    assert payload["mrkdwn"] is True
    (attachment,) = payload["attachments"]
    assert attachment["title"] == "Spring 1"
    assert attachment["text"] == f"{SLACK_MENTION} &amp; Rome: orders due"  # & escaped as Slack asks, <@…> kept
    assert {"color", "footer", "ts"} <= attachment.keys()


def test_slack_plain_text_format_escapes_the_mention(slack: TlsReceiver) -> None:
    """body_format=TEXT makes Apprise escape < and >, so Slack shows the mention literally."""
    url = "slack://{}/{}/{}".format(*SLACK_TOKENS)
    assert notifier(url).notify(body=f"{SLACK_MENTION} moves", body_format=apprise.NotifyFormat.TEXT)
    payload = slack.wait_for(1)[0].json()
    assert (payload["mrkdwn"], payload["attachments"][0]["text"]) == (False, "&lt;@U12345&gt; moves")


def test_slack_blocks_option_sends_block_kit(slack: TlsReceiver) -> None:
    url = "slack://{}/{}/{}?blocks=yes".format(*SLACK_TOKENS)
    assert notifier(url).notify(body=f"{SLACK_MENTION} moves", title="Spring 1")
    (attachment,) = slack.wait_for(1)[0].json()["attachments"]
    header, section, footer = attachment["blocks"]
    assert header == {"type": "header", "text": {"type": "plain_text", "text": "Spring 1", "emoji": True}}
    assert section == {"type": "section", "text": {"type": "mrkdwn", "text": f"{SLACK_MENTION} moves"}}
    assert footer["type"] == "context"


def test_slack_success_needs_the_body_ok(slack: TlsReceiver) -> None:
    slack.answer(Answer(200, {"Content-Type": "application/json"}, b"{}"))
    result = notifier("slack://{}/{}/{}".format(*SLACK_TOKENS)).notify(body="hello")
    assert not result
    assert warnings_of(result) == ["Failed to send to Slack: error=200."]


# Failures: what Apprise tells


def test_rate_limit_and_server_error_fail_with_the_status_only_in_the_log_text(
    receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    """AppriseResult → NotifyResult (one per service) → NotifyAttempt (one per try) hold a status
    (SUCCESS, FAILURE, TIMEOUT…), timings and log entries; the HTTP status is only in the text of
    the WARNING entry, and Retry-After is read by none of these plugins, not even at DEBUG."""
    caplog.set_level(logging.DEBUG, logger="apprise")  # DEBUG entries exist only if the logger allows them
    receiver.answer(Answer(429, {"Retry-After": "2"}, b"slow down"), Answer(500, body=b"broken"))
    notify = notifier(f"json://127.0.0.1:{receiver.port}/hook")

    limited = notify.notify(body="report", log_level=logging.DEBUG)
    assert not limited
    assert (limited.status, limited.failed_count, len(limited)) == (apprise.AppriseResultStatus.FAILURE, 1, 1)
    (service,) = limited.results
    assert (service.name, service.status, len(service.attempts)) == ("JSON", apprise.AppriseResultStatus.FAILURE, 1)
    assert service.url.startswith(f"json://127.0.0.1:{receiver.port}/hook?")
    assert warnings_of(limited) == ["Failed to send JSON POST notification: error=429."]
    every_line = "\n".join(entry.message for entry in limited.logs())
    assert "slow down" in every_line  # the response body, at DEBUG
    assert "retry-after" not in every_line.lower()
    status = re.search(r"error=(\d+)\.", warnings_of(limited)[-1])
    assert status is not None and status.group(1) == "429"

    failed = notify.notify(body="report")  # the default capture level: WARNING
    assert not failed
    assert warnings_of(failed) == ["Failed to send JSON POST notification: Internal server error., error=500."]
    assert len(receiver.wait_for(2)) == 2  # one attempt each: retry=0 unless the URL says ?retry=N


def test_discord_retries_a_429_once_and_keeps_only_x_ratelimit_headers(discord: TlsReceiver) -> None:
    """Discord's plugin repeats a 429 at once; before sending it waits only when X-RateLimit-Remaining
    was 0 and X-RateLimit-Reset (integer epoch seconds) is still ahead, until then plus 10 s. It stores
    both headers on the plugin object; Retry-After is ignored."""
    past = int(time.time()) - 60
    limited = Answer(429, {"Retry-After": "2", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(past)})
    discord.answer(limited, limited)
    notify = notifier(f"discord://{DISCORD_ID}/{DISCORD_TOKEN}/")
    result = notify.notify(body="report")
    assert not result
    assert len(discord.wait_for(2)) == 2
    assert warnings_of(result) == [
        "Discord rate limiting in effect; blocking for 0.00 second(s)",
        "Failed to send Discord notification: error=429.",
    ]
    plugin = notify[0]
    assert isinstance(plugin, NotifyDiscord)
    assert plugin.ratelimit_remaining == 0.0
    assert plugin.ratelimit_reset == datetime.fromtimestamp(past, UTC).replace(tzinfo=None)  # naive UTC

    # Discord itself sends X-RateLimit-Reset with decimals ("1470173023.123"): int() refuses it, the
    # plugin keeps the old time, and so it does not wait for the reset at all.
    ahead = Answer(429, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{int(time.time()) + 30}.123"})
    discord.answer(ahead, ahead)
    started = time.monotonic()
    assert not notify.notify(body="report")
    assert time.monotonic() - started < 2 and len(discord.wait_for(4)) == 4
    assert plugin.ratelimit_reset == datetime.fromtimestamp(past, UTC).replace(tzinfo=None)


def test_dropped_connection_fails_at_once(receiver: Receiver) -> None:
    receiver.answer(Answer(drop=True))
    started = time.monotonic()
    result = notifier(f"json://127.0.0.1:{receiver.port}/hook").notify(body="report")
    elapsed = time.monotonic() - started
    assert not result and result.status == apprise.AppriseResultStatus.FAILURE
    assert elapsed < 1.0
    assert len(receiver.wait_for(1)) == 1  # the request arrived; the answer never came
    assert warnings_of(result) == ["A Connection error occurred sending JSON notification to 127.0.0.1."]


def test_read_timeout_from_the_url_bounds_a_slow_server(receiver: Receiver) -> None:
    """?rto=1 (read) and ?cto= (connect) are requests' timeouts, 4 s each by default. A read timeout
    is a FAILURE; TIMEOUT is only for notify(timeout=…), Apprise's own deadline."""
    receiver.answer(Answer(delay=5))
    started = time.monotonic()
    result = notifier(f"json://127.0.0.1:{receiver.port}/hook?rto=1").notify(body="report")
    elapsed = time.monotonic() - started
    assert result.status == apprise.AppriseResultStatus.FAILURE
    assert 0.9 < elapsed < 2.0
    assert warnings_of(result) == ["A Connection error occurred sending JSON notification to 127.0.0.1."]

    receiver.answer(Answer(delay=5))
    started = time.monotonic()
    result = notifier(f"json://127.0.0.1:{receiver.port}/hook").notify(body="report", timeout=0.5)
    elapsed = time.monotonic() - started
    assert result.status == apprise.AppriseResultStatus.TIMEOUT
    assert elapsed < 1.5
    (warning,) = warnings_of(result)
    assert re.fullmatch(r"Service 'JSON' did not finish within \d+\.\d{3}s\.", warning), warning
