"""Each board's label cards, placed by labels.py, and the other keys its map file holds.

The 2003 and Empires boards share province cards (a name and a block of pieces); Mare Mediterraneum's
board is too dense for that, so its cards are names only, and its map file adds port points and rivers.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union

from . import labels
from .boards import MapBoard
from .geometry import MARGIN, SIMPLIFY, Projection
from .parameters import Parameters
from .writer import FORMAT


@dataclass(frozen=True, slots=True)
class Labels:
    """Every label card as placed, and the other keys the board's map file holds."""

    placed: dict[str, labels.Placed]
    extra: dict[str, Any]


CardMaker = Callable[[MapBoard, Mapping[str, BaseGeometry], BaseGeometry, Parameters], Labels]


def place_cards(
    cards: Sequence[labels.Card],
    positions: Mapping[str, Point],
    board: MapBoard,
    regions: Mapping[str, BaseGeometry],
    land: BaseGeometry,
    projection: Projection,
) -> dict[str, labels.Placed]:
    """The cards placed on the board's provinces, the land off the board and the sea."""
    provinces = unary_union([regions[pid] for pid in board.provinces])
    view = box(0, 0, projection.width, projection.height)
    cover = {"province": provinces, "land": land.difference(provinces), "sea": view.difference(land)}
    return labels.place_cards(cards, positions, (projection.width, projection.height), cover)


def province_labels(
    board: MapBoard, regions: Mapping[str, BaseGeometry], land: BaseGeometry, params: Parameters
) -> Labels:
    """The label card of every province and sea: a province reserves its building icons, a tag for each
    caravan site and `params.units` units; a sea, its fleets. The map file also gives each commodity's
    caravan tag, and the sizes the map is drawn with (`labels.DRAWING`, the same on both boards)."""
    metrics = labels.Metrics()
    projection = params.projection
    tags = labels.caravan_tags([c for p in board.provinces.values() for c in p.caravans], metrics)
    cards = [
        labels.province_card(
            p.id, p.name, p.icons, [tags[c][1] for c in p.caravans], regions[p.id], metrics, params.units
        )
        for p in board.provinces.values()
    ]
    cards += [labels.sea_card(s.id, s.name, regions[s.id], metrics) for s in board.seas.values()]
    positions = {}
    for entry in [*board.provinces.values(), *board.seas.values()]:
        assert entry.position is not None
        positions[entry.id] = projection.point(*entry.position)
    placed = place_cards(cards, positions, board, regions, land, projection)
    caravans = {c: {"text": text, "width": width} for c, (text, width) in tags.items()}
    # The file names in the formats are the shipped map files' (tools/README.md): a new text would change them.
    return Labels(
        placed,
        {
            "format": FORMAT + "; caravans gives the text and width of the tag a caravan of each commodity is "
            "drawn as, in the buildings row (tools/bake_map/labels.py); drawing gives the sizes the cards were laid "
            "out with, "
            "which the map is drawn with: the font size of the names, a building icon's size and the gap after it, "
            "the font size of a caravan tag's text and how far right of the tag's start it begins, a unit's step "
            "and the units row's height, and a fleet's step",
            "caravans": caravans,
            "drawing": dataclasses.asdict(labels.DRAWING),
        },
    )


def mediterraneum_labels(
    board: MapBoard, regions: Mapping[str, BaseGeometry], land: BaseGeometry, params: Parameters
) -> Labels:
    """The Mare Mediterraneum cards (`params.cities`): a card for each land (its city's, where it has one;
    keyed by the land), each sea and the tax chart (`tax-chart`). The map file also gives each city's port
    point, in its sea near the city's marker, and each river as the lines along the border of its two
    lands."""
    mm, sizes = board.cities, params.cities
    if mm is None or sizes is None:
        raise SystemExit("Mare Mediterraneum's cards need its board's cities and [cards] sizes in its .bake.toml")
    metrics = labels.Metrics()
    projection = params.projection
    west, south, east, north = params.frame
    cards: list[labels.Card] = []
    positions: dict[str, Point] = {}
    for city in mm.cities.values():
        lon, lat = degrees(city.id, city.position)
        if not (west + MARGIN <= lon <= east - MARGIN and south + MARGIN <= lat <= north - MARGIN):
            raise SystemExit(f"city {city.id} at {city.position} is not {MARGIN}° inside the frame {params.frame}")
    for x in mm.lands.values():
        cid = mm.city_of(x.id)
        ashore = shore(x.id, regions, board, sizes.offshore)
        if cid is None:
            half = metrics.width(x.name, sizes.drawing.land_name, False) / 2 + 1
            cards.append(labels.Card(x.id, False, (-half, -12.0, half, 4.0), (0.0, 0.0), ashore))
            positions[x.id] = projection.point(*degrees(x.id, x.position))
            continue
        city = mm.cities[cid]
        at = projection.point(*degrees(city.id, city.position))
        half = metrics.width(city.name, sizes.drawing.city_size, True) / 2
        under = metrics.width(x.name, sizes.drawing.land_size, False) / 2 + 1
        name = (
            min(-half - labels.MARKER, -under),
            -labels.NAME_ABOVE,
            max(half + 1 + sizes.drawing.want, under),
            sizes.drawing.land_line + 4.0,
        )
        near = ashore.intersection(at.buffer(sizes.city_reach * projection.scale))
        cards.append(labels.Card(x.id, False, name, (0.0, 0.0), near if near.area > 50 else ashore))
        positions[x.id] = at
    for sea in mm.seas.values():
        half = metrics.width(sea.name, sizes.drawing.sea_size, False) / 2
        name = (-half - sizes.drawing.storm, -labels.NAME_ABOVE, half, labels.NAME_BELOW)
        cards.append(labels.Card(sea.id, True, name, (0.0, 0.0), regions[sea.id]))
        positions[sea.id] = projection.point(*degrees(sea.id, sea.position))
    chart, chart_sea = sizes.drawing.chart, sizes.chart_sea
    width = chart.across * chart.space_width
    height = chart.title + chart.space_height * math.ceil(len(mm.tax_chart) / chart.across)
    cards.append(labels.Card("tax-chart", True, (-width / 2, -height, width / 2, 0.0), (0.0, 0.0), regions[chart_sea]))
    positions["tax-chart"] = projection.point(*degrees(chart_sea, mm.seas[chart_sea].position))
    placed = place_cards(cards, positions, board, regions, land, projection)
    ports, stranded = {}, []
    for city in mm.cities.values():
        marker = placed[city.land].marker
        assert marker is not None, "a land's card has its city's marker"
        water = regions[city.sea].intersection(
            projection.point(*degrees(city.id, city.position)).buffer(sizes.port_reach * projection.scale)
        )
        if water.area < 50:
            stranded.append(f"{city.id} ({city.sea})")
            continue
        open_water = next(w for w in (water.buffer(-sizes.port_clear), water.buffer(-3.0), water) if not w.is_empty)
        port = nearest_points(open_water, Point(marker))[0]
        ports[city.id] = [round(port.x, 1), round(port.y, 1)]
    if stranded:
        raise SystemExit(f"these cities find little of their sea near them: {', '.join(stranded)}")
    rivers = {}
    for x in mm.lands.values():
        for other in x.rivers:
            if x.id < other:
                rivers[f"{x.id}/{other}"] = border(regions[x.id], regions[other])
    return Labels(  # the format names the sizes as the shipped file does (tools/README.md)
        placed,
        {
            "format": FORMAT + "; the cards are Mare Mediterraneum's ([cards] in the board's .bake.toml), "
            "names only, with no rows of pieces: a land's card (its city's where it has one: the marker is the "
            "city's) is keyed by the land, and the tax chart's by tax-chart (its label is the middle of the chart's "
            "bottom edge); ports gives each city's port point, [x, y] in its sea near the city, about which its "
            "ships in harbour and on the coast are drawn; rivers gives, for each pair of lands with a river "
            "between them (land/land), the lines ([x, y] points) along their shared border; drawing gives the "
            "sizes the cards were laid out with, which the map is drawn with: the font sizes of a city's name, "
            "of a land's name under it and alone, and of a sea's name, the land name's line under the city's, "
            "the storm mark's and the want disk's widths, and the tax chart's spaces a row and their size",
            "caravans": {},
            "drawing": sizes.drawing_data(),
            "ports": ports,
            "rivers": rivers,
        },
    )


def degrees(pid: str, position: tuple[float, float] | None) -> tuple[float, float]:
    """A place's position, which the map cannot do without."""
    if position is None:
        raise SystemExit(f"{pid} has no position = [longitude, latitude] in the board file")
    return position


def shore(pid: str, regions: Mapping[str, BaseGeometry], board: MapBoard, offshore: float) -> BaseGeometry:
    """Where a land's name may go: the land, and the water of its seas within `offshore` of it (a small
    land's name may stand off its coast)."""
    region = regions[pid]
    reach = region.buffer(offshore)
    water = [regions[s].intersection(reach) for s in board.provinces[pid].seas]
    return unary_union([region, *water]).buffer(0)


def border(a: BaseGeometry, b: BaseGeometry) -> list[list[list[float]]]:
    """The lines along which two regions touch, as lists of [x, y] rounded to 0.1; none when they do not."""
    shared = a.boundary.intersection(b.buffer(2 * SIMPLIFY))
    parts = [g for g in getattr(shared, "geoms", [shared]) if g.geom_type == "LineString" and not g.is_empty]
    merged = shapely.line_merge(shapely.union_all(parts)) if parts else None
    lines = []
    for line in getattr(merged, "geoms", [merged] if merged is not None else []):
        if line.length < 4:
            continue
        points = [[round(x, 1), round(y, 1)] for x, y in line.simplify(0.5).coords]
        lines.append(points)
    return sorted(lines)
