"""Shared fixtures: fresh games made through the real CLI code paths."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", default=False, help="rewrite the golden report files from the demo game"
    )
