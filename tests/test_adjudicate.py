"""Adjudication through the CLI: the demo game, readiness, external dice, replay, rollback."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game

runner = CliRunner()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("demo") / "demo"
    result = runner.invoke(app, ["demo", str(target)])
    assert result.exit_code == 0, result.output
    return target


def _events(game_dir: Path) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for path in sorted((game_dir / "history").glob("*.toml")):
        events += tomllib.loads(path.read_text()).get("events", [])
    return events


def test_demo_plays_three_full_turns(demo: Path) -> None:
    state = Game.load(demo).phase_info
    assert (state.turn, state.phase) == (4, "trade"), "three full turns were played"
    assert len(list((demo / "reports").iterdir())) == 9
    kinds = {str(e["kind"]) for e in _events(demo)}
    for wanted in ("pick", "purchase", "exchange", "naval_battle", "land_battle", "sack", "occupy", "convert"):
        assert wanted in kinds, f"the demo shows no {wanted}"
    fortress_battles = [e for e in _events(demo) if e["kind"] == "land_battle" and e.get("defender_fortresses")]
    assert fortress_battles, "the demo has a land battle against a fortress"
    conversions = [e for e in _events(demo) if e["kind"] == "purchase" and "converted_from" in e]
    assert conversions, "the demo completes a conversion (R8.7)"


def test_demo_replays_identically_and_its_dice_verify(demo: Path) -> None:
    replayed = runner.invoke(app, ["replay", str(demo)])
    assert replayed.exit_code == 0 and "9 phase(s) replayed" in replayed.stdout, replayed.output
    verified = runner.invoke(app, ["verify-dice", str(demo)])
    assert verified.exit_code == 0 and "all match" in verified.stdout


def test_demo_reports_are_written_per_phase_and_player(demo: Path) -> None:
    folder = demo / "reports" / "006-T02-military"
    public = ["public.txt", "public.md", "public.bbcode", "public.html", "map.svg"]
    players = ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]
    private = [f"{civ}.txt" for civ in players] + [f"{civ}-orders.html" for civ in players]
    assert sorted(p.name for p in folder.iterdir()) == sorted(public), "reports/ holds the public pages only"
    assert sorted(p.name for p in (demo / "private" / "006-T02-military").iterdir()) == sorted(private)
    public = " ".join((folder / "public.txt").read_text().split())
    assert "Battle in Cyrenae" in public and "revealed now" in public and "(+1 a die for Hannibal)" in public


def test_replay_detects_a_tampered_history(demo: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "demo"
    shutil.copytree(demo, copy)
    path = next((copy / "history").glob("006-*.toml"))
    path.write_text(path.read_text().replace('kind = "convert"', 'kind = "occupy"', 1))
    result = runner.invoke(app, ["replay", str(copy)])
    assert result.exit_code == 1 and "006-T02-military.toml: the events differ" in result.stdout


def test_adjudicate_waits_for_missing_orders_unless_forced(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = str(game.directory.root)
    refused = runner.invoke(app, ["adjudicate", root])
    assert refused.exit_code == 1 and "have not submitted orders" in refused.stderr and "--force" in refused.stderr
    blind = runner.invoke(app, ["adjudicate", root, "--force"])
    assert blind.exit_code == 1 and "nobody has sent orders for T1 trade" in blind.stderr, blind.output
    assert "--all-defaults" in blind.stderr
    forced = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"])
    assert forced.exit_code == 0, forced.output
    again = runner.invoke(app, ["adjudicate", root, "--force"])  # issue 29: the same command typed twice
    assert again.exit_code == 1 and "nobody has sent orders for T1 build" in again.stderr, again.output
    assert "No orders from Rome, Carthage, Greece, Babylon, Egypt: default orders apply." in " ".join(
        forced.stdout.split()
    )
    assert Game.load(game.directory.root).phase_info.label == "T1 build"


def test_external_dice_are_used_and_too_few_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = str(game.directory.root)
    too_few = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults", "--dice", "1,1,1"])
    assert too_few.exit_code == 1 and "3 dice were given but the phase needs more" in too_few.stderr
    assert Game.load(game.directory.root).phase_info.label == "T1 trade", "a failed adjudication changes nothing"
    not_a_die = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults", "--dice", "1,7"])
    assert not_a_die.exit_code == 1 and "'7' is not a die" in not_a_die.stderr
    enough = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults", "--dice", ",".join(["1"] * 40)])
    assert enough.exit_code == 0, enough.output
    history = tomllib.loads(next(game.directory.history.glob("001-*.toml")).read_text())
    assert history["dice"]["source"] == "external" and len(history["dice"]["rolls"]) == 15
    assert "Rolled on an external dice server" in enough.stdout


def test_rollback_restores_a_phase_and_readjudication_gives_the_same_result(demo: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "demo"
    shutil.copytree(demo, copy)
    before = (copy / "history" / "006-T02-military.toml").read_text()
    rome = (copy / "private" / "006-T02-military" / "Rome.txt").read_text()
    opening_after = tomllib.loads((copy / "history" / "007-T03-trade.toml").read_text())["position"]
    result = runner.invoke(app, ["rollback", str(copy), "--to", "6"])
    assert result.exit_code == 0, result.output
    assert Game.load(copy).phase_info.label == "T2 military"
    assert not (copy / "history" / "007-T03-trade.toml").exists()
    assert any((copy / "rolled-back").rglob("007-T03-trade.toml")), "nothing is deleted"
    for folder in ("reports", "private"):  # the phase's own reports too: adjudicating it again writes them
        assert sorted(p.name for p in (copy / folder).iterdir())[-1] == "005-T02-build", folder
        assert any((copy / "rolled-back").glob(f"*/{folder}/009-T03-military")), folder
    (aside,) = (copy / "rolled-back").glob("*/private")
    assert aside.stat().st_mode & 0o777 == 0o700, "set aside, the hands stay the moderator's"
    again = runner.invoke(app, ["adjudicate", str(copy), "--force", "--all-defaults"])
    assert again.exit_code == 0, again.output
    assert (copy / "history" / "006-T02-military.toml").read_text() == before, "same dice, same result"
    assert (copy / "private" / "006-T02-military" / "Rome.txt").read_text() == rome
    assert tomllib.loads((copy / "history" / "007-T03-trade.toml").read_text())["position"] == opening_after


def test_rollback_refuses_a_phase_that_is_not_earlier(demo: Path) -> None:
    result = runner.invoke(app, ["rollback", str(demo), "--to", "42"])
    assert result.exit_code == 1 and "is not an earlier phase" in result.stderr


def test_a_finished_game_refuses_to_go_on(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    data = game.state_data()
    data["winner"] = "Rome"
    import json

    position = tmp_path / "won.json"
    for key in ("bank", "supply"):
        del data[key]
    for player in data["players"].values():
        del player["stock"]
    position.write_text(json.dumps({k: v for k, v in data.items() if v is not None}))
    from adjudicator.game.players import parse_player_spec
    from tests.conftest import FIVE, player_args

    won, _ = Game.create(tmp_path / "won", [parse_player_spec(p) for p in player_args(FIVE)], position_file=position)
    result = runner.invoke(app, ["adjudicate", str(won.directory.root), "--force", "--all-defaults"])
    assert result.exit_code == 1 and "the game is over: Rome won (R10)" in result.stderr


def test_advanced_setup_game_from_the_cli(tmp_path: Path) -> None:
    from tests.conftest import player_args

    args = ["new", str(tmp_path / "adv"), "--option", "setup=advanced"]
    for spec in player_args(["Rome", "Greece", "Egypt"]):
        args += ["--player", spec]
    created = runner.invoke(app, args)
    assert created.exit_code == 0 and "It opens at T1 setup" in created.stdout, created.output
    root = str(tmp_path / "adv")
    checked = runner.invoke(
        app, ["check", "--vouch", root, "-"], input="power Rome\nbuild influence in Roma with 3 tax\noffer wine\n"
    )
    assert checked.exit_code == 1
    assert (
        "R2.4: the setup is paid in points" in checked.stdout and "R2.4: the setup takes only build" in checked.stdout
    )
    orders = "power Rome\nbuild influence in Roma\nbuild influence in Tarentum\nbuild 5 legions in Roma\n"
    assert runner.invoke(app, ["submit", "--vouch", root, "-"], input=orders).exit_code == 0
    result = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"])
    assert result.exit_code == 0, result.output
    state = Game.load(tmp_path / "adv").state_data()
    assert (state["phase"], state["provinces"]["roma"]["legions"]) == ("trade", {"Rome": 5})
    assert state["players"]["Babylon"]["neutral"] and state["provinces"]["babylon"]["legions"] == {"Babylon": 1}


def test_bad_option_is_refused_with_the_choices(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", str(tmp_path / "x"), "--option", "setup=fancy", "--player", "Rome:r@x.org",
                                 "--player", "Egypt:e@x.org", "--player", "Greece:g@x.org"])  # fmt: skip
    assert result.exit_code == 1 and "option setup: 'fancy' is not allowed; use basic or advanced" in result.stderr
