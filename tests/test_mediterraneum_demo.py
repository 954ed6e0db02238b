"""The shipped Mare Mediterraneum demo (games/demo-mediterraneum): it plays through the CLI into
the start of the empire phase, tells the story its README promises, and keeps the State card out
of every public report."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.core.resources import shipped_folder

runner = CliRunner()
SOURCE = shipped_folder("games") / "demo-mediterraneum"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from adjudicator.cli import app

    folder = tmp_path_factory.mktemp("mm-demo") / "demo"
    result = runner.invoke(app, ["demo", str(folder), "--ruleset", "mediterraneum"])
    assert result.exit_code == 0 and "internal error" not in result.output, result.output
    return folder


def told(folder: Path) -> str:
    return "".join(
        (phase / "public.txt").read_text(encoding="utf-8") for phase in sorted((folder / "reports").iterdir())
    )


def test_every_phase_folder_is_one_turn_of_the_player_to_move(demo: Path) -> None:
    phases = sorted(p.name for p in (SOURCE / "phases").iterdir())
    assert len(phases) == 21 and phases[0] == "01-T01-green" and phases[-1] == "21-T07-blue"
    for phase in phases:
        colour = phase.rsplit("-", 1)[1]
        files = list((SOURCE / "phases" / phase).glob("*.txt"))
        assert [f.name for f in files] == [f"{colour}.txt"], phase
        text = files[0].read_text(encoding="utf-8")
        assert f"power {colour.capitalize()}\npassword {colour}-secret" in text, phase


def test_every_order_line_is_accepted_and_carried_out(demo: Path) -> None:
    receipts = "".join(p.read_text(encoding="utf-8") for p in (demo / "orders").glob("*/*.txt"))
    assert receipts, "the orders are on file"
    story = told(demo)
    assert "ERROR" not in story
    assert len(re.findall(r"is not carried out", story)) == 0, "every line of the demo works"


@pytest.mark.parametrize(
    "beat",
    [
        "new ship 1, bought for II MILIA, comes onto ATHENAE coast",
        "will buy grain at TYRUS for up to III (M4.6)",
        "sells grain at TYRUS to Blue, for III MILIA (M4.6)",
        "does not sell wood at Gaza: the black die shows 0",
        "sells olive oil at Antiochia",
        "founds an empire at ALEXANDRIA for X MILIA",
        "places the tax stone on R (M5.2)",
        "No tax for Blue: the stone stands on R",
        "moves the tax stone to I: a tax round (M5.2)",
        "rolls the black dice",
    ],
)
def test_the_demo_tells_its_story(demo: Path, beat: str) -> None:
    assert beat in " ".join(told(demo).split()), beat


def test_the_state_card_is_only_in_its_holder_s_report(demo: Path) -> None:
    from adjudicator.game.game import Game
    from adjudicator.rulesets.mediterraneum.board import Board

    game = Game.load(demo)
    board: Board = game.board
    card = game.position.players["Red"].state
    assert card is not None, "Red founded an empire"
    name = board.states[card].name
    assert name not in told(demo)
    last = sorted((demo / "private").iterdir())[-1]
    assert f"Your State card: {name}" in (last / "Red.txt").read_text(encoding="utf-8")
    assert "State card:" not in (last / "Blue.txt").read_text(encoding="utf-8")


def test_the_demo_stops_at_turn_8_with_green_to_move(demo: Path) -> None:
    from adjudicator.cli import app

    shown = runner.invoke(app, ["state", str(demo)]).output
    assert "turn 8, turn (Green to move)" in shown
    assert not (demo / "logs").exists(), "no internal error was logged"
