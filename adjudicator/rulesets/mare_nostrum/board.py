"""The board as a validated value: provinces, seas, civilizations and their start holdings.

The file is read at the edge (the game layer); this module only turns parsed TOML into a
`Board` and checks it, so the ruleset itself never opens a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.errors import BoardError
from adjudicator.core.fields import Fields
from adjudicator.core.names import NameIndex
from adjudicator.rulesets.kit.graph import PlaceGraph, geo_position, graph_problems
from adjudicator.rulesets.kit.lookup import Named
from adjudicator.rulesets.mare_nostrum.components import (
    CIV_ALIASES,
    COMMODITY_CARDS,
    Civ,
    ProvinceId,
    Role,
    SeaId,
)


@dataclass(frozen=True, slots=True)
class Province(Named[ProvinceId]):
    island: bool
    cities: tuple[str, ...]  # printed city sites
    commodities: tuple[str, ...]  # printed icons, one caravan each
    land: tuple[ProvinceId, ...]
    seas: tuple[SeaId, ...]
    source: str
    map: tuple[int, int] | None = None  # where the report map draws it
    position: tuple[float, float] | None = None  # [longitude, latitude] on the real map (WGS84)
    position_source: str = ""  # where that position comes from

    @property
    def coastal(self) -> bool:
        return bool(self.seas)


@dataclass(frozen=True, slots=True)
class Sea(Named[SeaId]):
    seas: tuple[SeaId, ...]
    source: str
    map: tuple[int, int] | None = None
    position: tuple[float, float] | None = None
    position_source: str = ""


@dataclass(frozen=True, slots=True)
class StartHolding:
    province: ProvinceId
    cities: tuple[str, ...]
    caravans: tuple[str, ...]
    fortresses: int


@dataclass(frozen=True, slots=True)
class Civilization:
    name: Civ
    capital: ProvinceId
    hero: str
    colour: str
    role: Role | None
    start: tuple[StartHolding, ...]


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    status: str
    provinces: Mapping[ProvinceId, Province]
    seas: Mapping[SeaId, Sea]
    civilizations: Mapping[Civ, Civilization]
    places: NameIndex[str] = field(compare=False, repr=False)
    civ_names: NameIndex[Civ] = field(compare=False, repr=False)

    @property
    def reconstructed(self) -> bool:
        return self.status == "reconstructed"

    def coasts(self, sea: SeaId) -> tuple[ProvinceId, ...]:
        return tuple(p.id for p in self.provinces.values() if sea in p.seas)

    def place_name(self, place: str) -> str:
        if place in self.provinces:
            return self.provinces[ProvinceId(place)].name
        return self.seas[SeaId(place)].name

    def capital_of(self, province: ProvinceId) -> Civ | None:
        for civ in self.civilizations.values():
            if civ.capital == province:
                return civ.name
        return None

    @property
    def heroes(self) -> Mapping[str, Civ]:
        """Civilization hero -> the only civilization that may own it (R6.6)."""
        return {c.hero: c.name for c in self.civilizations.values()}


def parse_board(data: Mapping[str, Any]) -> Board:
    """Build a `Board` from parsed TOML, then check it; raises `DataError` or `BoardError`."""
    root = Fields(data)
    root.only({"board", "province", "sea", "civilization"})
    meta = root.table("board")
    provinces = {p.id: p for p in (_province(f) for f in root.tables("province"))}
    seas = {s.id: s for s in (_sea(f) for f in root.tables("sea"))}
    civilizations = {c.name: c for c in (_civilization(f) for f in root.tables("civilization"))}
    places: NameIndex[str] = NameIndex("place")
    for province in provinces.values():
        places.add(province.id, province.name, (province.id, *province.aliases))
    for sea in seas.values():
        places.add(sea.id, sea.name, (sea.id, *sea.aliases))
    civ_names: NameIndex[Civ] = NameIndex("civilization")
    for civ in civilizations.values():
        civ_names.add(civ.name, civ.name, CIV_ALIASES.get(civ.name, ()))
    board = Board(
        id=meta.text("id"),
        name=meta.text("name"),
        status=meta.text("status", "printed"),
        provinces=provinces,
        seas=seas,
        civilizations=civilizations,
        places=places,
        civ_names=civ_names,
    )
    problems = check_board(board, raw_counts=(len(root.tables("province")), len(root.tables("sea"))))
    if problems:
        raise BoardError(problems)
    return board


def _province(f: Fields) -> Province:
    f.only(
        {
            "id",
            "name",
            "aliases",
            "island",
            "cities",
            "commodities",
            "land",
            "seas",
            "source",
            "map",
            "position",
            "position_source",
        }
    )
    return Province(
        id=ProvinceId(f.text("id")),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        island=f.flag("island", False),
        cities=tuple(f.texts("cities", [])),
        commodities=tuple(f.texts("commodities", [])),
        land=tuple(ProvinceId(p) for p in f.texts("land", [])),
        seas=tuple(SeaId(s) for s in f.texts("seas", [])),
        source=f.text("source", ""),
        map=_map_position(f),
        position=geo_position(f),
        position_source=f.text("position_source", ""),
    )


def _map_position(f: Fields) -> tuple[int, int] | None:
    if "map" not in f:
        return None
    value = f.data["map"]
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise f.error("map", f"expected [x, y] with two whole numbers, found {value!r}")
    return (value[0], value[1])


def _sea(f: Fields) -> Sea:
    f.only({"id", "name", "aliases", "seas", "source", "map", "position", "position_source"})
    return Sea(
        id=SeaId(f.text("id")),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        seas=tuple(SeaId(s) for s in f.texts("seas", [])),
        source=f.text("source", ""),
        map=_map_position(f),
        position=geo_position(f),
        position_source=f.text("position_source", ""),
    )


def _civilization(f: Fields) -> Civilization:
    f.only({"name", "capital", "hero", "colour", "role", "start"})
    role_text = f.text("role", None)
    if role_text is not None and role_text not in Role.__members__.values():
        raise f.error("role", f"'{role_text}' is not a role; use commerce, political or military")
    start = []
    for holding in f.tables("start"):
        holding.only({"province", "cities", "caravans", "fortresses"})
        start.append(
            StartHolding(
                province=ProvinceId(holding.text("province")),
                cities=tuple(holding.texts("cities", [])),
                caravans=tuple(holding.texts("caravans", [])),
                fortresses=holding.integer("fortresses", 0, minimum=0),
            )
        )
    return Civilization(
        name=Civ(f.text("name")),
        capital=ProvinceId(f.text("capital")),
        hero=f.text("hero"),
        colour=f.text("colour", "grey"),
        role=Role(role_text) if role_text is not None else None,
        start=tuple(start),
    )


def check_board(board: Board, raw_counts: tuple[int, int] | None = None) -> list[str]:
    """Every way the board breaks its own consistency; empty when it is sound."""
    problems: list[str] = []
    if raw_counts and raw_counts != (len(board.provinces), len(board.seas)):
        problems.append("two provinces or two seas share an id")
    problems += graph_problems(PlaceGraph.of(board.provinces.values(), board.seas.values()))
    problems += _check_contents(board)
    problems += _check_names(board)
    problems += _check_setups(board)
    places: list[Province | Sea] = [*board.provinces.values(), *board.seas.values()]
    if any(p.map is not None for p in places):
        problems += [
            f"{p.id} has no map position (give every place `map = [x, y]`, or none)" for p in places if p.map is None
        ]
    return problems


def _check_contents(board: Board) -> list[str]:
    problems = []
    sites: dict[str, ProvinceId] = {}
    for p in board.provinces.values():
        for icon in p.commodities:
            if icon not in COMMODITY_CARDS:
                problems.append(f"province {p.id}: '{icon}' is not a commodity ({', '.join(COMMODITY_CARDS)})")
        if len(set(p.commodities)) != len(p.commodities):
            problems.append(f"province {p.id} prints the same commodity icon twice")
        for site in p.cities:
            if site in sites:
                problems.append(f"city site '{site}' is printed in both {sites[site]} and {p.id}")
            sites[site] = p.id
    return problems


def _check_names(board: Board) -> list[str]:
    problems = []
    for spelling, keys in board.places.collisions().items():
        problems.append(f"the name '{spelling}' matches several places: {', '.join(map(str, keys))}")
    for spelling, civs in board.civ_names.collisions().items():
        problems.append(f"the name '{spelling}' matches several civilizations: {', '.join(civs)}")
    return problems


def _check_setups(board: Board) -> list[str]:
    problems = []
    owner: dict[ProvinceId, Civ] = {}
    roles: dict[Role, Civ] = {}
    for civ in board.civilizations.values():
        where = f"civilization {civ.name}"
        if civ.capital not in board.provinces:
            problems.append(f"{where}: capital '{civ.capital}' is not a province")
        if civ.capital not in {h.province for h in civ.start}:
            problems.append(f"{where}: the capital {civ.capital} is not among its start provinces")
        if civ.role is not None:
            if civ.role in roles:
                problems.append(f"{where}: role {civ.role} is already printed for {roles[civ.role]}")
            roles[civ.role] = civ.name
        for h in civ.start:
            if h.province not in board.provinces:
                problems.append(f"{where}: start province '{h.province}' is not a province")
                continue
            if h.province in owner:
                problems.append(f"{where}: start province {h.province} also belongs to {owner[h.province]}")
            owner[h.province] = civ.name
            province = board.provinces[h.province]
            for site in h.cities:
                if site not in province.cities:
                    problems.append(
                        f"{where}: {h.province} has no city site '{site}' ({', '.join(province.cities) or 'none'})"
                    )
            for icon in h.caravans:
                if icon not in province.commodities:
                    problems.append(f"{where}: {h.province} has no '{icon}' icon for a caravan")
            if len(set(h.caravans)) != len(h.caravans) or len(set(h.cities)) != len(h.cities):
                problems.append(f"{where}: {h.province} uses a city site or an icon twice")
            if h.fortresses > 1:
                problems.append(f"{where}: {h.province} starts with more than one fortress (R6.5)")
    return problems
