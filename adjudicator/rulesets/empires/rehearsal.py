"""Rehearsals at submission (issue 28: what a receipt marks OK is what the engine does): one
player's purchase or military lines carried out by the engine's own functions on the position
he sees, as if nobody played before him.

His earlier accepted lines are taken to happen: in the purchase phase those above the line, in
the military phase those the engine carries out first (sails, then naval battles, then moves,
each in line order: E7.1). A line the rehearsal skips is refused with the engine's reason when
nothing another player does first can change that; when something can (an enemy trireme one
sail away may come in before his naval battle), it is accepted with a note saying so. A line
that works only if something else happens first (his triremes coming through his own naval
battle) or that his later lines undo (a set a later line names, a copy) is accepted with a note.

In a purchase phase another player's turn only ever takes something away (a site, a token, a
tile, a neutral province): what his own turn alone cannot do stays undone (E6.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from adjudicator.events import Event
from adjudicator.i18n import t
from adjudicator.orders import OrderLine
from adjudicator.problems import Rejection
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.military import Rehearsal, rehearse_military, skipped_lines
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import Build, Buy, Copy, Order, Standing
from adjudicator.rulesets.empires.presentation import listed
from adjudicator.rulesets.empires.purchase import purchase_turn

Lines = list[OrderLine[Order]]


def rehearse(board: Board, position: Position, empire: str, lines: Sequence[OrderLine[Order]]) -> Lines:
    """The checked lines with what the rehearsal of his turn adds: refusals and notes."""
    if position.phase is Phase.PURCHASE:
        return _purchases(board, position, empire, list(lines))
    if position.phase is Phase.MILITARY:
        return _military(board, position, empire, list(lines))
    return list(lines)


def _refused(line: OrderLine[Order], reason: str, alone: bool) -> OrderLine[Order]:
    """Refused with the engine's reason; one that the line alone would not meet says so."""
    if not alone:
        reason = t("%(reason)s, after your lines carried out before this one", reason=reason)
    return replace(line, problem=Rejection(line.number, "", reason))


def _noted(line: OrderLine[Order], note: str) -> OrderLine[Order]:
    return replace(line, note=listed([n for n in (line.note, note) if n], "; "))


# ---- purchases (E6) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Turn:
    """His purchase turn as the engine carries it out: the lines it skips, each with its first
    reason, the lines with a purchase made, and whether he wins (E10)."""

    skipped: dict[int, str]
    bought: frozenset[int]
    won: bool


def _purchase_turn(board: Board, position: Position, empire: str, orders: Sequence[Order]) -> _Turn:
    events: list[Event] = []
    after = purchase_turn(board, position, empire, orders, events)
    bought = [line for e in events if e.kind == "purchase" and isinstance(line := e.data.get("line"), int)]
    return _Turn(skipped_lines(events, "purchase_skipped"), frozenset(bought), after.winner == empire)


def _purchases(board: Board, position: Position, empire: str, lines: Lines) -> Lines:
    """E6.1: each purchase line rehearsed after his earlier ones (and his copy, E11.1, which
    holds for the whole turn); the sets the engine picks, the stock, the sites and the tiles
    all as the engine will find them."""
    kept: list[Order] = []
    for index, line in enumerate(lines):
        order = line.order
        if not line.ok or order is None:
            continue
        if isinstance(order, Copy):
            kept.append(order)
        if not isinstance(order, Build | Buy):
            continue
        turn = _purchase_turn(board, position, empire, [*kept, order])
        if order.line in turn.skipped and order.line in turn.bought:
            lines[index] = _noted(
                line, t("only part of this line is carried out: %(reason)s", reason=turn.skipped[order.line])
            )
        elif order.line in turn.skipped:
            copies = [o for o in kept if isinstance(o, Copy)]
            alone = order.line in _purchase_turn(board, position, empire, [*copies, order]).skipped
            lines[index] = _refused(line, turn.skipped[order.line], alone)
            continue
        kept.append(order)
    whole = _purchase_turn(board, position, empire, kept)
    for index, line in enumerate(lines):
        if not line.ok or line.note or not isinstance(line.order, Build | Buy):
            continue
        if line.number in whole.skipped:
            reason = whole.skipped[line.number]
            lines[index] = _noted(line, t("skipped once your later lines are counted: %(reason)s", reason=reason))
        elif whole.won and line.number not in whole.bought:
            lines[index] = _noted(line, t("not carried out: your purchases win the game before it (E10)"))
    return lines


# ---- the military turn (E7) ------------------------------------------------------------------


def _military(board: Board, position: Position, empire: str, lines: Lines) -> Lines:
    """E7.1: his sails, naval battles and moves rehearsed in the engine's order; a skipped line
    changes nothing, so one rehearsal of them all tells each line's fate."""
    orders = [line.order for line in lines if line.ok and line.order is not None]
    standing = [order for order in orders if isinstance(order, Standing)]  # E11.1: his peace
    turn = rehearse_military(board, position, empire, orders)
    for index, line in enumerate(lines):
        order, number = line.order, line.number
        if not line.ok or order is None:
            continue
        if number in turn.skipped and number not in turn.others_first:
            alone = number in rehearse_military(board, position, empire, [*standing, order]).skipped
            lines[index] = _refused(line, turn.skipped[number], alone)
            continue
        for note in _military_notes(turn, number):
            lines[index] = _noted(lines[index], note)
    return lines


def _military_notes(turn: Rehearsal, number: int) -> list[str]:
    """What an accepted military line waits for."""
    notes: list[str] = []
    if number in turn.others_first:
        reason = turn.skipped[number]
        notes.append(t("skipped unless another player's turn before yours changes this: %(reason)s", reason=reason))
    if number in turn.war_first:
        notes.append(
            t(
                "depends on your legions in %(province)s coming through the battle of the war there in "
                "another player's turn before yours (E8.4)",
                province=turn.war_first[number],
            )
        )
    if number in turn.through_battle:
        seas = listed(turn.through_battle[number])
        notes.append(t("depends on your triremes in %(seas)s coming through your naval battle there (E7.2)", seas=seas))
    return notes
