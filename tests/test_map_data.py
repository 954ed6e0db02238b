"""The baked geometry of the report maps (issue 15) of the 2003 and Empires boards, and the adjacency of all
three rulesets' maps, Mare Mediterraneum's too (issue 34): read with the standard library only."""

from __future__ import annotations

import copy
import itertools
import json
import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.errors import DataError
from adjudicator.game.game import default_board_path
from adjudicator.reports.picture import natural_width
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.empires import board as empires_board
from adjudicator.rulesets.mare_nostrum import board as mare_nostrum_board
from adjudicator.rulesets.mediterraneum import board as mediterraneum_board

Ring = Sequence[Sequence[float]]
Polygon = Sequence[Ring]
Board = Any  # either ruleset's Board: provinces and seas with ids, positions and adjacency


@dataclass(frozen=True)
class Case:
    """A board and what its map must hold."""

    board_path: Callable[[], Path]
    parse: Callable[[Any], Board]
    longitudes: tuple[float, float]  # where the board may lie
    latitudes: tuple[float, float]
    icons: Callable[[Any], int]  # a province's building icons: cities (sites), temple, market
    caravans: Callable[[Any], Sequence[str]]  # the commodity of each of a province's caravan sites
    units: int  # the units a province's label holds
    seeds: int  # at most this many extra Voronoi seeds


CASES = {
    # from west of Cirta (Algeria) to east of Susa (Iran), from south of Thebae (Luxor) to north of the
    # Black Sea; a province reserves its printed city sites, a temple, a market and three units
    "mare-nostrum": Case(
        lambda: default_board_path(find_ruleset("mare-nostrum")),
        mare_nostrum_board.parse_board,
        (-10.0, 51.0),
        (24.0, 47.0),
        lambda p: len(p.cities) + 2,
        lambda p: p.commodities,
        3,
        25,
    ),
    # from west of Numidia to east of Babylonia, from south of Aethiopia to north of Germania; a province
    # reserves its city site, market and temple where printed, and legions of three empires and a fortress
    "empires": Case(
        lambda: Path(empires_board.__file__).parent / "boards" / "empires-2016.toml",
        empires_board.parse_board,
        (0.0, 50.0),
        (15.0, 52.0),
        lambda p: (p.city is not None) + p.market + p.temple,
        lambda p: p.caravans,
        4,
        40,
    ),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> Case:
    return CASES[request.param]


@pytest.fixture(scope="module")
def board_data(case: Case) -> dict[str, Any]:
    with case.board_path().open("rb") as handle:
        return tomllib.load(handle)


@pytest.fixture(scope="module")
def board(case: Case, board_data: dict[str, Any]) -> Board:
    return case.parse(board_data)


@pytest.fixture(scope="module")
def map_path(case: Case) -> Path:
    board_path = case.board_path()
    return board_path.with_name(board_path.stem + ".map.json")


@pytest.fixture(scope="module")
def map_data(map_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(map_path.read_text(encoding="utf-8"))
    return data


# No two label boxes come closer than this (tools/bake_map/labels.py keeps 3 view-box units, less rounding).
CLEARANCE = 2.5
# Two regions touch when this much of one's outline (in view-box units) runs along the other's.
TOUCHING = 8


def apart(a: Sequence[float], b: Sequence[float]) -> float:
    """How far apart two boxes (x0, y0, x1, y1) are; negative when they overlap."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def inside_box(box: Sequence[float], other: Sequence[float]) -> bool:
    return box[0] <= other[0] and box[1] <= other[1] and other[2] <= box[2] and other[3] <= box[3]


def row(rows: dict[str, Any], width: float, middle: float, half_height: float) -> tuple[float, float, float, float]:
    """The box of a row `width` long, lined up as the template lines it up."""
    x = rows["x"] - {"middle": width / 2, "start": 0, "end": width}[rows["align"]]
    return (x, middle - half_height, x + width, middle + half_height)


class Outline:
    """Points every view-box unit along a region's rings, in a grid of unit cells."""

    def __init__(self, polygons: Sequence[Polygon]) -> None:
        self.points: list[tuple[float, float]] = []
        for polygon in polygons:
            for ring in polygon:
                for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
                    n = max(1, int(math.dist((x1, y1), (x2, y2))))
                    self.points += [(x1 + (x2 - x1) * i / n, y1 + (y2 - y1) * i / n) for i in range(n)]
        self.cells: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for x, y in self.points:
            self.cells.setdefault((int(x), int(y)), []).append((x, y))
        xs, ys = [x for x, _ in self.points], [y for _, y in self.points]
        self.box = (min(xs), min(ys), max(xs), max(ys))

    def contact(self, other: Outline) -> int:
        """How many of this outline's points lie within a unit of the other's outline."""
        if apart(self.box, other.box) > 2:
            return 0
        near = 0
        for x, y in self.points:
            cells = [other.cells.get((int(x) + i, int(y) + j), []) for i in (-1, 0, 1) for j in (-1, 0, 1)]
            near += any(math.dist((x, y), q) <= 1.0 for cell in cells for q in cell)
        return near


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


def entries(board: Board) -> list[Any]:
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


def test_every_board_entry_has_a_position_and_its_source(case: Case, board: Board, map_data: dict[str, Any]) -> None:
    west, south, east, north = map_data["projection"]["frame"]
    (lon0, lon1), (lat0, lat1) = case.longitudes, case.latitudes
    assert lon0 <= west < east <= lon1 and lat0 <= south < north <= lat1
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
    assert map_data["generated_by"] == "tools/bake_map"


def test_label_boxes_keep_clear_of_each_other_and_of_the_edge(board: Board, map_data: dict[str, Any]) -> None:
    _, _, width, height = map_data["view_box"]
    boxes = map_data["label_boxes"]
    assert set(boxes) == set(places(board)), "every place has a label box"
    for place, (x0, y0, x1, y1) in boxes.items():
        assert 0 < x0 < x1 < width and 0 < y0 < y1 < height, f"the label box of {place} leaves the map"
        x, y = map_data["labels"][place]
        assert x0 < x < x1 and y0 < y < y1, f"the label box of {place} does not hold its label"
    for a, b in itertools.combinations(sorted(boxes), 2):
        assert apart(boxes[a], boxes[b]) >= CLEARANCE, f"the labels of {a} and {b} overlap"


def test_the_overlap_check_sees_an_overlap() -> None:
    assert apart([0, 0, 10, 10], [12, 0, 20, 10]) == 2
    assert apart([0, 0, 10, 10], [5, 5, 20, 20]) < 0
    assert apart([0, 0, 10, 10], [0, 30, 10, 40]) == 20


def test_each_label_box_holds_the_most_its_place_can_show(case: Case, board: Board, map_data: dict[str, Any]) -> None:
    """The rows as the template draws them, at the sizes in the map's `drawing`: every printed city site and
    caravan site built on (a city, a temple and a market an icon wide, a caravan as wide as its commodity's
    tag, an icon gap apart), a temple and a market (on the 2003 board every province; on the Empires board
    where printed); three units (Empires: four, legions of three empires and a fortress); three fleets at
    sea. Each fits its place's box, as does the influence marker (with its ring) left of the name."""
    tags, sizes = map_data["caravans"], map_data["drawing"]
    icon, gap = sizes["icon"], sizes["icon_gap"]
    for place in places(board):
        box, rows = map_data["label_boxes"][place], map_data["pieces"][place]
        if place in board.seas:
            fleets = 3 * sizes["fleet"] - 2
            assert inside_box(box, row(rows, fleets, rows["fleets"], 5.5)), f"the fleets of {place} spill"
            continue
        province = board.provinces[place]
        widths = [icon] * case.icons(province) + [tags[c]["width"] for c in case.caravans(province)]
        for y in (rows["buildings"], rows["buildings_alone"]):
            assert inside_box(box, row(rows, sum(widths) + gap * len(widths) - gap, y, icon / 2)), (
                f"the buildings of {place} spill"
            )
        for y in (rows["units"], rows["units_alone"]):
            units = row(rows, case.units * sizes["unit"], y, sizes["unit_row"] / 2)
            assert inside_box(box, units), f"the units of {place} spill"
        mx, my = map_data["markers"][place]
        assert inside_box(box, (mx - 9.5, my - 9.5, mx + 9.5, my + 9.5)), f"the influence marker of {place} spills"


def test_both_boards_are_drawn_with_the_same_card_sizes() -> None:
    """The 2003 and Empires boards share their cards' sizes (tools/bake_map/labels.py DRAWING, their one
    definition), which each map file carries as `drawing` for its template."""
    paths = [case.board_path() for case in CASES.values()]
    drawings = [json.loads(p.with_name(p.stem + ".map.json").read_text(encoding="utf-8"))["drawing"] for p in paths]
    assert drawings[0] and all(d == drawings[0] for d in drawings), drawings
    assert set(drawings[0]) == {"name_size", "icon", "icon_gap", "tag_size", "tag_left", "unit", "unit_row", "fleet"}


def test_every_commodity_has_its_own_caravan_tag(case: Case, board: Board, map_data: dict[str, Any]) -> None:
    """A caravan is drawn as a tag naming its commodity: the word, or a short abbreviation (which the
    legend explains), at most 6 letters, never the same for two commodities, and wide enough for a
    diamond and the text."""
    tags = map_data["caravans"]
    assert set(tags) == {c for p in board.provinces.values() for c in case.caravans(p)}
    texts = [tag["text"] for tag in tags.values()]
    assert len(set(t.lower() for t in texts)) == len(texts), "two commodities share a tag"
    for commodity, tag in tags.items():
        assert 0 < len(tag["text"]) <= 6 and tag["width"] >= 14 + 4 * len(tag["text"]), commodity
        assert commodity.startswith(tag["text"].lower()) or tag["text"].lower() in commodity, commodity


def test_provinces_stay_within_reach_of_their_positions(case: Case, board: Board, map_data: dict[str, Any]) -> None:
    """An inland province no longer runs off across the desert: its land lies within `reach` degrees of
    its position or of one of its few extra seeds."""
    reach, seeds = map_data["reach"], map_data["seeds"]
    assert reach <= 4 and sum(len(points) for points in seeds.values()) <= case.seeds
    scale = map_data["projection"]["scale"]
    for province in board.provinces.values():
        if province.island:
            continue
        assert province.position is not None
        centres = [project(map_data, *province.position)] + [project(map_data, *s) for s in seeds.get(province.id, [])]
        far = max(
            min(math.dist(point, c) for c in centres)
            for polygon in map_data["regions"][province.id]
            for ring in polygon
            for point in ring
        )
        assert far <= reach * scale + 1, f"{province.id} reaches {far / scale:.1f} degrees from its position"


def province_neighbours(board: Board) -> set[frozenset[str]]:
    """The 2003 and Empires boards: each province's land neighbours and coasts, each sea's seas."""
    listed = {frozenset((p.id, other)) for p in board.provinces.values() for other in (*p.land, *p.seas)}
    return listed | {frozenset((s.id, other)) for s in board.seas.values() for other in s.seas}


def land_area_neighbours(board: mediterraneum_board.Board) -> set[frozenset[str]]:
    """Mare Mediterraneum's board: each land area's land neighbours (mountains too) and seas, each sea's seas."""
    listed = {frozenset((x.id, other)) for x in board.lands.values() for other in (*x.land, *x.seas)}
    return listed | {frozenset((s.id, other)) for s in board.seas.values() for other in s.seas}


@dataclass(frozen=True)
class Drawn:
    """A shipped board whose map draws its adjacency: its file, and its places and neighbour pairs."""

    board_path: Callable[[], Path]
    read: Callable[[dict[str, Any]], tuple[list[str], set[frozenset[str]]]]


DRAWN = {
    "mare-nostrum": Drawn(
        CASES["mare-nostrum"].board_path,
        lambda data: (places(b := mare_nostrum_board.parse_board(data)), province_neighbours(b)),
    ),
    "empires": Drawn(
        CASES["empires"].board_path,
        lambda data: (places(b := empires_board.parse_board(data)), province_neighbours(b)),
    ),
    "mediterraneum": Drawn(
        lambda: default_board_path(find_ruleset("mediterraneum")),
        lambda data: (
            [*(b := mediterraneum_board.parse_board(data)).lands, *b.seas],
            land_area_neighbours(b),
        ),
    ),
}


def disagreements(regions: dict[str, Any], names: Sequence[str], listed: set[frozenset[str]]) -> list[str]:
    """Each pair of places whose drawn regions share an edge though the board does not list them as
    neighbours, or that the board lists though their regions do not share an edge."""
    outlines = {place: Outline(regions[place]) for place in names}
    wrong = []
    for a, b in itertools.combinations(sorted(outlines), 2):
        touching = outlines[a].contact(outlines[b]) >= TOUCHING
        if touching != (frozenset((a, b)) in listed):
            wrong.append(f"{a} - {b}: {'on the map only' if touching else 'on the board only'}")
    return wrong


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_drawn_regions_touch_as_the_board_says(name: str) -> None:
    """Every shipped board's map (the three rulesets'): two places' regions share an edge exactly when the
    board lists them as neighbours, land to land, land to sea and sea to sea. A player plans his moves
    from the picture, so the picture must tell the truth; where the board's neighbours cannot meet along
    the real coast, the map leaves plain land between them (tools/README.md)."""
    drawn = DRAWN[name]
    path = drawn.board_path()
    with path.open("rb") as handle:
        names, listed = drawn.read(tomllib.load(handle))
    regions = json.loads(path.with_name(path.stem + ".map.json").read_text(encoding="utf-8"))["regions"]
    assert set(regions) == set(names), "the map names exactly the board's places"
    assert listed <= {frozenset((a, b)) for a in names for b in names if a != b}, "the board names its places"
    wrong = disagreements(regions, names, listed)
    assert not wrong, f"the map and the board disagree in {len(wrong)} places: {wrong}"


# A place's name is at least this many pixels tall (its font size) in the PNG a forum shows: the 2003 map's
# province names, 13 units in a picture 1,200 pixels wide, are the measure; the 1989 map's, on a denser
# board, were about 8.
SMALLEST_NAME_PX = 11.0


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_place_names_are_legible_in_the_picture(name: str) -> None:
    """The PNG is as many pixels wide as the map is units (adjudicator/reports/picture.py), so the sizes
    the cards were baked with are pixels: every kind of place name is drawn at least SMALLEST_NAME_PX."""
    path = DRAWN[name].board_path()
    data = json.loads(path.with_name(path.stem + ".map.json").read_text(encoding="utf-8"))
    width, height = data["view_box"][2:]
    scale = natural_width(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">') / width
    drawing = data["drawing"]
    names = ("name_size", "city_size", "land_size", "land_name", "sea_size")
    sizes = {key: drawing[key] for key in names if key in drawing}
    assert sizes, "the map file says how large its names are"
    small = {key: size * scale for key, size in sizes.items() if size * scale < SMALLEST_NAME_PX}
    assert not small, f"names drawn smaller than {SMALLEST_NAME_PX} px in the picture: {small}"


def test_the_adjacency_check_sees_both_kinds_of_disagreement() -> None:
    """Squares a and b side by side, c off by itself: the board that lists a - c and not a - b is wrong twice."""
    regions = {
        "a": [[[[0, 0], [10, 0], [10, 10], [0, 10]]]],
        "b": [[[[10, 0], [20, 0], [20, 10], [10, 10]]]],
        "c": [[[[40, 0], [50, 0], [50, 10], [40, 10]]]],
    }
    wrong = disagreements(regions, ["a", "b", "c"], {frozenset(("a", "c"))})
    assert wrong == ["a - b: on the map only", "a - c: on the board only"]
    assert not disagreements(regions, ["a", "b", "c"], {frozenset(("a", "b"))})


def test_the_touch_check_sees_a_shared_edge_and_not_a_corner() -> None:
    square = Outline([[[[0, 0], [10, 0], [10, 10], [0, 10]]]])
    beside = Outline([[[[10, 0], [20, 0], [20, 10], [10, 10]]]])
    corner = Outline([[[[10, 10], [20, 10], [20, 20], [10, 20]]]])
    assert square.contact(beside) >= TOUCHING
    assert square.contact(corner) < TOUCHING


def test_a_position_must_be_two_numbers(case: Case, board_data: dict[str, Any]) -> None:
    data = copy.deepcopy(board_data)
    data["province"][0]["position"] = ["9.0E", 42.1]
    with pytest.raises(DataError, match=r"province\[0\]\.position"):
        case.parse(data)
    data["province"][0]["position"] = [9.0, 142.1]
    with pytest.raises(DataError, match="latitude"):
        case.parse(data)
