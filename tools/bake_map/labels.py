"""The label cards of the report map: where each place's name, and the block of pieces drawn with it, go.

The bake (cards.py) builds each board's cards and calls `place_cards`; the map file holds what it returns.

A card is a name and a block of pieces. The name's label point (x, y) is the middle of its baseline. A
province's block is two rows, its buildings (cities, caravans, temple, market) and then its units
(legions, fortresses, triremes in port); a sea's is one row of fleets. A city, temple or market is an
icon; a caravan is a tag as wide as its commodity's text (`caravan_tags`: a small caravan diamond, then
the commodity's word, or a short abbreviation of a long one, in bold), so that the PNG shows it too.
The block goes under the name, above it, or beside it (LAYOUTS), whichever costs least:

    (o) Name            (o) Name [c][v][t]      [c][v]          [c][v] (o) Name
       [c][v][t]            (2) [#]             (2) [#]         (2) [#]
       (2) [#]                                (o) Name
       below               right                above              left

(o) is the influence marker. The card's box is reserved for the most the province can hold: every
printed city site and commodity icon built on (each caravan as wide as its tag), a temple, a market and
the board's units (its `.bake.toml`; a sea: FLEETS fleets); more units than that spill sideways. On the
Empires board a province holds its city site and a market and a temple only where printed, and four
units (legions of up to three empires and a fortress): cards.py passes the icons and units of each
board. The sizes the map is drawn with as well as laid out with (DRAWING: the names' font size, a
building's icon and the gap after it, a caravan tag's text, a unit's and a fleet's step) are the same on
both boards, and this is their one home: the bake writes them into each map file's `drawing`, where
templates/mare-nostrum/map-geographic.svg.j2 and templates/empires/map.svg.j2 read them. The other sizes
below only steer the layout. Text widths come from the fonts the PNG is drawn with (adjudicator/fonts), so
a box is as wide as its name really is.

Placement is deterministic. Each card has candidates: label points on a STEP grid inside its region (the
name's middle too; a finer grid where that one misses a narrow island), in each layout. A candidate
costs its distance from the region's pole of inaccessibility (shapely's polylabel: the point farthest
from the region's edge), its layout, and what its box covers that it should not: another province's
land, for a province; land, for a sea, so that sea names sit in open water (areas are counted on a
RASTER grid). The cards are placed most constrained first, each at its cheapest candidate, a box within
PADDING of one already placed costing CLASH_COST a square unit; then each is placed again among all the
others, until nothing moves. Boxes that still overlap are an error.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from tools.bake_map.metrics import Metrics


@dataclass(frozen=True, slots=True)
class Drawing:
    """The sizes a province card (2003 and Empires boards) is laid out with that the map templates draw
    with too, in view-box units: the map file's `drawing`. Whole sizes are ints, so that the templates,
    which compute with them, write the same numbers as with literals."""

    name_size: float  # the font size of province names (bold) and sea names
    icon: float  # a building's icon (city, temple, market), as wide as high: the buildings row's height
    icon_gap: float  # between two buildings in their row
    tag_size: float  # the font size of the bold text of a caravan's tag
    tag_left: float  # a tag's diamond (and the gap after it) left of its text
    unit: float  # one unit's step in the units row
    unit_row: float  # the height of the units row
    fleet: float  # one fleet's step under a sea


DRAWING = Drawing(name_size=13, icon=14, icon_gap=2, tag_size=10, tag_left=10.5, unit=22, unit_row=18, fleet=26)

# The layout's sizes, in view-box units: those taken from DRAWING are drawn with too, the rest only lay out.
NAME_SIZE = DRAWING.name_size
NAME_ABOVE, NAME_BELOW = 14.5, 5.5  # a name's extent above and below its baseline (with the marker's ring)
MARKER = 19.5  # the influence marker (with a conversion ring or a halo around it), left of the name
MARKER_X, MARKER_Y = 9.0, 4.5  # the marker's centre: this far left of the name and above the baseline
ICON = DRAWING.icon + DRAWING.icon_gap  # a building's icon and its gap, in the buildings row
ICON_GAP = DRAWING.icon_gap  # between two buildings in their row
TAG_SIZE = DRAWING.tag_size  # the bold text of a caravan's tag
TAG_LEFT, TAG_RIGHT = DRAWING.tag_left, 2.5  # a tag's diamond (and its gap) left of its text, its end after it
# A caravan's commodity as its tag shows it: the word, capitalised, unless it is long.
TAG_TEXTS = {"livestock": "Stock", "perfume": "Perf", "papyrus": "Papyr", "gladiators": "Glad", "pottery": "Pott"}
UNIT = DRAWING.unit  # one unit in the units row
ICON_ROW, UNIT_ROW = DRAWING.icon, DRAWING.unit_row  # the heights of the buildings row and of the units row
PROVINCE_BLOCK = 36.0  # the height of a province's block: the two rows and a gap
FLEET = DRAWING.fleet  # one fleet under a sea
FLEETS = 3  # fleets reserved in a sea's block
SEA_BLOCK = 13.0  # the height of a sea's block: one row of fleets
GAP = 2.0  # between a name and its block, above or below it
SIDE_GAP = 4.0  # between a name and its block, beside it
HALO = 2.0  # a block's box reaches this far past its rows, for the halo of a piece bought this phase
# Where the block goes, and what that costs against the block under the name.
LAYOUTS = {"below": 0.0, "above": 600.0, "right": 900.0, "left": 900.0}
SEA_LAYOUTS = {"below": 0.0, "above": 100.0}

PADDING = 3.0  # view-box units kept clear between two cards, and between a card and the edge
STEP = 4.0  # the grid of candidate label points
RASTER = 2.0  # the cell of the raster that costs what a card covers
SEARCH = 140.0  # candidates lie within this of the pole
DISTANCE_COST = 6.0  # the cost of a unit of distance from the pole, against a square unit of cover
PROVINCE_COVER = {"province": 1.0, "land": 0.15, "sea": 0.3}  # per square unit a province card covers
SEA_COVER = {"province": 2.0, "land": 2.0, "sea": 0.3}  # per square unit a sea card covers
CLASH_COST = 1000.0  # the cost of a square unit of one card on another (or within PADDING of it)
ROUNDS = 30  # at most this many rounds of placing every card again


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    sea: bool
    name: tuple[float, float, float, float]  # the name's box around the label point: left, top, right, bottom
    block: tuple[float, float]  # the width and height of the block of pieces
    region: BaseGeometry


@dataclass(frozen=True, slots=True)
class Placed:
    label: tuple[float, float]  # the middle of the name's baseline
    box: tuple[float, float, float, float]  # the name and its block
    rows: dict[str, float | str]  # where the block's rows go (see `rows`)
    marker: tuple[float, float] | None  # the influence marker's centre (provinces)


def caravan_tags(commodities: Sequence[str], metrics: Metrics) -> dict[str, tuple[str, float]]:
    """The text of each commodity's caravan tag and the tag's width (rounded up to 0.1). No two
    commodities share a text."""
    tags = {}
    for commodity in sorted(set(commodities)):
        text = TAG_TEXTS.get(commodity, commodity.capitalize())
        width = TAG_LEFT + metrics.width(text, TAG_SIZE, True) + TAG_RIGHT
        tags[commodity] = (text, math.ceil(width * 10) / 10)
    texts = [text for text, _ in tags.values()]
    if len(set(texts)) != len(texts):
        raise SystemExit(f"two commodities share a caravan tag: {sorted(texts)}")
    return tags


def province_card(
    pid: str,
    name: str,
    icons: int,
    tags: Sequence[float],
    region: BaseGeometry,
    metrics: Metrics,
    units: int,
) -> Card:
    """The card of a province with `icons` building icons (its city sites, temple and market), caravan
    tags `tags` wide (one for each caravan site) and room for `units` units."""
    half = metrics.width(name, NAME_SIZE, True) / 2
    row = ICON * icons + sum(w + ICON_GAP for w in tags)  # its cities, caravans, temple and market
    box = (-half - MARKER, -NAME_ABOVE, half + 1, NAME_BELOW)
    return Card(pid, False, box, (max(row, UNIT * units), PROVINCE_BLOCK), region)


def sea_card(sid: str, name: str, region: BaseGeometry, metrics: Metrics) -> Card:
    half = metrics.width(name, NAME_SIZE, False) / 2
    return Card(sid, True, (-half, -NAME_ABOVE, half, NAME_BELOW), (FLEET * FLEETS, SEA_BLOCK), region)


def block_at(card: Card, layout: str) -> tuple[float, float, str, tuple[float, float, float, float]]:
    """Where the card's block goes in a layout, from the label point: the x its rows line up on, its top,
    how they line up, and its box (HALO larger than the rows)."""
    left, top, right, bottom = card.name
    width, height = card.block
    if layout == "below":
        x, y, align, x0 = 0.0, bottom + GAP + HALO, "middle", -width / 2
    elif layout == "above":
        x, y, align, x0 = 0.0, top - GAP - HALO - height, "middle", -width / 2
    elif layout == "right":
        x, y, align, x0 = right + SIDE_GAP + HALO, (top + bottom - height) / 2, "start", right + SIDE_GAP + HALO
    else:
        x, y, align, x0 = left - SIDE_GAP - HALO, (top + bottom - height) / 2, "end", left - SIDE_GAP - HALO - width
    return x, y, align, (x0 - HALO, y - HALO, x0 + width + HALO, y + height + HALO)


def rows(card: Card, layout: str, at: tuple[float, float]) -> dict[str, float | str]:
    """Where the template draws the block's rows, for a card at label point `at`: "x" and "align" (as
    SVG's text-anchor) line them up; "fleets" is the middle of a sea's row, "buildings" and "units" the
    middle of a province's rows with both drawn, "buildings_alone" and "units_alone" with one. The row
    next to the name is the buildings', and a row drawn alone is next to the name (beside it: level with
    it)."""
    x, y = at
    dx, top, align, _ = block_at(card, layout)
    top += y
    out: dict[str, float | str] = {"x": round(x + dx, 1), "align": align}
    if card.sea:
        return out | {"fleets": round(top + card.block[1] / 2, 1)}
    height = card.block[1]
    icons_first, units_last = top + ICON_ROW / 2, top + height - UNIT_ROW / 2  # under or beside the name
    if layout == "above":
        both = (top + height - ICON_ROW / 2, top + UNIT_ROW / 2)
        alone = (top + height - ICON_ROW / 2, top + height - UNIT_ROW / 2)
    elif layout == "below":
        both, alone = (icons_first, units_last), (icons_first, top + UNIT_ROW / 2)
    else:
        level = y + (card.name[1] + card.name[3]) / 2
        both, alone = (icons_first, units_last), (level, level)
    return out | {
        "buildings": round(both[0], 1),
        "units": round(both[1], 1),
        "buildings_alone": round(alone[0], 1),
        "units_alone": round(alone[1], 1),
    }


def pole(region: BaseGeometry, near: Point) -> Point:
    """The pole of inaccessibility of the region's largest part (for an island province with islets, the
    island), or of the part nearest `near` when that part is a tenth of the largest or more."""
    parts = sorted(getattr(region, "geoms", [region]), key=lambda p: -p.area)
    big = [p for p in parts if p.area >= parts[0].area / 10]
    part = min(big, key=lambda p: (p.distance(near), -p.area))
    return polylabel(part, tolerance=0.5)


@dataclass(frozen=True, slots=True)
class Options:
    """A card's candidates, cheapest first: label points, boxes, layouts and costs."""

    points: NDArray[np.float64]
    boxes: NDArray[np.float64]
    layouts: list[str]
    costs: NDArray[np.float64]


class Cover:
    """What each kind of surface covers, as a raster of RASTER-unit cells with summed-area tables, so that
    the area of any box on it is four look-ups."""

    def __init__(self, kinds: Mapping[str, BaseGeometry], view: tuple[float, float]) -> None:
        width, height = view
        self.x = np.arange(RASTER / 2, width, RASTER)
        self.y = np.arange(RASTER / 2, height, RASTER)
        self.gx, self.gy = np.meshgrid(self.x, self.y)
        self.masks = {kind: self.mask(geometry) for kind, geometry in kinds.items()}

    def mask(self, geometry: BaseGeometry) -> NDArray[np.bool_]:
        shapely.prepare(geometry)
        return np.asarray(shapely.contains_xy(geometry, self.gx, self.gy), dtype=bool)

    def table(self, mask: NDArray[np.bool_]) -> NDArray[np.float64]:
        table = np.zeros((mask.shape[0] + 1, mask.shape[1] + 1))
        table[1:, 1:] = np.cumsum(np.cumsum(mask * RASTER * RASTER, axis=0), axis=1)
        return table

    def area(self, table: NDArray[np.float64], boxes: NDArray[np.float64]) -> NDArray[np.float64]:
        """The area of each box (x0, y0, x1, y1) that the table's mask covers (to the nearest cell)."""
        ny, nx = table.shape[0] - 1, table.shape[1] - 1
        i0, i1 = (np.clip(np.round(boxes[:, k] / RASTER).astype(int), 0, nx) for k in (0, 2))
        j0, j1 = (np.clip(np.round(boxes[:, k] / RASTER).astype(int), 0, ny) for k in (1, 3))
        return np.asarray(table[j1, i1] - table[j0, i1] - table[j1, i0] + table[j0, i0], dtype=np.float64)


def candidates(card: Card, at: Point, view: tuple[float, float], cover: Cover) -> Options:
    """The card's candidate label points inside its region, in every layout, and the cost of each."""
    start = pole(card.region, at)
    core = card.region.buffer(-1.0)
    for step in (STEP, STEP / 2, STEP / 4):  # a finer grid only where the coarse one misses a narrow region
        offsets = np.arange(-SEARCH, SEARCH + step / 2, step)
        gx, gy = np.meshgrid(start.x + offsets, start.y + offsets)
        grid = np.column_stack((gx.ravel(), gy.ravel()))
        grid = grid[np.hypot(grid[:, 0] - start.x, grid[:, 1] - start.y) <= SEARCH]
        # the label point and the name's middle, a little above it, lie well inside the region
        inside = shapely.contains_xy(core, grid[:, 0], grid[:, 1])
        inside &= shapely.contains_xy(core, grid[:, 0], grid[:, 1] - 4)
        grid = grid[inside]
        if len(grid):
            break
    weights = SEA_COVER if card.sea else PROVINCE_COVER
    own = cover.mask(card.region)
    tables = {kind: cover.table(cover.masks[kind] & ~own) for kind in weights}
    width, height = view
    found: list[tuple[NDArray[np.float64], NDArray[np.float64], list[str], NDArray[np.float64]]] = []
    for layout, layout_cost in (SEA_LAYOUTS if card.sea else LAYOUTS).items():
        _, _, _, (bx0, by0, bx1, by1) = block_at(card, layout)
        nx0, ny0, nx1, ny1 = card.name
        x, y = grid[:, 0], grid[:, 1]
        boxes = np.column_stack((x + min(nx0, bx0), y + min(ny0, by0), x + max(nx1, bx1), y + max(ny1, by1)))
        fits = (boxes[:, 0] >= PADDING) & (boxes[:, 1] >= PADDING)
        fits &= (boxes[:, 2] <= width - PADDING) & (boxes[:, 3] <= height - PADDING)
        points, boxes = grid[fits], boxes[fits]
        x, y = points[:, 0], points[:, 1]
        names = np.column_stack((x + nx0, y + ny0, x + nx1, y + ny1))
        blocks = np.column_stack((x + bx0, y + by0, x + bx1, y + by1))
        cost = layout_cost + DISTANCE_COST * np.hypot(x - start.x, y - start.y)
        for kind, weight in weights.items():
            cost += weight * (cover.area(tables[kind], names) + cover.area(tables[kind], blocks))
        found.append((points, boxes, [layout] * len(points), cost))
    points = np.concatenate([f[0] for f in found])
    boxes = np.concatenate([f[1] for f in found])
    layouts = [layout for f in found for layout in f[2]]
    costs = np.concatenate([f[3] for f in found])
    order = np.lexsort((points[:, 1], points[:, 0], np.round(costs, 3)))
    return Options(points[order], boxes[order], [layouts[i] for i in order], costs[order])


def overlap(boxes: NDArray[np.float64], others: NDArray[np.float64]) -> NDArray[np.float64]:
    """For each box, the area it shares with the other boxes grown by PADDING."""
    if not len(others):
        return np.zeros(len(boxes))
    x0 = np.maximum(boxes[:, None, 0], others[None, :, 0] - PADDING)
    x1 = np.minimum(boxes[:, None, 2], others[None, :, 2] + PADDING)
    y0 = np.maximum(boxes[:, None, 1], others[None, :, 1] - PADDING)
    y1 = np.minimum(boxes[:, None, 3], others[None, :, 3] + PADDING)
    shared: NDArray[np.float64] = np.sum(np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None), axis=1)
    return shared


def place_cards(
    cards: Sequence[Card], positions: Mapping[str, Point], view: tuple[float, float], kinds: Mapping[str, BaseGeometry]
) -> dict[str, Placed]:
    """Every card placed so that no two boxes come within PADDING of each other. `kinds` are the surfaces
    a card may cover at a cost: "province" (every province), "land" (off the board), "sea"."""
    cover = Cover(kinds, view)
    options = {c.id: candidates(c, positions[c.id], view, cover) for c in cards}
    for cid, option in options.items():
        if not len(option.points):
            raise SystemExit(f"the card of {cid} fits nowhere in its region")
    chosen: dict[str, int] = {}

    def best(cid: str) -> int:
        others = np.array([options[o].boxes[i] for o, i in sorted(chosen.items()) if o != cid]).reshape(-1, 4)
        return int(np.argmin(options[cid].costs + CLASH_COST * overlap(options[cid].boxes, others)))

    for cid in sorted(options, key=lambda c: (len(options[c].points), c)):  # most constrained first
        chosen[cid] = best(cid)
    for _ in range(ROUNDS):  # place each again among all the others, until nothing moves
        moved = False
        for cid in sorted(chosen):
            index = best(cid)
            moved |= index != chosen[cid]
            chosen[cid] = index
        if not moved:
            break
    boxes = {cid: options[cid].boxes[index : index + 1] for cid, index in chosen.items()}
    clashes = [f"{a} and {b}" for a in sorted(boxes) for b in sorted(boxes) if a < b and overlap(boxes[a], boxes[b])[0]]
    if clashes:
        raise SystemExit(f"label cards overlap: {', '.join(clashes)}")
    by_id = {c.id: c for c in cards}
    placed = {}
    for cid, index in sorted(chosen.items()):
        card, option = by_id[cid], options[cid]
        x, y = (round(float(v), 1) for v in option.points[index])
        x0, y0, x1, y1 = (float(v) for v in option.boxes[index])
        marker = None if card.sea else (round(x + card.name[0] + MARKER - MARKER_X, 1), round(y - MARKER_Y, 1))
        placed[cid] = Placed(
            (x, y),
            (math.floor(x0 * 10) / 10, math.floor(y0 * 10) / 10, math.ceil(x1 * 10) / 10, math.ceil(y1 * 10) / 10),
            rows(card, option.layouts[index], (x, y)),
            marker,
        )
    return placed
