"""The map file's text: geometry rounded to 0.1 and JSON laid out so that a diff shows what moved."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import shapely
from shapely.geometry import MultiPolygon
from shapely.geometry.base import BaseGeometry

from .geometry import polygons

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
GENERATED_BY = "tools/bake_map"  # the package that wrote the file (tests/test_map_data.py checks it)


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
