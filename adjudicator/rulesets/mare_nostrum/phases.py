"""Where a Mare Nostrum position stands (R3): the phase's label and whose orders it waits for.
Kept apart from the engine so that a command that only reads a position (`state`, `status`)
does not import the rules that resolve one."""

from __future__ import annotations

from adjudicator.core.events import RenamedField
from adjudicator.rulesets import PhaseInfo
from adjudicator.rulesets.kit import leaders
from adjudicator.rulesets.mare_nostrum.components import Phase, Role
from adjudicator.rulesets.mare_nostrum.model import Position

LEADER = {Phase.BUILD: Role.POLITICAL, Phase.MILITARY: Role.MILITARY}  # R3.3
TURN_PREFIX = "T"  # T3 build
# The player an event is about was `civ` before every ruleset named him `player`; history written
# then keeps it in these kinds (`enemy_left` is no longer written, D5).
RENAMED_EVENT_FIELDS = (
    RenamedField("civ", "player", frozenset({
        "compensation", "consequence_changed", "convert", "end_of_build", "enemy_left", "exchange",
        "exchange_skipped", "helen", "income", "move", "next_step", "occupation_ended", "occupy",
        "offer_by_dice", "order_skipped", "pick", "purchase", "purchase_skipped", "role_assigned", "sack",
        "sail", "setup", "setup_defaulted", "setup_done", "setup_purchase", "tie_roll", "trade_return",
        "trade_sits_out", "trade_size", "turn_of", "ulysses", "victory"
    })),
)  # fmt: skip


def phase_info(position: Position) -> PhaseInfo:
    return PhaseInfo(position.turn, str(position.phase), position.step, position.winner, TURN_PREFIX)


def due(position: Position, stepwise: bool) -> tuple[str, ...]:
    """Everyone in the trade phase and the setup; the build and military turns by the leader's sequence."""
    return leaders.due(position, stepwise, {phase: position.roles.get(role) for phase, role in LEADER.items()})
