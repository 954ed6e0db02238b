"""A command imports only what it uses: the guard of issue 31's start-up times, as a property.

Why: the moderator types `state`, `status` and `check` dozens of times a phase, and almost all
their time was imports (the engine, the order language, Jinja, pydantic) that they did not
need. Timings belong in bench/run.py; this test fails on the import that brings the cost back,
naming it, whatever the machine's speed. Each command runs in a fresh interpreter, so that
nothing another test imported hides what the command pulls in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.game.game import Game
from adjudicator.rulesets import REGISTRY, Later

# What no command below needs: the order language's parser generator, plural rules and dates
# in other languages, the PNG renderer, the mail client and server protocols, and pydantic
# (which Typer 0.29 imports to coerce every parameter; pyproject.toml keeps Typer below it).
NEVER = ("babel", "resvg_py", "imapclient", "smtplib", "pydantic")
# A ruleset's modules that resolve, check or show orders: a command that only reads a position
# imports none of them (the declaration names them `later`).
RULES_AT_WORK = ("engine", "validate", "transformer", "candidates", "presentation", "standings", "orders")

RUN = """
import json, sys
from typer.testing import CliRunner
from adjudicator.cli import app
result = CliRunner().invoke(app, json.loads(sys.argv[1]))
print(json.dumps({"code": result.exit_code, "output": result.output, "modules": sorted(sys.modules)}))
"""


def imported_by(*args: str) -> set[str]:
    """The modules a fresh interpreter holds after running `adjudicator ARGS` in-process."""
    done = subprocess.run([sys.executable, "-c", RUN, json.dumps(args)], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    assert result["code"] == 0, result["output"]
    return set(result["modules"])


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.fixture
def game(make_game: Callable[..., Game]) -> Game:
    return make_game()


def test_help_imports_no_game_code() -> None:
    modules = imported_by("--help")
    assert not loaded(modules, (*NEVER, "jinja2", "lark", "email", "adjudicator.game.game", "adjudicator.rulesets"))


@pytest.mark.parametrize("command", ["state", "status"])
def test_reading_a_position_imports_neither_rules_nor_order_language(game: Game, command: str) -> None:
    modules = imported_by(command, str(game.directory.root))
    assert not loaded(modules, (*NEVER, "lark", "email.parser", "adjudicator.intake.receive"))
    working = tuple(f"adjudicator.rulesets.mare_nostrum.{part}" for part in RULES_AT_WORK)
    assert not loaded(modules, working)
    assert not loaded(modules, ("adjudicator.rulesets.empires", "adjudicator.rulesets.mediterraneum"))


def test_check_imports_no_mail_or_pictures(game: Game, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("power: Rome\npassword: rome-secret\noffer wine, metal\ntake gold\n", encoding="utf-8")
    modules = imported_by("check", str(game.directory.root), str(orders))
    assert not loaded(modules, (*NEVER, "email.parser", "adjudicator.reports.maps", "adjudicator.reports.picture"))


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_later_part_names_a_function_that_exists(name: str) -> None:
    """A declaration's `later` parts are strings until called: a misspelt one must fail here."""
    ruleset = REGISTRY[name]
    parts = [getattr(part, field) for part in (ruleset.engine, ruleset.codec, ruleset.view) for field in part.__slots__]
    later = [part for part in parts if isinstance(part, Later)]
    assert later, "a declaration names its heavy parts later"
    for part in later:
        assert callable(part.resolve()), part


def test_report_prints_what_was_written_and_makes_it_only_when_it_is_gone(game: Game) -> None:
    """`report` shows the page the players were sent, read from reports/ (no template, no
    engine); a page that is gone is made again, the same."""
    from adjudicator.hosting.adjudication import adjudicate

    adjudicate(game, force=True)
    slug = sorted(game.directory.history.glob("001-*.toml"))[0].stem
    page = game.directory.reports_folder(slug) / "public.txt"
    written = page.read_text(encoding="utf-8")
    modules = imported_by("report", str(game.directory.root))
    assert not loaded(
        modules, ("jinja2", "lark", "adjudicator.reports.maps", "adjudicator.rulesets.mare_nostrum.engine")
    )
    page.unlink()
    again = subprocess.run(
        [sys.executable, "-m", "adjudicator", "report", str(game.directory.root)], capture_output=True, text=True
    )
    assert again.returncode == 0 and again.stdout.rstrip("\n") == written.rstrip("\n")


def test_deadline_of_a_game_without_a_site_imports_no_report_makers(game: Game) -> None:
    modules = imported_by("deadline", str(game.directory.root), "2099-01-01T18:00")
    assert not loaded(
        modules, (*NEVER, "jinja2", "lark", "adjudicator.reports", "adjudicator.rulesets.mare_nostrum.engine")
    )
