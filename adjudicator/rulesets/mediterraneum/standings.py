"""Where each player stands, for the campaign site's chart: his purse, and what the four goals
of a State card count (M12.1), which say nothing of the card itself."""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.rulesets import Standing
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import Position, goal_points


def standings(board: Board, position: Position) -> list[Standing]:
    rows = []
    for colour in position.order:
        have = goal_points(board, position, colour)
        counts = {  # what the map shows first: the map's alternative text names these two
            t("Cities held"): len(position.provinces(colour)),
            t("Armies"): len(position.armies_of(colour)),
            t("Ships"): len(position.ships_of(colour)),
            "MILIA": position.players[colour].money,  # the currency's name, as printed
            t("Art"): have["art"],
            t("Buildings"): have["buildings"],
            t("Wares"): have["wares"],
        }
        rows.append(Standing(colour, counts))
    return rows
