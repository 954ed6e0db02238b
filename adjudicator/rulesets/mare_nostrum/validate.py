"""Order validation against the current position: one result per line, never an exception.

This checks what can be known when the orders arrive: names, phase, role, ownership of
units and cards, the placement rules, the stock and the supply (R1), and the routes of
legions and triremes, everything that nothing earlier in the phase can change. A line that
works only if the player's own other lines (his sails, his purchases) work first is
accepted with a note saying so. What depends on other players' earlier moves is checked
again at resolution and reported as skipped there.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.i18n import t
from adjudicator.language.submission import OrderLine
from adjudicator.rulesets.kit.checking import check_line
from adjudicator.rulesets.mare_nostrum import orders
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.checks import Context
from adjudicator.rulesets.mare_nostrum.components import (
    PHASE_NAMES,
    Civ,
    Phase,
)
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.options import Options
from adjudicator.rulesets.mare_nostrum.orders import ORDER_PHASES
from adjudicator.rulesets.mare_nostrum.validate_build import (
    check_build,
    check_buy,
    check_exchange,
    check_keep,
    check_sequence,
)
from adjudicator.rulesets.mare_nostrum.validate_military import (
    check_artemis,
    check_casualties,
    check_helen,
    check_move,
    check_naval_attack,
    check_role,
    check_sail,
)
from adjudicator.rulesets.mare_nostrum.validate_trade import (
    check_give,
    check_offer,
    check_take,
    check_trade_size,
    check_ulysses,
)


def validate_orders(
    board: Board, position: Position, civ: str, lines: Sequence[OrderLine[orders.Order]], options: Options | None = None
) -> list[OrderLine[orders.Order]]:
    """Each line with its order's names resolved to board ids, or with the problem that stops it.
    No option changes what a line may do (`options` is taken for the ruleset's engine part).

    Sail lines are checked first: a player's triremes all move before his naval battles and
    legion moves, whatever the order of his lines (R7.1), so those need to know where his
    triremes can be. The other lines follow in their written order."""
    context = Context(board, position, Civ(civ))
    checked = list(lines)
    sails_first = sorted(range(len(lines)), key=lambda i: not isinstance(lines[i].order, orders.Sail))
    for index in sails_first:
        checked[index] = check_line(context, lines[index], _check_line)
    return checked


def _check_line(c: Context, order: orders.Order) -> orders.Order:
    _check_phase(c, order)
    return _check_order(c, order)


def _check_phase(c: Context, order: orders.Order) -> None:
    phase = c.position.phase
    if isinstance(order, orders.TurnSequence):
        if phase is Phase.TRADE:
            raise c.refuse("R3.3", t("'sequence' orders the build or military phase; the game is in the trade phase"))
        return
    if phase is Phase.SETUP:
        if not isinstance(order, orders.Build | orders.Buy):
            raise c.refuse("R2.4", t("the setup takes only build and buy orders, paid with the 36 points"))
        if order.payment:
            raise c.refuse("R2.4", t("the setup is paid in points, not cards: leave out 'with …'"))
        return
    wanted = ORDER_PHASES[type(order)]
    if wanted is not phase:
        verb = order.to_text().split()[0]
        raise c.refuse(
            "R3",
            t(
                "'%(verb)s' is a %(wanted)s-phase order; the game is in turn %(turn)s, %(phase)s phase",
                verb=verb,
                wanted=PHASE_NAMES[wanted],
                turn=c.position.turn,
                phase=PHASE_NAMES[phase],
            ),
        )


def _check_order(c: Context, order: orders.Order) -> orders.Order:
    match order:
        case orders.TradeSize():
            return check_trade_size(c, order)
        case orders.Offer():
            return check_offer(c, order)
        case orders.Take():
            return check_take(c, order)
        case orders.Give():
            return check_give(c, order)
        case orders.UlyssesForce():
            return check_ulysses(c, order)
        case orders.TurnSequence():
            return check_sequence(c, order)
        case orders.Build():
            return check_build(c, order)
        case orders.Buy():
            return check_buy(c, order)
        case orders.Exchange():
            return check_exchange(c, order)
        case orders.Keep():
            return check_keep(c, order)
        case orders.Sail():
            return check_sail(c, order)
        case orders.NavalAttack():
            return check_naval_attack(c, order)
        case orders.Move():
            return check_move(c, order)
        case orders.Casualties():
            return check_casualties(c, order)
        case orders.Helen():
            return check_helen(c, order)
        case orders.RoleChoice():
            return check_role(c, order)
        case orders.Artemis():
            return check_artemis(c, order)
