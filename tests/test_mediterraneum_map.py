"""The Mare Mediterraneum map: the baked geography of the shipped board (tools/bake_map), the map's
data (adjudicator/rulesets/mediterraneum/mapview.py) and its drawing (templates/mediterraneum/map.svg.j2).
The drawing is valid XML for an opening and for a busy position; every piece is drawn; no text runs out
of the picture or from the map over the legend; a moderator's own board, without a baked map, still gets
a schematic one."""

from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import pytest

from adjudicator.core.dice import ChainDice
from adjudicator.core.resources import package_file
from adjudicator.reports.maps import ruleset_maps
from adjudicator.reports.picture import svg_to_png
from adjudicator.reports.render import Renderer
from adjudicator.rulesets.kit.palette import ink
from adjudicator.rulesets.mediterraneum import MEDITERRANEUM
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.mapview import abbreviations, map_data
from adjudicator.rulesets.mediterraneum.model import Army, Options, Position, Ship, Status
from adjudicator.rulesets.mediterraneum.position import position_to_data
from adjudicator.rulesets.mediterraneum.setup import new_position
from tests.mediterraneum_support import THREE, board
from tests.test_map_data import CLEARANCE, apart

SVG = "{http://www.w3.org/2000/svg}"
COLOURS = MEDITERRANEUM.colours(board(), "distinct")  # the players' colours as a game draws them


def opening() -> Position:
    dice = ChainDice("mm-map", 0, bytes(32), root=bytes(32))
    position, _ = new_position(board(), THREE, dice, Options())
    return position


def busy() -> Position:
    """Capitals, provinces and taken cities; ships at sea, in harbours and on coasts, with cargo, art
    and armies aboard; armies, cavalry and an army inside a city; a storm; the tax stone."""
    position = opening()
    cities = dict(position.cities)
    for city, owner, status in (
        ("roma", "Red", Status.CAPITAL),
        ("neapolis", "Red", Status.PROVINCE),
        ("syracusae", "Red", Status.TAKEN),
        ("athenae", "Blue", Status.CAPITAL),
        ("alexandria", "Green", Status.CAPITAL),
        ("carthago", "Green", Status.TAKEN),
    ):
        cities[city] = replace(cities[city], owner=owner, status=status)
    cities["roma"] = replace(cities["roma"], want=("wine", "spices"))
    art = next(iter(board().art))
    ships = (
        Ship("Red", 1, "harbour:roma", "metal"),
        Ship("Red", 2, "mare-tyrrhenum", "wine"),
        Ship("Red", 3, "coast:roma"),
        Ship("Red", 4, "mare-tyrrhenum", "horses"),
        Ship("Blue", 1, "harbour:athenae", "oil"),
        Ship("Blue", 2, "mare-aegaeum"),
        Ship("Blue", 3, "mare-aegaeum", f"art:{art}"),
        Ship("Green", 1, "mare-tyrrhenum", "grain"),
        Ship("Green", 2, "harbour:alexandria", "papyrus"),
        Ship("Green", 3, "coast:carthago", "salt"),
    )
    armies = (
        Army("Red", 1, "latium"),
        Army("Red", 2, "latium", cavalry=True),
        Army("Red", 3, "syracusae"),
        Army("Red", 4, "ship:2"),
        Army("Blue", 1, "attica"),
        Army("Blue", 2, "pindus", cavalry=True),
        Army("Green", 1, "carthago"),
        Army("Green", 2, "aegyptus"),
        Army("Green", 3, "ship:1"),
    )
    storm = next(c.id for c in board().trade_cards.values() if c.sea == "mare-aegaeum")
    return replace(
        position, cities=cities, ships=ships, armies=armies, storm=storm, stone=3, stone_owner="Blue", passes=1
    )


def render(the_board: Board, position: Position) -> tuple[dict[str, Any], str]:
    state = position_to_data(position)
    context = MEDITERRANEUM.report_data(the_board, state, {}, {}, ruleset_maps(MEDITERRANEUM), COLOURS)
    svg = Renderer("mediterraneum").render("map.svg.j2", title="mm <map> & co", state=state, events=[], **context)
    return context, svg


def view_box(root: ET.Element) -> tuple[float, float]:
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    return width, height


def text_extents(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Each text's box, estimated generously (0.64 of the font size a character, 0.72 in bold: DejaVu
    Sans averages less), and whether it lies in the legend (the group translated below the map)."""
    legend = next(g for g in root.iter(f"{SVG}g") if (g.get("transform") or "").startswith("translate(0,"))
    in_legend = {id(t) for t in legend.iter(f"{SVG}text")}
    shift = float(re.findall(r"[\d.]+", legend.get("transform", ""))[1])
    sizes = {"sea-name": 13.0, "land land-name": 11.0, "count": 10.0, "abbr": 8.0, "chart": 9.0, "chart-title": 10.0}
    bold = ("city", "count", "abbr", "chart-title")
    centred = ("count", "abbr", "chart", "chart-title")
    out = []
    for text in root.iter(f"{SVG}text"):
        words = text.text or ""
        size = float(text.get("font-size") or sizes.get(text.get("class") or "", 12.0))
        width = len(words) * size * (0.72 if (text.get("class") or "").split(" ")[0] in bold else 0.64)
        x, y = float(text.get("x", "0")), float(text.get("y", "0"))
        anchor = text.get("text-anchor") or ("middle" if text.get("class") in centred else "start")
        left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        legend_text = id(text) in in_legend
        top = y + (shift if legend_text else 0)
        out.append((words, (left, top - size, left + width, top + size * 0.3), legend_text))
    return out


@pytest.fixture(scope="module")
def opening_map() -> tuple[dict[str, Any], str]:
    return render(board(), opening())


@pytest.fixture(scope="module")
def busy_map() -> tuple[dict[str, Any], str]:
    return render(board(), busy())


def test_the_shipped_board_has_its_baked_map() -> None:
    data = json.loads(
        package_file("adjudicator.rulesets.mediterraneum", "boards/mediterraneum-1989.map.json").read_text()
    )
    the_board = board()
    assert set(data["regions"]) == set(the_board.lands) | set(the_board.seas)
    assert set(data["labels"]) == set(the_board.lands) | set(the_board.seas) | {"tax-chart"}
    assert set(data["ports"]) == set(the_board.cities)
    assert {city.land for city in the_board.cities.values()} <= set(data["markers"]), "each city has its marker"
    width, height = data["view_box"][2:]
    for x0, y0, x1, y1 in data["label_boxes"].values():
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
    boxes = data["label_boxes"]
    for a, b in itertools.combinations(sorted(boxes), 2):
        assert apart(boxes[a], boxes[b]) >= CLEARANCE, f"the cards of {a} and {b} overlap"
    rivers = {tuple(sorted((x.id, o))) for x in the_board.lands.values() for o in x.rivers}
    assert {tuple(pair.split("/")) for pair in data["rivers"]} == rivers
    assert all(data["rivers"].values()), "every river is drawn along its two lands' border"


def test_the_opening_map_is_valid_svg(opening_map: tuple[dict[str, Any], str]) -> None:
    context, svg = opening_map
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and context["map"]["geographic"]
    assert root.findtext(f"{SVG}title") == "mm <map> & co", "the title is escaped, and reads back"
    names = {t.text for t in root.iter(f"{SVG}text")}
    assert {c.name for c in board().cities.values()} <= names
    assert {s.name for s in board().seas.values()} <= names
    assert {x.name for x in board().lands.values()} <= names, "every land is named, under its city or alone"
    residences = [c for c in context["map"]["cities"] if c["residence"]]
    assert len(residences) == 12 and all(c["name"].isupper() for c in residences)
    assert not any(p["kind"] in ("ship", "army") for p in context["map"]["pieces"])


def test_a_busy_map_draws_every_piece(busy_map: tuple[dict[str, Any], str]) -> None:
    context, svg = busy_map
    root = ET.fromstring(svg)
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    position = busy()
    for ship in position.ships:
        assert sum(t.startswith(f"{ship.owner} ship {ship.number} ") for t in titles) == 1
    for army in position.armies:
        drawn = sum(t.startswith(f"{army.owner} army {army.number}") for t in titles)
        assert drawn == (0 if army.at.startswith("ship:") else 1), "an army aboard is drawn on its ship"
    assert any("Red ship 2 in Mare Tyrrhenum, carrying wine, army 4 aboard" in t for t in titles)
    assert any(t.startswith("Red ship 3 on the coast of ROMA, empty") for t in titles)
    assert any("carrying a work of art" in t for t in titles)
    assert any("army 3 inside SYRACUSAE" in t for t in titles)
    assert any("wants spices" in t for t in titles), "a second want disk is drawn too"
    statuses = {c["id"]: c["status"] for c in context["map"]["cities"]}
    assert statuses["roma"] == "capital" and statuses["neapolis"] == "province" and statuses["carthago"] == "taken"
    uses = [u.get("href") for u in root.iter(f"{SVG}use")]
    assert {"#mm-tower", "#mm-sword", "#mm-flag", "#mm-bolt", "#mm-anchor"} <= set(uses)
    storm = [s for s in context["map"]["seas"] if s["storm"]]
    assert [s["id"] for s in storm] == ["mare-aegaeum"] and 'fill="url(#mm-storm)"' in svg
    stone = context["map"]["chart"]["stone"]
    assert stone is not None and stone["title"].startswith("the tax stone on III, moved by Blue")
    cargo = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "abbr"}
    assert {"Me", "Wi", "Ho", "Gr", "Pa", "Sa", "Art"} <= cargo


@pytest.mark.parametrize("which", ["opening", "busy"])
def test_no_text_leaves_the_picture_or_runs_over_the_legend(which: str, request: pytest.FixtureRequest) -> None:
    context, svg = request.getfixturevalue(f"{which}_map")
    root = ET.fromstring(svg)
    width, height = view_box(root)
    map_height = context["map"]["height"]
    assert height - map_height >= 100, "the legend has its own band below the map"
    for words, (x0, y0, x1, y1), legend in text_extents(root):
        assert x0 >= 0 and x1 <= width, f"{words!r} runs out sideways"
        if legend:
            assert map_height <= y0 and y1 <= height, f"{words!r} leaves the legend"
        else:
            assert y0 >= 0 and y1 <= map_height, f"{words!r} runs off the map or over the legend"


def test_the_legend_edges_hold_no_ink(busy_map: tuple[dict[str, Any], str]) -> None:
    """Drawn by resvg with the shipped fonts: the legend's right-hand 12 units and last 6 are empty."""
    context, svg = busy_map
    width, height = view_box(ET.fromstring(svg))
    map_height = context["map"]["height"]
    for view, size in (
        (f"{width - 12} {map_height + 2} 12 {height - map_height - 4}", 12),
        (f"0 {height - 6} {width} 6", 800),
    ):
        strip = re.sub(r'viewBox="[^"]*"', f'viewBox="{view}"', svg, count=1)
        png = svg_to_png(strip, width=size)
        assert png[:4] == b"\x89PNG"
        from tests.test_pictures import pixels

        _, _, rows = pixels(png)
        assert not any(sum(row[i : i + 3]) < 300 for row in rows for i in range(0, len(row), 4)), f"ink in {view}"


def test_the_map_is_drawn_with_the_sizes_its_cards_were_baked_with() -> None:
    """The baked map's `drawing` (the board's .bake.toml, as tools/bake_map laid the cards out with it) is
    the one home of those sizes: the pieces, the land names' line, the storm mark, the tax chart and the
    names' fonts all follow it."""
    geography = ruleset_maps(MEDITERRANEUM)[board().id]
    sizes = geography["drawing"]
    changed = {
        **sizes,
        "city_size": 22.0,
        "land_size": 19.5,
        "land_name": 20.0,
        "sea_size": 21.0,
        "land_line": sizes["land_line"] + 10,
        "storm": sizes["storm"] + 4,
        "want": sizes["want"] + 4,
        "chart": {**sizes["chart"], "space_width": sizes["chart"]["space_width"] + 1},
    }
    position = busy()
    usual = map_data(board(), position, geography, COLOURS)
    drawn = map_data(board(), position, {**geography, "drawing": changed}, COLOURS)
    for a, b in zip(usual["cities"], drawn["cities"], strict=True):
        assert b["land_y"] == a["land_y"] + 10, f"{a['id']}: the land's name keeps the baked line"
    for a, b in zip(usual["seas"], drawn["seas"], strict=True):
        assert b["mark"] == a["mark"] + 2, f"{a['id']}: the storm mark sits in the middle of its baked room"
    assert drawn["chart"]["cell_width"] == usual["chart"]["cell_width"] + 1
    assert drawn["want_radius"] == usual["want_radius"] + 2, "a want disk fills its baked room less its gap"
    state = position_to_data(position)
    context = {**MEDITERRANEUM.report_data(board(), state, {}, {}, ruleset_maps(MEDITERRANEUM), COLOURS), "map": drawn}
    svg = Renderer("mediterraneum").render("map.svg.j2", title="sizes", state=state, events=[], **context)
    root = ET.fromstring(svg)
    assert root.get("font-size") == "22", "a city's name takes the root's size"
    for css in (
        ".land-name { font-size: 20px; }",
        ".land-under { font-size: 19.5px; }",
        ".sea-name { font-size: 21px;",
    ):
        assert css in svg, f"the names are drawn at the baked sizes: {css}"


def test_a_board_without_a_baked_map_gets_a_schematic_one() -> None:
    own = replace(board(), id="my-own-board")
    position = busy()
    data = map_data(own, position, ruleset_maps(MEDITERRANEUM).get(own.id), COLOURS)
    assert not data["geographic"] and data["links"] and data["land"] == ""
    _, svg = render(own, position)
    root = ET.fromstring(svg)
    width, _ = view_box(root)
    names = {t.text for t in root.iter(f"{SVG}text")}
    assert {c.name for c in own.cities.values()} <= names
    for words, (x0, _, x1, _), _ in text_extents(root):
        assert x0 >= 0 and x1 <= width, f"{words!r} runs out sideways"


def test_a_board_without_positions_still_draws() -> None:
    """Positions are optional in a board file: the schematic puts the places in rows instead."""
    own = board()
    own = replace(
        own,
        id="no-positions",
        lands={k: replace(v, position=None) for k, v in own.lands.items()},
        seas={k: replace(v, position=None) for k, v in own.seas.items()},
        cities={k: replace(v, position=None) for k, v in own.cities.items()},
    )
    _, svg = render(own, busy())
    root = ET.fromstring(svg)
    assert {c.name for c in own.cities.values()} <= {t.text for t in root.iter(f"{SVG}text")}


def test_goods_have_distinct_short_texts_and_pieces_readable_ink() -> None:
    short = abbreviations(board())
    assert set(short) == set(board().goods) and len(set(short.values())) == len(short)
    assert all(1 < len(text) <= 3 for text in short.values()) and "Art" not in short.values()
    assert short["grain"] == "Gr" and short["wine"] == "Wi"
    assert ink("#e8e4d8") == "#222222" and ink("#1f4e9c") == "#ffffff"
