"""Where a Mare Mediterraneum position stands: the phase's label and whose orders it waits for
(the player to move, or every bidder in an auction). Kept apart from the engine so that a command
that only reads a position (`state`, `status`) does not import the rules that resolve one."""

from __future__ import annotations

from adjudicator.rulesets import PhaseInfo
from adjudicator.rulesets.mediterraneum.model import Phase, Position

TURN_PREFIX = "T"  # T3 turn


def phase_info(position: Position) -> PhaseInfo:
    mover = position.step if position.phase is Phase.TURN else None  # in an auction everyone bids
    return PhaseInfo(position.turn, str(position.phase), mover, position.winner, TURN_PREFIX)


def due(position: Position, stepwise: bool = False) -> tuple[str, ...]:
    """Whose orders the next adjudication needs: the player to move, or everyone in an auction,
    in either mode (every phase is one player's turn)."""
    if position.winner:
        return ()
    return position.order if position.phase is Phase.AUCTION else (position.step,)
