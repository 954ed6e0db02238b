"""The baked report maps of the shipped boards (tools/bake_map): coastlines, regions, label
boxes, where pieces go, the sizes the cards were laid out with (`drawing`), and (Mare
Mediterraneum's) ports and rivers, read with the standard library and turned into SVG path data.
This is their only reader: a ruleset's view is handed them (`Ruleset.report_data`'s `maps`) and
opens no file."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from adjudicator.core.resources import package_file
from adjudicator.game.storage import read_toml
from adjudicator.rulesets import BoardResource, Ruleset


def ruleset_maps(ruleset: Ruleset[Any, Any, Any]) -> Mapping[str, Mapping[str, Any]]:
    """The maps to hand `ruleset.report_data`: those baked for its shipped board."""
    return baked_maps(ruleset.board)


@functools.cache
def baked_maps(board: BoardResource) -> dict[str, dict[str, Any]]:
    """The map baked beside a shipped board (`boards/<name>.map.json` beside `boards/<name>.toml`),
    keyed by the id of the board it was drawn for, as a game's board names itself; empty when the
    board has none. A moderator's own board, with its own id, finds no map here."""
    toml = package_file(board.package, board.path)
    path = toml.with_name(PurePosixPath(board.path).stem + ".map.json")
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {read_toml(toml)["board"]["id"]: geography(data)}


def geography(data: Mapping[str, Any]) -> dict[str, Any]:
    """A baked map file's content as the report templates draw it."""
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
        "drawing": data["drawing"],
        **({"ports": data["ports"]} if "ports" in data else {}),
        **({"rivers": {pair: line_data(lines) for pair, lines in data["rivers"].items()}} if "rivers" in data else {}),
    }


def path_data(polygons: list[list[list[list[float]]]]) -> str:
    """Polygons (rings of [x, y]) as one SVG path's data; holes follow the even-odd rule."""
    return " ".join(
        "M" + " ".join(f"{x:g},{y:g}" for x, y in ring) + "Z" for polygon in polygons for ring in polygon if ring
    )


def line_data(lines: list[list[list[float]]]) -> str:
    """Open lines ([x, y] points), a river's, as one SVG path's data."""
    return " ".join("M" + " L".join(f"{x:g},{y:g}" for x, y in line) for line in lines)
