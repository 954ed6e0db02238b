"""Where each player stands, for the campaign site's chart: his purse, and what the four goals
of a State card count (M12.1), which say nothing of the card itself."""

from __future__ import annotations

from adjudicator.rulesets import Standing
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import Position, goal_points


def standings(board: Board, position: Position) -> list[Standing]:
    rows = []
    for colour in position.order:
        have = goal_points(board, position, colour)
        counts = {
            "MILIA": position.players[colour].money,
            "Cities held": len(position.provinces(colour)),
            "Ships": len(position.ships_of(colour)),
            "Armies": len(position.armies_of(colour)),
            "Art": have["art"],
            "Buildings": have["buildings"],
            "Wares": have["wares"],
        }
        rows.append(Standing(colour, board.colours[colour].css, counts))
    return rows
