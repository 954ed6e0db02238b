"""The map as a PNG picture: drawn with the shipped fonts only (a machine without fonts still
gets every label), shown by the BBCode and Markdown reports of a game that publishes its
reports (`[game] map_url`), and written on demand by `report --format png`. And what the map
draws: on a board where everything is built, every name and piece stays inside its place's label
box (which the baked map keeps clear of the others), new purchases are ringed, and the legend fits."""

from __future__ import annotations

import copy
import itertools
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.hosting.adjudication import adjudicate
from adjudicator.reports.maps import ruleset_maps
from adjudicator.reports.phase import PhaseReports, load_record
from adjudicator.reports.picture import svg_to_png
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import find_ruleset
from tests.empires_support import FIVE, empires_board, opening_position

runner = CliRunner()


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGBA rows of an 8-bit RGBA PNG (what resvg writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    data = b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at : at + 8])
        body = png[at + 8 : at + 8 + length]
        chunks[kind] = body
        if kind == b"IDAT":
            data += body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 6), "8-bit RGBA"
    raw, stride, rows = zlib.decompress(data), width * 4, []
    previous = bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 4] if x >= 4 else 0
            up, corner = previous[x], previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = bytes(line)
    return width, height, rows


def dark(rows: list[bytes], box: tuple[int, int, int, int]) -> int:
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if sum(rows[y][4 * x : 4 * x + 3]) < 300)


def test_a_label_has_ink_where_its_text_is() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60">'
        '<text x="10" y="40" font-family="DejaVu Sans, sans-serif" font-size="28" font-weight="bold">Roma</text>'
        "</svg>"
    )
    width, height, rows = pixels(svg_to_png(svg, width=200))
    assert (width, height) == (200, 60)
    assert dark(rows, (10, 15, 90, 42)) > 150, "the word is drawn where it stands"
    assert dark(rows, (120, 0, 200, 60)) == 0, "and nothing beside it"


def test_a_published_game_shows_the_png_map_in_bbcode_and_markdown(make_game: Callable[..., Game]) -> None:
    game = make_game()
    text = game.directory.game_file.read_text().replace("[game]\n", '[game]\nmap_url = "https://example.org/g/"\n')
    game.directory.game_file.write_text(text)
    result = adjudicate(Game.load(game.directory.root), force=True)
    folder = game.directory.reports / result.slug
    url = f"https://example.org/g/{result.slug}/map.png"
    assert f"[img]{url}[/img]" in (folder / "public.bbcode").read_text()
    assert f"]({url})" in (folder / "public.md").read_text()
    width, height, _ = pixels((folder / "map.png").read_bytes())
    assert width == 1200 and height > 700


def test_report_writes_the_png_on_demand(make_game: Callable[..., Game]) -> None:
    game = make_game()
    adjudicate(game, force=True)
    result = runner.invoke(app, ["report", str(game.directory.root), "--format", "png"])
    assert result.exit_code == 0 and "map.png" in result.stdout, result.output
    png = Path(result.stdout.split(" in ")[-1].strip())
    assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"


SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def full_board(make_game: Callable[..., Game]) -> tuple[dict[str, Any], str]:
    """A phase's report context with the board full: every city site and commodity built on, a temple,
    a market, three units (the most a label box keeps room for) in every province, a conversion and an
    occupation, three fleets in every sea, and a purchase of each kind in every province; and its map."""
    game = make_game()
    result = adjudicate(game, force=True)
    context = copy.deepcopy(PhaseReports(game, load_record(game, result.slug)).context)
    civs, state, events = sorted(context["colours"]), context["state"], []
    for number, (pid, province) in enumerate(sorted(state["provinces"].items())):
        info = game.board.provinces[pid]
        a, b, c = (civs[(number + k) % len(civs)] for k in range(3))
        province.update(
            influence=a, cities=list(info.cities), caravans=list(info.commodities), temple=True, market=True,
            legions={a: 2, b: 1}, fortresses={c: 1}, port={}, converting=b, occupied={"temple": b}, at_war=True,
        )  # fmt: skip
        for piece in ("influence", "city", "caravan", "temple", "market", "legion", "fortress"):
            event = {"kind": "purchase", "player": a if piece != "fortress" else c, "item": f"{piece} in {info.name}"}
            event |= {"site": info.cities[0]} if piece == "city" and info.cities else {}
            event |= {"commodity": info.commodities[0]} if piece == "caravan" else {}
            events.append(event)
    for sea in state["seas"].values():
        sea["triremes"] = {civ: 1 for civ in civs[:3]}
    context["events"] = events
    return context, Renderer(game.ruleset.name).render("map.svg.j2", **context)


def extent(element: ET.Element) -> tuple[float, float, float, float] | None:
    """The box a circle, rect, symbol instance or text anchor takes in view-box units."""
    number = {k: float(v) for k, v in element.attrib.items() if re.fullmatch(r"-?[\d.]+", v)}
    tag = element.tag.removeprefix(SVG)
    if tag == "circle":
        x, y, r = number["cx"], number["cy"], number["r"]
        return (x - r, y - r, x + r, y + r)
    if tag in ("rect", "use"):
        return (number["x"], number["y"], number["x"] + number["width"], number["y"] + number["height"])
    if tag == "text":
        return (number["x"], number["y"], number["x"], number["y"])
    return None


def test_a_full_board_draws_every_piece_inside_its_label_box(full_board: tuple[dict[str, Any], str]) -> None:
    context, svg = full_board
    places = context["map"]["places"]
    cards = {g.get("id", "").removeprefix("card-"): g for g in ET.fromstring(svg).iter(f"{SVG}g")}
    assert set(places) <= set(cards), "every place has its card"
    for pid, place in places.items():
        x0, y0, x1, y1 = place["box"]
        drawn = [box for element in cards[pid].iter() if (box := extent(element))]
        assert len(drawn) >= (3 if place["kind"] == "sea" else 14), f"{pid} shows its name and every piece"
        for a0, b0, a1, b1 in drawn:
            assert x0 - 0.5 <= a0 and a1 <= x1 + 0.5 and y0 - 0.5 <= b0 and b1 <= y1 + 0.5, f"a piece of {pid} spills"


def test_influence_markers_and_new_purchases_are_drawn(full_board: tuple[dict[str, Any], str]) -> None:
    context, svg = full_board
    root = ET.fromstring(svg)
    cards = {g.get("id", "").removeprefix("card-"): g for g in root.iter(f"{SVG}g")}
    for pid, province in context["state"]["provinces"].items():
        circles = list(cards[pid].iter(f"{SVG}circle"))
        marker = context["map"]["places"][pid]["marker"]
        at_marker = [c for c in circles if (float(c.get("cx", 0)), float(c.get("cy", 0))) == (marker["x"], marker["y"])]
        assert any(c.get("r") == "5.5" for c in at_marker), f"{pid} shows {province['influence']}'s marker"
        assert any(c.get("stroke-dasharray") for c in at_marker), f"{pid} shows its conversion"
        rings = [c for c in circles if c.get("class") == "new"]
        rings += [r for r in cards[pid].iter(f"{SVG}rect") if r.get("class") == "new"]  # around a caravan's tag
        new = 7 if province["cities"] else 6  # influence, city, caravan, temple, market, legion, fortress
        assert len(rings) == new, f"{pid}: each purchase there is ringed"
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert "bought this phase" in texts and "fill: who controls it · disc: whose influence" in texts


def test_nothing_is_new_without_purchases(full_board: tuple[dict[str, Any], str]) -> None:
    context, _ = full_board
    svg = Renderer("mare-nostrum").render("map.svg.j2", **{**context, "events": []})
    assert 'class="new"' not in svg.split("<g transform=")[0], "only the legend shows a ring"


def dark_outside(png: bytes, inner: tuple[int, int, int, int]) -> int:
    width, height, rows = pixels(png)
    x0, y0, x1, y1 = inner
    return sum(
        1
        for y in range(height)
        for x in range(width)
        if not (x0 <= x < x1 and y0 <= y < y1) and sum(rows[y][4 * x : 4 * x + 3]) < 300
    )


def test_every_name_is_drawn_inside_its_label_box(full_board: tuple[dict[str, Any], str]) -> None:
    """Each name as the template writes it, drawn by resvg with the shipped fonts, alone on a patch of
    the map 8 units wider than its box on every side: no ink falls outside the box."""
    context, svg = full_board
    style = re.search(r"<style>.*?</style>", svg, re.S)
    assert style is not None
    names = {m[1]: m[0] for m in re.findall(r'(<text [^>]*class="(?:sea-)?name">([^<]*)</text>)', svg)}
    for place in context["map"]["places"].values():
        x0, y0, x1, y1 = place["box"]
        text = names[place["name"]]
        width, height = round(x1 - x0) + 16, round(y1 - y0) + 16
        patch = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0 - 8} {y0 - 8} {width} {height}" '
            f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="13">{style.group(0)}{text}</svg>'
        )
        png = svg_to_png(patch, width=width)
        assert dark_outside(png, (8, 8, width - 8, height - 8)) == 0, f"{place['name']} runs out of its box"
        assert dark_outside(png, (0, 0, 0, 0)) > 20, f"{place['name']} is drawn"


def test_every_caravan_names_its_commodity_inside_its_tag(full_board: tuple[dict[str, Any], str]) -> None:
    """A caravan is a tag with its commodity's text (map.caravans: the word or an abbreviation), drawn
    by resvg with the shipped fonts, alone on a patch 8 units wider than the tag on every side at 2 pixels
    a unit: it has ink, and none outside the tag, which lies in its place's label box. The legend names
    what each abbreviation stands for."""
    context, svg = full_board
    style = re.search(r"<style>.*?</style>", svg, re.S)
    assert style is not None
    tags, places = context["map"]["caravans"], context["map"]["places"]
    root = ET.fromstring(svg)
    cards = {g.get("id", "").removeprefix("card-"): g for g in root.iter(f"{SVG}g")}
    seen = 0
    for pid, province in context["state"]["provinces"].items():
        pieces = [
            g for g in cards[pid].findall(f"{SVG}g") if (g.findtext(f"{SVG}title") or "").startswith("caravan on ")
        ]
        assert len(pieces) == len(province["caravans"]), f"{pid} draws every caravan"
        for piece, commodity in zip(pieces, province["caravans"], strict=True):
            tag, text = piece.find(f"{SVG}rect[@class='tag']"), piece.find(f"{SVG}text[@class='tag-text']")
            assert tag is not None and text is not None, f"{pid}: the caravan on {commodity} is a tag"
            assert text.text == tags[commodity]["text"], f"{pid}: the tag names {commodity}"
            x, y, w, h = (float(tag.get(k, "0")) for k in ("x", "y", "width", "height"))
            assert w == tags[commodity]["width"] and h == 14
            x0, y0, x1, y1 = places[pid]["box"]
            assert x0 - 0.5 <= x and x + w <= x1 + 0.5 and y0 - 0.5 <= y and y + h <= y1 + 0.5, f"{pid}: a tag spills"
            patch = (
                f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x - 8} {y - 8} {w + 16} {h + 16}" '
                f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="13">{style.group(0)}'
                f"{ET.tostring(text, encoding='unicode')}</svg>"
            )
            png = svg_to_png(patch, width=round(2 * (w + 16)))
            _, height, _ = pixels(png)
            assert dark_outside(png, (16, 16, round(2 * (w + 8)), height - 16)) == 0, f"{pid}: {text.text} runs out"
            assert dark_outside(png, (0, 0, 0, 0)) > 12 * len(text.text or ""), f"{pid}: {text.text} is drawn"
            seen += 1
    assert seen >= 60, "a full board has a caravan on every commodity icon"
    legend = "".join(t.text or "" for t in root.iter(f"{SVG}text") if "caravan" in (t.text or ""))
    for commodity, tag in tags.items():
        if tag["text"].lower() != commodity:
            assert f"{tag['text']}: {commodity}" in legend, f"the legend explains {tag['text']}"


def test_the_legend_fits_inside_the_drawing(full_board: tuple[dict[str, Any], str]) -> None:
    """The right-hand 12 units of the legend and its last 6 rows hold no text: nothing is cut off."""
    context, svg = full_board
    width, height = (float(v) for v in ET.fromstring(svg).get("viewBox", "").split()[2:])
    map_height = context["map"]["height"]
    assert height - map_height >= 100, "the legend has its own band below the map"
    for view, size in ((f"{width - 12} {map_height} 12 {height - map_height}", 12), (f"0 {height - 6} {width} 6", 600)):
        strip = re.sub(r'viewBox="[^"]*"', f'viewBox="{view}"', svg, count=1)
        _, _, rows = pixels(svg_to_png(strip, width=size))
        assert not any(sum(row[i : i + 3]) < 300 for row in rows for i in range(0, len(row), 4)), f"text in {view}"


def test_the_map_is_drawn_with_the_sizes_its_cards_were_baked_with(full_board: tuple[dict[str, Any], str]) -> None:
    """The baked map's `drawing` (tools/bake_map/labels.py DRAWING, which the cards were laid out with, the
    same on the Empires board) is the one home of those sizes: the names' font, the building icons and the
    gaps between them, the caravan tags' text, the units' and the fleets' steps all follow it."""
    context, _ = full_board
    sizes = context["map"]["drawing"]
    changed = {
        **sizes,
        "name_size": sizes["name_size"] + 2,
        "icon": sizes["icon"] - 2,
        "icon_gap": sizes["icon_gap"] + 1,
        "tag_size": sizes["tag_size"] - 1,
        "tag_left": sizes["tag_left"] + 1,
        "unit": sizes["unit"] + 3,
        "fleet": sizes["fleet"] + 4,
    }
    svg = Renderer("mare-nostrum").render("map.svg.j2", **{**context, "map": {**context["map"], "drawing": changed}})
    root = ET.fromstring(svg)
    assert root.get("font-size") == f"{changed['name_size']:g}", "the names take the root's size"
    assert f".tag-text {{ font-size: {changed['tag_size']:g}px;" in svg, "a tag's text takes the baked size"
    cards = {g.get("id", "").removeprefix("card-"): g for g in root.iter(f"{SVG}g")}
    for pid, place in context["map"]["places"].items():
        card = cards[pid]
        if place["kind"] == "sea":
            ships = [float(u.get("x", 0)) for u in card.iter(f"{SVG}use")]
            assert len(ships) == 3 and all(
                b - a == pytest.approx(changed["fleet"]) for a, b in itertools.pairwise(ships)
            )
            continue
        row = [
            e
            for e in card.iter()
            if e.get("href") in ("#map-city", "#map-temple", "#map-market") or e.get("class") == "tag"
        ]
        assert all(e.get("height") == f"{changed['icon']:g}" for e in row), (
            f"{pid}: the icons and tags are the baked size"
        )
        spans = [(float(e.get("x", 0)), float(e.get("x", 0)) + float(e.get("width", 0))) for e in row]
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert start - end == pytest.approx(changed["icon_gap"], abs=0.11), (
                f"{pid}: the baked gap between buildings"
            )
        for tag in card.iter(f"{SVG}rect"):
            if tag.get("class") == "tag":
                text = next(t for t in card.iter(f"{SVG}text") if t.get("class") == "tag-text")
                assert float(text.get("x", 0)) - float(tag.get("x", 0)) == pytest.approx(changed["tag_left"])
                break
        counts = [float(t.get("x", 0)) for t in card.iter(f"{SVG}text") if t.get("class") == "count"]
        assert len(counts) == 3 and all(b - a == pytest.approx(changed["unit"]) for a, b in itertools.pairwise(counts))


def test_the_empires_map_is_drawn_with_the_sizes_its_cards_were_baked_with() -> None:
    """The Empires map reads the same `drawing` from its own map file: the names' font, the building icons,
    the units' and the fleets' steps follow it."""
    ruleset = find_ruleset("empires")
    board = empires_board()
    state = ruleset.position_to_data(opening_position())
    empires = sorted(FIVE)
    for number, (pid, province) in enumerate(sorted(state["provinces"].items())):
        a, b, c = (empires[(number + k) % len(empires)] for k in range(3))
        printed = board.provinces[pid]
        province.update(
            city=printed.city is not None,
            market=printed.market,
            temple=printed.temple,
            legions={a: 1, b: 2},
            fortress=c,
        )
    for sea in state["seas"].values():
        sea["triremes"] = {e: 1 for e in empires[:3]}
    context = ruleset.report_data(board, state, {}, {}, ruleset_maps(ruleset), ruleset.colours(board, "distinct"))
    sizes = context["map"]["drawing"]
    changed = {**sizes, "name_size": sizes["name_size"] + 2, "icon": sizes["icon"] - 2, "unit": sizes["unit"] + 3}
    changed |= {"fleet": sizes["fleet"] + 4}
    context["map"] = {**context["map"], "drawing": changed}
    svg = Renderer("empires").render("map.svg.j2", title="sizes", state=state, events=[], **context)
    root = ET.fromstring(svg)
    assert root.get("font-size") == f"{changed['name_size']:g}", "the names take the root's size"
    buildings = ("#map-city", "#map-capital", "#map-legendary", "#map-market", "#map-temple")
    uses = list(root.iter(f"{SVG}use"))
    for pid, place in context["map"]["places"].items():
        x0, y0, x1, y1 = context["map"]["boxes"][pid]
        x0, x1 = x0 - 20, x1 + 20  # the changed steps reach past the baked box
        if place["kind"] == "sea":
            xs = sorted(
                float(u.get("x", 0))
                for u in uses
                if u.get("href") == "#map-ship"
                and x0 <= float(u.get("x", 0)) <= x1
                and float(u.get("y", 0)) == place["y"] + 6
            )
            assert len(xs) == 3 and all(b - a == pytest.approx(changed["fleet"]) for a, b in itertools.pairwise(xs)), (
                pid
            )
            continue
        if pid in context["covered"]:
            continue
        icons = [
            u
            for u in uses
            if u.get("href") in buildings and x0 <= float(u.get("x", 0)) <= x1 and y0 <= float(u.get("y", 0)) <= y1
        ]
        assert all(u.get("width") == u.get("height") == f"{changed['icon']:g}" for u in icons), pid
        p = state["provinces"][pid]
        uy = place["pieces"]["units" if p["city"] or p["market"] or p["temple"] or p["caravans"] else "units_alone"]
        legions = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "8" and float(c.get("cy", 0)) == uy]
        xs = sorted(float(c.get("cx", 0)) for c in legions if x0 <= float(c.get("cx", 0)) <= x1)
        assert len(xs) == 2 and xs[1] - xs[0] == pytest.approx(changed["unit"]), f"{pid}: the units' step is baked"
