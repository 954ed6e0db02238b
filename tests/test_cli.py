"""The moderator's CLI through CliRunner: exit codes, stdout, stderr, files written."""

from __future__ import annotations

import functools
import json
import operator
import os
import stat
import tomllib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from tests.conftest import FIVE, player_args

runner = CliRunner()

MIXED = """game test-game
power Rome
password rome-secret
offer wine, metal
take gold frm Egypt
offer wyne
take gold from Egyp
build legion in Roma
take commodity
"""


def invoke(*args: str, stdin: str | None = None) -> object:
    return runner.invoke(app, list(args), input=stdin)


@pytest.fixture
def game(make_game: Callable[..., Game]) -> Game:
    return make_game()


def test_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("new", "state", "status", "check", "submit", "board", "verify-dice", "demo"):
        assert command in result.stdout


def test_new_shows_secrets_once_and_stores_only_hashes(tmp_path: Path) -> None:
    args = [
        "new",
        str(tmp_path / "g1"),
        "--player",
        "Rome:r@x.org",
        "--player",
        "Egypt:e@x.org:egypt-pass",
        "--player",
        "Greece:g@x.org",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "egypt-pass" in result.stdout and "T1 trade" in result.stdout
    game_toml = (tmp_path / "g1" / "game.toml").read_text()
    assert "egypt-pass" not in game_toml and "scrypt$" in game_toml
    secrets_file = tmp_path / "g1" / "secrets.toml"
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
    assert tomllib.loads(secrets_file.read_text())["players"]["Egypt"] == "egypt-pass"
    for folder in ("history", "orders", "inbox", "reports"):
        assert (tmp_path / "g1" / folder).is_dir()


def test_new_refuses_an_existing_game(game: Game) -> None:
    result = runner.invoke(
        app,
        [
            "new",
            str(game.directory.root),
            *functools.reduce(operator.iadd, (["--player", p] for p in player_args(FIVE)), []),
        ],
    )
    assert result.exit_code == 1 and "already holds a game" in result.stderr


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("Rome", "is not CIV:EMAIL"),
        ("Rome:nobody", "not an address the judge can mail"),
        ("Rome:a@b.org:x y", "a secret is"),
    ],
)
def test_new_explains_bad_player_arguments(tmp_path: Path, spec: str, message: str) -> None:
    result = runner.invoke(
        app,
        [
            "new",
            str(tmp_path / "g"),
            "--player",
            spec,
            "--player",
            "Egypt:e@x.org",
            "--player",
            "Greece:g@x.org",
        ],
    )
    assert result.exit_code == 1 and message in result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


def test_state_plain_and_json(game: Game) -> None:
    plain = runner.invoke(app, ["state", str(game.directory.root)])
    assert plain.exit_code == 0 and "Commerce Director Carthage" in plain.stdout and "Athenae" in plain.stdout
    data = json.loads(runner.invoke(app, ["state", str(game.directory.root), "--json"]).stdout)
    assert set(data) >= {
        "game",
        "ruleset",
        "turn",
        "phase",
        "step",
        "winner",
        "roles",
        "players",
        "provinces",
        "seas",
        "bank",
        "dice",
    }
    assert set(data["players"]["Rome"]) == {"hand", "cards", "stock", "neutral"}
    assert set(data["provinces"]["roma"]) == {
        "influence",
        "cities",
        "caravans",
        "temple",
        "market",
        "legions",
        "fortresses",
        "port",
        "at_war",
        "occupied",
        "converting",
    }


def test_check_reports_every_bad_line_and_stores_nothing(game: Game, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text(MIXED)
    result = runner.invoke(app, ["check", "--vouch", str(game.directory.root), str(orders)])
    assert result.exit_code == 1
    out = result.stdout
    assert "   5  ERROR   take gold frm Egypt" in out
    assert "unknown card 'wyne'; did you mean 'wine'?" in out
    assert "unknown civilization 'Egyp'; did you mean 'Egypt'?" in out
    assert "R3: 'build' is a build-phase order" in out
    assert "   4  OK      offer wine, metal" in out and "   9  OK      take commodity" in out
    assert "2 orders accepted, 4 lines with errors." in out
    assert "rome-secret" not in out
    assert not any(game.directory.orders.iterdir()), "check stores nothing"


def test_check_good_file_exits_zero(game: Game, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("offer wine, metal\ntake gold\n")
    result = runner.invoke(app, ["check", "--vouch", str(game.directory.root), str(orders), "--power", "Romans"])
    assert result.exit_code == 0 and "2 orders accepted, 0 lines with errors." in result.stdout


@pytest.mark.parametrize(
    ("text", "power", "message"),
    [
        ("offer wine\n", None, "say whose orders these are"),
        ("power Egypt\noffer tax\n", "Rome", "make them agree"),
        ("game other-game\npower Rome\noffer wine\n", None, "for game 'other-game'"),
        ("phase T2 build\npower Rome\noffer wine\n", None, "the game is at T1 trade"),
    ],
)
def test_check_refuses_a_submission_for_someone_or_something_else(
    game: Game, tmp_path: Path, text: str, power: str | None, message: str
) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text(text)
    result = runner.invoke(
        app, ["check", "--vouch", str(game.directory.root), str(orders), *(["--power", power] if power else [])]
    )
    assert result.exit_code == 1 and message in result.stderr


def test_check_refuses_a_neutral_power(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game(("Rome", "Greece", "Egypt", "Carthage"))
    result = runner.invoke(
        app, ["check", "--vouch", str(game.directory.root), "-", "--power", "Babylon"], input="offer tax\n"
    )
    assert result.exit_code == 1 and "neutral in this game (R2.3)" in result.stderr


def test_submit_from_stdin_replaces_and_keeps_the_earlier_submission(game: Game) -> None:
    root = str(game.directory.root)
    first = runner.invoke(app, ["submit", "--vouch", root, "-"], input="power Rome\npassword rome-secret\noffer wine\n")
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, ["submit", "--vouch", root, "-", "--power", "Rome"], input="offer metal\ntake gold\n")
    assert second.exit_code == 0 and "Stored as orders/001-T01-trade/Rome.txt" in second.stdout
    folder = game.directory.orders / "001-T01-trade"
    assert (folder / "Rome.txt").read_text() == "offer metal\ntake gold\n", "stored line for line"
    meta = tomllib.loads((folder / "Rome.toml").read_text())
    assert meta["source"].startswith("moderator") and meta["accepted"] == 2 and meta["power"] == "Rome"
    earlier = sorted((folder / "superseded").iterdir())
    assert [p.suffix for p in earlier] == [".toml", ".txt"]
    assert "offer wine" in earlier[1].read_text() and "rome-secret" not in earlier[1].read_text()
    status = runner.invoke(app, ["status", root])
    assert status.exit_code == 0 and "Rome      submitted" in status.stdout and "Egypt     MISSING" in status.stdout
    assert "1 of 5 in." in status.stdout


def test_submit_with_errors_stores_and_exits_one(game: Game, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text(MIXED)
    result = runner.invoke(app, ["submit", "--vouch", str(game.directory.root), str(orders)])
    assert result.exit_code == 1 and "Stored as" in result.stdout
    stored = (game.directory.orders / "001-T01-trade" / "Rome.txt").read_text()
    assert "offer wyne" in stored, "nothing a player sends is dropped"
    assert "rome-secret" not in stored and "password ********" in stored


def test_status_shows_the_deadline(game: Game) -> None:
    root = str(game.directory.root)
    set_it = runner.invoke(app, ["deadline", root, "2099-01-01T18:00+01:00"])
    assert set_it.exit_code == 0 and "T1 trade is due 2099-01-01 17:00 UTC" in set_it.stdout
    result = runner.invoke(app, ["status", root])
    assert result.exit_code == 0 and "Deadline: 2099-01-01 17:00 UTC (in" in result.stdout
    bad = runner.invoke(app, ["deadline", root, "next tuesday"])
    assert bad.exit_code == 1 and "is not a date and time" in bad.stderr


def test_schedule_in_game_toml_sets_zone_grace_and_durations(game: Game) -> None:
    import tomli_w

    data = tomllib.loads(game.directory.game_file.read_text())
    data["schedule"] = {
        "timezone": "Europe/Warsaw",
        "grace": "2h",
        "deadline": datetime(2099, 1, 1, 17, tzinfo=UTC),
        "trade": "48h",
        "build": "2d",
        "military": "3d",
    }
    game.directory.game_file.write_text(tomli_w.dumps(data))
    result = runner.invoke(app, ["status", str(game.directory.root)])
    assert "Deadline: 2099-01-01 18:00 Europe/Warsaw" in result.stdout and "grace 2:00:00" in result.stdout
    assert runner.invoke(app, ["adjudicate", str(game.directory.root), "--force", "--all-defaults"]).exit_code == 0
    after = Game.load(game.directory.root)
    deadline = after.deadline()
    assert deadline is not None and 1.9 < (deadline - datetime.now(UTC)).total_seconds() / 86400 < 2.1, "build: 2d"
    data["schedule"]["timezone"] = "Mars/Olympus"
    game.directory.game_file.write_text(tomli_w.dumps(data))
    broken = runner.invoke(app, ["status", str(game.directory.root)])
    assert broken.exit_code == 1 and "[schedule.timezone]" in broken.stderr


def test_hand_edited_state_error_names_file_and_key(game: Game) -> None:
    state = game.directory.state_file
    state.write_text(
        state.read_text().replace("[provinces.roma.legions]", '[provinces.roma.legions]\nRome = "two"', 1)
        if "[provinces.roma.legions]" in state.read_text()
        else state.read_text() + '\n[provinces.roma.legions]\nRome = "two"\n'
    )
    result = runner.invoke(app, ["state", str(game.directory.root)])
    assert result.exit_code == 1
    assert "state.toml [provinces.roma.legions.Rome]: expected a whole number" in result.stderr


def test_hand_edited_hand_without_bank_update_is_caught(game: Game) -> None:
    state = game.directory.state_file
    text = state.read_text().replace("[players.Rome.hand]\n", "[players.Rome.hand]\ngold = 1\n", 1)
    state.write_text(text)
    result = runner.invoke(app, ["state", str(game.directory.root)])
    assert result.exit_code == 1 and "[bank.gold]" in result.stderr and "delete the key" in result.stderr


def test_broken_toml_names_the_file(game: Game) -> None:
    game.directory.game_file.write_text("[game\nid=")
    result = runner.invoke(app, ["status", str(game.directory.root)])
    assert result.exit_code == 1 and "game.toml: not valid TOML" in result.stderr


def test_not_a_game_directory(tmp_path: Path) -> None:
    result = runner.invoke(app, ["status", str(tmp_path)])
    assert result.exit_code == 1 and "is not a game directory" in result.stderr


def test_position_import_starts_exactly_there(tmp_path: Path, game: Game) -> None:
    data = game.state_data()
    data.update(turn=4, phase="military")
    data["dice"]["phase_number"] = 11
    data["provinces"]["sinai"] = {"influence": "Egypt", "legions": {"Egypt": 2}}
    del data["bank"], data["supply"]
    for player in data["players"].values():
        del player["stock"]
    position = tmp_path / "position.json"
    position.write_text(json.dumps(data))
    args = [
        "new",
        str(tmp_path / "g2"),
        "--position",
        str(position),
        *functools.reduce(operator.iadd, (["--player", p] for p in player_args(FIVE)), []),
    ]
    assert runner.invoke(app, args).exit_code == 0
    state = json.loads(runner.invoke(app, ["state", str(tmp_path / "g2"), "--json"]).stdout)
    assert (state["turn"], state["phase"], state["dice"]["phase_number"]) == (4, "military", 11)
    assert state["provinces"]["sinai"]["legions"] == {"Egypt": 2} and state["players"]["Egypt"]["stock"]["legion"] == 6
    assert state["players"]["Rome"]["hand"] == data["players"]["Rome"]["hand"], "no income on import"
    assert (tmp_path / "g2" / "history" / "011-T04-military.toml").exists()


def test_position_with_a_wrong_name_names_the_key(tmp_path: Path) -> None:
    position = tmp_path / "p.toml"
    position.write_text('phase = "build"\n[provinces.Sinia]\ninfluence = "Egypt"\n')
    args = [
        "new",
        str(tmp_path / "g"),
        "--position",
        str(position),
        *functools.reduce(operator.iadd, (["--player", p] for p in player_args(FIVE)), []),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and "[provinces.Sinia]" in result.stderr and "did you mean Sinai" in result.stderr


def test_state_round_trip_is_identical(game: Game) -> None:
    before = game.directory.state_file.read_bytes()
    reloaded = Game.load(game.directory.root)
    assert reloaded.state_data() == game.state_data()
    reloaded._open_phase()
    assert game.directory.state_file.read_bytes() == before


def test_lock_stops_a_second_writer(game: Game) -> None:
    from adjudicator.core.errors import GameLockedError
    from adjudicator.game.directory import game_lock

    with game_lock(game.directory), pytest.raises(GameLockedError, match="another adjudicator process"):
        with game_lock(game.directory, wait_seconds=0.1):
            pass


def test_atomic_write_leaves_no_temporary_files(tmp_path: Path) -> None:
    from adjudicator.game.storage import write_text_atomic

    target = tmp_path / "x.toml"
    write_text_atomic(target, "a = 1\n")
    write_text_atomic(target, "a = 2\n", mode=0o600)
    assert target.read_text() == "a = 2\n" and os.listdir(tmp_path) == ["x.toml"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_help_texts_print_bracketed_words_literally() -> None:
    """`[intake.imap]` is a table of game.toml, not markup: --help must show it as written."""
    result = runner.invoke(app, ["collect", "--help"])
    assert result.exit_code == 0 and "[intake.imap]" in result.output, result.output


def test_players_sharing_an_address_each_get_their_welcome(tmp_path: Path) -> None:
    """Two colours played from one family mailbox: each welcome (with its own secret) is queued,
    not the second taken for the first already sent."""
    result = runner.invoke(
        app,
        ["new", str(tmp_path / "g"), "--ruleset", "mediterraneum",
         "--player", "Red:home@example.org:red-secret", "--player", "Blue:home@example.org:blue-secret"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    welcomes = sorted((tmp_path / "g" / "outbox").glob("*.welcome.*.eml"))
    assert len(welcomes) == 2
    bodies = " ".join(p.read_text(encoding="utf-8") for p in welcomes)
    assert "red-secret" in bodies and "blue-secret" in bodies
