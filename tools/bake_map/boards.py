"""Each ruleset's board, read through its own parser, as the places a map divides the land and sea among.

The rulesets' boards differ (provinces with city sites, Empires' printed buildings, Mare
Mediterraneum's land areas), so each has a reader here; the rest of the bake sees only `MapBoard`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.rulesets.empires import board as empires_board
from adjudicator.rulesets.mare_nostrum import board as mare_nostrum_board
from adjudicator.rulesets.mediterraneum import board as mediterraneum_board


@dataclass(frozen=True, slots=True)
class Entry:
    """A province or a sea, as the map needs it, from any ruleset's board."""

    id: str
    name: str
    position: tuple[float, float] | None
    island: bool
    land: tuple[str, ...]  # land neighbours
    seas: tuple[str, ...]  # coasts (a province) or neighbouring seas (a sea)
    icons: int  # the building icons a province's label reserves (cities, temples, markets)
    caravans: tuple[str, ...]  # the commodity of each caravan site, drawn as its tag


@dataclass(frozen=True, slots=True)
class MapBoard:
    provinces: dict[str, Entry]
    seas: dict[str, Entry]
    cities: mediterraneum_board.Board | None = None  # Mare Mediterraneum's board, whose cards need its cities


def mare_nostrum_entries(data: Mapping[str, Any]) -> MapBoard:
    """The 2003 board: a province reserves its printed city sites, a temple and a market."""
    board = mare_nostrum_board.parse_board(data)
    return MapBoard(
        {
            p.id: Entry(p.id, p.name, p.position, p.island, p.land, p.seas, len(p.cities) + 2, p.commodities)
            for p in board.provinces.values()
        },
        {s.id: Entry(s.id, s.name, s.position, False, (), s.seas, 0, ()) for s in board.seas.values()},
    )


def empires_entries(data: Mapping[str, Any]) -> MapBoard:
    """The Empires board: a province reserves its city site and a market and a temple where printed."""
    board = empires_board.parse_board(data)
    return MapBoard(
        {
            p.id: Entry(
                p.id,
                p.name,
                p.position,
                p.island,
                p.land,
                p.seas,
                (p.city is not None) + p.market + p.temple,
                p.caravans,
            )
            for p in board.provinces.values()
        },
        {s.id: Entry(s.id, s.name, s.position, False, (), s.seas, 0, ()) for s in board.seas.values()},
    )


def mediterraneum_entries(data: Mapping[str, Any]) -> MapBoard:
    """The Mare Mediterraneum board: its land areas are the provinces (an island is a land with no land
    neighbour). Its cards are its own (`cards.mediterraneum_labels`), which read the cities."""
    board = mediterraneum_board.parse_board(data)
    return MapBoard(
        {x.id: Entry(x.id, x.name, x.position, x.island, x.land, x.seas, 0, ()) for x in board.lands.values()},
        {s.id: Entry(s.id, s.name, s.position, False, (), s.seas, 0, ()) for s in board.seas.values()},
        board,
    )
