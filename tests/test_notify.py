"""Chat destinations ([[notify]], issue 33): the settings and their refusals, the secrets kept
out of every output, and the chat outbox against a real HTTP receiver: each post sent once and
in order, a failing destination backed off, parked and taken up again, a post cut off by a kill
never sent twice, mail never held up. The service-specific shapes (Discord, Slack, Matrix) are
in tests/test_chat_services.py."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import tomli_w

from adjudicator import commands
from adjudicator.core.errors import GameFileError
from adjudicator.delivery import posts
from adjudicator.delivery.post_messages import flush_game_posts, phase_posts, queue_game_posts
from adjudicator.game.destinations import mask
from adjudicator.game.game import Game
from adjudicator.game.storage import read_toml
from adjudicator.hosting.adjudication import adjudicate
from adjudicator.hosting.run import run_pass
from tests.http_receiver import Answer, Receiver, receiver  # noqa: F401

NOW = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
TOKEN = "Tok3nSecretValue42"  # stands for a webhook's token: it must show nowhere


def with_notify(game: Game, tables: str, addresses: dict[str, str], **handles: dict[str, str]) -> Game:
    """The game with [[notify]] tables, their addresses in secrets.toml and players' handles."""
    settings = read_toml(game.directory.game_file)
    for player in settings["player"]:
        player.update(handles.get(player["civ"], {}))
    game.directory.game_file.write_text(tomli_w.dumps(settings) + tables, encoding="utf-8")
    secrets = read_toml(game.directory.secrets_file)
    secrets["notify"] = addresses
    game.directory.secrets_file.write_text(tomli_w.dumps(secrets), encoding="utf-8")
    return Game.load(game.directory.root)


def resolved(game: Game) -> Game:
    """The game after its first phase, resolved with default orders."""
    adjudicate(game, force=True, now=NOW)
    return Game.load(game.directory.root)


def hook(port: int, path: str = "hook") -> str:
    return f"json://127.0.0.1:{port}/{path}/{TOKEN}"


def outbox_text(game: Game) -> str:
    folder = game.directory.outbox / posts.POSTS_FOLDER
    return "".join(p.read_text(encoding="utf-8") for p in folder.rglob("*.toml"))


@pytest.mark.parametrize(
    ("table", "refusal"),
    [
        ('[[notify]]\nname = "discord"\nurl = "https://discord.com/api/webhooks/1/x"\n', "it is a secret"),
        ('[[notify]]\nname = "Discord!"\n', "is not a name"),
        ('[[notify]]\nname = "chat"\nsend = ["reports"]\n', "'reports' is not a kind of post"),
        ('[[notify]]\nname = "chat"\nmentions = "irc"\n', "names no handle"),
        ('[[notify]]\nname = "chat"\n[[notify]]\nname = "chat"\n', "names two destinations"),
        ('[[notify]]\nname = "chat"\nsent = ["report"]\n', "did you mean 'send'"),
    ],
)
def test_a_wrong_notify_table_is_refused_naming_its_key(
    make_game: Callable[..., Game], table: str, refusal: str
) -> None:
    game = make_game()
    game.directory.game_file.write_text(game.directory.game_file.read_text() + "\n" + table, encoding="utf-8")
    with pytest.raises(GameFileError, match=refusal):
        Game.load(game.directory.root)


def test_a_handle_is_kept_as_written_and_a_handle_with_spaces_is_refused(make_game: Callable[..., Game]) -> None:
    game = with_notify(make_game(), "", {}, Rome={"discord": "<@123456789012345678>", "matrix": "@anna:example.org"})
    rome = game.settings.player("Rome")
    assert rome is not None and rome.handle("discord") == "<@123456789012345678>" and rome.handle("slack") == ""
    assert rome.to_data()["matrix"] == "@anna:example.org"  # written back as read
    with pytest.raises(GameFileError, match="without spaces"):
        with_notify(game, "", {}, Carthage={"telegram": "@hanno barca"})


def test_a_games_folder_gives_every_game_its_destinations_and_a_game_may_replace_one(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    game = resolved(make_game())
    shared = game.directory.root.parent
    (shared / "intake.toml").write_text('[[notify]]\nname = "club"\n[[notify]]\nname = "ours"\n', encoding="utf-8")
    (shared / "secrets.toml").write_text(f'[notify]\nclub = "{hook(receiver.port, "club")}"\n', encoding="utf-8")
    game = with_notify(game, '[[notify]]\nname = "ours"\nsend = ["open"]\n', {"ours": hook(receiver.port, "ours")})
    commands.send_reports(game.directory.root, dry_run=False)
    arrived = receiver.wait_for(4)  # the club: a report, its map alone, an opening line; ours: its opening
    paths = sorted(r.path.split("/")[1] + ":" + r.json()["title"] for r in arrived if r.json()["title"])
    label = game.phase_info.label
    assert paths == sorted([f"club:test-game: {label}", f"ours:test-game: {label}", "club:test-game: T1 trade"])


@pytest.mark.parametrize(
    ("url", "secrets", "kept"),
    [
        (
            "https://discord.com/api/webhooks/1234567890/AbCdEf-123_xyz",
            ["1234567890", "AbCdEf-123_xyz"],
            "https://discord.com/api/webhooks/",
        ),
        ("discord://WebHookIdent/TokenValue", ["WebHookIdent", "webhookident", "TokenValue"], "discord://"),
        ("matrix://judge:hunter22@matrix.example.org/#game", ["hunter22"], "matrix.example.org"),
        ("matrix://judge:p%40ssw0rd@matrix.example.org/", ["p%40ssw0rd", "p@ssw0rd"], "matrix.example.org"),
        ("tgram://123456:ABC-DEF1234ghIkl/-1001234567890", ["ABC-DEF1234ghIkl", "1001234567890"], "tgram://"),
        ("json://127.0.0.1:9/hook?token=Zz9Yy8Xx7", ["Zz9Yy8Xx7"], "json://127.0.0.1:9/hook"),
        ("ntfy://ntfy.sh/mysecrettopic", ["mysecrettopic"], "ntfy://ntfy.sh/"),  # lower-case letters, a secret too
    ],
)
def test_every_secret_part_of_an_address_is_starred(url: str, secrets: list[str], kept: str) -> None:
    """Also as a service's message may quote them: without the scheme, decoded, in lower case."""
    said = mask(f"could not post to {url}; {url.split('://')[1]} refused ({' '.join(secrets)})", url)
    assert not any(secret in said for secret in secrets), said
    assert kept in said


def test_the_phase_posts_go_once_in_queued_order_with_the_map_and_the_mentions(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    game = with_notify(
        resolved(make_game()),
        '[[notify]]\nname = "table"\nmentions = "discord"\n',
        {"table": hook(receiver.port)},
        Rome={"discord": "<@111>"},
        Egypt={"discord": "<@555>"},
    )
    first = commands.send_reports(game.directory.root, dry_run=False).text
    report, drawn, opening = receiver.wait_for(3)  # the map goes alone after its report: a retry sends one again
    assert "2 post(s) sent" in first
    public = game.directory.page_file(game.slug.replace("002", "001"), "public.txt")
    pages = sorted(p for p in game.directory.reports.glob("001-*/public.txt"))
    assert pages, public
    # the chat post tells what the public report tells: every event sentence is in it
    events = [line[2:] for line in pages[0].read_text(encoding="utf-8").splitlines() if line.startswith("- ")]
    assert events and all(event in report.json()["message"] for event in events)
    (picture,) = drawn.json()["attachments"]
    assert picture["filename"] == "map.png" and picture["mimetype"] == "image/png" and not report.json()["attachments"]
    body = opening.json()["message"]
    assert "Rome (<@111>)" in body and "Egypt (<@555>)" in body and "Carthage," in body
    assert commands.send_reports(game.directory.root, dry_run=False).text.endswith("no post waits")
    time.sleep(0.2)
    assert len(receiver.received) == 3  # queued and sent once


def test_a_dry_run_writes_the_posts_a_send_then_sends(make_game: Callable[..., Game], receiver: Receiver) -> None:  # noqa: F811
    game = with_notify(resolved(make_game()), '[[notify]]\nname = "table"\n', {"table": hook(receiver.port)})
    said = commands.send_reports(game.directory.root, dry_run=True).text
    assert "2 post(s) written" in said and not receiver.received
    dry = sorted((game.directory.outbox / "dry-run" / posts.POSTS_FOLDER).glob("*.toml"))
    commands.send_reports(game.directory.root, dry_run=False)
    sent = [r.json()["message"] for r in receiver.wait_for(3) if not r.json()["attachments"]]
    assert [read_toml(p)["body"] for p in dry] == sent


def test_a_failing_destination_waits_longer_each_time_is_parked_and_retry_takes_it_up(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    game = with_notify(
        resolved(make_game()), '[[notify]]\nname = "table"\nsend = ["open"]\n', {"table": hook(receiver.port)}
    )
    queue_game_posts(game, phase_posts(game), NOW)
    receiver.default = Answer(500)
    clock, waits = NOW, []
    for attempt in range(1, posts.PARK_AFTER + 1):
        flushed = flush_game_posts(game, clock)
        assert len(receiver.received) == attempt and flushed.waiting == 1
        state = posts.read_health(game.directory.outbox)["table"]
        assert state.failures == attempt and "500" in state.error and TOKEN not in state.error
        if attempt < posts.PARK_AFTER:
            assert flushed.retrying and not flushed.parked
            waits.append(state.retry_at - clock if state.retry_at else None)
            assert flush_game_posts(game, clock + timedelta(seconds=30)).waiting == 1  # too soon: not tried
            assert len(receiver.received) == attempt
            clock = state.retry_at or clock
    assert waits == sorted(waits) and waits[0] == timedelta(minutes=1) and waits[-1] == timedelta(hours=1)
    assert state.parked and flushed.parked
    status = commands.status(game.directory.root, NOW).text
    assert "table: 1 post(s) waiting; PARKED after 8 failure(s)" in status and TOKEN not in status
    flush_game_posts(game, clock + timedelta(days=1))
    assert len(receiver.received) == posts.PARK_AFTER  # parked: not tried however long it waits
    receiver.default = Answer(200)
    said = commands.notify_game(game.directory.root, retry=True)
    assert said.ok and "taken up again: table" in said.text and "1 post(s) sent" in said.text
    assert len(receiver.received) == posts.PARK_AFTER + 1


def test_a_destination_that_fails_holds_up_no_other_and_no_mail(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    tables = '[[notify]]\nname = "down"\nsend = ["open"]\n[[notify]]\nname = "up"\nsend = ["open"]\n'
    game = with_notify(resolved(make_game()), tables, {"down": "json://127.0.0.1:9/closed", "up": hook(receiver.port)})
    said = commands.send_reports(game.directory.root, dry_run=False).text
    assert "mail(s) wait in" in said  # the mail is queued as ever (no [delivery.smtp] here)
    assert "1 post(s) sent" in said and "posts wait: down:" in said
    assert [r.path for r in receiver.wait_for(1)] == [f"/hook/{TOKEN}"]


def test_an_address_that_cannot_be_read_needs_the_moderator_and_says_how(
    make_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = with_notify(resolved(make_game()), '[[notify]]\nname = "room"\nurl_env = "MN_TEST_ROOM"\n', {})
    monkeypatch.delenv("MN_TEST_ROOM", raising=False)
    said = commands.notify_game(game.directory.root)
    assert not said.ok and "the environment variable MN_TEST_ROOM is not set" in said.text
    report = run_pass(game.directory.root.parent, NOW)
    assert "NEEDS THE MODERATOR" in report.text and "MN_TEST_ROOM" in report.text and "--retry" not in report.text
    assert not commands.run_games(game.directory.root.parent, False, 5, print).ok  # run exits 1 then


def test_without_apprise_the_posts_wait_and_the_moderator_is_told_what_to_install(
    make_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = with_notify(resolved(make_game()), '[[notify]]\nname = "table"\n', {"table": "json://127.0.0.1:9/x"})
    monkeypatch.setitem(sys.modules, "apprise", None)  # as on a machine installed without the extra
    said = commands.send_reports(game.directory.root, dry_run=False)
    assert "pip install -e '.[notify]'" in said.text
    assert len(posts.waiting_posts(game.directory.outbox)) == 2  # the report and the opening line, kept


def test_a_test_post_says_which_destination_took_it(make_game: Callable[..., Game], receiver: Receiver) -> None:  # noqa: F811
    tables = '[[notify]]\nname = "up"\n[[notify]]\nname = "down"\n'
    game = with_notify(make_game(), tables, {"up": hook(receiver.port), "down": f"json://127.0.0.1:9/{TOKEN}"})
    said = commands.notify_game(game.directory.root, test=True)
    assert not said.ok
    assert said.text.splitlines()[0] == "up: sent"
    assert said.text.splitlines()[1].startswith("down: not sent: ") and TOKEN not in said.text
    assert "trying this destination" in receiver.wait_for(1)[0].json()["message"]
    assert not (game.directory.outbox / posts.POSTS_FOLDER).exists()  # a test goes around the outbox


def test_run_posts_the_report_and_at_the_remind_time_who_is_awaited(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    game = make_game()
    text = game.directory.game_file.read_text().replace("[schedule]\n", '[schedule]\ntrade = "2d"\nremind = ["12h"]\n')
    game.directory.game_file.write_text(text, encoding="utf-8")
    game = with_notify(Game.load(game.directory.root), '[[notify]]\nname = "table"\n', {"table": hook(receiver.port)})
    run_pass(game.directory.root.parent, NOW)  # the deadline is given: two days from now
    deadline = Game.load(game.directory.root).deadline()
    assert deadline is not None
    run_pass(game.directory.root.parent, deadline - timedelta(hours=13))
    assert not receiver.received
    report = run_pass(game.directory.root.parent, deadline - timedelta(hours=11))
    assert "reminder posted" in report.text and "1 post(s) sent" in report.text
    (reminder,) = receiver.wait_for(1)
    assert "Orders are due from Rome, Carthage, Greece, Babylon, Egypt by" in reminder.json()["message"]
    run_pass(game.directory.root.parent, deadline - timedelta(hours=10))
    assert len(receiver.received) == 1  # once per deadline and time
    run_pass(game.directory.root.parent, deadline + timedelta(hours=2))  # adjudicated with default orders
    titles = [r.json()["title"] for r in receiver.wait_for(4)]
    assert titles[1:] == ["test-game: T1 trade", "", "test-game: T1 build"]  # the report, its map, the opening


KILLED_SENDER = """
import sys
from datetime import UTC, datetime
from adjudicator.delivery.post_messages import flush_game_posts
from adjudicator.game.game import Game
from pathlib import Path
flush_game_posts(Game.load(Path(sys.argv[1])), datetime.now(UTC))
"""


def test_a_post_cut_off_by_a_kill_is_kept_aside_and_never_sent_twice(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    tables = '[[notify]]\nname = "table"\nsend = ["report", "open"]\n'
    game = with_notify(resolved(make_game()), tables, {"table": hook(receiver.port)})
    queue_game_posts(game, phase_posts(game), NOW)
    receiver.answer(Answer(200, delay=30))  # the first request hangs: the sender is killed meanwhile
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    sender = subprocess.Popen([sys.executable, "-c", KILLED_SENDER, str(game.directory.root)], env=environment)
    try:
        receiver.wait_for(1, timeout=30)
    finally:
        sender.send_signal(signal.SIGKILL)
        sender.wait()
    flushed = flush_game_posts(game, NOW)
    assert flushed.sent == 1 and len(flushed.unsure) == 1  # the opening line went; the report is set aside
    titles = [json.loads(r.body)["title"] for r in receiver.wait_for(2)]
    assert titles == ["test-game: T1 trade", "test-game: T1 build"]  # the report (cut off), then the opening
    status = commands.status(game.directory.root, NOW).text
    assert "1 post(s) cut off mid-send may not have arrived" in status and "--resend" in status
    flush_game_posts(game, NOW)
    assert len(receiver.received) == 2  # not sent again on its own
    assert commands.notify_game(game.directory.root, resend=True).text.endswith("1 post(s) sent")
    assert len(receiver.wait_for(4)) == 4  # the report's text again, and its map
    assert TOKEN not in outbox_text(game) and TOKEN not in status


def test_the_last_phase_of_a_game_posts_its_report_and_the_final_standings(tmp_path: Path) -> None:
    from adjudicator.game.storage import read_toml as read
    from tests.mediterraneum_support import board
    from tests.test_mediterraneum_cli import game_near_victory, run

    folder, building = game_near_victory(tmp_path, "won")
    orders = tmp_path / "green.txt"
    orders.write_text(f"game won\npower Green\npassword green-secret\nbuild {board().buildings[building].name}\n")
    run("submit", "--vouch", str(folder), str(orders))
    run("adjudicate", str(folder))
    game = with_notify(Game.load(folder), '[[notify]]\nname = "table"\n', {"table": "json://127.0.0.1:9/x"})
    made = {post.kind: post for post in phase_posts(game)}
    assert set(made) == {"report", "final"}  # no phase opens
    final = made["final"]
    assert final.title == "The game is over: Green won."
    lines = final.body.splitlines()
    assert lines[0] == "**Standings**"
    assert sorted(line.split(":")[0] for line in lines[1:]) == ["- Blue", "- Green", "- Red"]
    assert read(game.directory.secrets_file)["dice"]["root"] in made["report"].body  # the chain's root, revealed


def test_a_destination_that_does_not_answer_is_given_up_at_its_timeout_and_tried_later(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    """rto (Apprise's read timeout; the judge sets 15 s where the address sets none) bounds
    what a hanging service costs a pass."""
    url = f"json://127.0.0.1:{receiver.port}/slow?rto=1"
    game = with_notify(resolved(make_game()), '[[notify]]\nname = "slow"\nsend = ["open"]\n', {"slow": url})
    queue_game_posts(game, phase_posts(game), NOW)
    receiver.answer(Answer(200, delay=5))
    started = time.monotonic()
    flushed = flush_game_posts(game, NOW)
    assert time.monotonic() - started < 4 and flushed.retrying and flushed.waiting == 1
    assert posts.tuned(url).endswith("?rto=1&cto=5") and posts.tuned("json://h/x").endswith("?cto=5&rto=15")
    assert posts.tuned("matrix://u:p@h/#game") == "matrix://u:p@h/#game?cto=5&rto=15"  # Apprise's room, kept
    flush_game_posts(game, NOW + timedelta(minutes=2))
    assert len(receiver.wait_for(2)) == 2 and not posts.waiting_posts(game.directory.outbox)


def test_no_name_in_a_post_pings_a_whole_channel(make_game: Callable[..., Game]) -> None:
    game = resolved(make_game())
    settings = read_toml(game.directory.game_file)
    settings["player"][0]["name"] = "@everyone <!here> @Channel"
    game.directory.game_file.write_text(tomli_w.dumps(settings) + '[[notify]]\nname = "table"\n', encoding="utf-8")
    (report, _) = phase_posts(Game.load(game.directory.root))
    assert "everyone" in report.body and not re.search(r"(@|<!)(everyone|here|channel)\b", report.body, re.I)


def test_the_moderators_remind_posts_who_is_awaited_once_per_deadline(
    make_game: Callable[..., Game],
    receiver: Receiver,  # noqa: F811
) -> None:
    game = with_notify(make_game(), '[[notify]]\nname = "table"\n', {"table": hook(receiver.port)})
    commands.set_deadline(game.directory.root, "2027-03-05T18:00Z")
    commands.submit_text(game.directory.root, "power Rome\nno orders\n", None, vouch=True)
    said = commands.send_reminders(game.directory.root, dry_run=False).text
    assert said.endswith("1 post(s) sent")
    (posted,) = receiver.wait_for(1)
    assert posted.json()["message"] == ("Orders are due from Carthage, Greece, Babylon, Egypt by 2027-03-05 18:00 UTC.")
    assert commands.send_reminders(game.directory.root, dry_run=False).text.endswith("no post waits")
