"""What differs between the boards, read from the `<board>.bake.toml` beside each board file.

The parameters are data so that shaping a board's map means editing that board's files only; the
method in the other modules is shared. A mistake stops the bake with the file and the key.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from adjudicator.rulesets.mediterraneum.mapview import Chart, Drawing

from .geometry import Projection

Degrees = tuple[float, float]  # longitude, latitude


@dataclass(frozen=True, slots=True)
class CityCards:
    """The sizes of Mare Mediterraneum's name-only cards. Those the map is drawn with as well as
    baked with are the renderer's own value (`mapview.Drawing`), written into the map file's
    `drawing`, so the .bake.toml is their one home; the rest only steer the bake."""

    drawing: Drawing
    chart_sea: str  # the sea the tax chart's card goes in
    city_reach: float  # degrees of latitude: a city's name lies this close to the city
    offshore: float  # a land's name may stand this far off its coast
    port_reach: float  # degrees of latitude: a port point lies in the city's sea this close to the city
    port_clear: float  # and this far from the shore, where the water allows

    def drawing_data(self) -> dict[str, Any]:
        """The map file's `drawing`, as mapview.drawing_of reads it back."""
        return dataclasses.asdict(self.drawing)


# The keys of [cards] that are drawing sizes (the chart is a table of its own).
DRAWING_KEYS = tuple(name for name in Drawing.__dataclass_fields__ if name != "chart")


@dataclass(frozen=True, slots=True)
class Parameters:
    frame: tuple[float, float, float, float]  # west, south, east, north (degrees)
    width: float  # of the view box
    continents: tuple[str, ...]  # WKT outlines in degrees, the first listed taking overlaps
    seeds: Mapping[str, tuple[Degrees, ...]]  # extra Voronoi seeds of a place
    plain: Mapping[str, tuple[Degrees, ...]]  # seeds of no place, whose cells stay plain land
    reaches: Mapping[str, float]  # a place's reach as a fraction of the shared one
    units: int  # the units a province's card reserves
    cities: CityCards | None  # Mare Mediterraneum's cards, where the board has them

    @property
    def projection(self) -> Projection:
        return Projection(*self.frame, self.width)


class _Table:
    """One TOML table, read key by key, so that every error names the file and the key."""

    def __init__(self, path: Path, name: str, data: Mapping[str, Any], known: set[str] | None) -> None:
        self.path, self.name, self.data = path, name, data
        unknown = sorted(set(data) - known) if known is not None else []
        if unknown:
            raise SystemExit(f"{path}: [{name}] has unknown keys {', '.join(unknown)}")

    def fail(self, key: str, wanted: str) -> SystemExit:
        return SystemExit(f"{self.path}: [{self.name}] {key} must be {wanted}")

    def number(self, key: str) -> float:
        value = self.data.get(key)
        if not _is_number(value):
            raise self.fail(key, "a number")
        return float(value)

    def integer(self, key: str) -> int:
        value = self.data.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, "an integer")
        return value

    def text(self, key: str) -> str:
        value = self.data.get(key)
        if not isinstance(value, str):
            raise self.fail(key, "a string")
        return value

    def numbers(self, key: str, count: int) -> tuple[float, ...]:
        value = self.data.get(key)
        if not (isinstance(value, list) and len(value) == count and all(_is_number(v) for v in value)):
            raise self.fail(key, f"a list of {count} numbers")
        return tuple(float(v) for v in value)

    def points(self, key: str) -> tuple[Degrees, ...]:
        value = self.data.get(key)
        if not (isinstance(value, list) and all(isinstance(p, list) and len(p) == 2 for p in value)):
            raise self.fail(key, "a list of [longitude, latitude]")
        if not all(_is_number(v) for p in value for v in p):
            raise self.fail(key, "a list of [longitude, latitude]")
        return tuple((float(p[0]), float(p[1])) for p in value)

    def table(self, key: str, known: set[str] | None) -> _Table:
        """The table at `key` (empty when absent), with only the `known` keys (None: any)."""
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, "a table")
        return _Table(self.path, f"{self.name}.{key}".lstrip("."), value, known)


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_parameters(path: Path) -> Parameters:
    """The parameters in a `.bake.toml` file."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    top = _Table(path, "", data, {"map", "continent", "seeds", "plain", "reaches", "cards"})
    view = top.table("map", {"frame", "width"})
    west, south, east, north = view.numbers("frame", 4)
    continents = data.get("continent", [])
    if not (isinstance(continents, list) and all(isinstance(c, dict) for c in continents)):
        raise SystemExit(f"{path}: continent must be an array of tables ([[continent]])")
    outlines = [
        _Table(path, f"continent {n}", c, {"name", "outline"}).text("outline") for n, c in enumerate(continents, 1)
    ]
    seeds, plain, reaches = top.table("seeds", None), top.table("plain", None), top.table("reaches", None)
    cards = top.table("cards", {"units", "chart", *DRAWING_KEYS, "city_reach", "offshore", "port_reach", "port_clear"})
    return Parameters(
        frame=(west, south, east, north),
        width=view.number("width"),
        continents=tuple(outlines),
        seeds={pid: seeds.points(pid) for pid in seeds.data},
        plain={name: plain.points(name) for name in plain.data},
        reaches={pid: reaches.number(pid) for pid in reaches.data},
        units=cards.integer("units"),
        cities=_city_cards(cards) if set(cards.data) - {"units"} else None,
    )


def _city_cards(cards: _Table) -> CityCards:
    chart = cards.table("chart", {"sea", "across", "space_width", "space_height", "title"})
    drawing = Drawing(
        **{key: cards.number(key) for key in DRAWING_KEYS},
        chart=Chart(
            across=chart.integer("across"),
            space_width=chart.number("space_width"),
            space_height=chart.number("space_height"),
            title=chart.number("title"),
        ),
    )
    return CityCards(
        drawing=drawing,
        chart_sea=chart.text("sea"),
        city_reach=cards.number("city_reach"),
        offshore=cards.number("offshore"),
        port_reach=cards.number("port_reach"),
        port_clear=cards.number("port_clear"),
    )
