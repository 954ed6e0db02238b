"""The Empires board and components as a validated value: provinces and their building sites,
seas, the five empire screens, the title tracks, trade tokens, costs, dice and the hero and
wonder tiles (docs/rules-empires.md E1, E2).

Almost nothing here is printed in the seed, so the data file carries it all, each entry with
its `source`; a moderator who owns the game corrects the file, never the code. Hero powers
are built from a closed vocabulary of effects (`EFFECTS`), checked here with their parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from adjudicator.core.errors import BoardError
from adjudicator.core.fields import Fields
from adjudicator.core.names import NameIndex
from adjudicator.rulesets.kit.graph import PlaceGraph, Sea, geo_position, graph_problems, parse_sea
from adjudicator.rulesets.kit.lookup import Named, name_index
from adjudicator.rulesets.kit.payment import TAX

START_RESOURCES = 9  # every empire screen gives nine resources (E2)
PLAYER_COUNTS = (3, 4, 5)


class Title(StrEnum):
    COMMERCE = "commerce"
    POLITICAL = "political"
    MILITARY = "military"


class CityKind(StrEnum):
    CITY = "city"
    CAPITAL = "capital"
    LEGENDARY = "legendary"


class TileKind(StrEnum):
    HERO = "hero"
    WONDER = "wonder"
    PYRAMIDS = "pyramids"


# effect -> the parameters it takes (name -> the kind of value); every one optional but `note`
# is for people only. The engine gives each effect its meaning (E11).
_UNITS = ("legion", "trireme")
EFFECTS: Mapping[str, Mapping[str, Any]] = {
    "die_bonus": {"unit": _UNITS, "side": ("attack", "defence", "any"), "amount": int, "where": ("own", "any")},
    "battle_bonus": {"amount": int, "where": ("own", "any"), "unit": _UNITS},
    "extra_die": {"unit": _UNITS, "side": ("attack", "defence", "any")},
    "cost_change": {"piece": str, "cost": int, "pay": list},
    "set_exception": {"allow": ("mix_tax_and_goods", "identical_goods"), "count": int},
    "free_placement": {"piece": ("influence", "legion"), "per": ("round",), "where": ("occupied",)},
    "keep_goods": {"count": int},
    "plunder_double": {},
    "trade_choice": {},
    "free_tax": {"per": ("production",), "count": int},
    "take_good": {"after": ("production",)},
    "impose_peace": {},
    "copy_ability": {},
    "auto_convert": {},
    "legion_as_caravan": {},
    "first_when_winning": {},
    "win": {},
}
PIECES = ("influence", "city", "capital", "legendary", "caravan", "legion", "trireme", "fortress", "temple", "market")


@dataclass(frozen=True, slots=True)
class Commodity(Named[str]):
    source: str


@dataclass(frozen=True, slots=True)
class Province(Named[str]):
    island: bool
    land: tuple[str, ...]
    seas: tuple[str, ...]
    caravans: tuple[str, ...]  # one site per entry, each with the commodity it produces
    market: bool
    city: CityKind | None  # the kind of its city site, if it has one
    city_name: str
    temple: bool
    source: str
    position: tuple[float, float] | None = None
    position_source: str = ""


@dataclass(frozen=True, slots=True)
class EmpireStart:
    """The inside of an empire's screen: what stands on the board and what it holds (E2)."""

    caravans: Mapping[str, tuple[str, ...]]
    markets: tuple[str, ...]
    cities: tuple[str, ...]
    temples: tuple[str, ...]
    legions: Mapping[str, int]
    triremes: Mapping[str, int]
    fortresses: Mapping[str, int]
    resources: Mapping[str, int]
    titles: Mapping[Title, int]
    source: str


@dataclass(frozen=True, slots=True)
class Empire(Named[str]):
    colour: str
    hero: str
    player_counts: tuple[int, ...]
    provinces: tuple[str, ...]
    capital: str
    start: EmpireStart
    source: str


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    parameters: Mapping[str, Any]
    note: str = ""


@dataclass(frozen=True, slots=True)
class Tile:
    name: str
    kind: TileKind
    start: str | None  # the empire (by name) whose starting hero it is
    prices: tuple[int, ...]  # by round: 1, 2, …; the last holds for every later round
    titles: Mapping[Title, int]
    effects: tuple[Effect, ...]
    source: str

    def price(self, round_number: int) -> int:
        return self.prices[min(round_number, len(self.prices)) - 1]


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    status: str
    commodities: Mapping[str, Commodity]
    provinces: Mapping[str, Province]
    seas: Mapping[str, Sea]
    empires: Mapping[str, Empire]  # by name ("Rome"), as positions and players call them
    title_points: Mapping[Title, Mapping[str, int]]
    title_holders: Mapping[Title, str]
    trade_tokens: tuple[tuple[int, int], ...]
    costs: Mapping[str, int]
    land_dice: tuple[int, ...]
    sea_dice: tuple[int, ...]
    tiles: Mapping[str, Tile]
    places: NameIndex[str] = field(compare=False, repr=False)
    empire_names: NameIndex[str] = field(compare=False, repr=False)
    goods: NameIndex[str] = field(compare=False, repr=False)
    tile_names: NameIndex[str] = field(compare=False, repr=False)

    @property
    def reconstructed(self) -> bool:
        return self.status == "reconstructed"

    def coasts(self, sea: str) -> tuple[str, ...]:
        return tuple(p.id for p in self.provinces.values() if sea in p.seas)

    def empires_for(self, players: int) -> tuple[str, ...]:
        """The empires in play with this many players (E2.1: the others' lands are covered)."""
        return tuple(e.name for e in self.empires.values() if players in e.player_counts)


_START_KEYS = frozenset(
    {"caravans", "markets", "cities", "temples", "legions", "triremes", "fortresses", "resources", "titles", "source"}
)
_TOP = {"board", "commodity", "province", "sea", "empire", "titles", "trade", "costs", "dice", "tile"}


def parse_board(data: Mapping[str, Any]) -> Board:
    """Build a `Board` from parsed TOML, then check it; raises `DataError` or `BoardError`."""
    root = Fields(data)
    root.only(_TOP)
    meta = root.table("board")
    meta.only({"id", "name", "status"})
    commodities = {c.id: c for c in (_commodity(f) for f in root.tables("commodity"))}
    provinces = {p.id: p for p in (_province(f) for f in root.tables("province"))}
    seas = {s.id: s for s in (parse_sea(f) for f in root.tables("sea"))}
    empires = {e.name: e for e in (_empire(f) for f in root.tables("empire"))}
    named = {e.id: e.name for e in empires.values()}  # the file refers to empires by id, positions by name
    tiles = {t.name: replace(t, start=t.start and named.get(t.start, t.start)) for t in map(_tile, root.tables("tile"))}
    titles = root.table("titles")
    titles.only({*Title, "start_holders", "source"})
    trade = root.table("trade")
    trade.only({"tokens", "source"})
    costs = root.table("costs")
    dice = root.table("dice")
    dice.only({"land", "sea", "source"})
    board = Board(
        id=meta.text("id"),
        name=meta.text("name"),
        status=meta.text("status", "printed"),
        commodities=commodities,
        provinces=provinces,
        seas=seas,
        empires=empires,
        title_points={t: titles.counts(t) for t in Title},
        title_holders={t: named.get(h, h) for t, h in _holders(titles.table("start_holders")).items()},
        trade_tokens=_tokens(trade),
        costs=_costs(costs),
        land_dice=_faces(dice, "land"),
        sea_dice=_faces(dice, "sea"),
        tiles=tiles,
        places=name_index("place", [*provinces.values(), *seas.values()]),
        empire_names=_empire_index(empires.values()),
        goods=name_index("commodity", commodities.values()),
        tile_names=_tile_index(tiles.values()),
    )
    counts = {name: len(root.tables(name)) for name in ("commodity", "province", "sea", "empire", "tile")}
    problems = [f"two {name} entries share an id or name" for name, n in counts.items() if n != _size(board, name)]
    problems += check_board(board)
    if problems:
        raise BoardError(problems)
    return board


def _size(board: Board, name: str) -> int:
    tables = {
        "commodity": board.commodities,
        "province": board.provinces,
        "sea": board.seas,
        "empire": board.empires,
        "tile": board.tiles,
    }
    return len(tables[name])


def _empire_index(empires: Any) -> NameIndex[str]:
    """Empires by name ("Rome"), as positions and orders call them; the file's id is a spelling."""
    index: NameIndex[str] = NameIndex("empire")
    for empire in empires:
        index.add(empire.name, empire.name, (empire.id, empire.name, *empire.aliases))
    return index


def _tile_index(tiles: Any) -> NameIndex[str]:
    index: NameIndex[str] = NameIndex("hero or wonder")
    for tile in tiles:
        index.add(tile.name, tile.name, (tile.name,))
    return index


def _commodity(f: Fields) -> Commodity:
    f.only({"id", "name", "aliases", "source"})
    return Commodity(f.text("id"), f.text("name"), tuple(f.texts("aliases", [])), f.text("source", ""))


def _province(f: Fields) -> Province:
    f.only(
        {
            "id", "name", "aliases", "position", "position_source", "island", "land", "seas", "caravans",
            "market", "city", "city_name", "temple", "source",
        }
    )  # fmt: skip
    city = f.text("city", "")
    if city and city not in CityKind.__members__.values():
        raise f.error("city", f"'{city}' is not a city site; use \"\", city, capital or legendary")
    return Province(
        id=f.text("id"),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        island=f.flag("island", False),
        land=tuple(f.texts("land", [])),
        seas=tuple(f.texts("seas", [])),
        caravans=tuple(f.texts("caravans", [])),
        market=f.flag("market", False),
        city=CityKind(city) if city else None,
        city_name=f.text("city_name", ""),
        temple=f.flag("temple", False),
        source=f.text("source", ""),
        position=geo_position(f),
        position_source=f.text("position_source", ""),
    )


def _empire(f: Fields) -> Empire:
    f.only({"id", "name", "aliases", "colour", "hero", "player_counts", "provinces", "capital", "start", "source"})
    counts = f.data.get("player_counts", list(PLAYER_COUNTS))
    if not (isinstance(counts, list) and counts and all(c in PLAYER_COUNTS for c in counts)):
        raise f.error("player_counts", f"expected a list of player counts from {PLAYER_COUNTS}, found {counts!r}")
    start = f.table("start")
    start.only(_START_KEYS)
    caravans = start.table("caravans", {})
    return Empire(
        id=f.text("id"),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        colour=f.text("colour"),
        hero=f.text("hero"),
        player_counts=tuple(counts),
        provinces=tuple(f.texts("provinces")),
        capital=f.text("capital"),
        start=EmpireStart(
            caravans={province: tuple(caravans.texts(province)) for province in caravans},
            markets=tuple(start.texts("markets", [])),
            cities=tuple(start.texts("cities", [])),
            temples=tuple(start.texts("temples", [])),
            legions=start.counts("legions") if "legions" in start else {},
            triremes=start.counts("triremes") if "triremes" in start else {},
            fortresses=start.counts("fortresses") if "fortresses" in start else {},
            resources=start.counts("resources"),
            titles=_levels(start.table("titles")),
            source=start.text("source", ""),
        ),
        source=f.text("source", ""),
    )


def _levels(f: Fields) -> dict[Title, int]:
    """A level (or a bonus) on each of the three title tracks."""
    f.only(set(Title))
    return {Title(t): f.integer(t, minimum=0) for t in Title}


def _holders(f: Fields) -> dict[Title, str]:
    f.only(set(Title))
    return {Title(t): f.text(t) for t in Title}


def _tokens(f: Fields) -> tuple[tuple[int, int], ...]:
    tokens = f.data.get("tokens")
    if not (
        isinstance(tokens, list)
        and tokens
        and all(isinstance(t, list) and len(t) == 2 and all(_count(v) for v in t) for t in tokens)
    ):
        raise f.error("tokens", f"expected two-sided tokens like [[0, 5], [1, 4]], found {tokens!r}")
    return tuple((a, b) for a, b in tokens)


def _costs(f: Fields) -> dict[str, int]:
    f.only({*PIECES, "pyramids", "source"})
    return {piece: f.integer(piece, minimum=1) for piece in (*PIECES, "pyramids")}


def _faces(f: Fields, name: str) -> tuple[int, ...]:
    faces = f.data.get(name)
    if not (isinstance(faces, list) and len(faces) == 6 and all(_count(v) for v in faces)):
        raise f.error(name, f"expected the six faces of the die as whole numbers, found {faces!r}")
    return tuple(faces)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _tile(f: Fields) -> Tile:
    f.only({"name", "kind", "start", "prices", "titles", "effects", "source"})
    kind = f.text("kind")
    if kind not in TileKind.__members__.values():
        raise f.error("kind", f"'{kind}' is not a tile kind; use hero, wonder or pyramids")
    prices = f.data.get("prices")
    if not (isinstance(prices, list) and prices and all(_count(p) and p > 0 for p in prices)):
        raise f.error("prices", f"expected the price by round, e.g. [7, 8, 9, 10], found {prices!r}")
    return Tile(
        name=f.text("name"),
        kind=TileKind(kind),
        start=f.text("start", None),
        prices=tuple(prices),
        titles=_levels(f.table("titles")),
        effects=tuple(_effect(e) for e in f.tables("effects", [])),
        source=f.text("source", ""),
    )


def _effect(f: Fields) -> Effect:
    kind = f.text("effect")
    if kind not in EFFECTS:
        raise f.error("effect", f"'{kind}' is not an effect; the effects are {', '.join(EFFECTS)}")
    allowed = EFFECTS[kind]
    f.only({"effect", "note", *allowed})
    parameters: dict[str, Any] = {}
    for name, expected in allowed.items():
        if name not in f:
            continue
        value = f.data[name]
        if expected is int:
            parameters[name] = f.integer(name, minimum=0)
        elif expected is list:
            parameters[name] = f.texts(name)
        elif expected is str:
            parameters[name] = f.text(name)
        elif value not in expected:
            raise f.error(name, f"'{value}' is not one of {', '.join(expected)}")
        else:
            parameters[name] = value
    return Effect(kind, parameters, f.text("note", ""))


# ---- the checks ---------------------------------------------------------------------------


def check_board(board: Board) -> list[str]:
    """Every way the board breaks its own consistency; empty when it is sound."""
    problems = graph_problems(PlaceGraph.of(board.provinces.values(), board.seas.values()))
    problems += _check_sites(board)
    problems += _check_names(board)
    problems += _check_empires(board)
    problems += _check_titles(board)
    problems += _check_tiles(board)
    return problems


def _check_sites(board: Board) -> list[str]:
    problems = []
    for p in board.provinces.values():
        for good in p.caravans:
            if good not in board.commodities:
                problems.append(f"province {p.id}: caravan site '{good}' is not a commodity")
        if bool(p.city) != bool(p.city_name):
            problems.append(f"province {p.id}: a city site needs both `city` and `city_name`")
    legendary = [p.id for p in board.provinces.values() if p.city is CityKind.LEGENDARY]
    if len(legendary) != 3:
        problems.append(f"the board has {len(legendary)} legendary city sites; the game has three (E1)")
    return problems


def _check_names(board: Board) -> list[str]:
    problems = []
    for index in (board.places, board.empire_names, board.goods, board.tile_names):
        for spelling, keys in index.collisions().items():
            problems.append(f"the name '{spelling}' matches several: {', '.join(map(str, keys))}")
    if TAX in board.commodities:
        problems.append(f"'{TAX}' is the tax token, not a commodity")
    return problems


def _check_empires(board: Board) -> list[str]:
    problems: list[str] = []
    owner: dict[str, str] = {}
    for e in board.empires.values():
        where = f"empire {e.id}"
        if e.hero not in board.tiles or board.tiles[e.hero].start != e.name:
            problems.append(f"{where}: its hero '{e.hero}' is not a tile with start = \"{e.id}\"")
        if e.capital not in e.provinces:
            problems.append(f"{where}: the capital {e.capital} is not among its provinces")
        for province in e.provinces:
            if province not in board.provinces:
                problems.append(f"{where}: start province '{province}' is not a province")
            elif province in owner:
                problems.append(f"{where}: start province {province} also belongs to {owner[province]}")
            owner[province] = e.id
        problems += [f"{where}: {p}" for p in _check_start(board, e)]
    return problems


def _check_start(board: Board, e: Empire) -> list[str]:
    s, problems = e.start, []
    own = set(e.provinces) & set(board.provinces)
    for province, goods in s.caravans.items():
        sites = list(board.provinces[province].caravans) if province in own else []
        if province not in own:
            problems.append(f"caravans in {province}, which is not its province")
        for good in goods:
            if good in sites:
                sites.remove(good)
            else:
                problems.append(f"{province} has no free '{good}' caravan site")
    for name, provinces, has in (
        ("market", s.markets, lambda p: p.market),
        ("city", s.cities, lambda p: p.city is not None),
        ("temple", s.temples, lambda p: p.temple),
    ):
        for province in provinces:
            if province not in own or not has(board.provinces[province]):
                problems.append(f"a {name} in {province}, which is not its province or has no {name} site")
    if e.capital in own and (board.provinces[e.capital].city is not CityKind.CAPITAL or e.capital not in s.cities):
        problems.append(f"its capital {e.capital} must be a capital site, built at the start")
    for province in [*s.legions, *s.fortresses]:
        if province not in own:
            problems.append(f"units in {province}, which is not its province")
    if any(n > 1 for n in s.fortresses.values()):
        problems.append("one fortress per province (E6)")
    coasts = {sea for p in own for sea in board.provinces[p].seas}
    for sea in s.triremes:
        if sea not in coasts:
            problems.append(f"a trireme in {sea}, which touches none of its provinces")
    for resource in s.resources:
        if resource != TAX and resource not in board.commodities:
            problems.append(f"start resource '{resource}' is neither tax nor a commodity")
    if sum(s.resources.values()) != START_RESOURCES:
        problems.append(f"its screen gives {sum(s.resources.values())} resources; every screen gives nine (E2)")
    return problems


def _check_titles(board: Board) -> list[str]:
    problems = []
    for title, points in board.title_points.items():
        for piece in points:
            if piece not in PIECES:
                problems.append(f"titles.{title}: '{piece}' is not a piece ({', '.join(PIECES)})")
    for title, holder in board.title_holders.items():
        if holder not in board.empires:
            problems.append(f"titles.start_holders.{title}: '{holder}' is not an empire")
    return problems


def _check_tiles(board: Board) -> list[str]:
    problems = []
    kinds = [t.kind for t in board.tiles.values()]
    if kinds.count(TileKind.PYRAMIDS) != 1:
        problems.append("there must be exactly one Pyramids tile (E10)")
    for tile in board.tiles.values():
        if tile.start is not None and tile.start not in board.empires:
            problems.append(f"tile {tile.name}: start '{tile.start}' is not an empire")
        for effect in tile.effects:
            piece = effect.parameters.get("piece")
            if effect.kind == "cost_change" and piece not in PIECES:
                problems.append(f"tile {tile.name}: cost_change of '{piece}', which is not a piece")
            for token in effect.parameters.get("pay", []):
                if token != TAX and token not in board.commodities:
                    problems.append(f"tile {tile.name}: pays with '{token}', neither tax nor a commodity")
    return problems
