"""Shared fixtures: fresh games made through the real CLI code paths."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from tests.chromium import Chromium
from tests.matrix_server import matrix_server  # noqa: F401  # one Synapse for the session, whichever module asks

FIVE = ("Rome", "Carthage", "Greece", "Babylon", "Egypt")


def player_args(civs: tuple[str, ...] | list[str]) -> list[str]:
    return [f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret" for civ in civs]


@pytest.fixture
def make_game(tmp_path: Path) -> Callable[..., Game]:
    """A new game in a temporary folder, for the given civilizations (default: all five)."""

    def make(civs: tuple[str, ...] = FIVE, name: str = "test-game", **options: object) -> Game:
        specs = [parse_player_spec(p) for p in player_args(civs)]
        game, _ = Game.create(tmp_path / name, specs, **options)  # type: ignore[arg-type]
        return game

    return make


@pytest.fixture(scope="session")
def demo_played(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """A ruleset's demo game played in a language, once a session however many tests read it (a
    demo takes about 4 s): the folder, to read only; copy it to change it."""
    from adjudicator.commands import demo

    played: dict[tuple[str, str], Path] = {}

    def play(ruleset: str = "mare-nostrum", lang: str = "en") -> Path:
        if (ruleset, lang) not in played:
            folder = tmp_path_factory.mktemp(f"demo-{ruleset}-{lang}") / "demo"
            demo(folder, ruleset, lang)
            played[ruleset, lang] = folder
        return played[ruleset, lang]

    return play


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", default=False, help="rewrite the golden report files from the demo game"
    )


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    """Debian's headless Chromium for a module's tests (tests/chromium.py), or the tests skipped."""
    if shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    with Chromium(tmp_path_factory.mktemp("chromium") / "profile") as chromium:
        yield chromium
