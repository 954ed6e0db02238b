"""The bake of one board: its places, their regions, their cards, and the map document; and the check of
the drawn regions against the board's adjacency."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shapely.geometry import MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from .boards import Entry, MapBoard, empires_entries, mare_nostrum_entries, mediterraneum_entries
from .cards import CardMaker, mediterraneum_labels, province_labels
from .geometry import (
    MARGIN,
    REACH,
    Place,
    Projection,
    continents,
    island_regions,
    land_pieces,
    sea_water,
    voronoi,
)
from .parameters import Parameters, read_parameters
from .topology import LICENCE, SOURCE
from .writer import FORMAT, GENERATED_BY, rounded

REPO = Path(__file__).resolve().parents[2]
TOUCHING = 8.0  # view-box units of shared outline: two regions touch (a corner shares less)
PLAIN = "plain:"  # the prefix of the places that stand for plain land ([plain] in a .bake.toml)
RULESETS = REPO / "adjudicator" / "rulesets"


@dataclass(frozen=True, slots=True)
class Spec:
    """A board the baker knows: its file, its ruleset's reader and its cards. The rest of what differs
    between boards is data, in the `.bake.toml` beside the board file."""

    board: Path  # the board file; the map file is written beside it
    read: Callable[[Mapping[str, Any]], MapBoard]
    cards: CardMaker

    @property
    def stem(self) -> str:
        return self.board.name.removesuffix(".toml")

    @property
    def output(self) -> Path:
        return self.board.with_name(self.stem + ".map.json")

    @property
    def parameters(self) -> Path:
        return self.board.with_name(self.stem + ".bake.toml")


BOARDS = {
    "mare-nostrum": Spec(
        RULESETS / "mare_nostrum" / "boards" / "mare-nostrum-2003.toml", mare_nostrum_entries, province_labels
    ),
    "empires": Spec(RULESETS / "empires" / "boards" / "empires-2016.toml", empires_entries, province_labels),
    "mediterraneum": Spec(
        RULESETS / "mediterraneum" / "boards" / "mediterraneum-1989.toml", mediterraneum_entries, mediterraneum_labels
    ),
}


def read_board(spec: Spec) -> tuple[MapBoard, Parameters]:
    with spec.board.open("rb") as handle:
        board = spec.read(tomllib.load(handle))
    return board, read_parameters(spec.parameters)


def places_of(board: MapBoard, params: Parameters) -> tuple[list[Place], list[Place], list[Place]]:
    """The mainland provinces, island provinces and seas of the board, each at its projected position.
    The mainland places end with the plain land's (`[plain]`), whose cells no province gets."""
    projection = params.projection
    west, south, east, north = params.frame
    for entry in [*board.provinces.values(), *board.seas.values()]:
        if entry.position is None:
            raise SystemExit(f"{entry.id} has no position = [longitude, latitude] in the board file")
        lon, lat = entry.position
        if not (west + MARGIN <= lon <= east - MARGIN and south + MARGIN <= lat <= north - MARGIN):
            raise SystemExit(f"{entry.id} at {entry.position} is not {MARGIN}° inside the frame {params.frame}")
    for key, table in (("seeds", params.seeds), ("reaches", params.reaches)):
        unknown = sorted(set(table) - set(board.provinces) - set(board.seas))
        if unknown:
            raise SystemExit(f"[{key}] names no place of the board: {', '.join(unknown)}")

    def place(entry: Entry) -> Place:
        assert entry.position is not None
        at = projection.point(*entry.position)
        seeds = (at, *(projection.point(*seed) for seed in params.seeds.get(entry.id, ())))
        return Place(entry.id, at, seeds, params.reaches.get(entry.id, 1.0))

    provinces = list(board.provinces.values())
    plain = [
        Place(PLAIN + name, projection.point(*points[0]), tuple(projection.point(*p) for p in points))
        for name, points in sorted(params.plain.items())
    ]
    return (
        [*(place(p) for p in provinces if not p.island), *plain],
        [place(p) for p in provinces if p.island],
        [place(s) for s in board.seas.values()],
    )


def bake_regions(topology: Mapping[str, Any], board: MapBoard, params: Parameters) -> dict[str, BaseGeometry]:
    """The land (key "") and the region of every province and sea, as planar geometry."""
    projection = params.projection
    view = box(0, 0, projection.width, projection.height)
    envelope = view.buffer(projection.width)  # Voronoi cells reach past the view box
    mainland_places, island_places, sea_places = places_of(board, params)
    mainland, islands = land_pieces(topology, projection)
    land = unary_union([mainland, *islands])
    regions: dict[str, BaseGeometry] = {"": land}
    for continent, on_it in continents(mainland, mainland_places, projection, params.continents):
        if on_it:
            regions |= voronoi(on_it, continent, envelope, REACH * projection.scale)
    for place in (p for p in mainland_places if p.id.startswith(PLAIN)):
        if place.id not in regions:
            raise SystemExit(f"[plain] {place.id.removeprefix(PLAIN)} does not start on the mainland")
        del regions[place.id]  # left as plain land
    regions |= island_regions(island_places, islands)
    regions |= voronoi(sea_places, sea_water(view.difference(land), sea_places), envelope)
    return regions


def bake(
    topology: Mapping[str, Any], digest: str, board: MapBoard, params: Parameters, cards: CardMaker
) -> dict[str, Any]:
    """The map document."""
    projection: Projection = params.projection
    regions = bake_regions(topology, board, params)
    land = regions.pop("")
    labels = cards(board, regions, land, params)
    placed = labels.placed
    return {
        "source": SOURCE,
        "source_sha256": digest,
        "licence": LICENCE,
        "generated_by": GENERATED_BY,
        "projection": projection.describe(),
        "view_box": [0, 0, projection.width, projection.height],
        "format": FORMAT,
        "land": rounded(land),
        "regions": {pid: rounded(region) for pid, region in regions.items()},
        "reach": REACH,
        "seeds": {pid: [list(seed) for seed in seeds] for pid, seeds in sorted(params.seeds.items())},
        "labels": {pid: list(p.label) for pid, p in placed.items()},
        "label_boxes": {pid: list(p.box) for pid, p in placed.items()},
        "pieces": {pid: p.rows for pid, p in placed.items()},
        "markers": {pid: list(p.marker) for pid, p in placed.items() if p.marker is not None},
    } | labels.extra


def adjacency_report(board: MapBoard, regions: Mapping[str, BaseGeometry], params: Parameters) -> Iterator[str]:
    """Where the drawn regions touch differently from the board's adjacency, and positions off their region.
    Two regions touch when `TOUCHING` units of the one's outline, as the map file holds it, run within a
    unit of the other's: a shared edge, not a corner (tests/test_map_data.py measures the same)."""
    drawn = {pid: MultiPolygon([Polygon(p[0], p[1:]) for p in rounded(g)]) for pid, g in regions.items() if pid}
    near = {pid: g.boundary.buffer(1.0) for pid, g in drawn.items()}

    def touches(a: str, b: str) -> bool:
        if drawn[a].distance(drawn[b]) > 1.0:
            return False
        return bool(drawn[a].boundary.intersection(near[b]).length >= TOUCHING)

    projection = params.projection
    for entry in [*board.provinces.values(), *board.seas.values()]:
        assert entry.position is not None
        if not regions[entry.id].contains(projection.point(*entry.position)):
            yield f"{entry.id}: its position lies outside its region"
    for p in board.provinces.values():
        others = [o for o in board.provinces if o > p.id] + list(board.seas)
        for other in others:
            listed, touching = other in p.land or other in p.seas, touches(p.id, other)
            if listed != touching:
                yield f"{p.id} - {other}: {'on the board only' if listed else 'on the map only'}"
    for s in board.seas.values():
        for other in (o for o in board.seas if o > s.id):
            listed, touching = other in s.seas, touches(s.id, other)
            if listed != touching:
                yield f"{s.id} - {other}: {'on the board only' if listed else 'on the map only'}"
