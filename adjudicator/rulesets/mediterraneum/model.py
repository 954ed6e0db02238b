"""The Mare Mediterraneum position: immutable values that change only through
`dataclasses.replace`. Decks are tuples in draw order (drawn from the front), shuffled from the
dice chain; what can be counted from the pieces (each player's provinces, goal points) is
derived, never stored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.mediterraneum.board import COAST, GOALS, Board, BuildingKind, CardKind

HARBOUR = "harbour"


class Phase(StrEnum):
    TURN = "turn"  # one player's turn (M3.1)
    AUCTION = "auction"  # sealed bids from everyone (M3.5)


class Status(StrEnum):
    PROVINCE = "province"  # a sword (T:26)
    CAPITAL = "capital"  # a stone tower: an empire (T:43)
    TAKEN = "taken"  # taken by an army that has not yet left it (T:83)


def space(kind: str, city: str) -> str:
    """A city's harbour or coast as a ship's space: `harbour:roma`, `coast:roma` (T:12)."""
    return f"{kind}:{city}"


def city_of_space(where: str) -> str | None:
    """The city whose harbour or coast this is; None for a sea."""
    kind, _, city = where.partition(":")
    return city if kind in (HARBOUR, COAST) and city else None


@dataclass(frozen=True, slots=True)
class Ship:
    owner: str
    number: int
    at: str  # a sea id, `harbour:<city>` or `coast:<city>`
    cargo: str = ""  # a good id, or `art:<card>` (the K stone, T:71)


@dataclass(frozen=True, slots=True)
class Army:
    owner: str
    number: int
    at: str  # a land id; a city id (inside a city it took, T:83); or `ship:<n>` (aboard, T:90)
    cavalry: bool = False  # a horse under it (T:96)
    since: int = 0  # the turn count when it came where it stands (T:77: attack only from a previous turn)
    crossed: bool = False  # it crossed a river on its last move (T:88)
    horse_ship: int = 0  # aboard as cavalry: the second ship that carries its horse (T:96)


@dataclass(frozen=True, slots=True)
class CityState:
    owner: str | None = None
    status: Status | None = None
    want: tuple[str, ...] = ()  # want disks on it (T:25); a good per disk
    buildings: tuple[str, ...] = ()  # building ids (T:72)
    warehouses: tuple[tuple[str, ...], ...] = ()  # each warehouse's goods (T:66)
    dormant: bool = False  # a capital lost to bankruptcy: its buildings wait for X (T:60)


@dataclass(frozen=True, slots=True)
class Auction:
    """An auction waiting for bids (M3.5, M11.5, M11.14, M11.16)."""

    card: str  # the trade card that opened it
    drawer: str
    lot: str  # an art card id, a tactic card id, or "" for a province auction
    min_bid: int


@dataclass(frozen=True, slots=True)
class PlayerState:
    colour: str
    money: int = 0
    residences: tuple[str, ...] = ()  # the two Residenz cards drawn (T:26)
    state: str | None = None  # his hidden State card (T:46)
    art: tuple[str, ...] = ()  # art cards he holds, kept at his capital (T:70)
    patron: str | None = None  # his art patronage card (T:68)
    patronised: bool = False  # he has bought one: only one ever (T:51)
    founded_at: int = 0  # the turn count when he last founded his empire (armies from a later tax turn, T:75)
    want_cards: tuple[str, ...] = ()  # goods of want cards beside his capital (T:111)
    tactics: tuple[str, ...] = ()  # tactic cards he holds (T:86)
    holding: tuple[str, ...] = ()  # gift and coup cards waiting for his orders (M11.4, M11.15)
    buys: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # "good@city" -> ceiling (M4.6)


@dataclass(frozen=True, slots=True)
class Decks:
    trade: tuple[str, ...] = ()
    trade_discard: tuple[str, ...] = ()
    art: tuple[str, ...] = ()
    patronage: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    buildings: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # the supply left


@dataclass(frozen=True, slots=True)
class Position:
    turn: int  # the round: every player has one turn in it (M3.1)
    phase: Phase
    step: str  # the player whose turn it is (or whose card opened the auction)
    order: tuple[str, ...]  # seating order from the first player (T:29)
    players: Mapping[str, PlayerState]
    cities: Mapping[str, CityState]
    ships: tuple[Ship, ...]
    armies: tuple[Army, ...]
    decks: Decks
    count: int = 1  # turns played so far, the current one included: armies' `since` counts in it
    stone: int | None = None  # index on the tax chart; None before the first empire (T:44)
    stone_owner: str | None = None
    passes: int = 0  # times the stone has reached the last space (T:140)
    due: int = 0  # the tax the player to move collects at settlement (T:53, T:118)
    founded: bool = False  # the player to move founded an empire this turn (no tax, T:45)
    storm: str | None = None  # the storm card face up (T:114)
    auctions: tuple[Auction, ...] = ()
    winner: str | None = None

    @property
    def playing(self) -> tuple[str, ...]:
        return self.order

    def ships_of(self, owner: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.owner == owner)

    def armies_of(self, owner: str) -> tuple[Army, ...]:
        return tuple(a for a in self.armies if a.owner == owner)

    def ship(self, owner: str, number: int) -> Ship | None:
        return next((s for s in self.ships if s.owner == owner and s.number == number), None)

    def army(self, owner: str, number: int) -> Army | None:
        return next((a for a in self.armies if a.owner == owner and a.number == number), None)

    def ships_at(self, where: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.at == where)

    def armies_at(self, where: str) -> tuple[Army, ...]:
        return tuple(a for a in self.armies if a.at == where)

    def capital(self, colour: str) -> str | None:
        return next((c for c, s in self.cities.items() if s.owner == colour and s.status is Status.CAPITAL), None)

    def provinces(self, colour: str) -> tuple[str, ...]:
        """His cities with a sword or the tower: each pays I of tax (T:31, T:58)."""
        return tuple(
            c for c, s in self.cities.items() if s.owner == colour and s.status in (Status.PROVINCE, Status.CAPITAL)
        )

    def with_player(self, colour: str, **changes: object) -> Position:
        players = dict(self.players)
        players[colour] = replace(players[colour], **changes)  # type: ignore[arg-type]
        return replace(self, players=MappingProxyType(players))

    def with_city(self, city: str, **changes: object) -> Position:
        cities = dict(self.cities)
        cities[city] = replace(cities[city], **changes)  # type: ignore[arg-type]
        return replace(self, cities=MappingProxyType(cities))

    def without_ship(self, ship: Ship) -> Position:
        """A ship gone with its cargo and any army aboard (T:114, T:126); a horse it carried for
        cavalry aboard another ship goes down with it, and that army sails on as foot (MD26)."""
        aboard = f"ship:{ship.number}"
        armies = []
        for army in self.armies:
            if army.owner == ship.owner and army.at == aboard:
                continue
            if army.owner == ship.owner and army.horse_ship == ship.number:
                army = replace(army, cavalry=False, horse_ship=0)
            armies.append(army)
        return replace(self, ships=tuple(s for s in self.ships if s != ship), armies=tuple(armies))

    def horse_ship(self, owner: str, number: int) -> bool:
        """Whether his ship carries a horse for cavalry aboard another: it holds nothing else (MD26)."""
        return any(a.owner == owner and a.horse_ship == number for a in self.armies)

    def paid(self, colour: str, amount: int) -> Position:
        """His money after paying (negative: receiving) `amount`; never below zero."""
        return self.with_player(colour, money=max(0, self.players[colour].money - amount))


def lift_wants(board: Board, position: Position, colour: str, goods: Iterable[str]) -> Position:
    """His want cards for these goods lifted: each card goes to the trade discard pile, as every
    used trade card does (M11.1), so none is lost from the deck."""
    left = list(position.players[colour].want_cards)
    discard = list(position.decks.trade_discard)
    for good in goods:
        if good in left:
            left.remove(good)
            discard.append(next(c.id for c in board.trade_cards.values() if c.kind is CardKind.WANT and c.good == good))
    position = replace(position, decks=replace(position.decks, trade_discard=tuple(discard)))
    return position.with_player(colour, want_cards=tuple(left))


def lowest_free(numbers: Iterable[int]) -> int:
    """The number a new ship or army takes: the lowest not in use, from 1."""
    taken = set(numbers)
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def storm_outcome(roll: int) -> str:
    """T:114: 5-6 it rides the storm out, 3-4 the cargo goes overboard, 1-2 it sinks."""
    return "safe" if roll >= 5 else "cargo lost" if roll >= 3 else "sunk"


def taxing(board: Board, position: Position) -> bool:
    """Whether the player to move collects tax this turn (T:31, T:45)."""
    return position.stone is None or board.tax_chart[position.stone] in board.tax_on


def tax_round_began(board: Board, position: Position) -> int | None:
    """The turn count at which the latest tax round began (MD16), None before the first: the
    stone moves at each of its owner's turns, one round of turns apart, and a tax round begins
    where it lands on a taxing space. Armies are raised from the first after a founding (T:75)."""
    if position.stone is None or position.stone_owner not in position.order:
        return None
    order = position.order
    since_move = (order.index(position.step) - order.index(position.stone_owner)) % len(order)
    moved_at = position.count - since_move
    if board.tax_chart[position.stone] in board.tax_on:
        return moved_at
    return moved_at - len(order) if position.stone > 1 else None


def goal_points(board: Board, position: Position, colour: str) -> dict[str, int]:
    """His counts toward the four goals (T:61-65): whole artworks at his capital (a pair of
    halves 2, a lone half 0), buildings in the cities he holds (T:108; MD25), provinces (swords, MD39),
    and different goods in his capital's warehouses."""
    player = position.players[colour]
    capital = position.capital(colour)
    singles = sum(1 for a in player.art if not board.art[a].half)
    works = [board.art[a].work for a in player.art if board.art[a].half]
    pairs = sum(1 for w in set(works) if works.count(w) >= 2)
    held = [c for c, s in position.cities.items() if s.owner == colour and not s.dormant]
    buildings = sum(len(position.cities[c].buildings) for c in held)
    provinces = sum(1 for s in position.cities.values() if s.owner == colour and s.status is Status.PROVINCE)
    wares = {g for w in position.cities[capital].warehouses for g in w} if capital else set()
    counts = {"art": singles + 2 * pairs if capital else 0, "buildings": buildings, "provinces": provinces}
    counts["wares"] = len(wares)
    return {goal: counts[goal] for goal in GOALS}


def work_name(board: Board, work: str) -> Msg:
    """A two-part work of art by its halves' names (T:70), as an art destruction card names the
    pair it strikes at once: `Laocoon (left) and Laocoon (right)`."""
    first, second = (a.name for a in board.art.values() if a.work == work)
    return t("%(first)s and %(second)s", first=first, second=second)


def goals_of(board: Board, state: str, goal_set: str) -> dict[str, int]:
    """What a State card asks under the game's goal set (T:46, T:137, T:139)."""
    values = board.goal_sets[goal_set]
    return dict(zip(board.states[state].order, values, strict=True))


def defence(board: Board, city: CityState) -> int:
    """The city's gate and tower (T:72, T:74, T:104)."""
    return sum(board.buildings[b].defence for b in city.buildings if board.buildings[b].kind is BuildingKind.DEFENCE)


@dataclass(frozen=True, slots=True)
class Options:
    """The translation's variants (M12.4): the goal set, a game of two passes of the tax chart,
    and empty ships that sail two spaces."""

    goals: str = "standard"
    tax_passes: int = 0  # 0: the chart goes round until someone wins; 2: T:140
    fast_empty_ships: bool = False  # T:142


def storm_sea(board: Board, position: Position) -> str | None:
    """The sea named by the storm card face up (T:114), if any."""
    return board.trade_cards[position.storm].sea if position.storm else None
