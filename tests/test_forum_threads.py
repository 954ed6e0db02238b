"""Whole forum threads (issue 13, item 15): `collect --from` reads a saved BoardGameGeek thread
(XML API) or phpBB topic page (HTML), maps each post's author to a player by the `forum` name
in game.toml, takes each player's latest post with orders in the current phase, and names
every post it skipped and why. The saved threads are in tests/data/threads/."""

from __future__ import annotations

import os
import shutil
import tomllib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.commands import collect_mail
from adjudicator.game.game import Game
from adjudicator.intake.threads import ThreadError, parse_bgg_thread, parse_phpbb_topic

runner = CliRunner()
THREADS = Path(__file__).parent / "data" / "threads"
BGG = "bgg-t1-trade.xml"
PHPBB = "phpbb-t1-trade.html"
OPENED = datetime(2027, 3, 3, 12, 0, tzinfo=UTC)  # when T1 trade opened, in these tests
BGG_NAMES = {"Rome": "AnnaR", "Carthage": "bela_k", "Greece": "Chris P.", "Egypt": "DaliaE"}
PHPBB_NAMES = {"Rome": "anna rossi", "Carthage": "Bela"}


def with_forum_names(game: Game, names: dict[str, str], opened: datetime = OPENED) -> Game:
    """The game with `forum` names in its game.toml, and its phase opened at `opened`."""
    data = tomllib.loads(game.directory.game_file.read_text(encoding="utf-8"))
    for player in data["player"]:
        if player["civ"] in names:
            player["forum"] = names[player["civ"]]
    game.directory.game_file.write_text(tomli_w.dumps(data), encoding="utf-8")
    moment = opened.timestamp()
    os.utime(game.directory.history_file(game.slug), (moment, moment))
    return Game.load(game.directory.root)


def collect_threads(game: Game, tmp_path: Path, *names: str) -> str:
    folder = tmp_path / "saved"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(THREADS / name, folder / name)
    return collect_mail(game.directory.root, False, folder).text


def on_file(game: Game, civ: str) -> str:
    path = game.directory.orders / game.slug / f"{civ}.txt"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def report_line(report: str, start: str) -> str:
    lines = [line for line in report.splitlines() if line.startswith(start)]
    assert len(lines) == 1, f"one line starting {start!r} expected in:\n{report}"
    return lines[0]


# -- a BoardGameGeek thread ------------------------------------------------------------------


def test_bgg_thread_takes_each_players_latest_post_and_names_every_skipped_one(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = with_forum_names(make_game(), BGG_NAMES)
    report = collect_threads(game, tmp_path, BGG)
    post = f"{BGG} post"
    assert "skipped: not a player" in report_line(report, f"{post} 1 by Moderator:")
    assert "before T1 trade opened" in report_line(report, f"{post} 2 by AnnaR:"), "a post of an earlier phase"
    assert report_line(report, f"{post} 3 by AnnaR:").endswith("skipped: Rome posted orders again later (post 6)")
    assert report_line(report, f"{post} 4 by bela_k:").endswith("Carthage: 2 orders, 0 errors")
    assert report_line(report, f"{post} 5 by Chris P.:").endswith("Greece: 2 orders, 0 errors")
    assert report_line(report, f"{post} 6 by AnnaR:").endswith("Rome: 2 orders, 0 errors")
    assert report_line(report, f"{post} 7 by chris p.:").endswith("skipped: no orders in it"), "chatter never wins"
    assert "skipped: not a player" in report_line(report, f"{post} 8 by Lurker42:")
    mismatch = report_line(report, f"{post} 9 by DaliaE:")
    assert mismatch.endswith("skipped: it says 'power Babylon', but DaliaE plays Egypt")
    assert f"warning: {post} 9 by DaliaE was skipped" in report, "the moderator is told"
    rome = on_file(game, "Rome")
    assert "take any" in rome and "take gold" not in rome, rome
    provenance = tomllib.loads((game.directory.orders / game.slug / "Rome.toml").read_text(encoding="utf-8"))
    assert provenance["source"] == f"{BGG} post 6 (id 47000006) by AnnaR", "the orders say which post they came from"
    assert provenance["received"] == datetime(2027, 3, 3, 21, tzinfo=UTC), "received when posted"
    assert "take gold from Rome" in on_file(game, "Carthage") and "Here are mine" not in on_file(game, "Carthage")
    assert on_file(game, "Egypt") == "" and on_file(game, "Babylon") == ""
    assert len(list(game.directory.inbox.glob("*.eml"))) == 3, "each used post is kept raw"


def test_a_thread_collected_again_changes_nothing(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = with_forum_names(make_game(), BGG_NAMES)
    collect_threads(game, tmp_path, BGG)
    before = {civ: on_file(game, civ) for civ in BGG_NAMES}
    again = collect_threads(game, tmp_path, BGG)
    assert again.count("already collected (accepted)") == 3, again
    assert {civ: on_file(game, civ) for civ in BGG_NAMES} == before


def test_a_later_post_saved_with_the_thread_replaces_the_orders(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = with_forum_names(make_game(), BGG_NAMES)
    collect_threads(game, tmp_path, BGG)
    thread = (THREADS / BGG).read_text(encoding="utf-8")
    later = (
        '<article id="47000010" username="AnnaR" postdate="2027-03-04T09:00:00-06:00">'
        "<body>[b]offer tax[/b]\ntake gold from Greece</body></article>\n    </articles>"
    )
    (tmp_path / "saved" / BGG).write_text(thread.replace("</articles>", later), encoding="utf-8")
    report = collect_mail(game.directory.root, False, tmp_path / "saved").text
    assert report_line(report, f"{BGG} post 6 by AnnaR:").endswith("Rome posted orders again later (post 10)")
    assert report_line(report, f"{BGG} post 10 by AnnaR:").endswith("Rome: 2 orders, 0 errors")
    assert "take gold from Greece" in on_file(game, "Rome")


def test_posts_before_the_phase_opened_are_all_skipped(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = with_forum_names(make_game(), BGG_NAMES, opened=datetime(2027, 4, 1, tzinfo=UTC))
    report = collect_threads(game, tmp_path, BGG)
    assert report.count("before T1 trade opened") == 7, report
    assert all(on_file(game, civ) == "" for civ in BGG_NAMES)


# -- a phpBB topic page ----------------------------------------------------------------------


def test_phpbb_topic_page_is_read_post_by_post(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = with_forum_names(make_game(), PHPBB_NAMES)
    report = collect_threads(game, tmp_path, PHPBB)
    assert "skipped: not a player" in report_line(report, f"{PHPBB} post 1 by Moderator:")
    assert report_line(report, f"{PHPBB} post 2 by Anna Rossi:").endswith("Rome: 2 orders, 0 errors")
    assert report_line(report, f"{PHPBB} post 3 by Bela:").endswith("Carthage: 1 order, 1 error")
    assert report_line(report, f"{PHPBB} post 4 by Anna Rossi:").endswith("skipped: no orders in it")
    rome = on_file(game, "Rome")
    assert "take gold from Carthage" in rome and "YOUR-CIVILIZATION" not in rome and "Good luck" not in rome


def test_phpbb_html_parts() -> None:
    (post,) = parse_phpbb_topic(
        '<div class="post" id="p9"><a class="username-coloured">Mod</a><time datetime="2027-03-03T10:00:00">x</time>'
        '<div class="content"><blockquote><div><cite>Anna wrote:</cite>power Rome</div></blockquote>'
        "a<br>b <b>c</b><script>d</script><pre><code>e\nf</code></pre></div>"
        '<div class="signature">sig</div></div>'
    )
    assert (post.post_id, post.author, post.posted) == ("p9", "Mod", datetime(2027, 3, 3, 10, tzinfo=UTC))
    assert post.body == "a\nb c\n[code]e\nf[/code]\n"


def test_a_page_with_no_phpbb_post_is_named() -> None:
    with pytest.raises(ThreadError, match="no phpBB post in it"):
        parse_phpbb_topic("<html><body><p>Not found</p></body></html>")


# -- files that are not threads ----------------------------------------------------------------


def test_xml_with_a_doctype_is_refused_and_the_other_files_are_collected(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = with_forum_names(make_game(), BGG_NAMES)
    folder = tmp_path / "saved"
    folder.mkdir()
    bomb = '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><thread>&b;</thread>'
    (folder / "a-bomb.xml").write_text(bomb, encoding="utf-8")
    (folder / "b-forum.xml").write_text('<forum id="1"><threads/></forum>', encoding="utf-8")
    (folder / "c-broken.xml").write_text("<thread><articles>", encoding="utf-8")
    shutil.copy(THREADS / BGG, folder / BGG)
    result = runner.invoke(app, ["collect", str(game.directory.root), "--from", str(folder)])
    assert result.exit_code == 0, result.output
    assert "a-bomb.xml: not read:" in result.stdout and "has a DOCTYPE" in result.stdout
    assert "b-forum.xml: not read:" in result.stdout and "its top element is <forum>" in result.stdout
    assert "c-broken.xml: not read:" in result.stdout and "not well-formed XML" in result.stdout
    assert "Rome: 2 orders, 0 errors" in result.stdout


def test_bgg_body_as_bbcode_or_html() -> None:
    xml = (
        b'<thread><articles><article id="1" username="A" postdate="Mon, 03 Mar 2027 18:00:00 +0000">'
        b"<body>[b]power Rome[/b] &amp; co</body></article>"
        b'<article id="2" username="B"><body>x &amp;amp; y&lt;br/&gt;z</body></article></articles></thread>'
    )
    first, second = parse_bgg_thread(xml)
    assert first.body == "[b]power Rome[/b] & co" and first.posted == datetime(2027, 3, 3, 18, tzinfo=UTC)
    assert second.body == "x & y\nz\n" and second.posted is None


# -- a folder of games, and the forum names in game.toml ---------------------------------------


def test_a_thread_under_a_folder_of_games_goes_to_the_game_its_author_plays(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    make_game(name="alpha")
    beta = with_forum_names(make_game(name="beta"), {"Rome": "AnnaR"})
    folder = tmp_path / "saved"
    folder.mkdir()
    shutil.copy(THREADS / BGG, folder / BGG)
    report = collect_mail(tmp_path, False, folder).text
    assert report_line(report, f"{BGG} post 6 by AnnaR:").endswith("Rome: 2 orders, 0 errors")
    assert 'not a player: no [[player]] of any game here has forum = "bela_k"' in report
    assert "take any" in on_file(beta, "Rome")


def test_forum_names_round_trip_through_game_toml(make_game: Callable[..., Game]) -> None:
    game = with_forum_names(make_game(), {"Rome": "  Anna   Rossi "})
    rome = game.settings.player("Rome")
    assert rome is not None and rome.forum == "Anna Rossi" and rome.posts_as("anna rossi")
    assert game.settings.to_data()["player"][0]["forum"] == "Anna Rossi"
    assert "forum" not in game.settings.to_data()["player"][1], "no forum name, no key"


def test_two_players_with_one_forum_name_are_refused(make_game: Callable[..., Game]) -> None:
    game = make_game()
    with pytest.raises(Exception, match=r"player\[1\]\.forum\].*already the forum name of player\[0\]"):
        with_forum_names(game, {"Rome": "Anna", "Carthage": "ANNA"})


def test_a_thread_post_that_cannot_be_used_is_named_and_shown_by_status(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = with_forum_names(make_game(), BGG_NAMES)
    folder = tmp_path / "saved"
    folder.mkdir()
    thread = (
        (THREADS / BGG)
        .read_text(encoding="utf-8")
        .replace("take any[/c]</body>", "take any[/c]\nphase T2 build</body>")
    )
    (folder / BGG).write_text(thread, encoding="utf-8")
    report = collect_mail(game.directory.root, False, folder).text
    assert "these orders are for T2 build" in report_line(report, f"{BGG} post 6 by AnnaR: not used:")
    assert on_file(game, "Rome") == "", "the older post of the same player is not used in its stead"
    status = runner.invoke(app, ["status", str(game.directory.root)])
    assert status.exit_code == 0, status.output
    assert "rejected:" in status.stdout and "these orders are for T2 build" in status.stdout, status.stdout
