"""Where each empire stands, for the campaign site's chart: what E10 counts (capitals and
legendary cities, heroes and wonders, titles) and what a round is built from."""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.rulesets import Standing
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.claims import capitals_held
from adjudicator.rulesets.empires.model import Position


def standings(board: Board, position: Position) -> list[Standing]:
    rows = []
    for empire in position.playing:
        controlled = position.controlled(board, empire)
        player = position.players[empire]
        counts: dict[str, int] = {  # the measures of the campaign site's chart
            # NOTE: a measure of the campaign site's standings chart, counted per empire (E10).
            t("Provinces"): sum(1 for p in position.provinces.values() if p.influence == empire),
            t("Cities"): controlled["city"] + controlled["capital"] + controlled["legendary"],
            t("Capitals and legendary cities"): capitals_held(board, position, empire),
            t("Caravans"): controlled["caravan"],
            t("Heroes and wonders"): len(player.tiles),
            t("Titles"): sum(1 for holder in position.titles.values() if holder == empire),
        }
        rows.append(Standing(empire, counts))
    return rows
