"""Map symbols never cover a name (issue 34): in every phase of each ruleset's demo game, played
in each of the five languages, no arrowhead of a move lies on any name or piece, no ring (a
battle's, a conversion's, a purchase's, a Residence's) lies on another place's name or pieces, and
the moves and battles are drawn before (under) the names.

The names are the texts of the classes `name`, `sea-name`, `city` and `land`, each measured as a
box from its anchor, its text-anchor and its font size with the baker's own advance widths
(tools/bake_map/metrics.py `Metrics`); the pieces are measured with test_pictures' `extent`. Each
belongs to the place whose baked label box holds it. Those boxes are the rooms kept for a name and
every piece its place could hold, mostly empty, 3 units apart: a straight arrow between two places
often has to cross them (Athenae to Mare Ionium crosses Sparta's and Cnossus's) and its head cannot
always find a gap between two rooms, so the test measures what is drawn, not the rooms.

The design (templates/mare-nostrum/map-geographic.svg.j2, templates/empires/map.svg.j2): an arrow
runs from the origin's room to the destination's (its head stops at the edge of the room, short of
what is drawn in it); a battle's ring circles its place's name with a radius that stops short of
every other place's room, so it may cross only its own name and pieces; and moves and battles lie
under the names, whose halo (`paint-order: stroke`) keeps them whole where a shaft or a ring
passes, and under the pieces."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from adjudicator.game.game import Game
from adjudicator.reports.maps import baked_maps
from adjudicator.reports.phase import PhaseReports, load_record
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import find_ruleset
from tests.test_pictures import extent
from tools.bake_map.metrics import Metrics

SVG = "{http://www.w3.org/2000/svg}"
LANGUAGES = ("en", "pl", "hu", "fr", "es")
RULESETS = ("mare-nostrum", "empires", "mediterraneum")

Box = tuple[float, float, float, float]
Point = tuple[float, float]


NAMES = ("name", "sea-name", "city", "land")
METRICS = Metrics()


def names(root: ET.Element) -> list[tuple[str, Box]]:
    """Each place name on the map (the legend's texts are not names) and its box: from the ascent to
    the descent of DejaVu Sans (0.76 and 0.24 of the font size) about its baseline."""
    style = "".join(s.text or "" for s in root.iter(SVG + "style"))
    sizes = {c: float(v) for c, v in re.findall(r"\.([\w-]+) \{[^}]*?font-size: ([\d.]+)px", style)}
    default = float(root.get("font-size", 12))
    found = []
    for text in root.iter(SVG + "text"):
        classes = (text.get("class") or "").split()
        if not set(classes) & set(NAMES):
            continue
        size = float(text.get("font-size") or next((sizes[c] for c in reversed(classes) if c in sizes), default))
        label = "".join(text.itertext())
        width = METRICS.width(label, size, bold="name" in classes or "city" in classes)
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        left = x - {"middle": width / 2, "end": width}.get(text.get("text-anchor", "start"), 0)
        found.append((label, (left, y - 0.76 * size, left + width, y + 0.24 * size)))
    return found


def arrowhead(line: ET.Element) -> list[Point]:
    """The triangle the `#arrow` marker draws at a line's end: its path M0,0 L10,5 L0,10 in a 10-unit
    view box, markerWidth 6 stroke widths, its reference point (8, 5) on the line's end."""
    x1, y1, x2, y2 = (float(line.get(k, 0)) for k in ("x1", "y1", "x2", "y2"))
    scale = 6 * float(line.get("stroke-width", 1)) / 10
    length = math.hypot(x2 - x1, y2 - y1) or 1
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip = (x2 + ux * 2 * scale, y2 + uy * 2 * scale)
    bx, by = x2 - ux * 8 * scale, y2 - uy * 8 * scale
    return [tip, (bx - uy * 5 * scale, by + ux * 5 * scale), (bx + uy * 5 * scale, by - ux * 5 * scale)]


def polygon_meets_box(polygon: Sequence[Point], box: Box) -> bool:
    """Whether a convex polygon and a box overlap (separating axes: the box's two and the polygon's
    edge normals)."""
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    axes = [(1.0, 0.0), (0.0, 1.0)]
    axes += [(b[1] - a[1], a[0] - b[0]) for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True)]
    for ax, ay in axes:
        p = [x * ax + y * ay for x, y in polygon]
        q = [x * ax + y * ay for x, y in corners]
        if max(p) <= min(q) or max(q) <= min(p):
            return False
    return True


def ring_meets_box(cx: float, cy: float, inner: float, outer: float, box: Box) -> bool:
    """Whether the band between two radii about (cx, cy) overlaps a box."""
    nearest = math.hypot(max(box[0] - cx, 0, cx - box[2]), max(box[1] - cy, 0, cy - box[3]))
    farthest = math.hypot(max(cx - box[0], box[2] - cx), max(cy - box[1], box[3] - cy))
    return nearest < outer and farthest > inner


def legend(element: ET.Element) -> bool:
    """The legend below the map: a group moved down past it."""
    return element.tag == SVG + "g" and element.get("transform", "").startswith("translate")


def symbols(root: ET.Element) -> list[tuple[str, object]]:
    """The arrowheads and rings on the map, the legend's left out: ("arrow", triangle) and ("ring",
    (cx, cy, inner, outer))."""
    found: list[tuple[str, object]] = []

    def walk(element: ET.Element) -> None:
        for child in element:
            if legend(child):
                continue
            if child.tag == SVG + "line" and child.get("marker-end") == "url(#arrow)":
                found.append(("arrow", arrowhead(child)))
            elif child.tag == SVG + "circle" and (child.get("fill") == "none" or child.get("class") == "new"):
                r, width = float(child.get("r", 0)), float(child.get("stroke-width", 2.2))
                cx, cy = float(child.get("cx", 0)), float(child.get("cy", 0))
                found.append(("ring", (cx, cy, r - width / 2, r + width / 2)))
            walk(child)

    walk(root)
    return found


def pieces(root: ET.Element) -> list[tuple[str, Box]]:
    """What else a place shows: each disc, icon, tag, plate and count (its box, test_pictures'
    `extent`), leaving out the symbols, the legend, the definitions and the background."""
    found = []

    def walk(element: ET.Element) -> None:
        for child in element:
            if legend(child) or child.tag == SVG + "defs":
                continue
            ring = child.tag == SVG + "circle" and (child.get("fill") == "none" or child.get("class") == "new")
            name = set((child.get("class") or "").split()) & set(NAMES)
            placed = child.tag not in (SVG + "rect", SVG + "use") or "x" in child.attrib  # not the background
            box = extent(child) if placed and not ring and not name else None
            if box and box[2] - box[0] < 200:
                found.append((child.tag.removeprefix(SVG), box))
            walk(child)

    walk(root)
    return found


def distance(x: float, y: float, box: Box) -> float:
    return math.hypot(max(box[0] - x, 0, x - box[2]), max(box[1] - y, 0, y - box[3]))


def owner(box: Box, rooms: dict[str, Box]) -> str:
    """The place whose label box (room) holds the middle of a box, or failing that is nearest it."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return min(rooms, key=lambda pid: distance(x, y, rooms[pid]))


def overlaps(root: ET.Element, rooms: dict[str, Box]) -> list[str]:
    """Each symbol's overlap with what it may not lie on: an arrowhead with any name or piece; a ring
    with any but those of its own place (the place whose label box holds them, and holds the ring's
    centre)."""
    found = []
    shown = [(label, box, owner(box, rooms)) for label, box in [*names(root), *pieces(root)]]
    for kind, shape in symbols(root):
        if kind == "arrow":
            assert isinstance(shape, list)
            tip = tuple(round(v) for v in shape[0])
            found += [
                f"the arrowhead at {tip} on {label} of {pid}"
                for label, box, pid in shown
                if polygon_meets_box(shape, box)
            ]
        else:
            assert isinstance(shape, tuple)
            cx, cy, inner, outer = shape
            own = owner((cx, cy, cx, cy), rooms)
            found += [
                f"the ring of {own} at ({cx:g}, {cy:g}) on {label} of {pid}"
                for label, box, pid in shown
                if pid != own and ring_meets_box(cx, cy, inner, outer, box)
            ]
    return found


def drawn_over_a_name(root: ET.Element) -> list[str]:
    """The symbols drawn after the first name, so over the names."""
    order: list[ET.Element] = []

    def walk(element: ET.Element) -> None:
        for child in element:
            if not legend(child):
                order.append(child)
                walk(child)

    walk(root)
    first = next((i for i, e in enumerate(order) if set((e.get("class") or "").split()) & set(NAMES)), len(order))
    return [
        f"{e.tag.removeprefix(SVG)} {e.get('cx') or e.get('x2')},{e.get('cy') or e.get('y2')}"
        for e in order[first:]
        if (e.tag == SVG + "line" and e.get("marker-end") == "url(#arrow)")
        or (e.tag == SVG + "circle" and e.get("fill") == "none" and float(e.get("r", 0)) > 20)
    ]


@pytest.fixture(scope="module", params=[(r, lang) for r in RULESETS for lang in LANGUAGES], ids=lambda p: "-".join(p))
def played(request: pytest.FixtureRequest, demo_played: Callable[..., Path]) -> tuple[str, list[tuple[str, str]]]:
    """Each ruleset's demo game and its phases' maps (phase, SVG) in each language: as written for
    English, drawn again in the others from the same phases (a demo played in another language comes
    to the same positions: test_translations.py), the words on the map in that language."""
    ruleset, lang = request.param
    game_folder = demo_played(ruleset)
    written = sorted((game_folder / "reports").glob("*/map.svg"))
    if lang == "en":
        return ruleset, [(svg.parent.name, svg.read_text(encoding="utf-8")) for svg in written]
    game = Game.load(game_folder)
    drawn = []
    for svg in written:
        context = PhaseReports(game, load_record(game, svg.parent.name)).context
        drawn.append((svg.parent.name, str(Renderer(game.ruleset.name, lang).render_markup("map.svg.j2", **context))))
    return ruleset, drawn


def test_the_overlap_checks_see_an_overlap() -> None:
    line = ET.fromstring('<line x1="0" y1="0" x2="100" y2="0" stroke-width="3"/>')
    assert polygon_meets_box(arrowhead(line), (101, -2, 140, 2)), "the tip reaches 3.6 past the line's end"
    assert not polygon_meets_box(arrowhead(line), (104, -2, 140, 2))
    assert not polygon_meets_box([(0, 0), (10, 10), (0, 10)], (6, 0, 10, 3)), "beside the triangle's slope"
    assert ring_meets_box(0, 0, 29, 31, (25, -5, 40, 5))
    assert not ring_meets_box(0, 0, 29, 31, (-10, -10, 10, 10)), "inside the ring's hole"
    assert not ring_meets_box(0, 0, 29, 31, (32, 0, 40, 5))


def test_no_symbol_covers_another_place_s_label(played: tuple[str, list[tuple[str, str]]]) -> None:
    ruleset, maps = played
    assert maps, "the demo draws a map every phase"
    (geography,) = baked_maps(find_ruleset(ruleset).board).values()
    rooms = {pid: tuple(box) for pid, box in geography["boxes"].items()}
    found = [f"{phase}: {o}" for phase, svg in maps for o in overlaps(ET.fromstring(svg), rooms)]
    assert not found, "\n".join(found)


def test_moves_and_battles_are_drawn_under_the_names(played: tuple[str, list[tuple[str, str]]]) -> None:
    _, maps = played
    found = [f"{phase}: {o}" for phase, svg in maps for o in drawn_over_a_name(ET.fromstring(svg))]
    assert not found, "\n".join(found)


def test_a_name_is_measured_where_it_is_drawn() -> None:
    root = ET.fromstring(
        f'<svg xmlns="{SVG[1:-1]}" font-size="13"><style>.sea-name {{ font-size: 10px; }}</style>'
        '<text x="100" y="50" text-anchor="middle" class="name">Roma</text>'
        '<text x="0" y="20" class="sea-name">Mare</text><text x="0" y="0">legend</text></svg>'
    )
    (roma, (x0, y0, x1, y1)), (mare, box) = names(root)
    assert (roma, mare) == ("Roma", "Mare")
    assert x0 < 100 < x1 and round(x0 + x1) == 200 and 30 < x1 - x0 < 45 and y0 < 50 < y1
    assert box[0] == 0 and box[3] - box[1] == pytest.approx(10)
