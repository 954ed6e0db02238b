"""The projection and the regions: land clipped to the frame, continents, Voronoi cells and islands.

Coordinates are planar: an equirectangular projection with x scaled by the cosine of the frame's mean
latitude and y growing downwards. The land is clipped to the frame and simplified. Land that was small
before clipping is an island. An island province gets the island its position lies on (or the nearest
one) plus any islets close to it, and a mainland province never gets island land. The mainland is cut
into continents, and each continent is divided among the mainland provinces on it by Voronoi cells: the
cells of each province's position and of its extra seeds, each cell cut to a reach around its seed, so
that an inland province does not run off across the desert. The water connected to a sea position is
divided among the seas in the same way, without a reach.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import MultiPoint, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union, voronoi_diagram

from .topology import topology_polygons

MARGIN = 1.5  # degrees: every position lies at least this far inside the frame
REACH = 3.5  # degrees of latitude: a province's land lies within this of its position or one of its seeds
ISLAND_AREA = 50.0  # square degrees: land smaller than this before clipping is an island (Sicily is ~3)
SATELLITE_DISTANCE = 6.0  # view-box units: an islet this close to an island province's island joins it
SIMPLIFY = 0.4  # view-box units: the Douglas-Peucker tolerance (topology preserved)
GRID = 0.001  # view-box units: unions snap to this grid, so cells that share an edge merge
MIN_AREA = 2.0  # square view-box units: smaller pieces of land are dropped


@dataclass(frozen=True, slots=True)
class Projection:
    """Equirectangular: x = (lon - west) * cos(mean latitude) * scale, y = (north - lat) * scale."""

    west: float
    south: float
    east: float
    north: float
    width: float

    @property
    def cos_lat(self) -> float:
        return math.cos(math.radians((self.south + self.north) / 2))

    @property
    def scale(self) -> float:
        return self.width / ((self.east - self.west) * self.cos_lat)

    @property
    def height(self) -> float:
        return float(round((self.north - self.south) * self.scale))

    def point(self, lon: float, lat: float) -> Point:
        return Point((lon - self.west) * self.cos_lat * self.scale, (self.north - lat) * self.scale)

    def geometry(self, geometry: BaseGeometry) -> BaseGeometry:
        def project(coords: NDArray[np.float64]) -> NDArray[np.float64]:
            x = (coords[:, 0] - self.west) * self.cos_lat * self.scale
            y = (self.north - coords[:, 1]) * self.scale
            return np.column_stack((x, y))

        return shapely.transform(geometry, project)

    def describe(self) -> dict[str, Any]:
        return {
            "name": "equirectangular, x scaled by cos(mean latitude), y growing downwards",
            "frame": [self.west, self.south, self.east, self.north],
            "frame_is": "[west longitude, south latitude, east longitude, north latitude], WGS84 degrees",
            "mean_latitude": (self.south + self.north) / 2,
            "scale": round(self.scale, 6),
            "x": "(longitude - west) * cos(mean_latitude) * scale",
            "y": "(north - latitude) * scale",
        }


@dataclass(frozen=True, slots=True)
class Place:
    id: str
    at: Point  # the projected position
    seeds: tuple[Point, ...]  # the position and the place's extra seeds, projected
    reach: float = 1.0  # a fraction of the reach


def polygons(geometry: BaseGeometry) -> list[Polygon]:
    """The non-empty polygons in any geometry, with collections and multipolygons flattened."""
    if isinstance(geometry, Polygon):
        return [] if geometry.is_empty else [geometry]
    return [p for part in getattr(geometry, "geoms", []) for p in polygons(part)]


def land_pieces(topology: Mapping[str, Any], projection: Projection) -> tuple[BaseGeometry, list[Polygon]]:
    """The mainland and the islands inside the frame, projected and simplified."""
    frame = box(projection.west, projection.south, projection.east, projection.north)
    mainland: list[Polygon] = []
    islands: list[Polygon] = []
    for land in topology_polygons(topology, "land"):
        if not land.intersects(frame):
            continue
        whole = land if land.is_valid else shapely.make_valid(land)
        kind = islands if whole.area < ISLAND_AREA else mainland  # judged before clipping cuts the mainland
        simplified = projection.geometry(whole.intersection(frame)).simplify(SIMPLIFY, preserve_topology=True)
        kind.extend(piece for piece in polygons(simplified) if piece.area >= MIN_AREA)
    main = unary_union(mainland)
    return main, [piece for island in islands for piece in polygons(island.difference(main))]


def continents(
    mainland: BaseGeometry, places: Sequence[Place], projection: Projection, outlines: Sequence[str]
) -> list[tuple[BaseGeometry, list[Place]]]:
    """The mainland cut into continents (`outlines`, WKT in degrees, then the rest: Asia), each with the
    mainland provinces whose positions lie on it. A single Voronoi split of the mainland would reach
    across seas (Thrace to Troas), so each continent is divided apart."""
    rest, cut = mainland, []
    for outline in outlines:
        area = projection.geometry(shapely.from_wkt(outline))
        cut.append(rest.intersection(area))
        rest = rest.difference(area)
    cut.append(rest)  # Asia
    return [(land, [p for p in places if land.intersects(p.at)]) for land in cut]


def voronoi(
    places: Sequence[Place], within: BaseGeometry, envelope: Polygon, reach: float | None = None
) -> dict[str, BaseGeometry]:
    """The union of the Voronoi cells of each place's seeds (among all the seeds of `places`), clipped to
    `within` and, given a reach, each cell to the disc of that radius around its seed."""
    seeds = [seed for place in places for seed in place.seeds]
    cells = polygons(voronoi_diagram(MultiPoint(seeds), envelope=envelope)) if len(seeds) > 1 else [envelope]
    regions: dict[str, BaseGeometry] = {}
    for place in places:
        parts = []
        for seed in place.seeds:
            (cell,) = [c for c in cells if c.intersects(seed)]
            radius = None if reach is None else reach * place.reach
            parts.append(cell if radius is None else cell.intersection(seed.buffer(radius, quad_segs=32)))
        region = shapely.union_all(parts, grid_size=GRID).intersection(within)
        regions[place.id] = MultiPolygon([p for p in polygons(region) if p.area >= MIN_AREA])
    return reassign_strays(regions, places)


def reassign_strays(regions: dict[str, BaseGeometry], places: Sequence[Place]) -> dict[str, BaseGeometry]:
    """A cell runs straight across water or land, so a region can get a piece that holds none of its
    seeds and touches none that does (the far shore of a gulf, a sea beyond an isthmus). Each such stray
    goes to the region it touches most, in a fixed order; a stray that touches no other region stays."""
    seeds = {place.id: place.seeds for place in places}
    regions = dict(regions)
    for place in places:
        pieces = polygons(regions[place.id])
        home: list[BaseGeometry] = list(seeds[place.id])
        strays = pieces
        while reached := [p for p in strays if any(p.distance(h) <= 1.0 for h in home)]:
            home += reached
            strays = [p for p in strays if not any(p is r for r in reached)]
        for stray in strays:
            contact = {
                other: stray.buffer(1.0).intersection(region).area
                for other, region in regions.items()
                if other != place.id
            }
            best = max(sorted(contact), key=lambda other: contact[other], default=None)
            if best is None or contact[best] <= 0:
                continue
            pieces = [p for p in pieces if p is not stray]
            regions[place.id] = MultiPolygon(pieces)
            regions[best] = unary_union([regions[best], stray])
    return regions


def island_regions(places: Sequence[Place], islands: Sequence[Polygon]) -> dict[str, BaseGeometry]:
    """Each island province's island (the one its position lies on, else the nearest) and the islets close
    to it. An island that no province claims stays plain land."""
    main = {p.id: min(islands, key=lambda island: (island.distance(p.at), -island.area)) for p in places}
    claimed: dict[str, list[Polygon]] = {p.id: [main[p.id]] for p in places}
    for island in islands:
        if any(island is m for m in main.values()):
            continue
        owner = min(places, key=lambda p: main[p.id].distance(island))
        if main[owner.id].distance(island) <= SATELLITE_DISTANCE:
            claimed[owner.id].append(island)
    return {pid: unary_union(parts) for pid, parts in claimed.items()}


def sea_water(water: BaseGeometry, seas: Sequence[Place]) -> BaseGeometry:
    """The water that holds a sea position, plus any water within a strait's width of it (a strait can
    close under simplification). The Red Sea, the Caspian and the Persian Gulf are left out."""
    parts = polygons(water)
    reach = unary_union([w for w in parts if any(w.intersects(s.at) for s in seas)]).buffer(4 * SIMPLIFY)
    return unary_union([w for w in parts if w.intersects(reach)])
