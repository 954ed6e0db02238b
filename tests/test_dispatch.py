"""The quick way in (adjudicator/dispatch.py) and Typer read a command line alike.

Why: the quick reader exists only to skip Typer's start-up; a command line it reads otherwise
than Typer would be a promise of the help text broken. So every command line below is read both
ways: where the quick reader takes it, Typer must take it too and pass the command the same
values; where it does not, Typer has the last word anyway. The everyday lines must be quick.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from adjudicator import dispatch
from adjudicator.cli import CALLS, app
from adjudicator.dispatch import Call, parse, table_of
from adjudicator.outcome import Outcome

TABLE = table_of(typer.main.get_command(app), CALLS)
COMMANDS = TABLE["commands"]
# What the moderator types dozens of times a phase (issue 31): these must never need Typer.
EVERYDAY = [
    ["state", "g"],
    ["state", "g", "--json"],
    ["status", "g"],
    ["check", "g", "orders.txt"],
    ["check", "--vouch", "g", "-", "-p", "Rome"],
    ["submit", "g", "orders.txt", "--power=Egypt"],
    ["deadline", "g", "2099-01-01T18:00"],
    ["report", "g"],
    ["report", "g", "--phase", "6", "-f", "md", "--power", "Rome"],
    ["rollback", "g", "--to", "3"],
    ["board", "check", "--ruleset", "empires"],
]
WORDS = ["g", "x y", "5", "-5", "", "-", "orders.txt", "1.5", "Rome", "--", "-h", "--help", "--bogus", "-pRome"]


def typer_values(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any] | None]:
    """Typer's exit code for a command line, and the values it handed the command's call."""
    seen: list[dict[str, Any]] = []

    def record(_call: Call, values: Mapping[str, Any]) -> Outcome:
        seen.append(dict(values))
        return Outcome("")

    with monkeypatch.context() as patch:
        patch.setattr(Call, "__call__", record)
        result = CliRunner().invoke(app, argv)
    return result.exit_code, (seen[0] if seen else None)


@pytest.mark.parametrize("argv", EVERYDAY, ids=" ".join)
def test_the_everyday_lines_are_quick_and_read_as_typer_reads_them(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = next(p for p in (" ".join(argv[:2]), argv[0]) if p in COMMANDS)
    quick = parse(COMMANDS[path], argv[len(path.split()) :])
    assert quick is not None, f"{argv} would go through Typer"
    assert typer_values(argv, monkeypatch) == (0, quick)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A command's name and a shuffle of its arguments, its options with values and some junk."""
    path = draw(st.sampled_from(sorted(COMMANDS)))
    entry = COMMANDS[path]
    parts: list[list[str]] = [[draw(st.sampled_from(WORDS))] for _ in entry["arguments"]]
    for option in entry["options"]:
        if not draw(st.booleans()):
            continue
        flag = draw(st.sampled_from(option["flags"] + option["negations"]))
        if option["kind"] == "flag" or flag in option["negations"]:
            parts.append([flag])
        elif draw(st.booleans()):
            parts.append([f"{flag}={draw(st.sampled_from(WORDS))}"])
        else:
            parts.append([flag, draw(st.sampled_from(WORDS))])
    parts += [[w] for w in draw(st.lists(st.sampled_from(WORDS), max_size=2))]
    return [*path.split(), *[word for part in draw(st.permutations(parts)) for word in part]]


@settings(max_examples=400, deadline=None)
@given(argv=command_lines())
def test_any_line_the_quick_reader_takes_typer_takes_alike(argv: list[str]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        path = next(p for p in (" ".join(argv[:2]), argv[0]) if p in COMMANDS)
        quick = parse(COMMANDS[path], argv[len(path.split()) :])
        if quick is not None:
            assert typer_values(argv, monkeypatch) == (0, quick)


def test_every_command_but_three_is_in_the_table() -> None:
    """`new`, `adjudicate` and `run` are written out in cli.py (they hand their command more than
    its options); every other command names its call and so runs the quick way."""
    paths = {path for path, _ in dispatch._commands(typer.main.get_command(app), "")}
    assert set(COMMANDS) == paths - {"new", "adjudicate", "run"}


RUN = """
import json, sys
from adjudicator.__main__ import main
sys.argv = ["adjudicator", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as end:
    code = end.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def run_executable(args: list[str], cache: Path) -> tuple[int, str, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(args)],
        capture_output=True,
        text=True,
        env={"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin", "HOME": str(cache)},
        check=False,
    )
    result = json.loads(done.stderr.splitlines()[-1])
    return result["code"], done.stdout, set(result["modules"])


def test_the_executable_learns_the_table_once_then_runs_state_without_typer(tmp_path: Path, make_game: Any) -> None:
    game = make_game()
    cache = tmp_path / "cache"
    first = run_executable(["state", str(game.directory.root)], cache)
    second = run_executable(["state", str(game.directory.root)], cache)
    assert first[0] == second[0] == 0 and first[1] == second[1]
    assert "typer" in first[2] and "typer" not in second[2] and "rich" not in second[2]
    assert len(list((cache / "adjudicator" / "cli").iterdir())) == 1


def test_what_the_quick_reader_does_not_take_typer_explains(tmp_path: Path, make_game: Any) -> None:
    game = make_game()
    cache = tmp_path / "cache"
    run_executable(["status", str(game.directory.root)], cache)
    code, _, modules = run_executable(["rollback", str(game.directory.root), "--to", "three"], cache)
    assert code == 2 and "typer" in modules


def test_a_command_error_is_one_line_and_exit_1_either_way(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    missing = str(tmp_path / "nowhere")
    for _ in range(2):  # through Typer, then the quick way
        done = subprocess.run(
            [sys.executable, "-m", "adjudicator", "state", missing],
            capture_output=True,
            text=True,
            env={"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin", "HOME": str(cache)},
            check=False,
        )
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_a_table_of_another_shape_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    dispatch.remember(lambda: typer.main.get_command(app), CALLS)
    (kept,) = (tmp_path / "adjudicator" / "cli").iterdir()
    assert dispatch.run(["state", "nowhere-at-all", "--help"]) is None
    kept.write_text(json.dumps({**json.loads(kept.read_text()), "shape": 0}))
    assert dispatch.run(["state", "nowhere-at-all"]) is None
