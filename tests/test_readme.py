"""The README holds what works: its two commands, and every `adjudicator` command of its shell
blocks runs as written, in order, against a scratch folder (a refusal is one clear `error:`
line, never a usage error or an internal error)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game import default_board_path
from adjudicator.rulesets import find_ruleset
from adjudicator.storage import read_toml

README = Path(__file__).resolve().parents[1] / "README.md"
INSTALL_AND_DEMO = "python3 -m venv .venv && . .venv/bin/activate && pip install . && adjudicator demo"
INSTALL_AND_TEST = "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest"
STAYS_UP = "--watch"  # a command that runs until stopped is not run here (tests/test_hosting.py runs it)
runner = CliRunner()


def shell_lines() -> list[str]:
    """Every command line of the README's ```sh blocks, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [line.strip() for block in blocks for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_the_readme_holds_its_two_commands() -> None:
    lines = shell_lines()
    assert INSTALL_AND_DEMO in lines and INSTALL_AND_TEST in lines


def test_every_readme_command_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rome.txt").write_text("power Rome\noffer wine, tax\ntake commodity\n")
    Path("posts").mkdir()
    Path("posts/greece.txt").write_text("power Greece\noffer fish\n")
    shutil.copy(default_board_path(find_ruleset("mare-nostrum")), "my-corrected-board.toml")
    ran = 0
    for line in shell_lines():
        if not line.startswith("adjudicator ") or STAYS_UP in line:
            continue
        args = shlex.split(line, comments=True)[1:]
        result = runner.invoke(app, args)
        said = f"$ {line}\n{result.output}"
        if args[:2] == ["new", "games/spring-2027"]:  # Rome's mail carries his password, as the README says
            secret = read_toml(Path("games/spring-2027/secrets.toml"))["players"]["Rome"]
            Path("rome.txt").write_text(f"power Rome\npassword {secret}\noffer wine, tax\ntake commodity\n")
        assert result.exit_code in (0, 1), said
        assert "internal error" not in result.output, said
        if result.exit_code == 1:
            assert result.stderr.startswith("error:") or result.stdout.strip(), said
        ran += 1
    assert ran >= 25
    assert Path("games/spring-2027/game.toml").exists()
