"""Bake the geometry of the report map: the land, and the region and label point of every province and sea.

Development time only: the adjudicator never runs this and never imports shapely. The script bakes three
boards (BOARDS): the 2003 board, adjudicator/rulesets/mare_nostrum/boards/mare-nostrum-2003.toml, the
Empires board, adjudicator/rulesets/empires/boards/empires-2016.toml, and the Mare Mediterraneum board,
adjudicator/rulesets/mediterraneum/boards/mediterraneum-1989.toml (its land areas are the provinces). It
reads each province's and sea's `position = [longitude, latitude]` from the board file and writes the map
file beside it (mare-nostrum-2003.map.json, empires-2016.map.json, mediterraneum-1989.map.json), which is
what the reports read. Each board has its own frame, continents, seeds and reaches, and its own label
cards (Spec.labels: a province's buildings and units, or Mare Mediterraneum's names only, with each
city's port point and the rivers); everything else is shared.

Source: Natural Earth 1:50m land polygons (public domain, naturalearthdata.com), as the TopoJSON file
land-50m.json of the npm package world-atlas 2.0.2 by Mike Bostock (the package is under the ISC licence;
the data in it is public domain). The script gets the package with `npm pack` into a temporary folder, or
reads a local copy given with --topojson. It checks the file's SHA-256 and records it in the output.

Method. Coordinates are planar: an equirectangular projection with x scaled by the cosine of the frame's
mean latitude and y growing downwards. The land is clipped to the frame and simplified. Land that was
small before clipping is an island. An island province gets the island its position lies on (or the
nearest one) plus any islets close to it, and a mainland province never gets island land. The mainland is
cut into continents, and each continent is divided among the mainland provinces on it by Voronoi cells:
the cells of each province's position and of its extra SEEDS, each cell cut to REACH degrees around its
seed, so that an inland province does not run off across the desert; the land no province reaches is
drawn as plain land, off the board. The water connected to a sea position is divided among the seas in
the same way, without a reach. A cell runs straight across water or land, so a piece of a region that
holds none of its seeds (the far shore of a gulf) goes to the region it touches most. The seeds, the reach of
Tyrus (REACHES) and three province positions of the 2003 board (Ephesus, Tarsus and Antiochia: see their
position_source in the board file), and the Empires seeds (EMPIRES_SEEDS), are chosen so that the regions
touch as each board's adjacency says; tools/README.md tells how, and lists what is left. Last, every place
gets a label: its name and a block of pieces placed clear of all the others (tools/map_labels.py).

Needs shapely, numpy and fontTools (`pip install shapely fonttools`) and npm. `python tools/bake_map.py`
regenerates every file (`--board mare-nostrum`, `--board empires` or `--board mediterraneum`: only that
one). `--check` rebuilds them in memory and fails if a committed file differs. `--adjacency` lists the
places where the drawn regions touch differently from the board's adjacency; that affects the drawing
only, because the board file is what the rules use.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import map_labels  # tools/map_labels.py, beside this script
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import MultiPoint, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union, voronoi_diagram

from adjudicator.rulesets.empires import board as empires_board
from adjudicator.rulesets.mare_nostrum import board as mare_nostrum_board
from adjudicator.rulesets.mediterraneum import board as mediterraneum_board

REPO = Path(__file__).resolve().parents[1]

PACKAGE = "world-atlas@2.0.2"
PACKAGE_FILE = "package/land-50m.json"
PACKAGE_SHA256 = "619477ff690c086885e45cb91707d783805561bd75ae8e437b7d4694b0204e0f"
SOURCE = (
    "Natural Earth 1:50m land (naturalearthdata.com), as the TopoJSON file land-50m.json "
    "of the npm package world-atlas 2.0.2 (github.com/topojson/world-atlas)"
)
LICENCE = "Natural Earth data: public domain; the world-atlas package: ISC licence, Mike Bostock"

FRAME = (3.0, 24.0, 51.0, 47.0)  # west, south, east, north (degrees): from Cirta to Susa, Thebae to Crimea
MARGIN = 1.5  # degrees: every position lies at least this far inside the frame
WIDTH = 1200.0  # of the view box; its height follows from the frame
ISLAND_AREA = 50.0  # square degrees: land smaller than this before clipping is an island (Sicily is ~3)
SATELLITE_DISTANCE = 6.0  # view-box units: an islet this close to an island province's island joins it
SIMPLIFY = 0.4  # view-box units: the Douglas-Peucker tolerance (topology preserved)
GRID = 0.001  # view-box units: unions snap to this grid, so cells that share an edge merge
MIN_AREA = 2.0  # square view-box units: smaller pieces of land are dropped
REACH = 3.5  # degrees of latitude: a province's land lies within this of its position or one of its seeds
REACHES = {"tyrus": 0.6}  # a fraction of REACH: Lebanon stops short of the desert, so Tyrus misses Babylon

# The mainland is a single piece of land: Africa meets Asia at Suez, and Europe meets Asia beyond the Black
# Sea. A single Voronoi split would therefore give Thrace to Troas, Dalmatia to Tarentum or Arabia to
# Thebae. Instead each continent is divided separately among the provinces whose positions lie on it.
# The outlines are in degrees. They run through the sea (the Strait of Otranto, the Adriatic, the
# Dardanelles, the Bosporus, the Strait of Kerch and the Gulf of Suez), except where they cut across the
# Alps east of Trieste and the isthmus of Suez. Where outlines overlap, the first one listed takes the
# land, and the mainland that no outline covers is Asia.
CONTINENTS = {
    "Italy and the west": (
        "POLYGON ((0 50, 0 38.6, 15.4 37.6, 18 39, 19 40.2, 16 42.5, 13.3 45, 13.6 45.65, 13.7 47, 13.7 50, 0 50))"
    ),
    "the rest of Europe": (
        "POLYGON ((0 50, 0 38.6, 15.4 37.6, 22 35.9, 25.85 36, 25.85 39.9, 26.2 40.03, 26.45 40.2, 26.7 40.42, "
        "27.5 40.72, 28.5 40.85, 29.02 41, 29.06 41.2, 29.3 41.5, 33 43, 36.5 44.8, 36.55 45.3, 36.7 45.8, "
        "37.5 46.6, 38.5 50, 0 50))"
    ),
    "Africa": (
        "POLYGON ((0 15, 0 37.6, 11.3 37.6, 12.5 34.5, 20 33.6, 25 32.3, 30 32, 32.2 31.7, 32.4 31.2, "
        "32.55 29.95, 32.55 29.6, 32.9 29, 33.15 28.5, 33.55 28, 34.2 27, 36 24, 38 15, 0 15))"
    ),
}


# Extra Voronoi seeds, [longitude, latitude]: a place's region is the union of the cells of its position
# and of these. They shape the drawn regions so that regions touch where the board lists a neighbour and
# nowhere else (`--adjacency` lists what is left); the board file, not this drawing, is what the rules use.
SEEDS: dict[str, tuple[tuple[float, float], ...]] = {
    # the west: the Ligurian Sea is Tyrrhenian (Ravenna's coast), Sardinia faces three seas, and the Sardinian
    # Sea reaches west of Corsica and the coast of Carthago
    "mare-tyrrhenum": ((9.0, 43.8), (10.3, 40.5)),
    "mare-sardoum": ((7.4, 42.4), (8.2, 37.6)),
    "mare-africum": ((9.3, 38.75),),
    # Illyricum up the Dalmatian coast to Istria, where it meets Ravenna; Epirus
    "dyrrachium": ((15.0, 45.4), (20.8, 39.6)),
    # the Gulf of Corinth is Ionian, with Athenae (Phocis, Boeotia) on its north shore and Pella inland
    "mare-ionium": ((22.4, 38.25),),
    "athenae": ((22.6, 38.6),),
    "pella": ((22.0, 39.4),),
    # the Aegean coast of Asia is Troas' down to the Gulf of Gokova; Ephesus faces Mare Syriacum, and
    # Rhodes and Crete each face three seas
    "troas": ((27.85, 37.55),),
    "mare-aegaeum": ((27.5, 36.6), (23.6, 36.3)),
    "mare-syriacum": ((28.8, 36.35), (34.9, 35.3)),
    "mare-aegyptium": ((32.9, 34.35), (26.9, 35.0)),
    "mare-libycum": ((23.8, 34.6),),
    # Africa and the desert: Cyrenaica meets Leptis Magna on the Gulf of Sidra and Alexandria at Marmarica;
    # Babylon reaches across the Syrian desert to Petra and Hierosolyma
    "cyrenae": ((24.3, 31.2), (19.8, 30.6)),
    "babylon": ((41.0, 32.0),),
}


# The Empires board (adjudicator/rulesets/empires/boards/empires-2016.toml) reaches further: from Gallia
# (the Po valley), Germania (Noricum) and Corsica to Armenia, Babylonia and Arabia, and up the Nile to
# Aethiopia. Italy and the Balkans are one continent here, so that Gallia, Germania and Dalmatia meet at the
# head of the Adriatic: the outline of the rest of Europe above, which takes Italy too when Italy is not cut
# off first, from Asia at the Dardanelles and the Bosporus. Africa as above; the rest is Asia.
EMPIRES_FRAME = (3.0, 18.0, 49.0, 50.0)  # west, south, east, north (degrees)
EMPIRES_CONTINENTS = {"Europe": CONTINENTS["the rest of Europe"], "Africa": CONTINENTS["Africa"]}
EMPIRES_SEEDS: dict[str, tuple[tuple[float, float], ...]] = {
    # the west: the Ligurian Sea is Tyrrhenian, the Sardinian Sea reaches west of Corsica and across to
    # Sicily's western tip and Cap Bon, and Mare Africum holds Sicily's south coast
    "mare-tyrrhenum": ((9.0, 43.8), (7.2, 43.4)),
    "mare-sardum": ((7.4, 42.4), (11.3, 37.6)),
    "mare-africum": ((12.5, 35.8), (22.3, 34.9)),
    # Gallia holds Venetia (so it faces the Adriatic, and meets Dalmatia beyond Aquileia); Germania holds
    # Pannonia, where it meets Dacia; Dacia holds the Dobruja coast
    "gallia": ((12.0, 45.4),),
    "germania": ((17.0, 47.2),),
    "dacia": ((28.0, 45.0),),
    "pontus-euxinus": ((29.8, 43.0),),  # the Black Sea's western shore, not the Aegean's beyond the Bosporus
    # Greece and the islands: the Ionian Sea holds the south coast of the Peloponnese and meets the Aegean
    # at Cape Malea; Crete faces Mare Africum to the west, the Aegean to the north and Mare Aegyptium to
    # the south; Rhodes faces the Aegean and Mare Cyprium; Mare Cyprium holds the coast of the Levant down
    # to Judaea, Mare Aegyptium the south coast of Cyprus and the coast of Judaea from Jaffa to Sinai
    "achaea": ((22.9, 37.85),),  # Corinthia, so that Achaea meets the Peloponnese across it, not at the isthmus
    "mare-ionium": ((22.0, 36.3),),
    "mare-aegaeum": ((24.3, 36.5), (27.2, 36.0)),
    "mare-aegyptium": ((25.5, 33.9), (33.3, 34.2), (33.5, 31.8)),
    "mare-cyprium": ((28.9, 36.2), (35.3, 35.0), (34.8, 33.0)),
    # Africa: Libya holds the Gulf of Sidra, Garamantia reaches Phasania and Nubia across the desert,
    # Cyrenaica reaches Siwa, Aegyptus goes up the Nile to Thebes
    "libya": ((17.0, 30.8),),
    "cyrenaica": ((25.5, 29.2),),
    "garamantia": ((13.5, 27.0), (21.0, 25.5)),
    "aegyptus": ((32.6, 25.7),),
    # Asia: Cappadocia holds the Pontic coast to Colchis; Cappadocia, Armenia, Assyria, Syria and Cilicia
    # meet at one point by the Euphrates (a regular pentagon of seeds around it), and Judaea, Syria,
    # Babylonia and Arabia at one point in the Syrian desert (a square); Judaea and Arabia share the
    # isthmus of Suez with Aegyptus
    "cappadocia": ((37.93, 38.45), (40.0, 40.9)),
    "armenia": ((39.07, 38.45),),
    "assyria": ((39.42, 37.55),),
    "syria": ((38.5, 37.0), (37.5, 33.1)),
    "cilicia": ((37.58, 37.55),),
    "babylonia": ((38.46, 32.3),),
    "arabia": ((37.5, 31.5), (33.3, 29.6)),
    "judaea": ((36.54, 32.3), (33.2, 31.0)),
}
EMPIRES_REACHES: dict[str, float] = {}
EMPIRES_UNITS = 4  # legions of up to three empires and a fortress


# The Mare Mediterraneum board (adjudicator/rulesets/mediterraneum/boards/mediterraneum-1989.toml) reaches
# from the Atlantic west of Iberia and southern Britain to the Caucasus, and from the Sahara's edge to the
# steppe north of the Black Sea. Its land areas are the provinces here. Africa is cut off at the Strait of
# Gibraltar and Suez, Asia at the Dardanelles, the Bosporus and the Don; Iberia, Gaul, Italy and the Balkans
# are one continent, because the board joins them by land (the Alps, Venetia, Pannonia).
MM_FRAME = (-14.0, 28.5, 46.0, 54.0)  # west, south, east, north (degrees)
MM_WIDTH = 1600.0
MM_CONTINENTS = {
    "Africa": (
        "POLYGON ((-20 15, -20 35.95, -5.6 35.95, -5.0 36.05, -2.0 36.5, 0 37.6, 11.3 37.6, 12.5 34.5, 20 33.6, "
        "25 32.3, 30 32, 32.2 31.7, 32.4 31.2, 32.55 29.95, 32.55 29.6, 32.9 29, 33.15 28.5, 33.55 28, 34.2 27, "
        "36 24, 38 15, -20 15))"
    ),
    "Europe": (
        "POLYGON ((-20 56, -20 30, 15.4 37.6, 22 35.9, 25.85 36, 25.85 39.9, 26.2 40.03, 26.45 40.2, 26.7 40.42, "
        "27.5 40.72, 28.5 40.85, 29.02 41, 29.06 41.2, 29.3 41.5, 33 43, 36.5 44.8, 36.55 45.3, 36.7 45.8, "
        "37.5 46.6, 38.5 50, 38.5 56, -20 56))"
    ),
}
MM_SEEDS: dict[str, tuple[tuple[float, float], ...]] = {
    "oceanus-atlanticus": ((-10.4, 38.6),),  # the coast of Lusitania down to Cape St Vincent
    "mare-aegyptium": ((33.8, 31.9),),  # the coast of Palaestina, Gaza's
}
MM_REACHES: dict[str, float] = {}
# A Mare Mediterraneum card is a name only, because the board is dense: 72 lands, 40 cities and 17 seas. A
# land with a city has the city's card: the city's marker, its name (bold) and a want disk, and the land's
# name (italic) under them. A land without a city: its name. A sea: a storm mark and its name. The tax chart
# lies in the Atlantic. The pieces (armies, ships and any further want disks) are drawn beside the cards,
# clear of them, by adjudicator/rulesets/mediterraneum/mapview.py, ships in port about the port point the
# map file gives each city. The sizes are those of templates/mediterraneum/map.svg.j2: change them together.
MM_CITY_SIZE = 12.0  # a city's name, bold
MM_LAND_SIZE = 10.5  # a land's name under its city's, italic
MM_LAND_LINE = 12.5  # how far the land's name's baseline lies under the city's
MM_LAND_NAME = 11.0  # the name of a land without a city, italic
MM_SEA_SIZE = 13.0  # a sea's name, italic
MM_STORM = 15.0  # the storm mark left of a sea's name
MM_WANT = 15.0  # the want disk right of a city's name, with its gap
MM_CHART = (6, 22.0, 16.0, 14.0)  # the tax chart: spaces a row, a space's width and height, the title's height
MM_CHART_SEA = "oceanus-atlanticus"  # where the tax chart is printed (T:14)
MM_CITY_REACH = 1.2  # degrees of latitude: a city's name lies this close to the city
MM_OFFSHORE = 16.0  # view-box units: a land's name may stand this far off its coast
MM_PORT_REACH = 1.5  # degrees of latitude: a port point lies in the city's sea this close to the city
MM_PORT_CLEAR = 7.0  # view-box units: and this far from the shore, where the water allows

# --- TopoJSON -----------------------------------------------------------------------------------------
# A topology stores each border once, as an "arc" (a line of points), and polygons refer to arcs by index.
# In a quantized topology (one with a `transform`) each point is a pair of integers, and every point after
# the first is the difference from the one before it (delta encoding). The transform turns the integers
# back into degrees: lon = x * scale[0] + translate[0], and likewise for lat. A polygon is a list of rings
# and a ring is a list of arc indices. An index i >= 0 means arc i as stored; a negative index means arc ~i
# (that is, -i - 1) walked backwards. Consecutive arcs of a ring share their end point, so that point is
# kept only once when the arcs are joined.


def decode_arcs(topology: Mapping[str, Any]) -> list[list[tuple[float, float]]]:
    """Every arc of the topology as absolute (longitude, latitude) points."""
    transform = topology.get("transform")
    if transform is None:  # not quantized: the points are already absolute degrees
        return [[(float(x), float(y)) for x, y, *_ in arc] for arc in topology["arcs"]]
    (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy, *_ in arc:
            x, y = x + dx, y + dy  # undo the delta encoding
            points.append((x * sx + tx, y * sy + ty))  # undo the quantization
        arcs.append(points)
    return arcs


def join_arcs(indices: Sequence[int], arcs: Sequence[Sequence[tuple[float, float]]]) -> list[tuple[float, float]]:
    """The points of one ring: its arcs in order, each negative index ~i reversed, shared ends kept once."""
    points: list[tuple[float, float]] = []
    for index in indices:
        arc = list(arcs[index]) if index >= 0 else list(reversed(arcs[~index]))
        points.extend(arc[1:] if points else arc)
    return points


def topology_polygons(topology: Mapping[str, Any], name: str) -> list[Polygon]:
    """The polygons of the object `name` (a Polygon, a MultiPolygon or a collection of them), in degrees."""
    arcs = decode_arcs(topology)
    pending = [topology["objects"][name]]
    found = []
    while pending:
        geometry = pending.pop(0)
        kind = geometry.get("type")
        if kind == "GeometryCollection":
            pending.extend(geometry["geometries"])
        elif kind in ("Polygon", "MultiPolygon"):
            parts = [geometry["arcs"]] if kind == "Polygon" else geometry["arcs"]
            for part in parts:
                rings = [join_arcs(r, arcs) for r in part]
                found.append(Polygon(rings[0], rings[1:]))
    return found


def fetch_topology(path: Path | None) -> tuple[dict[str, Any], str]:
    """The TopoJSON (read from `path`, or from `npm pack` of the package) and its SHA-256."""
    if path is not None:
        data = path.read_bytes()
    else:
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
            (tarball,) = Path(folder).glob("*.tgz")
            with tarfile.open(tarball) as archive:
                member = archive.extractfile(PACKAGE_FILE)
                if member is None:
                    raise SystemExit(f"{PACKAGE} has no {PACKAGE_FILE}")
                data = member.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != PACKAGE_SHA256:
        raise SystemExit(f"{PACKAGE_FILE} has SHA-256 {digest}, not the expected {PACKAGE_SHA256}")
    topology: dict[str, Any] = json.loads(data)
    return topology, digest


# --- projection ---------------------------------------------------------------------------------------


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


# --- regions ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    id: str
    at: Point  # the projected position
    seeds: tuple[Point, ...]  # the position and the place's extra seeds (SEEDS), projected
    reach: float = 1.0  # a fraction of the reach (REACHES)


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
    mainland: BaseGeometry, places: Sequence[Place], projection: Projection, outlines: Mapping[str, str]
) -> list[tuple[BaseGeometry, list[Place]]]:
    """The mainland cut into continents (`outlines`, then the rest: Asia), each with the mainland provinces
    whose positions lie on it."""
    rest, cut = mainland, []
    for outline in outlines.values():
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
    regions = {}
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


# --- the bake -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """A province or a sea, as the map needs it, from either ruleset's board."""

    id: str
    name: str
    position: tuple[float, float] | None
    island: bool
    land: tuple[str, ...]  # land neighbours
    seas: tuple[str, ...]  # coasts (a province) or neighbouring seas (a sea)
    icons: int  # the building icons a province's label reserves (cities, temples, markets)
    caravans: tuple[str, ...]  # the commodity of each caravan site, drawn as its tag


@dataclass(frozen=True, slots=True)
class MapBoard:
    provinces: dict[str, Entry]
    seas: dict[str, Entry]
    source: Any = None  # the ruleset's own parsed board, for what only its labels need


def mare_nostrum_entries(data: Mapping[str, Any]) -> MapBoard:
    """The 2003 board: a province reserves its printed city sites, a temple and a market."""
    board = mare_nostrum_board.parse_board(data)
    return MapBoard(
        {
            p.id: Entry(p.id, p.name, p.position, p.island, p.land, p.seas, len(p.cities) + 2, p.commodities)
            for p in board.provinces.values()
        },
        {s.id: Entry(s.id, s.name, s.position, False, (), s.seas, 0, ()) for s in board.seas.values()},
    )


def empires_entries(data: Mapping[str, Any]) -> MapBoard:
    """The Empires board: a province reserves its city site and a market and a temple where printed."""
    board = empires_board.parse_board(data)
    return MapBoard(
        {
            p.id: Entry(
                p.id,
                p.name,
                p.position,
                p.island,
                p.land,
                p.seas,
                (p.city is not None) + p.market + p.temple,
                p.caravans,
            )
            for p in board.provinces.values()
        },
        {s.id: Entry(s.id, s.name, s.position, False, (), s.seas, 0, ()) for s in board.seas.values()},
    )


def mediterraneum_entries(data: Mapping[str, Any]) -> MapBoard:
    """The Mare Mediterraneum board: its land areas are the provinces (an island is a land with no land
    neighbour). Its labels are its own (`mediterraneum_labels`), which read the cities from `source`."""
    board = mediterraneum_board.parse_board(data)
    return MapBoard(
        {x.id: Entry(x.id, x.name, x.position, x.island, x.land, x.seas, 0, ()) for x in board.lands.values()},
        {s.id: Entry(s.id, s.name, s.position, False, (), s.seas, 0, ()) for s in board.seas.values()},
        board,
    )


@dataclass(frozen=True, slots=True)
class Labels:
    """Every label card as placed, and the other keys the board's map file holds."""

    placed: dict[str, map_labels.Placed]
    extra: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Spec:
    """What differs between the boards the script bakes."""

    board: Path  # the board file; the map file is written beside it
    read: Callable[[Mapping[str, Any]], MapBoard]
    frame: tuple[float, float, float, float]
    continents: Mapping[str, str]
    seeds: Mapping[str, tuple[tuple[float, float], ...]]
    reaches: Mapping[str, float]
    units: int  # the units a province's label reserves
    labels: Callable[[MapBoard, Mapping[str, BaseGeometry], BaseGeometry, Spec], Labels]  # the cards and the rest
    width: float = WIDTH  # of the view box

    @property
    def output(self) -> Path:
        return self.board.with_name(self.board.name.removesuffix(".toml") + ".map.json")

    @property
    def projection(self) -> Projection:
        return Projection(*self.frame, self.width)


def read_board(spec: Spec) -> MapBoard:
    with spec.board.open("rb") as handle:
        return spec.read(tomllib.load(handle))


def places_of(board: MapBoard, projection: Projection, spec: Spec) -> tuple[list[Place], list[Place], list[Place]]:
    """The mainland provinces, island provinces and seas of the board, each at its projected position."""
    west, south, east, north = spec.frame
    for entry in [*board.provinces.values(), *board.seas.values()]:
        if entry.position is None:
            raise SystemExit(f"{entry.id} has no position = [longitude, latitude] in the board file")
        lon, lat = entry.position
        if not (west + MARGIN <= lon <= east - MARGIN and south + MARGIN <= lat <= north - MARGIN):
            raise SystemExit(f"{entry.id} at {entry.position} is not {MARGIN}° inside the frame {spec.frame}")

    def place(entry: Entry) -> Place:
        assert entry.position is not None
        at = projection.point(*entry.position)
        seeds = (at, *(projection.point(*seed) for seed in spec.seeds.get(entry.id, ())))
        return Place(entry.id, at, seeds, spec.reaches.get(entry.id, 1.0))

    provinces = list(board.provinces.values())
    return (
        [place(p) for p in provinces if not p.island],
        [place(p) for p in provinces if p.island],
        [place(s) for s in board.seas.values()],
    )


def bake_regions(topology: Mapping[str, Any], board: MapBoard, spec: Spec) -> dict[str, Any]:
    """The land (key "") and the region of every province and sea, as planar geometry."""
    projection = spec.projection
    view = box(0, 0, projection.width, projection.height)
    envelope = view.buffer(projection.width)  # Voronoi cells reach past the view box
    mainland_places, island_places, sea_places = places_of(board, projection, spec)
    mainland, islands = land_pieces(topology, projection)
    land = unary_union([mainland, *islands])
    regions: dict[str, Any] = {"": land}
    for continent, on_it in continents(mainland, mainland_places, projection, spec.continents):
        if on_it:
            regions |= voronoi(on_it, continent, envelope, REACH * projection.scale)
    regions |= island_regions(island_places, islands)
    regions |= voronoi(sea_places, sea_water(view.difference(land), sea_places), envelope)
    return regions


def bake(topology: Mapping[str, Any], digest: str, board: MapBoard, spec: Spec) -> dict[str, Any]:
    """The map document."""
    projection = spec.projection
    regions = bake_regions(topology, board, spec)
    land = regions.pop("")
    labels = spec.labels(board, regions, land, spec)
    placed = labels.placed
    return {
        "source": SOURCE,
        "source_sha256": digest,
        "licence": LICENCE,
        "generated_by": "tools/bake_map.py",
        "projection": projection.describe(),
        "view_box": [0, 0, projection.width, projection.height],
        "format": FORMAT,
        "land": rounded(land),
        "regions": {pid: rounded(region) for pid, region in regions.items()},
        "reach": REACH,
        "seeds": {pid: [list(seed) for seed in seeds] for pid, seeds in sorted(spec.seeds.items())},
        "labels": {pid: list(p.label) for pid, p in placed.items()},
        "label_boxes": {pid: list(p.box) for pid, p in placed.items()},
        "pieces": {pid: p.rows for pid, p in placed.items()},
        "markers": {pid: list(p.marker) for pid, p in placed.items() if p.marker is not None},
    } | labels.extra


FORMAT = (
    "land and each region are lists of polygons; a polygon is a list of rings, the outline first and "
    "then any holes; a ring is a list of [x, y] in view-box units and is closed implicitly (its last "
    "point joins its first). A mainland province's region lies within reach degrees (of latitude) of its "
    "position or of one of its seeds ([longitude, latitude]), the extra points its region grew from. "
    "A label is the middle of a name's baseline, [x, y], inside its region; "
    "a label box, [left, top, right, bottom], is kept for the name and the block of pieces drawn with "
    "it, and no two boxes overlap; pieces says where that block's rows are drawn: they line up on x as "
    "align says (middle, start or end, as SVG's text-anchor), and the other keys are the y of the middle "
    "of a row (a province's buildings and units rows when both are drawn, and each when drawn alone; a "
    "sea's fleets); a marker is the centre of a province's influence marker"
)


def place_cards(
    cards: Sequence[map_labels.Card],
    positions: Mapping[str, Point],
    board: MapBoard,
    regions: Mapping[str, BaseGeometry],
    land: BaseGeometry,
    projection: Projection,
) -> dict[str, map_labels.Placed]:
    """The cards placed (tools/map_labels.py) on the board's provinces, the land off the board and the sea."""
    provinces = unary_union([regions[pid] for pid in board.provinces])
    view = box(0, 0, projection.width, projection.height)
    cover = {"province": provinces, "land": land.difference(provinces), "sea": view.difference(land)}
    return map_labels.place_cards(cards, positions, (projection.width, projection.height), cover)


def province_labels(board: MapBoard, regions: Mapping[str, BaseGeometry], land: BaseGeometry, spec: Spec) -> Labels:
    """The label card of every province and sea (tools/map_labels.py): a province reserves its building
    icons, a tag for each caravan site and `spec.units` units; a sea, its fleets. The map file also gives
    each commodity's caravan tag."""
    metrics = map_labels.Metrics()
    projection = spec.projection
    tags = map_labels.caravan_tags([c for p in board.provinces.values() for c in p.caravans], metrics)
    cards = [
        map_labels.province_card(
            p.id, p.name, p.icons, [tags[c][1] for c in p.caravans], regions[p.id], metrics, spec.units
        )
        for p in board.provinces.values()
    ]
    cards += [map_labels.sea_card(s.id, s.name, regions[s.id], metrics) for s in board.seas.values()]
    positions = {}
    for entry in [*board.provinces.values(), *board.seas.values()]:
        assert entry.position is not None
        positions[entry.id] = projection.point(*entry.position)
    placed = place_cards(cards, positions, board, regions, land, projection)
    caravans = {c: {"text": text, "width": width} for c, (text, width) in tags.items()}
    return Labels(
        placed,
        {
            "format": FORMAT + "; caravans gives the text and width of the tag a caravan of each commodity is drawn "
            "as, in the buildings row (tools/map_labels.py)",
            "caravans": caravans,
        },
    )


def mediterraneum_labels(
    board: MapBoard, regions: Mapping[str, BaseGeometry], land: BaseGeometry, spec: Spec
) -> Labels:
    """The Mare Mediterraneum cards (MM_CITY_SIZE and below): a card for each land (its city's, where it
    has one; keyed by the land), each sea and the tax chart (`tax-chart`, in the Atlantic). The map file
    also gives each city's port point, in its sea near the city's marker, and each river as the lines
    along the border of its two lands."""
    mm = board.source
    metrics = map_labels.Metrics()
    projection = spec.projection
    west, south, east, north = spec.frame
    cards: list[map_labels.Card] = []
    positions: dict[str, Point] = {}
    for city in mm.cities.values():
        lon, lat = city.position
        if not (west + MARGIN <= lon <= east - MARGIN and south + MARGIN <= lat <= north - MARGIN):
            raise SystemExit(f"city {city.id} at {city.position} is not {MARGIN}° inside the frame {spec.frame}")
    for x in mm.lands.values():
        cid = mm.city_of(x.id)
        ashore = shore(x.id, regions, board)
        if cid is None:
            half = metrics.width(x.name, MM_LAND_NAME, False) / 2 + 1
            cards.append(map_labels.Card(x.id, False, (-half, -12.0, half, 4.0), (0.0, 0.0), ashore))
            positions[x.id] = projection.point(*x.position)
            continue
        city = mm.cities[cid]
        at = projection.point(*city.position)
        half = metrics.width(city.name, MM_CITY_SIZE, True) / 2
        under = metrics.width(x.name, MM_LAND_SIZE, False) / 2 + 1
        name = (
            min(-half - map_labels.MARKER, -under),
            -map_labels.NAME_ABOVE,
            max(half + 1 + MM_WANT, under),
            MM_LAND_LINE + 4.0,
        )
        near = ashore.intersection(at.buffer(MM_CITY_REACH * projection.scale))
        cards.append(map_labels.Card(x.id, False, name, (0.0, 0.0), near if near.area > 50 else ashore))
        positions[x.id] = at
    for sea in mm.seas.values():
        half = metrics.width(sea.name, MM_SEA_SIZE, False) / 2
        name = (-half - MM_STORM, -map_labels.NAME_ABOVE, half, map_labels.NAME_BELOW)
        cards.append(map_labels.Card(sea.id, True, name, (0.0, 0.0), regions[sea.id]))
        positions[sea.id] = projection.point(*sea.position)
    across, cell_width, cell_height, title = MM_CHART
    width, height = across * cell_width, title + cell_height * math.ceil(len(mm.tax_chart) / across)
    chart = (-width / 2, -height, width / 2, 0.0)
    cards.append(map_labels.Card("tax-chart", True, chart, (0.0, 0.0), regions[MM_CHART_SEA]))
    positions["tax-chart"] = projection.point(*mm.seas[MM_CHART_SEA].position)
    placed = place_cards(cards, positions, board, regions, land, projection)
    ports, stranded = {}, []
    for city in mm.cities.values():
        marker = Point(placed[city.land].marker)
        water = regions[city.sea].intersection(
            projection.point(*city.position).buffer(MM_PORT_REACH * projection.scale)
        )
        if water.area < 50:
            stranded.append(f"{city.id} ({city.sea})")
            continue
        open_water = next(w for w in (water.buffer(-MM_PORT_CLEAR), water.buffer(-3.0), water) if not w.is_empty)
        port = nearest_points(open_water, marker)[0]
        ports[city.id] = [round(port.x, 1), round(port.y, 1)]
    if stranded:
        raise SystemExit(f"these cities find little of their sea near them: {', '.join(stranded)}")
    rivers = {}
    for x in mm.lands.values():
        for other in x.rivers:
            if x.id < other:
                rivers[f"{x.id}/{other}"] = border(regions[x.id], regions[other])
    return Labels(
        placed,
        {
            "format": FORMAT + "; the cards are Mare Mediterraneum's (MM_CITY_SIZE and below in tools/bake_map.py), "
            "names only, with no rows of pieces: a land's card (its city's where it has one: the marker is the "
            "city's) is keyed by the land, and the tax chart's by tax-chart (its label is the middle of the chart's "
            "bottom edge); ports gives each city's port point, [x, y] in its sea near the city, about which its "
            "ships in harbour and on the coast are drawn; rivers gives, for each pair of lands with a river "
            "between them (land/land), the lines ([x, y] points) along their shared border",
            "caravans": {},
            "ports": ports,
            "rivers": rivers,
        },
    )


def shore(pid: str, regions: Mapping[str, BaseGeometry], board: MapBoard) -> BaseGeometry:
    """Where a land's name may go: the land, and the water of its seas within MM_OFFSHORE of it (a small
    land's name may stand off its coast)."""
    region = regions[pid]
    reach = region.buffer(MM_OFFSHORE)
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


# --- output -------------------------------------------------------------------------------------------


def rounded(geometry: BaseGeometry) -> list[list[list[list[float]]]]:
    """Polygons as lists of rings of [x, y] rounded to 0.1, each ring closed implicitly. The geometry is
    normalized first, so the output does not depend on the order in which GEOS happened to build it."""
    out = []
    for polygon in polygons(shapely.normalize(MultiPolygon(polygons(geometry)))):
        rings = []
        for line in (polygon.exterior, *polygon.interiors):
            points: list[list[float]] = []
            for x, y in line.coords:
                point = [round(x, 1), round(y, 1)]
                if not points or point != points[-1]:
                    points.append(point)
            while len(points) > 1 and points[0] == points[-1]:
                points.pop()
            if len(points) >= 3:
                rings.append(points)
            elif not rings:
                break  # the outline vanishes at this rounding, so the polygon goes
        if rings:
            out.append(rings)
    return out


def dumps(document: Mapping[str, Any]) -> str:
    """Compact JSON with sorted keys and a line for each item of a top-level list or table, so that a
    change to one region shows as a change of one line."""

    def compact(value: Any) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    lines = []
    for key in sorted(document):
        value = document[key]
        if isinstance(value, dict) and value:
            items = ",\n".join(f"{compact(k)}:{compact(value[k])}" for k in sorted(value))
            lines.append(f"{compact(key)}:{{\n{items}\n}}")
        elif isinstance(value, list) and value:
            items = ",\n".join(compact(v) for v in value)
            lines.append(f"{compact(key)}:[\n{items}\n]")
        else:
            lines.append(f"{compact(key)}:{compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def adjacency_report(board: MapBoard, regions: Mapping[str, BaseGeometry], spec: Spec) -> Iterator[str]:
    """Where the drawn regions touch differently from the board's adjacency, and positions off their region."""

    def touches(a: str, b: str) -> bool:
        return bool(regions[a].buffer(2 * SIMPLIFY).intersection(regions[b]).area > 4.0)

    projection = spec.projection
    for entry in [*board.provinces.values(), *board.seas.values()]:
        assert entry.position is not None
        if not regions[entry.id].contains(projection.point(*entry.position)):
            yield f"{entry.id}: its position lies outside its region"
    for p in board.provinces.values():
        others = [o for o in board.provinces if o > p.id] + list(board.seas)
        for other in others:
            listed, drawn = other in p.land or other in p.seas, touches(p.id, other)
            if listed != drawn:
                yield f"{p.id} - {other}: {'on the board only' if listed else 'on the map only'}"
    for s in board.seas.values():
        for other in (o for o in board.seas if o > s.id):
            listed, drawn = other in s.seas, touches(s.id, other)
            if listed != drawn:
                yield f"{s.id} - {other}: {'on the board only' if listed else 'on the map only'}"


BOARDS = {
    "mare-nostrum": Spec(
        REPO / "adjudicator" / "rulesets" / "mare_nostrum" / "boards" / "mare-nostrum-2003.toml",
        mare_nostrum_entries,
        FRAME,
        CONTINENTS,
        SEEDS,
        REACHES,
        map_labels.UNITS,
        province_labels,
    ),
    "empires": Spec(
        REPO / "adjudicator" / "rulesets" / "empires" / "boards" / "empires-2016.toml",
        empires_entries,
        EMPIRES_FRAME,
        EMPIRES_CONTINENTS,
        EMPIRES_SEEDS,
        EMPIRES_REACHES,
        EMPIRES_UNITS,
        province_labels,
    ),
    "mediterraneum": Spec(
        REPO / "adjudicator" / "rulesets" / "mediterraneum" / "boards" / "mediterraneum-1989.toml",
        mediterraneum_entries,
        MM_FRAME,
        MM_CONTINENTS,
        MM_SEEDS,
        MM_REACHES,
        0,  # its cards hold no pieces
        mediterraneum_labels,
        MM_WIDTH,
    ),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Bake the report map's geometry (development time only).")
    parser.add_argument("--board", choices=sorted(BOARDS), action="append", help="only this board (default: all)")
    parser.add_argument("--check", action="store_true", help="fail if a committed file differs")
    parser.add_argument("--topojson", type=Path, help="a local copy of land-50m.json instead of npm pack")
    parser.add_argument("--adjacency", action="store_true", help="list where the map and the board disagree")
    args = parser.parse_args(argv)
    topology, digest = fetch_topology(args.topojson)
    failed = False
    for name in args.board or list(BOARDS):
        spec = BOARDS[name]
        board = read_board(spec)
        document = bake(topology, digest, board, spec)
        text = dumps(document)
        assert json.loads(text) == document, "the writer lost something"
        if args.adjacency:
            regions = bake_regions(topology, board, spec)
            for line in adjacency_report(board, regions, spec):
                print(f"{name}: {line}", file=sys.stderr)
        relative = spec.output.relative_to(REPO)
        if args.check:
            if not spec.output.exists() or spec.output.read_text(encoding="utf-8") != text:
                print(f"{relative} is out of date: run python tools/bake_map.py --board {name}", file=sys.stderr)
                failed = True
            else:
                print(f"{relative} is up to date")
            continue
        spec.output.write_text(text, encoding="utf-8")
        print(f"wrote {relative} ({len(text.encode()):,} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
