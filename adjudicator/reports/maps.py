"""The baked report map of a shipped board (tools/bake_map.py): coastlines, regions, label
boxes and where pieces go, read with the standard library and turned into SVG path data.
Every ruleset with a shipped board reads its map through here."""

from __future__ import annotations

import functools
import json
from typing import Any

from adjudicator.core.resources import package_file


@functools.cache
def baked_map(package: str, board_id: str) -> dict[str, Any] | None:
    """The map baked for `boards/<board_id>.map.json` in the ruleset's package; None for a board
    without one (a moderator's own board)."""
    path = package_file(package, f"boards/{board_id}.map.json")
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        "width": data["view_box"][2],
        "height": data["view_box"][3],
        "land": path_data(data["land"]),
        "regions": {rid: path_data(polygons) for rid, polygons in data["regions"].items()},
        "labels": data["labels"],
        "boxes": data["label_boxes"],
        "pieces": data["pieces"],
        "markers": {rid: {"x": x, "y": y} for rid, (x, y) in data["markers"].items()},
        "caravans": data["caravans"],
        "source": data["source"],
    }


def path_data(polygons: list[list[list[list[float]]]]) -> str:
    """Polygons (rings of [x, y]) as one SVG path's data; holes follow the even-odd rule."""
    return " ".join(
        "M" + " ".join(f"{x:g},{y:g}" for x, y in ring) + "Z" for polygon in polygons for ring in polygon if ring
    )
