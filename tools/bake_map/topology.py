"""The land polygons of the source TopoJSON, fetched from npm (or read from a local copy) and decoded.

A topology stores each border once, as an "arc" (a line of points), and polygons refer to arcs by index.
In a quantized topology (one with a `transform`) each point is a pair of integers, and every point after
the first is the difference from the one before it (delta encoding). The transform turns the integers
back into degrees: lon = x * scale[0] + translate[0], and likewise for lat. A polygon is a list of rings
and a ring is a list of arc indices. An index i >= 0 means arc i as stored; a negative index means arc ~i
(that is, -i - 1) walked backwards. Consecutive arcs of a ring share their end point, so that point is
kept only once when the arcs are joined.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

PACKAGE = "world-atlas@2.0.2"
PACKAGE_FILE = "package/land-50m.json"
PACKAGE_SHA256 = "619477ff690c086885e45cb91707d783805561bd75ae8e437b7d4694b0204e0f"
SOURCE = (
    "Natural Earth 1:50m land (naturalearthdata.com), as the TopoJSON file land-50m.json "
    "of the npm package world-atlas 2.0.2 (github.com/topojson/world-atlas)"
)
LICENCE = "Natural Earth data: public domain; the world-atlas package: ISC licence, Mike Bostock"


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
    """The TopoJSON (read from `path`, or from `npm pack` of the package) and its SHA-256, checked so that
    the same input always gives the same map."""
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
