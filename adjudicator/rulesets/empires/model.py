"""The Empires position: immutable values that change only through `dataclasses.replace`.

What can be counted from the pieces (stocks, the building supply, title levels: ED3) is
derived, never stored, so that it can never disagree with the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from adjudicator.rulesets.empires.board import Board, CityKind, Effect, Title
from adjudicator.rulesets.kit.payment import TAX

_EMPTY: Mapping[str, int] = MappingProxyType({})

# E1.2, ED9: each empire's pieces.
UNIT_STOCK: Mapping[str, int] = MappingProxyType({"legion": 8, "trireme": 5, "fortress": 5, "influence": 12})
# E1.4 (research E3, E4): the shared building tokens; capitals and legendary cities are among
# the cities.
BUILDING_SUPPLY: Mapping[str, int] = MappingProxyType({"caravan": 37, "market": 25, "city": 16, "temple": 14})
COPY_CHOICE = "copy"  # standing[empire]["copy"] = the tile he copies this round (E11.1 copy ability)
TABLE_ORDER = ("Rome", "Greece", "Babylon", "Egypt", "Carthage")  # E3.3, ED16


def frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    """A table of tokens as positions keep it: sorted, read-only, nothing at zero or below."""
    return MappingProxyType({k: n for k, n in sorted(counts.items()) if n > 0})


class Phase(StrEnum):
    PRODUCTION = "production"
    TRADE = "trade"
    PURCHASE = "purchase"
    MILITARY = "military"
    CLAIMS = "claims"


PHASES = tuple(Phase)


@dataclass(frozen=True, slots=True)
class PlayerState:
    empire: str
    resources: Mapping[str, int]  # goods by commodity id, and "tax" (E1.3)
    legendary: Mapping[str, int]  # legendary goods held, by kind (ED8)
    tiles: tuple[str, ...]  # heroes and wonders owned, the starting hero first (E2.4)

    @property
    def holding(self) -> int:
        """Every resource token he holds (E5.2 compares it with the trade size)."""
        return sum(self.resources.values()) + sum(self.legendary.values())

    def goods(self, kind: str) -> int:
        """Tokens of one good, legendary ones included (ED8)."""
        return self.resources.get(kind, 0) + self.legendary.get(kind, 0)


@dataclass(frozen=True, slots=True)
class ProvinceState:
    influence: str | None = None
    caravans: tuple[str, ...] = ()  # the goods of the caravans built on its sites
    market: bool = False
    city: bool = False  # its city site is built (city, capital or legendary city alike)
    temple: bool = False
    legions: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    fortress: str | None = None  # whose fortress stands here (one at most, E6.5)
    occupied: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # building -> occupier
    conqueror: str | None = None  # E8.5
    converting: str | None = None  # whose legion stands on the influence marker (E8.8)
    converting_since: int = 0  # the round his legion stepped on it: the marker changes in a later one

    def stationed(self, empire: str) -> int:
        """His legions bound to a building or the marker (E8.7, E8.8): they fall last (ED14)."""
        return sum(1 for who in self.occupied.values() if who == empire) + (self.converting == empire)

    def without_legions(self, empire: str, count: int) -> ProvinceState:
        """`count` of his legions gone (ED14: free ones first, then those on buildings, the one
        on the influence marker last); what they stood on is released."""
        legions = self.legions.get(empire, 0)
        bound = max(0, min(count, legions) - (legions - self.stationed(empire)))
        occupied = dict(self.occupied)
        for building in sorted(b for b, who in self.occupied.items() if who == empire)[:bound]:
            del occupied[building]
        bound -= len(self.occupied) - len(occupied)
        converting = None if bound and self.converting == empire else self.converting
        left = {e: n for e, n in {**self.legions, empire: max(0, legions - count)}.items() if n}
        return replace(
            self,
            legions=MappingProxyType(left),
            occupied=MappingProxyType(occupied),
            converting=converting,
            converting_since=self.converting_since if converting else 0,
        )

    def units(self) -> set[str]:
        """Empires with legions or a fortress here."""
        found = {e for e, n in self.legions.items() if n}
        return found | ({self.fortress} if self.fortress else set())

    @property
    def at_war(self) -> bool:
        """E8.4: exactly while units of two or more empires stand here."""
        return len(self.units()) > 1

    def buildings(self) -> list[str]:
        """Each built building by its key: `caravan:wine`, `market`, `city`, `temple`."""
        keys = [f"caravan:{good}" for good in self.caravans]
        flags = (("market", self.market), ("city", self.city), ("temple", self.temple))
        return keys + [name for name, built in flags if built]

    def controller(self, building: str) -> str | None:
        """E4.1, E8.7: the occupier of a building, else the influence owner."""
        return self.occupied.get(building, self.influence)


@dataclass(frozen=True, slots=True)
class SeaState:
    triremes: Mapping[str, int] = field(default_factory=lambda: _EMPTY)

    def with_ships(self, empire: str, change: int) -> SeaState:
        counts = {e: n for e, n in {**self.triremes, empire: self.triremes.get(empire, 0) + change}.items() if n}
        return SeaState(MappingProxyType(counts))


@dataclass(frozen=True, slots=True)
class Position:
    round: int
    phase: Phase
    step: str | None  # the empire to move, in stepwise mode
    winner: str | None
    titles: Mapping[Title, str | None]  # who holds each title (E3.2)
    players: Mapping[str, PlayerState]
    provinces: Mapping[str, ProvinceState]
    seas: Mapping[str, SeaState]
    track: tuple[str, ...]  # the face-up tiles on the hero track (E2.4, E6.7)
    hidden: tuple[str, ...]  # the face-down tiles, in no order: drawn by the dice (ED7)
    legendary_pile: Mapping[str, int]  # legendary goods still face down, by kind (ED8)
    tokens_used: tuple[int, ...] = ()  # the trade tokens the Master has used (E5.7), by index
    trade_size: int | None = None  # the side he chose this round (E5.1)
    sequence: tuple[str, ...] = ()  # the leader's order of the last sequential phase (E3.3)
    used: tuple[str, ...] = ()  # once-a-round powers used this round (E11.1)
    standing: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # standing orders (ED16)
    # The board the position is played on, for the figures written out beside it (title levels,
    # E3.4): no part of the position, never compared, never stored.
    board: Board | None = field(default=None, compare=False, repr=False)

    @property
    def playing(self) -> tuple[str, ...]:
        return tuple(self.players)

    def owner_of(self, tile: str) -> str | None:
        return next((e for e, p in self.players.items() if tile in p.tiles), None)

    def effects(self, board: Board, empire: str, kind: str) -> list[Effect]:
        """The empire's tile effects of one kind (E11.1), a copied tile's included: an owner of
        `copy ability` has the effects of the tile he named this round while another owns it."""
        tiles = list(self.players[empire].tiles)
        copied = self.standing.get(empire, {}).get(COPY_CHOICE)
        copies = any(e.kind == "copy_ability" for t in tiles for e in board.tiles[t].effects)
        if copied and copies and copied in board.tiles and self.owner_of(copied) not in (None, empire):
            tiles.append(copied)
        return [e for t in tiles for e in board.tiles[t].effects if e.kind == kind]

    def stock(self, empire: str) -> dict[str, int]:
        """E1.2: the empire's pieces not on the board."""
        legions = sum(p.legions.get(empire, 0) for p in self.provinces.values())
        fortresses = sum(1 for p in self.provinces.values() if p.fortress == empire)
        triremes = sum(s.triremes.get(empire, 0) for s in self.seas.values())
        influence = sum(1 for p in self.provinces.values() if p.influence == empire)
        return {
            "legion": UNIT_STOCK["legion"] - legions,
            "trireme": UNIT_STOCK["trireme"] - triremes,
            "fortress": UNIT_STOCK["fortress"] - fortresses,
            "influence": UNIT_STOCK["influence"] - influence,
        }

    def supply(self) -> dict[str, int]:
        """E1.4: shared building tokens left."""
        used = {
            "caravan": sum(len(p.caravans) for p in self.provinces.values()),
            "market": sum(1 for p in self.provinces.values() if p.market),
            "city": sum(1 for p in self.provinces.values() if p.city),
            "temple": sum(1 for p in self.provinces.values() if p.temple),
        }
        return {kind: BUILDING_SUPPLY[kind] - used[kind] for kind in BUILDING_SUPPLY}

    def controlled(self, board: Board, empire: str) -> dict[str, int]:
        """What the empire controls, by piece (E3.4): its buildings (E4.1) and its units."""
        counts = dict.fromkeys(("caravan", "market", "city", "capital", "legendary", "temple"), 0)
        for pid, p in self.provinces.items():
            for building in p.buildings():
                if p.controller(building) != empire:
                    continue
                kind = building.split(":")[0]
                if kind == "city":
                    site = board.provinces[pid].city
                    kind = "city" if site in (None, CityKind.CITY) else str(site)
                counts[kind] += 1
        stock = self.stock(empire)
        counts |= {unit: UNIT_STOCK[unit] - stock[unit] for unit in ("legion", "trireme", "fortress")}
        return counts

    def levels(self, board: Board, empire: str) -> dict[Title, int]:
        """E3.4, ED3: each title level, counted from the board and the tiles' bonuses."""
        controlled = self.controlled(board, empire)
        tiles = [board.tiles[t] for t in self.players[empire].tiles]
        return {
            title: sum(controlled.get(piece, 0) * weight for piece, weight in board.title_points[title].items())
            + sum(tile.titles[title] for tile in tiles)
            for title in Title
        }

    def tax(self, empire: str) -> int:
        return self.players[empire].resources.get(TAX, 0)
