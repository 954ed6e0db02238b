"""Stepwise mode: build and military split into one step per player in the leader's sequence."""

from __future__ import annotations

from collections.abc import Callable

from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game

runner = CliRunner()


def test_stepwise_build_takes_one_step_per_player(make_game: Callable[..., Game]) -> None:
    game = make_game(mode="stepwise")
    root = str(game.directory.root)
    assert runner.invoke(app, ["submit", "--vouch", root, "-"], input="power Carthage\ntrade 0\n").exit_code == 0
    assert runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"]).exit_code == 0  # trade, all at once
    leader_first = runner.invoke(app, ["adjudicate", root])
    assert leader_first.exit_code == 1 and "Egypt has not submitted" in leader_first.stderr
    orders = "power Egypt\nsequence Rome, Egypt\nbuild legion in Alexandria\n"
    assert runner.invoke(app, ["submit", "--vouch", root, "-"], input=orders).exit_code == 0
    early = runner.invoke(app, ["submit", "--vouch", root, "-"], input="power Greece\nbuild legion in Athenae\n")
    assert early.exit_code == 0, early.output
    labels = []
    for _ in range(5):
        result = runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"])
        assert result.exit_code == 0, result.output
        labels.append(Game.load(game.directory.root).phase_info)
    assert [info.step for info in labels[:4]] == ["Egypt", "Carthage", "Greece", "Babylon"]
    assert labels[4].phase == "military" and labels[4].step is None
    history = sorted(p.name for p in game.directory.history.glob("*.toml"))
    assert [h for h in history if "build" in h] == [f"00{n}-T01-build.toml" for n in range(2, 7)]
    greece = Game.load(game.directory.root).state_data()["provinces"]["athenae"]["legions"]
    assert greece == {"Greece": 1}, "orders sent in an earlier step count at the player's own step"
    egypt = Game.load(game.directory.root).state_data()["provinces"]["alexandria"]["legions"]
    assert egypt == {"Egypt": 1}
    replayed = runner.invoke(app, ["replay", root])
    assert replayed.exit_code == 0 and "identical" in replayed.stdout, replayed.output
