"""Who is due in a game whose leader fixes the sequence of some phases (R3.3, E3.2): those phases
are played in turns, and in stepwise mode each turn is one adjudication."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeVar

PhaseT = TypeVar("PhaseT")
PhaseT_co = TypeVar("PhaseT_co", covariant=True)


class InTurns(Protocol[PhaseT_co]):
    """What a position says of the phase it waits at and who moves in it."""

    @property
    def phase(self) -> PhaseT_co: ...

    @property
    def step(self) -> str | None: ...

    @property
    def playing(self) -> tuple[str, ...]: ...


def due(position: InTurns[PhaseT], stepwise: bool, leaders: Mapping[PhaseT, str | None]) -> tuple[str, ...]:
    """Whose orders the next adjudication needs. `leaders`: each phase a leader orders, with the
    player who holds that role (None: nobody). Everyone in batch mode and in the phases all play
    at once; stepwise, the player to move, or, before the sequence is fixed, the leader who fixes
    it (everyone when nobody leads)."""
    if not stepwise or position.phase not in leaders:
        return position.playing
    if position.step is not None:
        return (position.step,)
    leader = leaders[position.phase]
    return (leader,) if leader is not None else position.playing
