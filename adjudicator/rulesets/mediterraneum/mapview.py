"""The map's data (placeholder until the baked map lands)."""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import Position


def map_data(board: Board, position: Position) -> dict[str, Any]:
    return {"geographic": False, "places": {}}
