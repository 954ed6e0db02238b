"""Order validation against the position: one message per line, citing its rule.

Cases are data: (id, position tweak, power, order line, expected message part or None for OK).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from adjudicator.game.directory import GameDirectory
from adjudicator.game.game import Game, default_board_path, load_board
from adjudicator.game.players import Player, parse_player_spec
from adjudicator.game.settings import Settings
from adjudicator.game.submissions import check_submission
from adjudicator.rulesets import find_ruleset
from tests.conftest import FIVE, player_args

Tweak = Callable[[dict[str, Any]], None]


def at_phase(phase: str) -> Tweak:
    def tweak(state: dict[str, Any]) -> None:
        state["phase"] = phase

    return tweak


def combine(*tweaks: Tweak) -> Tweak:
    def tweak(state: dict[str, Any]) -> None:
        for t in tweaks:
            t(state)

    return tweak


def put(province: str, key: str, value: Any) -> Tweak:
    def tweak(state: dict[str, Any]) -> None:
        state["provinces"].setdefault(province, {})[key] = value

    return tweak


def sea(sea_id: str, triremes: dict[str, int]) -> Tweak:
    def tweak(state: dict[str, Any]) -> None:
        state["seas"][sea_id] = {"triremes": triremes}

    return tweak


def owns(civ: str, card: str) -> Tweak:
    def tweak(state: dict[str, Any]) -> None:
        state["players"][civ]["cards"].append(card)

    return tweak


def holds(civ: str, **hand: int) -> Tweak:
    """`civ` holds these cards and the others none, so the bank never runs short (R1)."""

    def tweak(state: dict[str, Any]) -> None:
        for other in state["players"].values():
            other["hand"] = {}
        state["players"][civ]["hand"] = hand

    return tweak


TRADE = at_phase("trade")
BUILD = at_phase("build")
# a purse that pays for anything the line asks: for the cases about where and what, not how (R6.1)
RICH_ROME = combine(BUILD, holds("Rome", tax=30))
MILITARY = combine(at_phase("military"), put("roma", "legions", {"Rome": 2}))
ROMAN_FLEET = combine(MILITARY, sea("mare-tyrrhenum", {"Rome": 1}), sea("mare-sardoum", {"Rome": 1}))

CASES: list[tuple[str, Tweak, str, str, str | None]] = [
    # R3: orders belong to a phase
    ("V-R3-01", TRADE, "Rome", "build legion in Roma", "R3: 'build' is a build-phase order"),
    ("V-R3-02", BUILD, "Rome", "offer wine", "R3: 'offer' is a trade-phase order"),
    (
        "V-R3.3-01",
        TRADE,
        "Egypt",
        "sequence Egypt, Rome",
        "R3.3: 'sequence' orders the build or military phase",
    ),
    ("V-R3.3-02", BUILD, "Rome", "sequence Rome, Egypt", "R3.3: only the Political Leader (Egypt)"),
    ("V-R3.3-03", BUILD, "Egypt", "sequence Egypt, Rome, Egypt", "named twice"),
    ("V-R3.3-04", BUILD, "Egypt", "sequence Egypt, Rome, Greece, Babylon, Carthage", None),
    ("V-R3.3-05", MILITARY, "Rome", "sequence Rome, Egypt", None),
    ("V-R3.3-06", MILITARY, "Egypt", "sequence Egypt", "R3.3: only the Military Leader (Rome)"),
    # R5 trade
    ("V-R5.1-01", TRADE, "Rome", "trade 3", "R5.1: only the Commerce Director (Carthage)"),
    ("V-R5.1-02", TRADE, "Carthage", "trade 6", "R5.1: the trade size is at most the 5 cards"),
    ("V-R5.1-03", TRADE, "Carthage", "trade 5", None),
    ("V-R5.2-01", TRADE, "Rome", "offer wine, wine", "R5.2: you name 2 wine but hold 1"),
    ("V-R5.2-02", TRADE, "Rome", "offer gems", "R5.2: you name 1 gems but hold 0"),
    ("V-R5.2-03", TRADE, "Rome", "offer Colossus", "is a hero or wonder card"),
    ("V-R5.2-04", TRADE, "Rome", "offer wyne", "unknown card 'wyne'; did you mean 'wine'?"),
    ("V-R5.2-05", TRADE, "Rome", "offer 0 tax", "names no card"),
    ("V-R5.2-06", TRADE, "Rome", "offer wine, metal, tax", None),
    ("V-R5.3-01", TRADE, "Rome", "take gold from Rome", "R5.3: you cannot name yourself"),
    ("V-R5.3-02", TRADE, "Rome", "take gold from Egypt", None),
    ("V-R5.3-03", TRADE, "Rome", "take commodity", None),
    ("V-R5.3-04", TRADE, "Rome", "take gold from Gaul", "unknown civilization 'Gaul'"),
    ("V-R5.5-01", TRADE, "Rome", "give wine", "R5.5: only the Commerce Director"),
    ("V-R5.5-02", TRADE, "Carthage", "give fruit", None),
    ("V-R5.6-01", TRADE, "Rome", "ulysses Egypt", "R5.6: this order needs Ulysses"),
    ("V-R5.6-02", combine(TRADE, owns("Rome", "Ulysses")), "Rome", "ulysses Egypt", None),
    # R6 build
    ("V-R6.1-01", BUILD, "Rome", "build legion in Roma with 3 gold", "R6.1: you name 3 gold but hold 0"),
    ("V-R6.1-02", BUILD, "Rome", "build 2 legions in Roma with 3 tax", "R6.1: one set pays for one item"),
    ("V-R6.3-01", BUILD, "Rome", "build legion in Athenae", "R6.3: you have no influence in Athenae"),
    (
        "V-R6.3-02",
        combine(BUILD, put("ravenna", "legions", {"Rome": 1, "Carthage": 1}), put("ravenna", "at_war", True)),
        "Rome",
        "build legion in Ravenna",
        "R6.3: Carthage's units stand in Ravenna; nobody builds under another player's units",
    ),
    (
        "V-R6.3-03",
        combine(BUILD, put("roma", "legions", {"Rome": 1, "Carthage": 1}), put("roma", "at_war", True)),
        "Rome",
        "build legion in Roma",
        None,
    ),
    (
        "V-R6.3-04",
        combine(
            BUILD,
            put("tarentum", "occupied", {"caravan:oil": "Carthage"}),
            put("tarentum", "legions", {"Carthage": 1}),
        ),
        "Rome",
        "build fortress in Tarentum",
        "R6.3: Carthage's units stand in Tarentum; nobody builds under another player's units",
    ),
    ("V-R6.4-01", BUILD, "Egypt", "build influence in Sinai", None),
    ("V-R6.4-02", BUILD, "Egypt", "build influence in Petra", "R6.4: influence in Petra must border"),
    ("V-R6.4-03", BUILD, "Egypt", "build influence in Carthago", "R6.4: Carthago holds Carthage's influence"),
    (
        "V-R6.4-04",
        BUILD,
        "Egypt",
        "build influence in Alexandria",
        "you already have influence in Alexandria",
    ),
    (
        "V-R6.4-05",
        combine(BUILD, sea("mare-aegyptium", {"Egypt": 1})),
        "Egypt",
        "build influence in Salamis",
        None,
    ),
    ("V-R6.4-06", BUILD, "Egypt", "build influence in Salamis", "R6.4: influence in Salamis must border"),
    ("V-R6.4-07", combine(BUILD, owns("Egypt", "Lighthouse")), "Egypt", "build influence in Corsica", None),
    ("V-R6.4-08", BUILD, "Egypt", "build influence in Mare Ionium", "Mare Ionium is a sea; name a province"),
    (
        "V-R6.4-09",
        BUILD,
        "Egypt",
        "build influence in Sinia",
        "unknown province 'Sinia'; did you mean 'Sinai'?",
    ),
    (
        "V-R8.7-01",
        combine(BUILD, put("cyrenae", "converting", "Carthage"), put("cyrenae", "legions", {"Carthage": 1})),
        "Carthage",
        "build influence in Cyrenae",
        None,
    ),
    (
        "V-R6.5-01",
        BUILD,
        "Egypt",
        "build city in Alexandria at Memphis",
        "R6.5: the city site Memphis already has a city",
    ),
    ("V-R6.5-02", BUILD, "Rome", "build caravan on gold in Roma", "R6.5: Roma has no gold icon"),
    (
        "V-R6.5-03",
        BUILD,
        "Rome",
        "build caravan on wine in Roma",
        "R6.5: the wine icon in Roma already has a caravan",
    ),
    ("V-R6.5-04", BUILD, "Babylon", "build trireme in Babylon", "R6.5: Babylon has no coast"),
    ("V-R6.5-05", BUILD, "Rome", "build caravan in Ravenna", None),
    ("V-R6.5-06", BUILD, "Greece", "build caravan in Pella", "name the icon"),
    ("V-R6.5-07", BUILD, "Rome", "build city at Memphis", "R6.3: you have no influence in Alexandria"),
    ("V-R6.5-08", BUILD, "Rome", "build city in Ravenna at Ravenna", None),
    ("V-R6.5-10", BUILD, "Rome", "build city in Roma", "R6.5: Roma has 0 free city site(s)"),
    ("V-R6.5-11", BUILD, "Greece", "build 2 cities in Pella", "R6.5: Pella has 1 free city site(s)"),
    (
        "V-R6.5-09",
        BUILD,
        "Rome",
        "build city in Ravenna at Rome",
        "unknown city site 'Rome' in Ravenna (sites: Ravenna)",
    ),
    ("V-R6.6-01", BUILD, "Rome", "buy Hannibal", "R6.6: Hannibal is Carthage's civilization hero"),
    ("V-R6.6-02", BUILD, "Rome", "buy Caesar", "R6.6: you already own Julius Caesar"),
    (
        "V-R6.6-03",
        combine(BUILD, owns("Egypt", "Colossus")),
        "Rome",
        "buy Colossus",
        "R6.6: Colossus already belongs to Egypt",
    ),
    ("V-R6.6-04", BUILD, "Rome", "buy Colossus with 3 tax", "R6.1: you name 3 tax but hold 1"),
    ("V-R6.6-05", RICH_ROME, "Rome", "buy Pharos", None),
    ("V-R6.6-06", BUILD, "Rome", "buy Colosus", "unknown hero or wonder 'Colosus'; did you mean 'Colossus'?"),
    ("V-R6.7-01", BUILD, "Rome", "exchange wine for tax", "R6.7: this order needs Cleopatra"),
    ("V-R6.7-02", BUILD, "Egypt", "exchange papyrus for tax", None),
    (
        "V-R6.7-03",
        BUILD,
        "Egypt",
        "exchange papyrus for grain",
        "R6.7: Cleopatra swaps one commodity for one tax",
    ),
    ("V-R6.8-01", BUILD, "Rome", "keep 3 tax", "R6.8: you keep at most 2 tax cards"),
    ("V-R6.8-02", BUILD, "Rome", "keep wine", "R6.8: unused commodities are discarded"),
    ("V-R6.8-03", combine(BUILD, owns("Rome", "Hanging Gardens")), "Rome", "keep 2 tax, wine", None),
    # R7, R8 military
    (
        "V-R7.3-01",
        MILITARY,
        "Rome",
        "move 3 legions from Roma to Ravenna",
        "R7.3: you have 2 legion(s) in Roma",
    ),
    (
        "V-R7.3-02",
        MILITARY,
        "Rome",
        "move legion from Ravenna to Roma",
        "R7.3: you have 0 legion(s) in Ravenna",
    ),
    ("V-R7.3-03", MILITARY, "Rome", "move 2 legions from Roma to Ravenna", None),
    ("V-R7.3-04", MILITARY, "Rome", "move legion from Roma to Babylon", "Babylon does not border Roma"),
    (
        "V-R7.3-05",
        ROMAN_FLEET,
        "Rome",
        "move legion from Roma to Carthago via Mare Tyrrhenum, Mare Sardoum",
        None,
    ),
    (
        "V-R7.3-06",
        MILITARY,
        "Rome",
        "move legion from Roma to Carthago via Mare Ionium",
        "the route must start on a sea of Roma and end on a sea of Carthago",
    ),
    (
        "V-R8.7-02",
        ROMAN_FLEET,
        "Rome",
        "move legion from Roma to Carthago then convert",
        "R8.7: Carthago is Carthage's capital",
    ),
    (
        "V-R7.2-01",
        MILITARY,
        "Rome",
        "sail trireme from Mare Ionium to Mare Aegaeum",
        "R7.2: you have 0 trireme(s) in Mare Ionium",
    ),
    (
        "V-R7.2-02",
        combine(MILITARY, sea("mare-ionium", {"Rome": 1})),
        "Rome",
        "sail trireme from Mare Ionium to Mare Aegaeum",
        None,
    ),
    (
        "V-R7.2-03",
        combine(MILITARY, sea("mare-ionium", {"Rome": 1})),
        "Rome",
        "sail trireme from Mare Ionium to Pontus Euxinus",
        "R7.2: Pontus Euxinus is not next to Mare Ionium",
    ),
    (
        "V-R7.2-04",
        combine(MILITARY, put("roma", "port", {"Rome": 1})),
        "Rome",
        "sail trireme from Roma to Mare Adriaticum",
        None,
    ),
    (
        "V-R7.2-05",
        MILITARY,
        "Rome",
        "sail trireme from Roma to Ravenna",
        "R7.2: Ravenna is a province; name a sea",
    ),
    ("V-R8.2-01", MILITARY, "Rome", "casualties fortress, legion", None),
    ("V-R8.6-01", MILITARY, "Rome", "move legion from Roma to Ravenna then occupy city, temple", None),
    (
        "V-R8.6-02",
        MILITARY,
        "Rome",
        "move legion from Roma to Ravenna then occupy caravan on wnie, market",
        "did you mean 'wine'",
    ),
    (
        "V-R8.6-03",
        MILITARY,
        "Rome",
        "move legion from Roma to Ravenna then occupy city Ravena",
        "did you mean 'Ravenna'",
    ),
    ("V-R8.3-01", MILITARY, "Rome", "attack Rome in Mare Ionium", "R8.3: you cannot name yourself"),
    ("V-R8.9-01", MILITARY, "Rome", "helen off", "R8.9: this order needs Helen of Troy"),
    ("V-R8.9-02", combine(MILITARY, owns("Rome", "Helen of Troy")), "Rome", "helen in Roma", None),
    ("V-R3.2-01", MILITARY, "Egypt", "role military to Greece", "R3.2: only the Military Leader (Rome)"),
    ("V-R3.2-02", MILITARY, "Rome", "role war to Greece", None),
    ("V-R4-01", MILITARY, "Rome", "artemis gold", "R4: this order needs Temple of Artemis"),
    (
        "V-R4-02",
        combine(MILITARY, owns("Rome", "Temple of Artemis")),
        "Rome",
        "artemis tax",
        "tax is not a commodity",
    ),
]


@pytest.fixture(scope="module")
def opening_state(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return make_opening_state(tmp_path_factory)


def make_opening_state(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The five-player opening position as data, without the derived stocks, bank and supply."""
    specs = [parse_player_spec(p) for p in player_args(FIVE)]
    game, _ = Game.create(tmp_path_factory.mktemp("source") / "g", specs)
    state = game.state_data()
    for key in ("bank", "supply"):
        del state[key]
    for player in state["players"].values():
        del player["stock"]
    return state


def game_with(opening: dict[str, Any], tweak: Tweak, directory: Path) -> Game:
    """An in-memory game at a tweaked position: validation needs no files."""
    state = copy.deepcopy(opening)
    tweak(state)
    ruleset = find_ruleset("mare-nostrum")
    board = load_board(ruleset, default_board_path(ruleset))
    position = ruleset.position_from_data(board, _without_none(state))
    players = tuple(Player(civ, f"{civ}@example.org", "") for civ in FIVE)
    settings = Settings("case", ruleset.name, None, "batch", "00" * 32, players, datetime.now(UTC))
    return Game(GameDirectory(directory), settings, board, position, 1)


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    return value


@pytest.mark.parametrize(("case_id", "tweak", "power", "line", "expected"), CASES, ids=[c[0] for c in CASES])
def test_validation_case(
    opening_state: dict[str, Any],
    tmp_path: Path,
    case_id: str,
    tweak: Tweak,
    power: str,
    line: str,
    expected: str | None,
) -> None:
    game = game_with(opening_state, tweak, tmp_path)
    checked = check_submission(game, f"power {power}\n{line}\n")
    (result,) = checked.lines
    if expected is None:
        assert result.ok, f"{case_id}: {line!r} was refused: {result.problem and result.problem.message}"
    else:
        assert result.problem is not None, f"{case_id}: {line!r} was accepted"
        assert expected in result.problem.message, f"{case_id}: got {result.problem.message!r}"


def test_legions_that_moved_cannot_move_again(opening_state: dict[str, Any], tmp_path: Path) -> None:
    game = game_with(opening_state, MILITARY, tmp_path)
    checked = check_submission(
        game, "power Rome\nmove 2 legions from Roma to Ravenna\nmove legion from Roma to Tarentum\n"
    )
    assert [line.ok for line in checked.lines] == [True, False]
