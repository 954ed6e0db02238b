"""A mutable working copy of a position, used only inside one resolution.

Resolving a phase makes many small changes in a defined order; doing them on plain dicts
and freezing the result once is clearer than threading `replace` through every step. The
working copy never escapes the engine: `resolve_*` functions take and return `Position`s.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TypeVar

from adjudicator.rulesets.mare_nostrum.components import Civ, Phase, ProvinceId, Role, SeaId
from adjudicator.rulesets.mare_nostrum.model import PlayerState, Position, ProvinceState, SeaState

K = TypeVar("K", bound=str)


@dataclass
class WorkingPlayer:
    civ: Civ
    hand: Counter[str]
    cards: list[str]
    neutral: bool


@dataclass
class WorkingProvince:
    influence: Civ | None
    cities: list[str]
    caravans: list[str]
    temple: bool
    market: bool
    legions: Counter[Civ]
    fortresses: Counter[Civ]
    port: Counter[Civ]
    occupied: dict[str, Civ]
    converting: Civ | None

    def military(self) -> set[Civ]:
        """Civilizations with legions or fortresses here (inactive triremes never count, R7.2)."""
        return {c for c, n in self.legions.items() if n} | {c for c, n in self.fortresses.items() if n}

    @property
    def at_war(self) -> bool:
        """R8.4: exactly while units of two or more players stand here. Asked of every province
        in every military turn, so it stops at the second player rather than listing them all."""
        first = None
        for table in (self.legions, self.fortresses):
            for civ, count in table.items():
                if count and civ != first:
                    if first is not None:
                        return True
                    first = civ
        return False


@dataclass
class Working:
    turn: int
    phase: Phase
    step: Civ | None
    winner: Civ | None
    roles: dict[Role, Civ | None]
    players: dict[Civ, WorkingPlayer]
    provinces: dict[ProvinceId, WorkingProvince]
    seas: dict[SeaId, Counter[Civ]]
    sequence: list[Civ]
    used: list[str]
    held: dict[Civ, tuple[ProvinceId, ...]]
    bank: Counter[str] = field(default_factory=Counter)
    extra_cards: Counter[str] = field(default_factory=Counter)
    finite_bank: bool = True  # R1; the option finite_bank = false adds cards when the bank runs short

    @classmethod
    def of(cls, position: Position, finite_bank: bool = True) -> Working:
        return cls(
            turn=position.turn,
            phase=position.phase,
            step=position.step,
            winner=position.winner,
            roles=dict(position.roles),
            players={
                c: WorkingPlayer(c, Counter(p.hand), list(p.cards), p.neutral) for c, p in position.players.items()
            },
            provinces={
                pid: WorkingProvince(
                    p.influence,
                    list(p.cities),
                    list(p.caravans),
                    p.temple,
                    p.market,
                    Counter(p.legions),
                    Counter(p.fortresses),
                    Counter(p.port),
                    dict(p.occupied),
                    p.converting,
                )
                for pid, p in position.provinces.items()
            },
            seas={sid: Counter(s.triremes) for sid, s in position.seas.items()},
            sequence=list(position.sequence),
            used=list(position.used),
            held={civ: position.held_at_turn_start(civ) for civ in position.players},
            bank=Counter(position.bank()),
            extra_cards=Counter(position.extra_cards),
            finite_bank=finite_bank,
        )

    def freeze(self) -> Position:
        return Position(
            turn=self.turn,
            phase=self.phase,
            step=self.step,
            winner=self.winner,
            roles=dict(self.roles),
            players={c: PlayerState(c, _clean(p.hand), tuple(p.cards), p.neutral) for c, p in self.players.items()},
            provinces={
                pid: ProvinceState(
                    influence=p.influence,
                    cities=tuple(p.cities),
                    caravans=tuple(p.caravans),
                    temple=p.temple,
                    market=p.market,
                    legions=_clean(p.legions),
                    fortresses=_clean(p.fortresses),
                    port=_clean(p.port),
                    occupied=dict(sorted(p.occupied.items())),
                    converting=p.converting,
                )
                for pid, p in self.provinces.items()
            },
            seas={sid: SeaState(_clean(t)) for sid, t in self.seas.items()},
            sequence=tuple(self.sequence),
            used=tuple(self.used),
            held=self.held,
            extra_cards=_clean(self.extra_cards),
        )

    @property
    def playing(self) -> list[Civ]:
        return [c for c, p in self.players.items() if not p.neutral]

    def owner_of(self, card: str) -> Civ | None:
        return next((c for c, p in self.players.items() if card in p.cards), None)

    def has(self, civ: Civ, card: str) -> bool:
        return card in self.players[civ].cards

    def units_on_board(self, civ: Civ, kind: str) -> int:
        if kind == "legion":
            return sum(p.legions[civ] for p in self.provinces.values())
        if kind == "fortress":
            return sum(p.fortresses[civ] for p in self.provinces.values())
        if kind == "trireme":
            return sum(p.port[civ] for p in self.provinces.values()) + sum(s[civ] for s in self.seas.values())
        return sum(1 for p in self.provinces.values() if p.influence == civ)

    def give_from_bank(self, civ: Civ, card: str, count: int = 1) -> int:
        """Pay up to `count` cards from the finite bank (R1); returns how many were paid."""
        if not self.finite_bank and self.bank[card] < count:
            self.extra_cards[card] += count - self.bank[card]
            self.bank[card] = count
        paid = min(count, self.bank[card])
        self.bank[card] -= paid
        self.players[civ].hand[card] += paid
        return paid

    def return_to_bank(self, civ: Civ, cards: Counter[str]) -> None:
        for card, count in cards.items():
            self.players[civ].hand[card] -= count
            self.bank[card] += count


def _clean(table: Counter[K]) -> dict[K, int]:
    return {k: n for k, n in sorted(table.items()) if n > 0}
