"""Issue 27, items 8 to 10: what a player entrusts to the judge stays his.

A crash log holds no secret and only its owner reads it; every file with a player's orders or
private report is the owner's only (the public reports stay readable: they are published, and
issue 29 keeps them apart: reports/ holds public pages only, private/ each player's own);
game.toml's one-line texts hold no control character, and no report gives a reader's terminal
an escape code or a bell, whatever its source.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core import crashlog
from adjudicator.core.errors import GameFileError, UsageError
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.game.storage import file_lock, read_toml
from adjudicator.reports.phase import PhaseReports, load_record
from adjudicator.reports.render import Renderer
from tests.conftest import FIVE, player_args

runner = CliRunner()
ESCAPES = "\x1b[31m"  # red, in any terminal that shows the file
BELL = "\x07"


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@contextmanager
def umask(value: int) -> Iterator[None]:
    earlier = os.umask(value)
    try:
        yield
    finally:
        os.umask(earlier)


@pytest.fixture
def own_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log that falls back to the temporary folder lands in this test's, never in /tmp."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    return tmp_path / "tmp"


# ---- 8. crash logs ------------------------------------------------------------------------


def test_a_crash_in_new_logs_no_player_secret_and_only_its_owner_reads_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_temporary_folder: Path
) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    arguments = [
        "new",
        str(folder),
        "--player",
        "Rome:rome@example.org:Rome-s3cret-1:Anna",
        "--player=Carthage:carthage@example.org:Carthage-s3cret-2",
        "--player",
        "Greece:greece@example.org",
    ]

    def crash(*args: object, **kwargs: object) -> None:  # an error whose message quotes what it was given
        raise RuntimeError("could not make Rome:rome@example.org:Rome-s3cret-1:Anna\npassword Carthage-s3cret-2")

    monkeypatch.setattr(Game, "create", crash)
    monkeypatch.setattr("sys.argv", ["adjudicator", *arguments])
    with umask(0o000):  # whatever the moderator's umask, the log is not for others
        result = runner.invoke(app, arguments)
    assert result.exit_code == 3, result.output
    logs = list((folder / "logs").iterdir())
    assert len(logs) == 1
    text = logs[0].read_text(encoding="utf-8")
    assert "Rome-s3cret-1" not in text and "Carthage-s3cret-2" not in text
    assert "--player Rome:rome@example.org:********:Anna" in text
    assert "--player=Carthage:carthage@example.org:********" in text
    assert "--player Greece:greece@example.org" in text, "nothing else of the command line is touched"
    assert "RuntimeError" in text and "Traceback" in text, "the log still tells what broke"
    assert mode_of(logs[0]) == 0o600 and mode_of(folder / "logs") == 0o700


def test_a_crash_log_masks_password_lines_in_the_traceback(tmp_path: Path) -> None:
    error = ValueError("a bad mail:\npower Rome\npassword hunter22\noffer wine")
    log = crashlog.write_crash_log(tmp_path, error, ["adjudicator", "collect", str(tmp_path)])
    text = log.read_text(encoding="utf-8")
    assert "hunter22" not in text and "password ********" in text


def test_a_crash_log_is_never_readable_by_others_even_in_an_old_logs_folder(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir(mode=0o755)
    (tmp_path / "logs").chmod(0o755)  # as an older version made it
    with umask(0o000):
        log = crashlog.write_crash_log(tmp_path, RuntimeError("boom"), ["adjudicator"])
    assert log.parent == tmp_path / "logs"
    assert mode_of(log) == 0o600 and mode_of(tmp_path / "logs") == 0o700


def test_a_crash_log_falls_back_to_a_private_temporary_folder(own_temporary_folder: Path) -> None:
    log = crashlog.write_crash_log(None, RuntimeError("boom"), ["adjudicator", "--player", "Rome:r@example.org:abcdef"])
    assert log.parent == own_temporary_folder / "adjudicator-logs"
    assert mode_of(log) == 0o600 and mode_of(log.parent) == 0o700
    assert "abcdef" not in log.read_text(encoding="utf-8")


def test_two_crashes_in_one_second_keep_two_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Frozen(datetime):
        @classmethod
        def now(cls, tz: object = None) -> Frozen:
            return cls(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    monkeypatch.setattr(crashlog, "datetime", Frozen)
    first = crashlog.write_crash_log(tmp_path, RuntimeError("first"), ["adjudicator"])
    second = crashlog.write_crash_log(tmp_path, RuntimeError("second"), ["adjudicator"])
    assert first != second and first.parent == second.parent == tmp_path / "logs"
    assert "first" in first.read_text() and "second" in second.read_text()


# ---- 10. files holding player data: the owner's only -----------------------------------------


def test_stored_orders_and_private_reports_are_the_owners_only(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = str(game.directory.root)
    for orders in ("power Rome\npassword rome-secret\noffer wine\n", "power Rome\noffer metal\n"):
        runner.invoke(app, ["submit", "--vouch", root, "-"], input=orders)  # the second supersedes the first
    runner.invoke(app, ["submit", "--vouch", root, "-"], input="power Greece\noffer tax\n")
    result = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"])
    assert result.exit_code == 0, result.output
    orders = game.directory.orders
    stored = [path for path in orders.rglob("*") if path.is_file()]
    assert {"Rome.txt", "Rome.toml", "Greece.txt", "receipts.toml"} <= {p.name for p in stored}
    assert any(p.parent.name == "superseded" for p in stored)
    assert {p.relative_to(orders).as_posix(): oct(mode_of(p)) for p in stored} == {
        p.relative_to(orders).as_posix(): oct(0o600) for p in stored
    }
    assert mode_of(orders) == 0o700
    private = [game.directory.private_report("001-T01-trade", civ) for civ in FIVE]
    assert {p.name: oct(mode_of(p)) for p in private} == {p.name: oct(0o600) for p in private}
    assert mode_of(game.directory.private) == mode_of(private[0].parent) == 0o700
    public = list((game.directory.reports / "001-T01-trade").iterdir())
    assert len(public) >= 5 and all(mode_of(p) & 0o044 == 0o044 for p in public), "published: readable by all"
    assert mode_of(game.directory.secrets_file) == 0o600
    hands = [game.directory.state_file, game.directory.game_file, *game.directory.root.glob("history/*.toml")]
    assert len(hands) >= 4 and {p.name: oct(mode_of(p)) for p in hands} == {p.name: oct(0o600) for p in hands}


def test_the_inbox_keeps_its_records_of_posts_and_mails_for_the_owner_only(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    """Issue 29: inbox/<key>.toml said who wrote and why a mail failed, readable by all (644)."""
    game = make_game()
    posts = tmp_path / "posts"
    posts.mkdir()
    (posts / "rome.txt").write_text("power Rome\noffer wine\n")
    (posts / "greece.txt").write_text("power Greece\npassword wrong-one\noffer tax\n")
    result = runner.invoke(app, ["collect", str(game.directory.root), "--from", str(posts)])
    assert "rome.txt: Rome: 1 order, 0 errors" in result.output, result.output
    assert "greece.txt: not used: the password for Greece is wrong" in result.output, result.output
    kept = sorted(game.directory.inbox.iterdir())
    assert len(kept) == 4 and {p.name: oct(mode_of(p)) for p in kept} == {p.name: oct(0o600) for p in kept}


# ---- issue 29, item 2: reports/ is the folder to publish, private/ is not -------------------------

PUBLIC_PAGES = {"public.txt", "public.md", "public.bbcode", "public.html", "map.svg", "map.png"}
PRIVATE_WORDS = ("private report for", "Your hand now:", "Password: ********", "# Orders for")


def _adjudicated(game: Game) -> str:
    """The game after its first phase, with Rome's orders (and password) in his report."""
    root = str(game.directory.root)
    orders = "power Rome\npassword rome-secret\noffer wine, tax\ntake commodity\n"
    assert runner.invoke(app, ["submit", root, "-"], input=orders).exit_code == 0
    result = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"])
    assert result.exit_code == 0, result.output
    return "001-T01-trade"


def test_reports_holds_public_pages_only_and_private_reports_are_where_the_readme_says(
    make_game: Callable[..., Game],
) -> None:
    game = make_game(map_url="https://example.org/g")  # published: map.png is drawn too
    slug = _adjudicated(game)
    published = [p for p in game.directory.reports.rglob("*") if p.is_file()]
    assert {p.name for p in published} == PUBLIC_PAGES, "every file of reports/ is a public page"
    for page in published:
        text = page.read_bytes().decode("utf-8", errors="replace")
        shown = [words for words in PRIVATE_WORDS if words in text]
        assert not shown, f"{page.relative_to(game.directory.root)} holds a player's own report: {shown}"
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "`private/NNN-T01-trade/<Civ>.txt`" in readme and "`reports/` holds these public pages only" in readme
    for civ in FIVE:
        path = game.directory.root / "private" / slug / f"{civ}.txt"
        assert path == game.directory.private_report(slug, civ)
        text = path.read_text(encoding="utf-8")
        assert f"private report for {civ}" in text and "Your hand now:" in text, civ
        shown = runner.invoke(app, ["report", str(game.directory.root), "--power", civ])
        assert shown.exit_code == 0 and shown.stdout == text, f"report --power {civ} is the file"
    assert "offer wine, tax" in game.directory.private_report(slug, "Rome").read_text(encoding="utf-8")


def _as_an_earlier_version_left_it(game: Game, slug: str) -> None:
    """Its private reports back in reports/<slug>/, readable by all, and no private/ folder."""
    for path in sorted(game.directory.private_folder(slug).iterdir()):
        path.replace(game.directory.reports / slug / path.name)
        (game.directory.reports / slug / path.name).chmod(0o644)
    game.directory.private_folder(slug).rmdir()
    game.directory.private.rmdir()


def test_an_older_game_s_private_reports_leave_reports_on_the_first_command(
    make_game: Callable[..., Game],
) -> None:
    game = make_game()
    slug = _adjudicated(game)
    written = {civ: game.directory.private_report(slug, civ).read_text(encoding="utf-8") for civ in FIVE}
    _as_an_earlier_version_left_it(game, slug)
    status = runner.invoke(app, ["status", str(game.directory.root)])
    assert status.exit_code == 0, status.output
    assert {p.name for p in (game.directory.reports / slug).iterdir()} == PUBLIC_PAGES - {"map.png"}
    assert {civ: game.directory.private_report(slug, civ).read_text(encoding="utf-8") for civ in FIVE} == written
    moved = [game.directory.private_report(slug, civ) for civ in FIVE]
    assert {p.name: oct(mode_of(p)) for p in moved} == {p.name: oct(0o600) for p in moved}
    assert mode_of(game.directory.private) == mode_of(game.directory.private_folder(slug)) == 0o700
    rome = runner.invoke(app, ["report", str(game.directory.root), "--power", "Rome"])
    assert rome.exit_code == 0 and rome.stdout == written["Rome"]
    again = runner.invoke(app, ["adjudicate", str(game.directory.root), "--force", "--all-defaults"])
    assert again.exit_code == 0, again.output
    assert sorted(p.name for p in game.directory.private.iterdir()) == [slug, "002-T01-build"]


def test_an_older_game_is_put_right_by_a_later_command_when_its_lock_is_busy(
    make_game: Callable[..., Game],
) -> None:
    game = make_game()
    slug = _adjudicated(game)
    _as_an_earlier_version_left_it(game, slug)
    with file_lock(game.directory.lock_file) as mine:  # another command is working on the game
        assert mine
        Game.load(game.directory.root)
        assert (game.directory.reports / slug / "Rome.txt").exists(), "nothing moves under another's lock"
    Game.load(game.directory.root)
    assert not (game.directory.reports / slug / "Rome.txt").exists()
    kept = game.directory.private_report(slug, "Rome").read_text(encoding="utf-8")
    (game.directory.reports / slug / "Rome.txt").write_text("an older copy", encoding="utf-8")
    Game.load(game.directory.root)
    assert not (game.directory.reports / slug / "Rome.txt").exists(), "an older copy goes too"
    assert game.directory.private_report(slug, "Rome").read_text(encoding="utf-8") == kept, "the one in private/ wins"


def test_an_older_game_without_a_private_folder_adjudicates_and_rolls_back(
    make_game: Callable[..., Game],
) -> None:
    game = make_game()
    game.directory.private.rmdir()  # made before private/ existed
    slug = _adjudicated(game)
    assert mode_of(game.directory.private) == 0o700 and game.directory.private_report(slug, "Rome").exists()
    shutil.rmtree(game.directory.private)  # as if its reports had never been made
    rolled = runner.invoke(app, ["rollback", str(game.directory.root), "--to", "1"])
    assert rolled.exit_code == 0, rolled.output
    assert not any(game.directory.reports.iterdir()) and not game.directory.private.exists()


# ---- 9. game.toml: one-line texts ---------------------------------------------------------------


@pytest.mark.parametrize("key", ["map_url", "rules_url"])
@pytest.mark.parametrize("bad", ["https://example.org/g\n# Moderator: send me your password", f"{ESCAPES}x", "a\rb"])
def test_a_one_line_text_of_game_toml_with_a_control_character_is_refused(
    make_game: Callable[..., Game], key: str, bad: str
) -> None:
    game = make_game()
    data = read_toml(game.directory.game_file)
    data["game"][key] = bad
    game.directory.game_file.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(GameFileError, match=rf"game\.toml \[game\.{key}\]: holds .*\(U\+00[01][0-9A-F]\); write it"):
        Game.load(game.directory.root)


def test_new_refuses_a_map_url_with_a_line_break(tmp_path: Path) -> None:
    specs = [parse_player_spec(p) for p in player_args(FIVE)]
    with pytest.raises(UsageError, match=r"the map URL holds a line break \(U\+000A\)"):
        Game.create(tmp_path / "g", specs, map_url="https://example.org/\n[b]Moderator[/b]")
    assert not (tmp_path / "g" / "game.toml").exists()


def test_a_player_name_with_a_line_break_in_game_toml_is_refused(make_game: Callable[..., Game]) -> None:
    game = make_game()
    data = read_toml(game.directory.game_file)
    data["player"][0]["name"] = "Anna\n## Moderator: send me your password"
    game.directory.game_file.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(GameFileError, match=r"game\.toml \[player\[0\]\.name\]: holds a line break"):
        Game.load(game.directory.root)


# ---- 10. no escape code in any report ----------------------------------------------------------


def test_no_report_passes_on_an_escape_code_or_a_bell(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = str(game.directory.root)
    orders = f"power Carthage\noffer tax\n{ESCAPES}offer wine{BELL}\n"
    submitted = runner.invoke(app, ["submit", "--vouch", root, "-"], input=orders)
    assert "[31moffer wine" in submitted.output and ESCAPES not in submitted.output and BELL not in submitted.output
    assert ESCAPES in (game.directory.orders / "001-T01-trade" / "Carthage.txt").read_text(), "kept as sent"
    assert runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"]).exit_code == 0
    game = Game.load(game.directory.root)
    # A name from any source (game.toml refuses one; a forum or an older file may not have)
    named = tuple(replace(p, name=f"{ESCAPES}Anna{BELL}\x9b2J\x7f") for p in game.settings.players)
    game.settings = replace(game.settings, players=named)
    pages = PhaseReports(game, load_record(game, "001-T01-trade")).pages()
    assert "Anna" in pages["public.txt"] and "[31mAnna" in pages["public.txt"], "the text stays, its codes go"
    assert "offer wine" in pages["Carthage.txt"]
    for name, page in pages.items():
        found = sorted({c for c in page if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F})
        assert not found, f"{name} holds {found}"


def test_the_command_line_prints_no_escape_code_from_a_player(make_game: Callable[..., Game]) -> None:
    game = make_game()
    refused = runner.invoke(
        app,
        ["submit", "--vouch", str(game.directory.root), "-"],
        input=f"power Carthage\noffer wine\nofer tax\n{ESCAPES}offer{BELL}\n",
    )
    assert refused.exit_code == 1 and "[31moffer" in refused.output and "'ofer' is not an order" in refused.output
    assert ESCAPES not in refused.output and BELL not in refused.output


def test_the_renderer_drops_control_characters_but_keeps_lines_tabs_and_markup() -> None:
    environment = Renderer("mare-nostrum").environment
    value = f"a{ESCAPES}b{BELL}c\r\x00\x9bd\ne\tf"
    plain = environment.from_string("{% autoescape false %}{{ v }}|{{ v | bbcode }}{% endautoescape %}")
    assert plain.render(v=value) == "a[31mbcd\ne\tf|a［31mbcd\ne\tf"
    escaped = environment.from_string("{{ v }}|{{ n }}|{{ m }}")
    assert escaped.render(v=f"<b>{ESCAPES}</b>", n=7, m=None) == "&lt;b&gt;[31m&lt;/b&gt;|7|None"
