"""What the Mare Mediterraneum tests share: the shipped board, read once, a seeded opening, and
one player's turn played from order text as a player would write it."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Sequence
from pathlib import Path

from adjudicator.core.dice import ChainDice, Dice
from adjudicator.core.events import Event
from adjudicator.core.resources import package_file
from adjudicator.language.parser import OrderParser
from adjudicator.language.submission import parse_submission
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mediterraneum.board import Board, parse_board
from adjudicator.rulesets.mediterraneum.engine import resolve_phase
from adjudicator.rulesets.mediterraneum.model import Options, Position
from adjudicator.rulesets.mediterraneum.orders import Order
from adjudicator.rulesets.mediterraneum.setup import new_position
from adjudicator.rulesets.mediterraneum.validate import validate_orders

THREE = ("Red", "Blue", "Green")


@functools.cache
def board() -> Board:
    path = package_file("adjudicator.rulesets.mediterraneum", "boards/mediterraneum-1989.toml")
    with Path(path).open("rb") as handle:
        return parse_board(tomllib.load(handle))


@functools.cache
def parser() -> OrderParser[Order]:
    return find_ruleset("mediterraneum").parser()


def chain(phase: int = 0) -> ChainDice:
    return ChainDice("mm-test", phase, bytes(32), root=bytes(32))


def opening(colours: tuple[str, ...] = THREE) -> tuple[Position, list[Event]]:
    return new_position(board(), colours, chain(), Options())


def orders(position: Position, colour: str, text: str) -> list[Order]:
    """The orders a player's text comes to; a refused line fails the test with its reason."""
    submission = parse_submission(text, parser())
    lines = validate_orders(board(), position, colour, submission.lines)
    problems = [f"{line.text}: {line.problem}" for line in lines if not line.ok]
    assert not problems, problems
    return [line.order for line in lines if line.order is not None]


def play(
    position: Position, text: str = "", dice: Dice | None = None, options: Options | None = None
) -> tuple[Position, list[Event]]:
    """The player to move's turn (or an auction) from his text; others send nothing."""
    given: dict[str, Sequence[Order]] = {position.step: orders(position, position.step, text)} if text else {}
    return resolve_phase(board(), position, given, dice or chain(position.count), options or Options())


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
