"""The shipped board and the board checker (issue: foundation, item 2)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from adjudicator.core.errors import BoardError, DataError
from adjudicator.core.names import normalise
from adjudicator.game.game import default_board_path
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.board import parse_board


@pytest.fixture
def board_data() -> dict[str, Any]:
    with default_board_path(find_ruleset("mare-nostrum")).open("rb") as handle:
        return tomllib.load(handle)


def test_shipped_board_has_33_provinces_and_10_seas(board_data: dict[str, Any]) -> None:
    board = parse_board(board_data)
    assert (len(board.provinces), len(board.seas)) == (33, 10)
    assert board.reconstructed
    assert all(p.source for p in board.provinces.values()), "every province keeps its source field"


def test_shipped_board_keeps_the_shared_reconstruction(board_data: dict[str, Any]) -> None:
    shared = Path(__file__).resolve().parents[2] / "shared" / "boards" / "mare-nostrum-2003.toml"
    if not shared.exists():
        pytest.skip("shared/ is not beside this checkout")
    with shared.open("rb") as handle:
        original = tomllib.load(handle)
    for kind in ("province", "sea", "civilization"):
        for ours, theirs in zip(board_data[kind], original[kind], strict=True):
            assert {k: ours[k] for k in theirs} == theirs, "every shared field is kept as it is"
            assert set(ours) - set(theirs) <= {"map", "position", "position_source"}, "we only add map positions"
    assert board_data["board"] == original["board"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Athènes", "athenae"),
        ("ATHENS", "athenae"),
        ("syracuse", "syracusae"),
        ("Mare-Ionium", "mare-ionium"),
        ("mare ionium", "mare-ionium"),
        ("Jérusalem", "hierosolyma"),
        ("Konstantinápoly", "constantinopolis"),
        ("north of Rome", "ravenna"),
        ("Leptis-Magna", "leptis-magna"),
        ("  roma. ", "roma"),
    ],
)
def test_names_match_ignoring_case_accents_and_punctuation(
    board_data: dict[str, Any], text: str, expected: str
) -> None:
    assert parse_board(board_data).places.find(text).keys == (expected,)


def test_misspelt_place_gets_a_suggestion(board_data: dict[str, Any]) -> None:
    assert parse_board(board_data).places.find("Hierosolima").suggestions[0] == "Hierosolyma"


def _broken(board_data: dict[str, Any], change: Any) -> list[str]:
    data = copy.deepcopy(board_data)
    change(data)
    with pytest.raises(BoardError) as raised:
        parse_board(data)
    return raised.value.problems


def _province(data: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in data["province"] if p["id"] == pid)


def test_asymmetric_land_adjacency_is_reported(board_data: dict[str, Any]) -> None:
    problems = _broken(board_data, lambda d: _province(d, "roma")["land"].append("pella"))
    assert any("not symmetric" in p and "roma" in p for p in problems), problems


def test_asymmetric_sea_adjacency_is_reported(board_data: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        next(s for s in d["sea"] if s["id"] == "mare-sardoum")["seas"].append("pontus-euxinus")

    assert any("sea adjacency is not symmetric" in p for p in _broken(board_data, change))


def test_unreachable_sea_is_reported(board_data: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        d["sea"].append({"id": "oceanus", "name": "Oceanus", "seas": []})

    problems = _broken(board_data, change)
    assert any("oceanus touches no province" in p for p in problems)
    assert any("oceanus cannot be reached" in p for p in problems)


def test_setup_must_match_sites_and_icons(board_data: dict[str, Any]) -> None:
    def change(d: dict[str, Any]) -> None:
        rome = next(c for c in d["civilization"] if c["name"] == "Rome")
        rome["start"][0]["cities"] = ["Londinium"]
        rome["start"][1]["caravans"] = ["gems"]

    problems = _broken(board_data, change)
    assert any("no city site 'Londinium'" in p for p in problems)
    assert any("no 'gems' icon" in p for p in problems)


def test_names_must_be_unique_after_normalisation(board_data: dict[str, Any]) -> None:
    problems = _broken(board_data, lambda d: _province(d, "sparta")["aliases"].append("ATHÈNES"))
    assert any("matches several places" in p for p in problems)


def test_unknown_key_names_its_path(board_data: dict[str, Any]) -> None:
    data = copy.deepcopy(board_data)
    _province(data, "roma")["citys"] = ["Roma"]
    with pytest.raises(DataError) as raised:
        parse_board(data)
    assert raised.value.key.startswith("province[") and raised.value.key.endswith(".citys")


def test_board_check_command_lists_every_problem(tmp_path: Path, board_data: dict[str, Any]) -> None:
    from typer.testing import CliRunner

    from adjudicator.cli import app

    data = copy.deepcopy(board_data)
    _province(data, "roma")["land"].append("pella")
    _province(data, "sinai")["commodities"].append("spice")
    path = tmp_path / "board.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["board", "check", str(path)])
    assert result.exit_code == 1
    assert "2 problem(s)" in result.stdout and "'spice' is not a commodity" in result.stdout
    good = CliRunner().invoke(app, ["board", "check"])
    assert good.exit_code == 0 and "a sound board" in good.stdout


def test_board_show_says_it_is_reconstructed() -> None:
    from typer.testing import CliRunner

    from adjudicator.cli import app

    result = CliRunner().invoke(app, ["board", "show"])
    assert result.exit_code == 0
    assert "RECONSTRUCTED" in result.stdout and "source:" in result.stdout


def test_normalise_folds_case_accents_and_punctuation() -> None:
    assert normalise("Szirakúza!") == normalise("szirakuza")
