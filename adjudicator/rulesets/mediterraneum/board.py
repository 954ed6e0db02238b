"""The Mare Mediterraneum board and components as a validated value: seas, land areas with
their goods, rivers and mountains, the 40 cities and their harbours, the decks, the buildings,
the State cards and the tax chart (docs/rules-mediterraneum.md M1).

The translation gives few of these, so the data file carries them all, each entry with its
`source`; a moderator who owns the game corrects the file, never the code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from adjudicator.core.errors import BoardError
from adjudicator.core.fields import Fields
from adjudicator.core.names import NameIndex
from adjudicator.rulesets.kit.graph import PlaceGraph, Sea, geo_position, graph_problems, parse_sea
from adjudicator.rulesets.kit.lookup import Named, name_index

PLAYER_COUNTS = (2, 3, 4, 5, 6)  # M1: two Residenz cards each from twelve
CITIES = 40  # T:8
RESIDENCES = 12  # T:10
GOALS = ("art", "buildings", "provinces", "wares")  # T:61-65, in the State card's terms
COAST = "coast"  # `<city> coast`: the coast space of a city, beside its harbour (T:12)


class BuildingKind(StrEnum):
    DECORATIVE = "decorative"
    TAX = "tax"
    DEFENCE = "defence"
    TEMPLE = "temple"


class CardKind(StrEnum):
    WANT = "want"
    STORM = "storm"
    GIFT = "gift"
    ART_AUCTION = "art_auction"
    CIRCUS = "circus"
    ART_DESTRUCTION = "art_destruction"
    WAREHOUSE_LOSS = "warehouse_loss"
    PIRATES = "pirates"
    ROBBERS = "robbers"
    EARTHQUAKE = "earthquake"
    SLAVE_REVOLT = "slave_revolt"
    ARMY_REVOLT = "army_revolt"
    PROVINCE_AUCTION = "province_auction"
    COUP = "coup"
    TACTIC = "tactic"


class Against(StrEnum):
    ARMY = "army"
    SHIP = "ship"
    CITY = "city"


# The fields each card kind carries besides id, name, kind, count and source (M11).
CARD_FIELDS: Mapping[CardKind, frozenset[str]] = {
    CardKind.WANT: frozenset({"good"}),
    CardKind.STORM: frozenset({"sea"}),
    CardKind.GIFT: frozenset({"value"}),
    CardKind.ART_AUCTION: frozenset({"min_bid"}),
    CardKind.CIRCUS: frozenset({"cost"}),
    CardKind.ART_DESTRUCTION: frozenset({"numbers"}),
    CardKind.WAREHOUSE_LOSS: frozenset({"numbers"}),
    CardKind.PIRATES: frozenset({"numbers"}),
    CardKind.ROBBERS: frozenset(),
    CardKind.EARTHQUAKE: frozenset({"numbers"}),
    CardKind.SLAVE_REVOLT: frozenset(),
    CardKind.ARMY_REVOLT: frozenset(),
    CardKind.PROVINCE_AUCTION: frozenset({"min_bid"}),
    CardKind.COUP: frozenset({"form"}),
    CardKind.TACTIC: frozenset({"tactic", "against", "min_bid"}),
}
PRICES = (
    "ship", "good", "empire", "restore", "army", "army_upkeep", "artist_upkeep", "upgrade", "warehouse",
    "province_tax", "want_penalty",
)  # fmt: skip
LIMITS = (
    "ships_per_sea",
    "ships_per_coast",
    "armies_per_land",
    "ships_per_player",
    "armies_per_player",
    "warehouse_goods",
)


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    name: str
    css: str
    source: str


@dataclass(frozen=True, slots=True)
class Good(Named[str]):
    source: str


@dataclass(frozen=True, slots=True)
class Land(Named[str]):
    goods: tuple[str, ...]
    land: tuple[str, ...]
    rivers: tuple[str, ...]  # those of `land` across a river (T:87)
    mountain: bool
    seas: tuple[str, ...]
    source: str
    position: tuple[float, float] | None = None
    position_source: str = ""

    @property
    def island(self) -> bool:
        return not self.land


@dataclass(frozen=True, slots=True)
class City(Named[str]):
    land: str
    sea: str
    residence: bool
    source: str
    position: tuple[float, float] | None = None
    position_source: str = ""


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    name: str
    cost: int
    kind: BuildingKind
    count: int
    tax: int
    defence: int
    temple: str  # "", "big" or "little" (T:74)
    pays: int  # a temple's MILIA on each 0 of the tax dice (T:72)
    source: str
    aliases: tuple[str, ...] = ()  # how players of each language write it (issue 18)


@dataclass(frozen=True, slots=True)
class StateCard:
    id: str
    name: str
    form: str
    order: tuple[str, ...]  # the goals from the largest value of the goal set down (T:46)
    source: str


@dataclass(frozen=True, slots=True)
class Art:
    id: str
    name: str
    work: str  # the two-part work a half belongs to; "" for a single piece (T:70)
    source: str

    @property
    def half(self) -> bool:
        return bool(self.work)


@dataclass(frozen=True, slots=True)
class Patronage:
    id: str
    name: str
    cost: int
    source: str


@dataclass(frozen=True, slots=True)
class TradeCard:
    id: str
    name: str
    kind: CardKind
    count: int
    source: str
    good: str = ""
    sea: str = ""
    value: int = 0
    min_bid: int = 0
    cost: int = 0
    numbers: tuple[int, ...] = ()
    form: str = ""
    tactic: str = ""
    against: Against | None = None


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    status: str
    prices: Mapping[str, int]
    limits: Mapping[str, int]
    black_die: tuple[int, ...]
    tax_chart: tuple[str, ...]  # the spaces, "R" first (T:44, T:59)
    tax_on: frozenset[str]  # the spaces on which taxes are collected (T:45)
    goal_sets: Mapping[str, tuple[int, ...]]
    colours: Mapping[str, Colour]  # by name ("Red"), as positions and players call them
    goods: Mapping[str, Good]
    seas: Mapping[str, Sea]
    lands: Mapping[str, Land]
    cities: Mapping[str, City]
    want_disks: Mapping[str, int]
    buildings: Mapping[str, Building]
    states: Mapping[str, StateCard]
    art: Mapping[str, Art]
    patronage: Mapping[str, Patronage]
    trade_cards: Mapping[str, TradeCard]
    places: NameIndex[str] = field(compare=False, repr=False)
    colour_names: NameIndex[str] = field(compare=False, repr=False)
    good_names: NameIndex[str] = field(compare=False, repr=False)
    building_names: NameIndex[str] = field(compare=False, repr=False)
    art_names: NameIndex[str] = field(compare=False, repr=False)
    tactic_names: NameIndex[str] = field(compare=False, repr=False)
    city_in: Mapping[str, str] = field(compare=False, repr=False, default_factory=dict)  # land -> its city
    on_sea: Mapping[str, tuple[str, ...]] = field(compare=False, repr=False, default_factory=dict)  # sea -> cities

    @property
    def reconstructed(self) -> bool:
        return self.status == "reconstructed"

    def city_of(self, land: str) -> str | None:
        """The city standing in a land area, if any (a land holds at most one)."""
        return self.city_in.get(land)

    def produces(self, city: str) -> tuple[str, ...]:
        """The goods of the land a city stands in (T:9, T:25, T:67)."""
        return self.lands[self.cities[city].land].goods


_TOP = {
    "board", "prices", "limits", "dice", "tax_chart", "goals", "colour", "good", "sea", "land", "city", "want_disk",
    "building", "state", "art", "patronage", "trade_card",
}  # fmt: skip


def parse_board(data: Mapping[str, Any]) -> Board:
    """Build a `Board` from parsed TOML, then check it; raises `DataError` or `BoardError`."""
    root = Fields(data)
    root.only(_TOP)
    meta = root.table("board")
    meta.only({"id", "name", "status"})
    colours = {c.name: c for c in map(_colour, root.tables("colour"))}
    goods = {g.id: g for g in map(_good, root.tables("good"))}
    seas = {s.id: s for s in map(parse_sea, root.tables("sea"))}
    lands = {x.id: x for x in map(_land, root.tables("land"))}
    cities = {c.id: c for c in map(_city, root.tables("city"))}
    buildings = {b.id: b for b in map(_building, root.tables("building"))}
    states = {s.id: s for s in map(_state, root.tables("state"))}
    art = {a.id: a for a in map(_art, root.tables("art"))}
    patronage = {p.id: p for p in map(_patronage, root.tables("patronage"))}
    cards = {c.id: c for c in map(_trade_card, root.tables("trade_card"))}
    chart = root.table("tax_chart")
    chart.only({"spaces", "tax_on", "source"})
    goals = root.table("goals")
    goals.only({"standard", "long", "short", "source"})
    dice = root.table("dice")
    dice.only({"black", "source"})
    board = Board(
        id=meta.text("id"),
        name=meta.text("name"),
        status=meta.text("status", "printed"),
        prices=_numbers(root.table("prices"), PRICES),
        limits=_numbers(root.table("limits"), LIMITS, minimum=1),
        black_die=_numbers_list(dice, "black", size=6),
        tax_chart=tuple(chart.texts("spaces")),
        tax_on=frozenset(chart.texts("tax_on")),
        goal_sets={name: _numbers_list(goals, name, size=len(GOALS)) for name in ("standard", "long", "short")},
        colours=colours,
        goods=goods,
        seas=seas,
        lands=lands,
        cities=cities,
        want_disks=_want_disks(root.tables("want_disk")),
        buildings=buildings,
        states=states,
        art=art,
        patronage=patronage,
        trade_cards=cards,
        places=name_index("place", [*seas.values(), *lands.values(), *cities.values()]),
        colour_names=name_index("colour", colours.values(), key=lambda c: c.name),
        good_names=name_index("good", goods.values()),
        building_names=name_index("building", buildings.values()),
        art_names=name_index("artwork", art.values()),
        tactic_names=_tactic_index(cards.values()),
        city_in={c.land: c.id for c in cities.values()},
        on_sea={sea: tuple(c.id for c in cities.values() if c.sea == sea) for sea in seas},
    )
    tables: dict[str, Mapping[str, object]] = {
        "colour": colours, "good": goods, "sea": seas, "land": lands, "city": cities, "building": buildings,
        "state": states, "art": art, "patronage": patronage, "trade_card": cards,
    }  # fmt: skip
    problems = [
        f"two {name} entries share an id or name" for name, t in tables.items() if len(t) != len(root.tables(name))
    ]
    problems += check_board(board)
    if problems:
        raise BoardError(problems)
    return board


def _tactic_index(cards: Any) -> NameIndex[str]:
    index: NameIndex[str] = NameIndex("tactic card")
    for card in cards:
        if card.kind is CardKind.TACTIC:
            index.add(card.id, card.name, (card.id, card.name, card.tactic))
    return index


def _numbers(f: Fields, keys: tuple[str, ...], minimum: int = 0) -> dict[str, int]:
    f.only({*keys, "sources"})
    return {key: f.integer(key, minimum=minimum) for key in keys}


def _numbers_list(f: Fields, name: str, size: int) -> tuple[int, ...]:
    values = f.data.get(name)
    if not (
        isinstance(values, list)
        and len(values) == size
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)
    ):
        raise f.error(name, f"expected {size} whole numbers, found {values!r}")
    return tuple(values)


def _colour(f: Fields) -> Colour:
    f.only({"id", "name", "css", "source"})
    return Colour(f.text("id"), f.text("name"), f.text("css"), f.text("source", ""))


def _good(f: Fields) -> Good:
    f.only({"id", "name", "aliases", "source"})
    return Good(f.text("id"), f.text("name"), tuple(f.texts("aliases", [])), f.text("source", ""))


def _land(f: Fields) -> Land:
    f.only(
        {
            "id",
            "name",
            "aliases",
            "position",
            "position_source",
            "goods",
            "land",
            "rivers",
            "mountain",
            "seas",
            "source",
        }
    )
    return Land(
        id=f.text("id"),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        goods=tuple(f.texts("goods", [])),
        land=tuple(f.texts("land", [])),
        rivers=tuple(f.texts("rivers", [])),
        mountain=f.flag("mountain", False),
        seas=tuple(f.texts("seas", [])),
        source=f.text("source", ""),
        position=geo_position(f),
        position_source=f.text("position_source", ""),
    )


def _city(f: Fields) -> City:
    f.only({"id", "name", "aliases", "land", "sea", "residence", "position", "position_source", "source"})
    return City(
        id=f.text("id"),
        name=f.text("name"),
        aliases=tuple(f.texts("aliases", [])),
        land=f.text("land"),
        sea=f.text("sea"),
        residence=f.flag("residence", False),
        source=f.text("source", ""),
        position=geo_position(f),
        position_source=f.text("position_source", ""),
    )


def _want_disks(tables: list[Fields]) -> dict[str, int]:
    disks: dict[str, int] = {}
    for f in tables:
        f.only({"good", "count", "source"})
        good = f.text("good")
        if good in disks:
            raise f.error("good", f"'{good}' has two want_disk entries; give one with the whole count")
        disks[good] = f.integer("count", minimum=1)
    return disks


def _building(f: Fields) -> Building:
    f.only({"id", "name", "aliases", "cost", "kind", "count", "tax", "defence", "temple", "pays", "source"})
    kind = f.text("kind")
    if kind not in BuildingKind.__members__.values():
        raise f.error("kind", f"'{kind}' is not a kind of building; use {', '.join(BuildingKind)}")
    temple = f.text("temple", "")
    if temple not in ("", "big", "little"):
        raise f.error("temple", f"'{temple}' is not a temple size; use big or little")
    return Building(
        id=f.text("id"),
        name=f.text("name"),
        cost=f.integer("cost", minimum=1),
        kind=BuildingKind(kind),
        count=f.integer("count", minimum=1),
        tax=f.integer("tax", 0, minimum=0),
        defence=f.integer("defence", 0, minimum=0),
        temple=temple,
        pays=f.integer("pays", 0, minimum=0),
        source=f.text("source", ""),
        aliases=tuple(f.texts("aliases", [])),
    )


def _state(f: Fields) -> StateCard:
    f.only({"id", "name", "form", "order", "source"})
    order = tuple(f.texts("order"))
    if sorted(order) != sorted(GOALS):
        raise f.error("order", f"expected the four goals {', '.join(GOALS)} in some order, found {list(order)!r}")
    return StateCard(f.text("id"), f.text("name"), f.text("form"), order, f.text("source", ""))


def _art(f: Fields) -> Art:
    f.only({"id", "name", "kind", "work", "source"})
    kind = f.text("kind")
    if kind not in ("single", "half"):
        raise f.error("kind", f"'{kind}' is not a kind of artwork; use single or half")
    work = f.text("work", "")
    if (kind == "half") != bool(work):
        raise f.error("work", "a half names its `work`; a single piece has none")
    return Art(f.text("id"), f.text("name"), work, f.text("source", ""))


def _patronage(f: Fields) -> Patronage:
    f.only({"id", "name", "cost", "source"})
    return Patronage(f.text("id"), f.text("name"), f.integer("cost", minimum=1), f.text("source", ""))


def _trade_card(f: Fields) -> TradeCard:
    kind_text = f.text("kind")
    if kind_text not in CardKind.__members__.values():
        raise f.error("kind", f"'{kind_text}' is not a kind of trade card; use {', '.join(CardKind)}")
    kind = CardKind(kind_text)
    f.only({"id", "name", "kind", "count", "source", *CARD_FIELDS[kind]})
    for needed in CARD_FIELDS[kind]:
        if needed not in f:
            raise f.error(needed, f"missing; a {kind} card needs {', '.join(sorted(CARD_FIELDS[kind]))}")
    against = f.text("against", None)
    if against is not None and against not in Against.__members__.values():
        raise f.error("against", f"'{against}' is not a target; use army, ship or city")
    numbers = f.data.get("numbers", [])
    if not (isinstance(numbers, list) and all(isinstance(n, int) and 1 <= n <= 6 for n in numbers)):
        raise f.error("numbers", f"expected blue-die numbers 1-6, found {numbers!r}")
    return TradeCard(
        id=f.text("id"),
        name=f.text("name"),
        kind=kind,
        count=f.integer("count", 1, minimum=1),
        source=f.text("source", ""),
        good=f.text("good", ""),
        sea=f.text("sea", ""),
        value=f.integer("value", 0, minimum=0),
        min_bid=f.integer("min_bid", 0, minimum=0),
        cost=f.integer("cost", 0, minimum=0),
        numbers=tuple(numbers),
        form=f.text("form", ""),
        tactic=f.text("tactic", ""),
        against=Against(against) if against else None,
    )


# ---- the checks ---------------------------------------------------------------------------


def check_board(board: Board) -> list[str]:
    """Every way the board breaks its own consistency; empty when it is sound."""
    graph = PlaceGraph(
        land={x.id: x.land for x in board.lands.values()},
        coasts={x.id: x.seas for x in board.lands.values()},
        seas={s.id: s.seas for s in board.seas.values()},
        islands=frozenset(x.id for x in board.lands.values() if x.island),
    )
    problems = [p.replace("province", "land") for p in graph_problems(graph)]
    problems += _check_lands(board)
    problems += _check_cities(board)
    problems += _check_names(board)
    problems += _check_components(board)
    return problems


def _check_lands(board: Board) -> list[str]:
    problems = []
    for x in board.lands.values():
        for good in x.goods:
            if good not in board.goods:
                problems.append(f"land {x.id}: '{good}' is not a good")
        for other in x.rivers:
            if other not in x.land:
                problems.append(f"land {x.id}: river border with '{other}', which is not a land neighbour")
            elif other in board.lands and x.id not in board.lands[other].rivers:
                problems.append(f"rivers are not symmetric: {x.id} lists {other}, {other} does not list {x.id}")
    produced = {good for x in board.lands.values() for good in x.goods}
    problems += [f"good {g} is produced in no land" for g in board.goods if g not in produced]
    return problems


def _check_cities(board: Board) -> list[str]:
    problems = []
    seen: dict[str, str] = {}
    for c in board.cities.values():
        land = board.lands.get(c.land)
        if land is None:
            problems.append(f"city {c.id}: land '{c.land}' is not a land")
            continue
        if c.land in seen:
            problems.append(f"city {c.id}: land {c.land} already holds {seen[c.land]}; one city per land")
        seen[c.land] = c.id
        if land.mountain:
            problems.append(f"city {c.id}: stands in a mountain ({c.land}); mountains hold no city (T:87)")
        if c.sea not in land.seas:
            problems.append(f"city {c.id}: its harbour's sea '{c.sea}' is not among {c.land}'s seas")
    if len(board.cities) != CITIES:
        problems.append(f"the map has {len(board.cities)} cities; the game has {CITIES} (T:8)")
    residences = sum(c.residence for c in board.cities.values())
    if residences != RESIDENCES:
        problems.append(f"the map has {residences} residence cities; the game has {RESIDENCES} (T:10)")
    return problems


def _check_names(board: Board) -> list[str]:
    problems = []
    for index in (board.places, board.colour_names, board.good_names, board.building_names, board.art_names):
        for spelling, keys in index.collisions().items():
            problems.append(f"the name '{spelling}' matches several: {', '.join(map(str, keys))}")
    return problems


def _check_components(board: Board) -> list[str]:
    problems = []
    for good in board.want_disks:
        if good not in board.goods:
            problems.append(f"want_disk: '{good}' is not a good")
    if sum(board.want_disks.values()) != CITIES:
        problems.append(
            f"there are {sum(board.want_disks.values())} want disks; the game has one per city, {CITIES} (T:25)"
        )
    elif not placements_possible(board):
        problems.append("the want disks cannot all be placed with no city getting a good of its own land (T:25)")
    spaces = board.tax_chart
    if not spaces or spaces[0] != "R" or len(set(spaces)) != len(spaces) or not board.tax_on <= set(spaces[1:]):
        problems.append("tax_chart: spaces must start with R, be distinct, and tax_on must name spaces after R")
    works: dict[str, int] = {}
    for a in board.art.values():
        if a.work:
            works[a.work] = works.get(a.work, 0) + 1
    problems += [f"art work '{w}' has {n} halves; a work has two (T:70)" for w, n in works.items() if n != 2]
    for card in board.trade_cards.values():
        where = f"trade_card {card.id}"
        if card.kind is CardKind.WANT and card.good not in board.goods:
            problems.append(f"{where}: '{card.good}' is not a good")
        if card.kind is CardKind.STORM and card.sea not in board.seas:
            problems.append(f"{where}: '{card.sea}' is not a sea")
        if card.kind is CardKind.COUP and card.form not in {s.form for s in board.states.values()}:
            problems.append(f"{where}: '{card.form}' is not the form of any State card")
    tactics = sum(c.count for c in board.trade_cards.values() if c.kind is CardKind.TACTIC)
    if tactics != 6:
        problems.append(f"the trade deck has {tactics} tactic cards; the game has six (T:86)")
    if not board.colours or len(board.colours) < max(PLAYER_COUNTS):
        problems.append(f"the game needs {max(PLAYER_COUNTS)} player colours")
    for b in board.buildings.values():
        if (b.kind is BuildingKind.TEMPLE) != bool(b.temple):
            problems.append(f"building {b.id}: a temple (and only a temple) has `temple` big or little")
    return problems


def placements_possible(board: Board) -> bool:
    """Whether the 40 disks can go one to a city with none on a city whose land produces its good
    (T:25)."""
    disks = [good for good, n in sorted(board.want_disks.items()) for _ in range(n)]
    return place_disks(board, disks, sorted(board.cities)) is not None


def place_disks(board: Board, disks: Sequence[str], cities: Sequence[str]) -> dict[str, str] | None:
    """City -> disk, no city taking a good of its own land (T:25), or None when impossible: each
    disk in turn takes the first city in `cities` that may have it, moving an earlier disk on when
    that is the only way (augmenting paths), so the given orders decide a random placement."""
    holder: dict[str, int] = {}

    def place(i: int, seen: set[str]) -> bool:
        for city in cities:
            if city not in seen and disks[i] not in board.produces(city):
                seen.add(city)
                if city not in holder or place(holder[city], seen):
                    holder[city] = i
                    return True
        return False

    if not all(place(i, set()) for i in range(len(disks))):
        return None
    return {city: disks[i] for city, i in holder.items()}
