"""Where an Empires position stands (E3): the phase's label and whose orders it waits for. Kept
apart from the engine so that a command that only reads a position (`state`, `status`) does not
import the rules that resolve one."""

from __future__ import annotations

from adjudicator.core.events import RenamedField
from adjudicator.rulesets import PhaseInfo
from adjudicator.rulesets.empires.board import Title
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.kit import leaders

LEADER = {Phase.PURCHASE: Title.POLITICAL, Phase.MILITARY: Title.MILITARY}  # E3.2
TURN_PREFIX = "R"  # R3 purchase: Empires plays in rounds
# The player an event is about was `empire` before every ruleset named him `player`; history
# written then keeps it in these kinds.
RENAMED_EVENT_FIELDS = (
    RenamedField("empire", "player", frozenset({
        "conquest", "converted", "converting", "copy", "evening_out", "first_title", "move", "occupy",
        "offer_by_dice", "order_skipped", "peace", "pick", "produce", "purchase", "purchase_skipped", "sack",
        "sail", "setup", "take_good", "title", "trade_return", "trade_side", "trade_sits_out", "turn_end",
        "turn_of", "victory"
    })),
)  # fmt: skip


def phase_info(position: Position) -> PhaseInfo:
    return PhaseInfo(position.round, str(position.phase), position.step, position.winner, TURN_PREFIX)


def due(position: Position, stepwise: bool) -> tuple[str, ...]:
    """Whose orders the next adjudication needs: nobody's once the game is won (E10)."""
    if position.winner:
        return ()
    holders = {phase: position.titles.get(title) for phase, title in LEADER.items()}
    return leaders.due(position, stepwise, {p: h if h in position.players else None for p, h in holders.items()})
