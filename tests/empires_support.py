"""What the Empires tests share: the shipped board, read once, and the five-player opening."""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.resources import package_file
from adjudicator.rulesets.empires.board import Board, parse_board
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.empires.setup import new_position

FIVE = ("Rome", "Greece", "Babylon", "Egypt", "Carthage")


@functools.cache
def empires_board() -> Board:
    path = package_file("adjudicator.rulesets.empires", "boards/empires-2016.toml")
    with Path(path).open("rb") as handle:
        return parse_board(tomllib.load(handle))


def opening_position(empires: tuple[str, ...] = FIVE) -> Position:
    """The opening, its tiles drawn with ones: the same in every test."""
    position, _ = new_position(empires_board(), empires, ScriptedDice([1] * 60))
    return position
