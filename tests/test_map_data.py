"""The baked geometry of the report map (issue 15, part 1): read with the standard library only."""

from __future__ import annotations

import copy
import json
import math
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from adjudicator.errors import DataError
from adjudicator.game import default_board_path
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.board import Board, Province, Sea, parse_board

Ring = Sequence[Sequence[float]]
Polygon = Sequence[Ring]

# Where the board may lie: from west of Cirta (Algeria) to east of Susa (Iran), from south of Thebae
# (Luxor) to north of the Black Sea.
LONGITUDES = (-10.0, 51.0)
LATITUDES = (24.0, 47.0)


@pytest.fixture(scope="module")
def board_data() -> dict[str, Any]:
    with default_board_path(find_ruleset("mare-nostrum")).open("rb") as handle:
        return tomllib.load(handle)


@pytest.fixture(scope="module")
def board(board_data: dict[str, Any]) -> Board:
    return parse_board(board_data)


@pytest.fixture(scope="module")
def map_path() -> Path:
    board_path = default_board_path(find_ruleset("mare-nostrum"))
    return board_path.with_name(board_path.stem + ".map.json")


@pytest.fixture(scope="module")
def map_data(map_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(map_path.read_text(encoding="utf-8"))
    return data


def inside(point: Sequence[float], polygons: Sequence[Polygon]) -> bool:
    """Even-odd ray casting over every ring, so a point in a hole is outside."""
    x, y = point
    crossings = 0
    for polygon in polygons:
        for ring in polygon:
            for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    crossings += 1
    return crossings % 2 == 1


def project(map_data: dict[str, Any], lon: float, lat: float) -> tuple[float, float]:
    """The projection the file states, applied to one position."""
    west, _south, _east, north = map_data["projection"]["frame"]
    scale = map_data["projection"]["scale"]
    cos_lat = math.cos(math.radians(map_data["projection"]["mean_latitude"]))
    return ((lon - west) * cos_lat * scale, (north - lat) * scale)


def places(board: Board) -> list[str]:
    return [*board.provinces, *board.seas]


def entries(board: Board) -> list[Province | Sea]:
    return [*board.provinces.values(), *board.seas.values()]


def test_point_in_polygon_helper_knows_holes() -> None:
    square = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    hole = [[4.0, 4.0], [6.0, 4.0], [6.0, 6.0], [4.0, 6.0]]
    assert inside([2, 2], [[square, hole]])
    assert not inside([5, 5], [[square, hole]])
    assert not inside([12, 5], [[square]])


def test_every_place_has_a_region_and_a_label_in_the_view_box(board: Board, map_data: dict[str, Any]) -> None:
    _, _, width, height = map_data["view_box"]
    assert width == 1200
    for place in places(board):
        region = map_data["regions"].get(place)
        assert region, f"{place} has no region on the map"
        assert all(len(ring) >= 3 for polygon in region for ring in polygon), f"{place} has a degenerate ring"
        x, y = map_data["labels"][place]
        assert 0 <= x <= width and 0 <= y <= height, f"the label of {place} lies outside the view box"
    assert set(map_data["regions"]) == set(places(board)), "the map names exactly the board's places"


def test_every_label_lies_in_its_region(board: Board, map_data: dict[str, Any]) -> None:
    for place in places(board):
        assert inside(map_data["labels"][place], map_data["regions"][place]), f"the label of {place} is off its region"


def test_provinces_are_land_and_seas_are_water(board: Board, map_data: dict[str, Any]) -> None:
    for province in board.provinces:
        assert inside(map_data["labels"][province], map_data["land"]), f"{province} is drawn at sea"
    for sea in board.seas:
        assert not inside(map_data["labels"][sea], map_data["land"]), f"{sea} is drawn on land"


def test_each_position_lies_in_its_own_region(board: Board, map_data: dict[str, Any]) -> None:
    for entry in entries(board):
        assert entry.position is not None
        point = project(map_data, *entry.position)
        assert inside(point, map_data["regions"][entry.id]), f"the position of {entry.id} is not in its region"


def test_every_board_entry_has_a_position_and_its_source(board: Board, map_data: dict[str, Any]) -> None:
    west, south, east, north = map_data["projection"]["frame"]
    assert LONGITUDES[0] <= west < east <= LONGITUDES[1] and LATITUDES[0] <= south < north <= LATITUDES[1]
    for entry in entries(board):
        assert entry.position is not None, f"{entry.id} has no position"
        lon, lat = entry.position
        assert west < lon < east and south < lat < north, f"{entry.id} at {entry.position} is off the map"
        assert entry.position_source.strip(), f"{entry.id} does not say where its position comes from"


def test_the_file_is_small_and_names_its_source(map_path: Path, map_data: dict[str, Any]) -> None:
    assert map_path.stat().st_size < 200_000
    assert "Natural Earth" in map_data["source"] and "world-atlas" in map_data["source"]
    assert "Natural Earth" in map_data["licence"] and "world-atlas" in map_data["licence"]
    assert "public domain" in map_data["licence"]
    assert map_data["generated_by"] == "tools/bake_map.py"


def test_a_position_must_be_two_numbers(board_data: dict[str, Any]) -> None:
    data = copy.deepcopy(board_data)
    data["province"][0]["position"] = ["9.0E", 42.1]
    with pytest.raises(DataError, match=r"province\[0\]\.position"):
        parse_board(data)
    data["province"][0]["position"] = [9.0, 142.1]
    with pytest.raises(DataError, match="latitude"):
        parse_board(data)
