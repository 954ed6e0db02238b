"""The Empires demo game (games/demo-empires, issue 16): three rounds of orders which, played in
order with the demo's public dice, bring land and naval battles, conquests with each of their
choices, a tile bought from the face-up track and titles changing hands in Claims.

The game is played here without the ruleset registry, as `adjudicator demo` plays the 2003 demo:
the setup with the dice of phase 0, then every phase folder in order, each player's file parsed,
checked for his empire and resolved in batch mode with that phase's dice."""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from adjudicator.core.dice import ChainDice, seed_for
from adjudicator.core.events import Event
from adjudicator.core.resources import shipped_folder
from adjudicator.game.players import parse_player_spec
from adjudicator.language.parser import OrderParser
from adjudicator.language.submission import OrderLine, parse_submission
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.empires.engine import resolve_phase
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import Order
from adjudicator.rulesets.empires.setup import new_position
from adjudicator.rulesets.empires.validate import validate_orders
from tests.empires_support import FIVE, empires_board

DEMO = shipped_folder("games") / "demo-empires"
FOLDER = re.compile(r"(\d{2})-R(\d{2})-(trade|purchase|military)")
ORDER_FILE = re.compile(r"\d+-([a-z]+)\.txt")
SKIPPED = ("purchase_skipped", "order_skipped")


@dataclass(frozen=True)
class Submitted:
    """One player's file for one phase: its header and each line as validation left it."""

    path: str
    empire: str
    game: str | None
    power: str | None
    password: str | None
    lines: tuple[OrderLine[Order], ...]


@dataclass(frozen=True)
class Played:
    folder: str
    number: int
    before: Position
    files: tuple[Submitted, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Demo:
    game_id: str
    secrets: dict[str, str | None]
    setup: tuple[Event, ...]
    phases: tuple[Played, ...]
    final: Position

    def events(self) -> Iterator[tuple[Played, Event]]:
        for phase in self.phases:
            for happened in phase.events:
                yield phase, happened

    def story(self) -> str:
        """Each phase's events, for a failure message."""
        return "\n".join(
            f"{phase.folder}: " + "; ".join(f"{e.kind} {dict(e.data)}" for e in phase.events if e.kind not in DULL)
            for phase in self.phases
        )


DULL = {"pick", "turn_of", "turn_end", "produce", "phase_start", "round_start", "military_order", "purchase_order"}


def play() -> Demo:
    board = empires_board()
    spec = tomllib.loads((DEMO / "demo.toml").read_text(encoding="utf-8"))["game"]
    players = [parse_player_spec(text) for text in spec["players"]]
    empires = {p.civ.lower(): p.civ for p in players}
    game_id, root = spec["id"], hashlib.sha256(spec["dice_seed"].encode()).digest()
    position, setup = new_position(board, [p.civ for p in players], ChainDice(game_id, 0, seed_for(root, 0)))
    parser: OrderParser[Order] = find_ruleset("empires").parser()
    phases = []
    folders = sorted(p for p in (DEMO / "phases").iterdir() if p.is_dir())
    for number, folder in enumerate(folders, start=1):
        files, orders = [], {}
        for path in sorted(folder.glob("*.txt")):
            named = ORDER_FILE.fullmatch(path.name)
            assert named and named.group(1) in empires, f"{folder.name}/{path.name}: name it <n>-<empire>.txt"
            empire = empires[named.group(1)]
            submission = parse_submission(path.read_text(encoding="utf-8"), parser)
            lines = validate_orders(board, position, empire, list(submission.lines))
            lines += submission.header_problems
            files.append(
                Submitted(
                    f"{folder.name}/{path.name}",
                    empire,
                    submission.game,
                    submission.power,
                    submission.password,
                    tuple(lines),
                )
            )
            orders[empire] = [line.order for line in lines if line.ok and line.order is not None]
        dice = ChainDice(game_id, number, seed_for(root, number))
        after, events = resolve_phase(board, position, orders, dice, stepwise=False)
        phases.append(Played(folder.name, number, position, tuple(files), tuple(events)))
        position = after
    secrets = {p.civ: p.secret for p in players}
    return Demo(game_id, secrets, tuple(setup), tuple(phases), position)


@pytest.fixture(scope="module")
def demo() -> Demo:
    return play()


def test_the_demo_has_five_players_and_three_rounds_of_phase_folders(demo: Demo) -> None:
    assert demo.game_id == "demo-empires"
    assert sorted(demo.secrets) == sorted(FIVE)
    assert len(demo.phases) == 9, [p.folder for p in demo.phases]
    for phase in demo.phases:
        named = FOLDER.fullmatch(phase.folder)
        assert named, f"{phase.folder}: name it NN-RNN-<trade|purchase|military>"
        number, round_number, kind = int(named.group(1)), int(named.group(2)), named.group(3)
        assert number == phase.number, f"{phase.folder} is phase {phase.number} of the game"
        assert (round_number, kind) == (phase.before.round, str(phase.before.phase)), (
            f"{phase.folder} is played at round {phase.before.round}, {phase.before.phase}"
        )


def test_every_file_is_signed_by_its_player(demo: Demo) -> None:
    for phase in demo.phases:
        for submitted in phase.files:
            assert submitted.game == demo.game_id, f"{submitted.path}: game {submitted.game}"
            assert submitted.power == submitted.empire, f"{submitted.path}: power {submitted.power}"
            assert submitted.password == demo.secrets[submitted.empire], f"{submitted.path}: wrong password"
            assert submitted.lines, f"{submitted.path} holds no order"


def test_every_order_line_is_accepted(demo: Demo) -> None:
    problems = [
        f"{submitted.path} line {line.number} '{line.text}': {line.problem.message}"
        for phase in demo.phases
        for submitted in phase.files
        for line in submitted.lines
        if line.problem is not None
    ]
    assert problems == [], "\n".join(problems)


def test_no_order_is_skipped_when_its_turn_comes(demo: Demo) -> None:
    skipped = [f"{phase.folder}: {e.kind} {dict(e.data)}" for phase, e in demo.events() if e.kind in SKIPPED]
    assert skipped == [], "\n".join(skipped)


def test_a_tile_face_up_on_the_track_is_bought(demo: Demo) -> None:
    board = empires_board()
    bought = [(phase, e) for phase, e in demo.events() if e.kind == "purchase" and e.data["item"] in board.tiles]
    assert bought, f"the demo no longer buys a hero or wonder; its events:\n{demo.story()}"
    for phase, e in bought:
        assert e.data["item"] in phase.before.track, (
            f"{phase.folder}: {e.data['player']} bought {e.data['item']}, not face up ({', '.join(phase.before.track)})"
        )


def _kind(kind: str, **data: Any) -> Callable[[Event], bool]:
    return lambda e: e.kind == kind and all(e.data.get(k) == v for k, v in data.items())


def _title_changes(e: Event) -> bool:
    return e.kind == "title" and e.data["previous"] not in (None, e.data["player"])


BEATS: dict[str, Callable[[Event], bool]] = {
    "a land battle": _kind("battle", at="land"),
    "a naval battle": _kind("battle", at="sea"),
    "a conquest": _kind("conquest"),
    "a conquest sacked": _kind("sack"),
    "a conquest occupied": _kind("occupy"),
    "a conquest being converted": _kind("converting"),
    "a title changing hands in Claims": _title_changes,
}


@pytest.mark.parametrize("beat", list(BEATS))
def test_the_demo_plays_its_story(demo: Demo, beat: str) -> None:
    assert any(BEATS[beat](e) for _, e in demo.events()), f"the demo no longer has {beat}; its events:\n{demo.story()}"


def test_each_conquest_is_followed_by_the_conqueror_s_choice(demo: Demo) -> None:
    for phase in demo.phases:
        events = list(phase.events)
        for index, e in enumerate(events):
            if e.kind != "conquest":
                continue
            choice = events[index + 1] if index + 1 < len(events) else None
            assert choice is not None and choice.kind in ("sack", "occupy", "converting", "converted"), (
                f"{phase.folder}: {e.data['player']} conquered {e.data['place']} and then {choice}"
            )
            assert choice.data["place"] == e.data["place"]


def test_the_demo_stops_at_round_4_trade_without_a_winner(demo: Demo) -> None:
    assert (demo.final.round, demo.final.phase, demo.final.winner) == (4, Phase.TRADE, None), demo.story()
