"""Runs one rule case (tests/rules/cases/*.toml): our DATC.

A case gives a position, orders per civilization (order text, as players write it), scripted
dice, and what must follow: rejected order lines, events (each expected event must match, in
order, a later actual event on the keys it names), events that must not happen, fragments of the
resulting position, and how many dice were used.

Rulesets. A case file may say at its top `ruleset = "empires"`; a case may carry its own
`ruleset`; the default is `mare-nostrum` (the 2003 game). The runner loads that ruleset, its
shipped board and its order parser (once per ruleset). The players are the case's `players`,
else the ruleset's default: all five civilizations (2003: Rome, Carthage, Greece, Babylon,
Egypt; Empires: Rome, Greece, Babylon, Egypt, Carthage; Mare Mediterraneum: Red, Blue, Green).

Positions, in the ruleset's own file shape (2003: DESIGN.md; Empires: `position_to_data` in
adjudicator/rulesets/empires/position.py):

- `[case.position]` alone: a fragment, read with the ruleset's `position_from_data`, which
  fills what is missing with its defaults. For Empires every player gets an empty entry
  (no resources, no tiles) unless the fragment gives one, and nobody holds a title unless
  `titles` says so.
- `setup = true` alone: a new game (`new_position`); with `orders`, its first phase is then
  resolved. The new game is rolled with `setup_dice` if the case gives them, else with the
  case's `dice` if it gives them (the same dice then go on to the first phase, and count in
  `dice_used`), else with ones (the Empires track then shows the first five tiles by name).
- `setup = true` with `[case.position]` (Empires cases use this to start from the opening): the
  opening is made with `setup_dice` (default: ones, as the engine tests do; never `dice`), written out with
  `position_to_data`, and the case's position is merged over it: tables merge key by key down
  to one entry (a province, a sea, a player, a title), and each field the case gives for an
  entry replaces the opening's whole field (so `legions = { Rome = 2 }` leaves no other
  legions there); an empty string ("") removes the field, back to its default (`fortress = ""`).
  The result is read with `position_from_data` and the orders are resolved with `dice`. The
  opening's own events are not part of the case's events.

In `expect.position`, "" stands for an empty field (None: `conqueror = ""`).

A case with `xfail = "why"` records a known disagreement between the engine and the rules page:
the test is expected to fail (strictly: it errors when the engine starts to agree).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.events import Event
from adjudicator.core.i18n import decode
from adjudicator.game.game import default_board_path, load_board
from adjudicator.game.storage import without_none
from adjudicator.language.parser import OrderParser
from adjudicator.language.submission import parse_submission
from adjudicator.rulesets import find_ruleset

CASES = Path(__file__).parent / "cases"
DEFAULT_RULESET = "mare-nostrum"
FIVE = ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]
PLAYERS = {
    "mare-nostrum": FIVE,
    "empires": ["Rome", "Greece", "Babylon", "Egypt", "Carthage"],
    "mediterraneum": ["Red", "Blue", "Green"],
}
SETUP_DICE = [1] * 200  # the opening under a merged position: its tiles drawn with ones
# Mare Mediterraneum's opening rolls for the first player until one is highest (M2.4): ones would
# tie for ever, so its opening rolls 1, 2, 3, ... round (Red rolls 1, Blue 2, Green 3: Green starts).
SETUP_DICE_OF = {"mediterraneum": [1, 2, 3, 4, 5, 6] * 200}
ENTRY_DEPTH = 2  # tables merge down to root -> section -> entry; an entry's fields replace


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
    """Every case, with its file name and its ruleset (the case's, the file's, or the default)."""
    cases = []
    for path in sorted(CASES.glob("*.toml")):
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        ruleset = data.get("ruleset", DEFAULT_RULESET)
        for case in data["case"]:
            cases.append({"ruleset": ruleset, **case, "file": path.name})
    return cases


@cache
def _engine(name: str = DEFAULT_RULESET) -> tuple[Any, Any, OrderParser[Any]]:
    ruleset = find_ruleset(name)
    board = load_board(ruleset, default_board_path(ruleset))
    return ruleset, board, ruleset.parser()


def merged(base: Mapping[str, Any], over: Mapping[str, Any], depth: int = 0) -> dict[str, Any]:
    """`over` merged into `base` down to ENTRY_DEPTH; deeper values replace; "" removes."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and depth < ENTRY_DEPTH:
            out[key] = merged(out[key], value, depth + 1)
        elif value == "":
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _fragment(name: str, data: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
    """A fragment as the ruleset reads it: Empires needs an entry for every player."""
    if name == "empires":
        return merged({"players": {p: {} for p in players}}, data)
    return dict(data)


def run_case(case: Mapping[str, Any]) -> CaseResult:
    name = case.get("ruleset", DEFAULT_RULESET)
    ruleset, board, parser = _engine(name)
    players = case.get("players", PLAYERS[name])
    dice = ScriptedDice(case.get("dice", []))
    result = CaseResult()
    options = ruleset.check_options(case.get("options", {}))
    events: list[Any] = []
    from_opening = bool(case.get("setup")) and "position" in case
    setup_dice = ScriptedDice(case.get("setup_dice", SETUP_DICE_OF.get(name, SETUP_DICE)))
    if from_opening:
        opening, _ = ruleset.new_position(board, players, setup_dice, options)
        data = merged(without_none(ruleset.position_to_data(opening)), case["position"])
        position = ruleset.position_from_data(board, data, players)
    elif case.get("setup"):
        own = "dice" in case and "setup_dice" not in case
        position, events = ruleset.new_position(board, players, dice if own else setup_dice, options)
    else:
        position = ruleset.position_from_data(board, _fragment(name, case.get("position", {}), players), players)
    if not case.get("setup") or from_opening or "orders" in case:
        orders: dict[str, list[Any]] = {}
        for civ, text in case.get("orders", {}).items():
            submission = parse_submission(text, parser)
            lines = ruleset.validate(board, position, civ, submission.lines, options)
            orders[civ] = [line.order for line in lines if line.ok]
            result.rejected += [
                {"civ": civ, "line": line.number, "message": line.problem.message} for line in lines if not line.ok
            ]
        position, resolved = ruleset.resolve(board, position, orders, dice, case.get("stepwise", False), options)
        events += resolved
    result.events = [without_none(decode(Event.to_data(e))) for e in events]  # messages as their English
    result.position = ruleset.position_to_data(position)
    result.dice_used = len(dice.rolls)
    return result


def matches(expected: Any, actual: Any) -> bool:
    """`expected` is found in `actual`: tables by their named keys, lists and values exactly;
    "" (TOML has no null) also matches None, a field left empty."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    return bool(expected == actual or (expected == "" and actual is None))


def mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where `expected` is not found in `actual`, each with both values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return [
            m
            for k, v in expected.items()
            for m in (mismatches(v, actual[k], f"{path}.{k}") if k in actual else [f"{path}.{k}: missing"])
        ]
    return [] if matches(expected, actual) else [f"{path}: expected {expected!r}, found {actual!r}"]


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
        problems += [
            f"the position does not match expect.position at {m}"
            for m in mismatches(expect["position"], result.position)
        ]
    if "dice_used" in expect and expect["dice_used"] != result.dice_used:
        problems.append(f"{result.dice_used} dice used, expected {expect['dice_used']}")
    return problems
