"""Where each player stands, for the campaign site's chart: what R10's victory conditions
count (provinces and their buildings, heroes and wonders) and the cards in hand."""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.rulesets import Standing
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.income import holder
from adjudicator.rulesets.mare_nostrum.model import Position


def standings(board: Board, position: Position) -> list[Standing]:
    rows = []
    for civ in position.playing:
        provinces = [p for p in position.provinces.values() if p.influence == civ]
        cities = sum(holder(p, f"city:{site}") == civ for p in position.provinces.values() for site in p.cities)
        caravans = sum(holder(p, f"caravan:{icon}") == civ for p in position.provinces.values() for icon in p.caravans)
        player = position.players[civ]
        counts: dict[str, int] = {  # the measures' names are messages: the site shows them in its language
            t("Provinces"): len(provinces),
            t("Cities"): cities,
            t("Caravans"): caravans,
            t("Heroes and wonders"): len(player.cards),
            t("Cards in hand"): player.hand_size,
        }
        rows.append(Standing(civ, counts))
    return rows
