"""The position: immutable values that change only through `dataclasses.replace`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from adjudicator.rulesets.mare_nostrum.components import (
    BUILDING_SUPPLY,
    CARD_TOTALS,
    UNIT_STOCK,
    Building,
    Civ,
    Phase,
    ProvinceId,
    Role,
    SeaId,
)

_EMPTY: Mapping[Civ, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class PlayerState:
    civ: Civ
    hand: Mapping[str, int]  # tax and commodity cards -> count
    cards: tuple[str, ...]  # heroes and wonders owned, in the order acquired
    neutral: bool = False

    @property
    def hand_size(self) -> int:
        return sum(self.hand.values())


@dataclass(frozen=True, slots=True)
class ProvinceState:
    influence: Civ | None = None
    cities: tuple[str, ...] = ()  # built city sites
    caravans: tuple[str, ...] = ()  # icons with a caravan
    temple: bool = False
    market: bool = False
    legions: Mapping[Civ, int] = field(default_factory=lambda: _EMPTY)
    fortresses: Mapping[Civ, int] = field(default_factory=lambda: _EMPTY)
    port: Mapping[Civ, int] = field(default_factory=lambda: _EMPTY)  # triremes not yet launched
    occupied: Mapping[str, Civ] = field(default_factory=lambda: MappingProxyType({}))
    converting: Civ | None = None

    def military(self) -> set[Civ]:
        """Civilizations with legions or fortresses here (triremes in port never count, R7.2)."""
        return {c for c, n in self.legions.items() if n} | {c for c, n in self.fortresses.items() if n}

    @property
    def at_war(self) -> bool:
        """R8.4: exactly while units of two or more players stand here; derived, so that it
        can never outlast the war."""
        return len(self.military()) > 1


@dataclass(frozen=True, slots=True)
class SeaState:
    triremes: Mapping[Civ, int] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class Position:
    turn: int
    phase: Phase
    step: Civ | None
    winner: Civ | None
    roles: Mapping[Role, Civ | None]
    players: Mapping[Civ, PlayerState]
    provinces: Mapping[ProvinceId, ProvinceState]
    seas: Mapping[SeaId, SeaState]
    # The leader's sequence of the last sequential phase (R3.2 default, stepwise steps).
    sequence: tuple[Civ, ...] = ()
    # Once-per-phase powers already used this phase ("Helen of Troy", "Cleopatra", ...).
    used: tuple[str, ...] = ()
    # Influence at the start of the turn (R6.4); None means "as the provinces show now".
    held: Mapping[Civ, tuple[ProvinceId, ...]] | None = None
    # Cards added to the game beyond R1's counts, when the bank ran short and the game's
    # option finite_bank = false says it never does.
    extra_cards: Mapping[str, int] = field(default_factory=dict)

    def held_at_turn_start(self, civ: Civ) -> tuple[ProvinceId, ...]:
        if self.held is not None:
            return self.held.get(civ, ())
        return tuple(pid for pid, p in self.provinces.items() if p.influence == civ)

    @property
    def playing(self) -> tuple[Civ, ...]:
        """The civilizations that have a player (not neutral)."""
        return tuple(c for c, p in self.players.items() if not p.neutral)

    def owner_of(self, card: str) -> Civ | None:
        for civ, player in self.players.items():
            if card in player.cards:
                return civ
        return None

    # Derived counts: stored positions never carry them, so they can never disagree.

    def stock(self, civ: Civ) -> dict[str, int]:
        """R1: pieces of `civ` not on the board."""
        legions = sum(p.legions.get(civ, 0) for p in self.provinces.values())
        fortresses = sum(p.fortresses.get(civ, 0) for p in self.provinces.values())
        triremes = sum(p.port.get(civ, 0) for p in self.provinces.values())
        triremes += sum(s.triremes.get(civ, 0) for s in self.seas.values())
        influence = sum(1 for p in self.provinces.values() if p.influence == civ)
        return {
            "legion": UNIT_STOCK["legion"] - legions,
            "trireme": UNIT_STOCK["trireme"] - triremes,
            "fortress": UNIT_STOCK["fortress"] - fortresses,
            "influence": UNIT_STOCK["influence"] - influence,
        }

    def bank(self) -> dict[str, int]:
        """R1: cards in no hand (finite, unless cards were added: `extra_cards`)."""
        return {
            card: total + self.extra_cards.get(card, 0) - sum(p.hand.get(card, 0) for p in self.players.values())
            for card, total in CARD_TOTALS.items()
        }

    def supply(self) -> dict[str, int]:
        """R1.3: shared building tokens left, for the number of players in the game."""
        limits = BUILDING_SUPPLY[len(self.playing)]
        used = {
            Building.CARAVAN: sum(len(p.caravans) for p in self.provinces.values()),
            Building.CITY: sum(len(p.cities) for p in self.provinces.values()),
            Building.MARKET: sum(1 for p in self.provinces.values() if p.market),
            Building.TEMPLE: sum(1 for p in self.provinces.values() if p.temple),
        }
        return {str(kind): limits[kind] - used[kind] for kind in Building}
