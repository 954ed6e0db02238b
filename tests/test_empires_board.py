"""The Empires board and components (issue 16; docs/rules-empires.md E1, E2): the shipped file is
sound, and each check catches the mistake a moderator correcting the file could make."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.errors import BoardError, DataError
from adjudicator.core.resources import package_file
from adjudicator.rulesets.empires.board import START_RESOURCES, CityKind, TileKind, Title, parse_board

Data = dict[str, Any]


@pytest.fixture(scope="module")
def data() -> Data:
    path = package_file("adjudicator.rulesets.empires", "boards/empires-2016.toml")
    with Path(path).open("rb") as handle:
        return tomllib.load(handle)


def entry(data: Data, table: str, key: str, value: str) -> Data:
    found: Data = next(e for e in data[table] if e[key] == value)
    return found


def test_the_shipped_board_is_sound(data: Data) -> None:
    board = parse_board(data)
    assert board.reconstructed
    assert len(board.commodities) == 13, "13 kinds of goods (research E5, E17)"
    assert board.empires_for(5) == ("Rome", "Carthage", "Greece", "Egypt", "Babylon")
    assert board.empires_for(4) == ("Rome", "Carthage", "Greece", "Egypt"), "E2.1: four players leave Babylon out"
    assert board.empires_for(3) == ("Rome", "Carthage", "Greece"), "E2.1: three leave out Babylon and Egypt"
    legendary = sorted(p.city_name for p in board.provinces.values() if p.city is CityKind.LEGENDARY)
    assert legendary == ["Hierosolyma", "Syracusae", "Troia"], "issue 16: the three legendary cities"
    assert [t.kind for t in board.tiles.values()].count(TileKind.PYRAMIDS) == 1
    assert all(sum(e.start.resources.values()) == START_RESOURCES for e in board.empires.values())
    assert board.title_holders[Title.COMMERCE] == "Carthage", "Carthage starts as Master of Commerce (research E11)"


def test_every_entry_says_where_it_comes_from(data: Data) -> None:
    for table in ("commodity", "province", "sea", "empire", "tile"):
        for item in data[table]:
            assert item.get("source"), f"{table} {item.get('id', item.get('name'))} has no source"
    for item in [*data["province"], *data["sea"]]:
        assert item.get("position_source"), f"{item['id']} has no position_source"


def test_tile_prices_rise_by_round_and_hold_from_round_seven_on(data: Data) -> None:
    """ED6: 7 in rounds 1-2, 8 in 3-4, 9 in 5-6, 10 from 7 on; the Pyramids always 12."""
    tiles = parse_board(data).tiles
    assert [tiles["Hercules"].price(n) for n in range(1, 11)] == [7, 7, 8, 8, 9, 9, 10, 10, 10, 10]
    assert {tiles["Pyramids"].price(n) for n in range(1, 11)} == {12}


def _drop_land_link(d: Data) -> None:
    entry(d, "province", "id", "latium")["land"].remove("gallia")


def _unknown_good(d: Data) -> None:
    entry(d, "province", "id", "gallia")["caravans"].append("salt")


def _two_legendary(d: Data) -> None:
    entry(d, "province", "id", "sicilia")["city"] = "city"


def _start_outside(d: Data) -> None:
    entry(d, "empire", "id", "rome")["start"]["legions"]["numidia"] = 1


def _ten_resources(d: Data) -> None:
    entry(d, "empire", "id", "rome")["start"]["resources"]["tax"] += 1


def _no_site(d: Data) -> None:
    entry(d, "empire", "id", "rome")["start"]["temples"] = ["gallia"]


def _trireme_inland(d: Data) -> None:
    entry(d, "empire", "id", "rome")["start"]["triremes"] = {"pontus-euxinus": 1}


def _two_fortresses(d: Data) -> None:
    entry(d, "empire", "id", "rome")["start"]["fortresses"] = {"latium": 2}


def _hero_elsewhere(d: Data) -> None:
    entry(d, "tile", "name", "Caesar")["start"] = "greece"


def _bad_title_piece(d: Data) -> None:
    d["titles"]["military"]["elephant"] = 1


def _holder_unknown(d: Data) -> None:
    d["titles"]["start_holders"]["political"] = "persia"


def _pay_with_salt(d: Data) -> None:
    tile = next(t for t in d["tile"] if any(e["effect"] == "cost_change" for e in t["effects"]))
    next(e for e in tile["effects"] if e["effect"] == "cost_change")["pay"] = ["salt"]


def _shared_name(d: Data) -> None:
    entry(d, "province", "id", "gallia")["aliases"].append("Latium")


CASES: list[tuple[str, Callable[[Data], None], str]] = [
    ("E1-01", _drop_land_link, "land adjacency is not symmetric: gallia lists latium"),
    ("E1-02", _unknown_good, "province gallia: caravan site 'salt' is not a commodity"),
    ("E1-03", _two_legendary, "the board has 2 legendary city sites; the game has three"),
    ("E2-01", _start_outside, "empire rome: units in numidia, which is not its province"),
    ("E2-02", _ten_resources, "empire rome: its screen gives 10 resources; every screen gives nine"),
    ("E2-03", _no_site, "empire rome: a temple in gallia, which is not its province or has no temple site"),
    ("E2-04", _trireme_inland, "empire rome: a trireme in pontus-euxinus, which touches none of its provinces"),
    ("E2-05", _two_fortresses, "empire rome: one fortress per province (E6)"),
    ("E2-06", _hero_elsewhere, "empire rome: its hero 'Caesar' is not a tile with start = \"rome\""),
    ("E9-01", _bad_title_piece, "titles.military: 'elephant' is not a piece"),
    ("E9-02", _holder_unknown, "titles.start_holders.political: 'persia' is not an empire"),
    ("E11-01", _pay_with_salt, "pays with 'salt', neither tax nor a commodity"),
    ("E1-04", _shared_name, "the name 'Latium' matches several: gallia, latium"),
]


@pytest.mark.parametrize(("case", "break_it", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_broken_board_names_its_problem(
    data: Data, case: str, break_it: Callable[[Data], None], message: str
) -> None:
    broken = copy.deepcopy(data)
    break_it(broken)
    with pytest.raises(BoardError) as caught:
        parse_board(broken)
    assert any(message in p for p in caught.value.problems), caught.value.problems


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        (lambda d: d["dice"].update(land=[1, 2, 3]), "dice.land", "the six faces"),
        (lambda d: d["trade"].update(tokens=[[0, 5, 1]]), "trade.tokens", "two-sided tokens"),
        (lambda d: entry(d, "tile", "name", "Caesar")["effects"].append({"effect": "fly"}), "effect", "not an effect"),
        (lambda d: entry(d, "province", "id", "gallia").update(city="village"), "city", "not a city site"),
        (lambda d: entry(d, "tile", "name", "Caesar").update(kind="god"), "kind", "not a tile kind"),
        (lambda d: d["costs"].update(elephant=3), "costs.elephant", "unknown key"),
    ],
    ids=["dice", "tokens", "effect", "city", "tile-kind", "cost"],
)
def test_a_wrong_value_names_its_key(data: Data, change: Callable[[Data], None], key: str, message: str) -> None:
    broken = copy.deepcopy(data)
    change(broken)
    with pytest.raises(DataError) as caught:
        parse_board(broken)
    assert key in caught.value.key and message in caught.value.message
