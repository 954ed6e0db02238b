"""Where each empire stands, for the campaign site's chart: what E10 counts (capitals and
legendary cities, heroes and wonders, titles) and what a round is built from."""

from __future__ import annotations

from adjudicator.rulesets import Standing
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.claims import capitals_held
from adjudicator.rulesets.empires.model import Position

# The board's colour names as drawn.
PALETTE = {
    "red": "#d62728",
    "green": "#2ca02c",
    "yellow": "#d4a000",
    "black": "#333333",
    "violet": "#8e44ad",
}


def standings(board: Board, position: Position) -> list[Standing]:
    rows = []
    for empire in position.playing:
        controlled = position.controlled(board, empire)
        player = position.players[empire]
        counts = {
            "Provinces": sum(1 for p in position.provinces.values() if p.influence == empire),
            "Cities": controlled["city"] + controlled["capital"] + controlled["legendary"],
            "Capitals and legendary cities": capitals_held(board, position, empire),
            "Caravans": controlled["caravan"],
            "Heroes and wonders": len(player.tiles),
            "Titles": sum(1 for holder in position.titles.values() if holder == empire),
        }
        colour = board.empires[empire].colour
        rows.append(Standing(empire, PALETTE.get(colour, colour), counts))
    return rows
