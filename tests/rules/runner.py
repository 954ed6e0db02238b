"""Runs one rule case (tests/rules/cases/*.toml): our DATC.

A case gives a position in the DESIGN.md shape (or `setup = true` for a new game), orders
per civilization, scripted dice, and what must follow: rejected order lines, events (each
expected event must match, in order, a later actual event on the keys it names) and
fragments of the resulting position.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from adjudicator.dice import ScriptedDice
from adjudicator.events import Event
from adjudicator.game import default_board_path, load_board
from adjudicator.orders import OrderParser, parse_submission
from adjudicator.rulesets import find_ruleset
from adjudicator.storage import without_none

CASES = Path(__file__).parent / "cases"
FIVE = ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]


@dataclass
class CaseResult:
    rejected: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    position: dict[str, Any] = field(default_factory=dict)
    dice_used: int = 0

    def trace(self) -> str:
        lines = [f"  rejected: {r}" for r in self.rejected]
        lines += [f"  {e}" for e in self.events]
        return "\n".join(lines)


def load_cases() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(CASES.glob("*.toml")):
        with path.open("rb") as handle:
            for case in tomllib.load(handle)["case"]:
                cases.append({**case, "file": path.name})
    return cases


@cache
def _engine() -> tuple[Any, Any, OrderParser[Any]]:
    ruleset = find_ruleset("mare-nostrum")
    board = load_board(ruleset, default_board_path(ruleset))
    return ruleset, board, OrderParser(ruleset.grammar, ruleset.transformer())


def run_case(case: Mapping[str, Any]) -> CaseResult:
    ruleset, board, parser = _engine()
    players = case.get("players", FIVE)
    dice = ScriptedDice(case.get("dice", []))
    result = CaseResult()
    options = ruleset.check_options(case.get("options", {}))
    events: list[Any] = []
    if case.get("setup"):
        position, events = ruleset.new_position(board, players, dice, options)
    else:
        position = ruleset.position_from_data(board, case.get("position", {}), players)
    if not case.get("setup") or "orders" in case:
        orders: dict[str, list[Any]] = {}
        for civ, text in case.get("orders", {}).items():
            submission = parse_submission(text, parser, ruleset.is_order)
            lines = ruleset.validate(board, position, civ, submission.lines)
            orders[civ] = [line.order for line in lines if line.ok]
            result.rejected += [
                {"civ": civ, "line": line.number, "message": line.problem.message} for line in lines if not line.ok
            ]
        position, resolved = ruleset.resolve(board, position, orders, dice, case.get("stepwise", False), options)
        events += resolved
    result.events = [without_none(Event.to_data(e)) for e in events]
    result.position = ruleset.position_to_data(position)
    result.dice_used = len(dice.rolls)
    return result


def matches(expected: Any, actual: Any) -> bool:
    """`expected` is found in `actual`: tables by their named keys, lists and values exactly."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    return bool(expected == actual)


def check_case(case: Mapping[str, Any], result: CaseResult) -> list[str]:
    """Every way the result falls short of the case's expectations."""
    problems: list[str] = []
    expect = case.get("expect", {})
    for wanted in expect.get("rejected", []):
        if not any(r["civ"] == wanted["civ"] and wanted["contains"] in r["message"] and
                   r["line"] == wanted.get("line", r["line"]) for r in result.rejected):  # fmt: skip
            problems.append(f"expected a rejection {wanted}")
    if "rejected" not in expect and result.rejected:
        problems.append(f"unexpected rejections {result.rejected}")
    position = 0
    for wanted in expect.get("events", []):
        found = next((i for i in range(position, len(result.events)) if matches(wanted, result.events[i])), None)
        if found is None:
            problems.append(f"expected event (in order) {wanted}")
        else:
            position = found + 1
    for wanted in expect.get("absent", []):
        if any(matches(wanted, e) for e in result.events):
            problems.append(f"event should not happen: {wanted}")
    if "position" in expect and not matches(expect["position"], result.position):
        problems.append("the position does not match expect.position")
    if "dice_used" in expect and expect["dice_used"] != result.dice_used:
        problems.append(f"{result.dice_used} dice used, expected {expect['dice_used']}")
    return problems
