"""Issue 12 through the command line: the options and setup choices a moderator gives at `new`.

The rules themselves are rule cases (tests/rules/cases/); these tests check that what the
moderator types reaches them and that a wrong choice is one clear line.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from tests.conftest import player_args

runner = CliRunner()


def _new(folder: Path, *options: str, civs: tuple[str, ...] = ("Rome", "Greece", "Egypt", "Carthage")) -> object:
    args = ["new", str(folder)]
    for spec in player_args(list(civs)):
        args += ["--player", spec]
    for option in options:
        args += ["--option", option]
    return runner.invoke(app, args)


def test_start_caravans_recorded_at_new_are_kept_in_game_toml_and_on_the_board(tmp_path: Path) -> None:
    result = _new(tmp_path / "g", "start_caravan=Rome:ravenna=wine", "start_caravan=Greece:Athènes=wine")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    options = tomllib.loads((tmp_path / "g" / "game.toml").read_text())["options"]
    assert options["start_caravan"] == ["Rome:ravenna=wine", "Greece:Athènes=wine"]
    provinces = Game.load(tmp_path / "g").state_data()["provinces"]
    assert (provinces["ravenna"]["caravans"], provinces["athenae"]["caravans"]) == (["wine"], ["wine"])


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ("Egypt:alexandria=fish", "Egypt's start caravan in Alexandria can stand on papyrus only (D23)"),
        ("Rome:sinai=wine", "Rome has no start caravan in Sinai (R2.1)"),
        ("Rome:ravenna=gold", "Rome's start caravan in Ravenna can stand on livestock or wine only (D23)"),
        ("Rome ravenna wine", "is not CIV:PROVINCE=ICON, e.g. Rome:ravenna=wine"),
    ],
)
def test_a_start_caravan_choice_the_aids_do_not_allow_is_one_clear_error(
    tmp_path: Path, choice: str, message: str
) -> None:
    result = _new(tmp_path / "g", f"start_caravan={choice}")
    assert result.exit_code == 1 and message in result.stderr, result.output  # type: ignore[attr-defined]
    assert not (tmp_path / "g" / "game.toml").exists(), "nothing is created"


def test_finite_bank_false_is_an_option_of_new_and_of_game_toml(tmp_path: Path) -> None:
    result = _new(tmp_path / "g", "finite_bank=false")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert Game.load(tmp_path / "g").settings.options["finite_bank"] == "false"
    path = tmp_path / "g" / "game.toml"
    path.write_text(path.read_text().replace('finite_bank = "false"', "finite_bank = false"))
    assert Game.load(tmp_path / "g").settings.options["finite_bank"] == "false", "a TOML boolean works too"
    wrong = _new(tmp_path / "h", "finite_bank=maybe")
    assert wrong.exit_code == 1 and "'maybe' is not allowed; use true or false" in wrong.stderr  # type: ignore[attr-defined]


def test_a_hand_edited_at_war_that_contradicts_the_units_is_named_with_its_key(tmp_path: Path) -> None:
    assert _new(tmp_path / "g").exit_code == 0  # type: ignore[attr-defined]
    state = tmp_path / "g" / "state.toml"
    text = state.read_text()
    state.write_text(text.replace("[provinces.roma]", "[provinces.roma]\nat_war = true", 1))
    result = runner.invoke(app, ["state", str(tmp_path / "g")])
    assert result.exit_code == 1
    assert "[provinces.roma.at_war]: says true, but only Rome's units stand there (R8.4" in result.stderr
    assert "correct it or delete the key" in result.stderr
