"""New games: basic setup (R2.1-R2.3), stocks and supplies (R1), turn 1 income (R4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core.errors import UsageError
from adjudicator.game.game import Game
from tests.conftest import FIVE, player_args

# R2.1 per civilization: province -> (cities, caravans, fortresses)
BASIC_SETUP: dict[str, dict[str, tuple[list[str], list[str], int]]] = {
    "Rome": {
        "roma": (["Roma"], ["wine", "metal"], 1),
        "ravenna": ([], ["livestock"], 0),
        "tarentum": ([], ["oil"], 0),
    },
    "Carthage": {
        "carthago": (["Carthago"], ["perfume", "fruit"], 1),
        "cirta": ([], ["slaves"], 0),
        "leptis-magna": ([], ["oil"], 0),
    },
    "Greece": {
        "athenae": (["Athenae", "Corinthus"], ["oil"], 1),
        "pella": ([], [], 0),
        "constantinopolis": ([], ["fish", "slaves"], 0),
    },
    "Babylon": {
        "babylon": (["Babylon"], ["grain", "gems"], 1),
        "antiochia": (["Antiochia"], [], 0),
        "ninive": ([], ["grain"], 0),
    },
    "Egypt": {
        "alexandria": (["Alexandria", "Memphis"], ["papyrus"], 1),
        "thebae": (["Thebae"], [], 0),
        "cyrenae": ([], ["grain"], 0),
    },
}
HEROES = {
    "Rome": "Julius Caesar",
    "Carthage": "Hannibal",
    "Greece": "Pericles",
    "Babylon": "Hammurabi",
    "Egypt": "Cleopatra",
}


def _new_state(tmp_path: Any, civs: tuple[str, ...]) -> dict[str, Any]:
    runner = CliRunner()
    args = ["new", str(tmp_path / "g")]
    for spec in player_args(civs):
        args += ["--player", spec]
    created = runner.invoke(app, args)
    assert created.exit_code == 0, created.output
    result = runner.invoke(app, ["state", str(tmp_path / "g"), "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("civ", FIVE)
def test_r2_1_basic_setup_for_five_players(tmp_path: Any, civ: str) -> None:
    state = _new_state(tmp_path, FIVE)
    owned = {pid for pid, p in state["provinces"].items() if p.get("influence") == civ}
    assert owned == set(BASIC_SETUP[civ]), "R2.1: influence in the three start provinces"
    for pid, (cities, caravans, fortresses) in BASIC_SETUP[civ].items():
        province = state["provinces"][pid]
        assert province["cities"] == cities, f"R2.1 cities in {pid}"
        assert province["caravans"] == caravans, f"R2.1 caravans in {pid}"
        assert province["fortresses"].get(civ, 0) == fortresses, f"R2.1 fortress in {pid}"
        assert not province["legions"], "R2.1: no legions at start"
    setup = BASIC_SETUP[civ].values()
    assert sum(len(c) + len(v) for c, v, _ in setup) == 5, "R2.1: cities + caravans = 5"
    assert state["players"][civ]["cards"] == [HEROES[civ]], "R2.2: the civilization hero"
    assert state["players"][civ]["stock"] == {"legion": 8, "trireme": 5, "fortress": 7, "influence": 9}, "R1 stock"


def test_r2_1_roles_and_r1_supplies_for_five_players(tmp_path: Any) -> None:
    state = _new_state(tmp_path, FIVE)
    assert state["roles"] == {"commerce": "Carthage", "political": "Egypt", "military": "Rome"}
    assert (state["game"], state["ruleset"], state["turn"], state["phase"]) == (
        "g",
        "mare-nostrum",
        1,
        "trade",
    )
    assert state["step"] is None and state["winner"] is None
    # R1.3 for 5 players less what stands on the board: 13 caravans... counted from R2.1
    assert state["supply"] == {"caravan": 28 - 16, "city": 12 - 9, "market": 12, "temple": 6}
    assert state["dice"]["phase_number"] == 1 and len(state["dice"]["commitment"]) == 64


def test_r4_turn_one_income_is_paid_at_creation(tmp_path: Any) -> None:
    state = _new_state(tmp_path, FIVE)
    assert state["players"]["Rome"]["hand"] == {"tax": 1, "wine": 1, "metal": 1, "livestock": 1, "oil": 1}
    assert state["players"]["Egypt"]["hand"] == {"tax": 3, "papyrus": 1, "grain": 1}
    assert state["players"]["Greece"]["hand"] == {"tax": 2, "oil": 1, "fish": 1, "slaves": 1}
    hands = [p["hand"] for p in state["players"].values()]
    assert state["bank"]["tax"] == 35 - sum(h.get("tax", 0) for h in hands), "R1: the bank is what no hand holds"
    assert state["bank"]["grain"] == 11 - 3


def test_r2_3_four_players_drop_babylon_to_neutral(tmp_path: Any) -> None:
    state = _new_state(tmp_path, ("Rome", "Carthage", "Greece", "Egypt"))
    babylon = state["players"]["Babylon"]
    assert babylon["neutral"] and babylon["hand"] == {} and babylon["cards"] == []
    capital = state["provinces"]["babylon"]
    assert (
        capital["influence"] == "Babylon"
        and capital["legions"] == {"Babylon": 1}
        and capital["fortresses"] == {"Babylon": 1}
    )
    assert capital["cities"] == [] and capital["caravans"] == [], "R2.3: neutrals get no buildings"
    for pid in ("antiochia", "ninive"):
        assert state["provinces"][pid]["legions"] == {"Babylon": 1} and not state["provinces"][pid]["fortresses"]
    assert state["roles"] == {"commerce": "Carthage", "political": "Egypt", "military": "Rome"}
    assert state["supply"] == {"caravan": 23 - 13, "city": 10 - 7, "market": 10, "temple": 5}, "R1.3 for 4 players"


def test_r2_3_three_players_drop_rome_and_egypt(tmp_path: Any) -> None:
    state = _new_state(tmp_path, ("Carthage", "Greece", "Babylon"))
    assert [c for c, p in state["players"].items() if p["neutral"]] == ["Rome", "Egypt"]
    assert state["supply"] == {"caravan": 18 - 10, "city": 8 - 5, "market": 8, "temple": 4}, "R1.3 for 3 players"
    roles = state["roles"]
    assert roles["commerce"] == "Carthage", "R2.3: printed role kept where its holder plays"
    assert sorted(roles.values()) == ["Babylon", "Carthage", "Greece"], "R2.3: nobody starts with two roles"
    assert state["provinces"]["alexandria"]["fortresses"] == {"Egypt": 1}
    assert state["players"]["Rome"]["stock"]["legion"] == 5


def test_r2_3_role_ties_are_broken_by_verifiable_dice(make_game: Callable[..., Game]) -> None:
    game = make_game(("Carthage", "Greece", "Babylon"))
    records = game.dice_records()
    assert records[0].phase_number == 0 and records[0].rolls, "R2.3: tie rolls are recorded at setup"
    assert game.verify_dice()[1] == []


@pytest.mark.parametrize("civs", [("Rome", "Carthage"), (*FIVE, "Rome")])
def test_r1_player_count_is_three_to_five(make_game: Callable[..., Game], civs: tuple[str, ...]) -> None:
    with pytest.raises(UsageError, match="3 to 5 players"):
        make_game(civs)


def test_civilization_names_are_checked_with_suggestions(tmp_path: Any) -> None:
    result = CliRunner().invoke(
        app,
        [
            "new",
            str(tmp_path / "g"),
            "--player",
            "Rom:a@b.org",
            "--player",
            "Egypt:c@d.org",
            "--player",
            "Greece:e@f.org",
        ],
    )
    assert result.exit_code == 1
    assert "did you mean Rome" in result.stderr and "Traceback" not in result.output
