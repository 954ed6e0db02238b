"""The validator's rehearsal of a turn: the engine's own code, run on the position the player
sees, tells which of his lines it will refuse, so that the receipt says so at once (M3.8).

The turn is played as the engine plays it (turn.py): the founding, the tax and the upkeep
(M3.9), the cards handed on, then his lines in the order written, each with the handler that
will carry it out, paying its price from the money left then (`prices.cost`, T:49). Nothing is
rolled: a line that needs a die stops there, and what that line could change is from then on
*unsettled* (its parts: the purse, a ship, an army, the cities' owners...). Each line then
gets one of three answers:

- refused, with the engine's reason and rule, when the rehearsal refuses it, at no cost, for a
  reason that reads nothing unsettled: the engine would refuse it whatever the dice;
- accepted with a note naming the earlier lines it depends on, when what it reads is unsettled:
  the best case is assumed (a sale may bring the money for a purchase), and the engine decides;
- accepted, when nothing it reads is unsettled: the engine will carry it out as rehearsed (its
  own dice aside: a sale may find no buyer, a river may not be crossed).

The turn is played under the game's options (an empty ship sails a second space only with
`fast_empty_ships`, M4.3), so the receipt says what the engine will do in this game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event
from adjudicator.core.i18n import Msg, t, tn
from adjudicator.language.problems import Rejection
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import Options, Position
from adjudicator.rulesets.mediterraneum.orders import CardTo, March, Order, Sail
from adjudicator.rulesets.mediterraneum.parts import ALL, ANY_ARMY, ANY_SHIP, PURSES, reads, reads_of_refusal, writes
from adjudicator.rulesets.mediterraneum.player_turn import carry_out, hand_on_cards, lines, open_turn
from adjudicator.rulesets.mediterraneum.turn_state import Turn


@dataclass(frozen=True, slots=True)
class Rehearsal:
    refused: dict[int, Rejection]  # by line number: the lines the engine will refuse whatever the dice
    notes: dict[int, Msg]  # by line number: what an accepted line depends on


class _Unsettled(Exception):
    """A die would decide what follows."""


class _NoDice:
    """Dice that are never rolled in a rehearsal: the first roll stops the line."""

    @property
    def used(self) -> int:
        return 0

    def roll(self, purpose: str) -> int:
        raise _Unsettled(purpose)

    def sealed(self) -> Dice:
        return self


class _GoingOn(_NoDice):
    """Dice that let a march or a sail go on: every river crossed, every mountain entered,
    every storm ridden out."""

    def roll(self, purpose: str) -> int:
        return 6


Unsettled = dict[str, set[int]]  # each unsettled part, with the lines whose dice (or option) left it so


def rehearse(board: Board, position: Position, colour: str, orders: Sequence[Order], options: Options) -> Rehearsal:
    """What the engine will do with each of his lines in this game (its `options`), as far as it
    is certain before any die."""
    events: list[Event] = []
    turn = open_turn(board, position, colour, orders, options, events)
    founding = [_rejection(e) for e in events if e.kind == "order_failed"]
    result = Rehearsal({rejection.line: rejection for rejection in founding}, {})
    unsettled: Unsettled = {}
    try:
        hand_on_cards(turn, orders, _NoDice())
    except _Unsettled:  # a coup's roll: it changes State cards only, which no line reads; a gift after it, a purse
        cards = [o.line for o in orders if isinstance(o, CardTo)]
        _unsettle(unsettled, {PURSES}, set(cards))
    for order in lines(orders):
        _rehearse_line(turn, order, unsettled, result)
    return result


def _rehearse_line(turn: Turn, order: Order, unsettled: Unsettled, result: Rehearsal) -> None:
    """One line on the turn as rehearsed so far: refused, noted or accepted (see above); what it
    may change joins `unsettled` when its outcome is not certain."""
    mark, before, start = len(turn.events), turn.position, _copy(turn)
    depends = _origins(reads(order), unsettled)
    try:
        carry_out(turn, order, _NoDice())
    except _Unsettled:
        _note(result, order, depends)
        _note_going_on(start, order, result)
        _unsettle(unsettled, writes(order), depends | {order.line})
        return
    new = turn.events[mark:]
    if len(new) == 1 and new[0].kind == "order_failed" and turn.position is before:
        reason = new[0].data["reason"]
        blocking = _origins(reads_of_refusal(order, reason), unsettled)
        if not blocking:
            result.refused[order.line] = _rejection(new[0])
            return
        depends |= blocking  # it may be carried out after all
    elif failed := [e for e in new if e.kind == "order_failed"]:  # a first space taken, the second refused
        result.notes[order.line] = _second_space_refused(failed[0], dice=False)
    if depends:
        _note(result, order, depends - {order.line})
        _unsettle(unsettled, writes(order), depends)


def _note_going_on(start: Turn, order: Order, result: Rehearsal) -> None:
    """A march or a sail of two spaces whose first space a die decides (a river, a mountain, a
    storm): if the die lets it go on and its second space is refused, its note says so."""
    if not isinstance(order, March | Sail) or len(order.path) < 2 or order.line in result.notes:
        return
    mark = len(start.events)
    carry_out(start, order, _GoingOn())
    failed = [e for e in start.events[mark:] if e.kind == "order_failed"]
    if failed:
        result.notes[order.line] = _second_space_refused(failed[0], dice=True)


def _second_space_refused(failed: Event, dice: bool) -> Msg:
    """The note of a line whose first space is taken (if its dice allow) and whose second is
    refused (M4.3, M8.3)."""
    rule, reason = failed.data["rule"], failed.data["reason"]
    reason = reason if isinstance(reason, str) else ""
    if dice:
        return t(
            "%(rule)s: if its dice let it go on, its second space is refused: %(reason)s", rule=rule, reason=reason
        )
    return t("%(rule)s: its second space is refused: %(reason)s", rule=rule, reason=reason)


def _copy(turn: Turn) -> Turn:
    """The turn as it stands, to rehearse a line again from there."""
    return replace(
        turn,
        events=list(turn.events),
        new_ships=list(turn.new_ships),
        moves=dict(turn.moves),
        came_from=dict(turn.came_from),
        rolled=set(turn.rolled),
    )


def _note(result: Rehearsal, order: Order, depends: set[int]) -> None:
    if not depends or order.line in result.notes:
        return
    numbers = sorted(n for n in depends if n)
    if not numbers:
        result.notes[order.line] = t("M3.8: whether it can be carried out depends on what the dice decide before it")
        return
    result.notes[order.line] = tn(
        "M3.8: whether it can be carried out depends on how line %(lines)s turns out",
        "M3.8: whether it can be carried out depends on how lines %(lines)s turn out",
        len(numbers),
        lines=", ".join(str(n) for n in numbers),
    )


def _unsettle(unsettled: Unsettled, parts: set[str], origins: set[int]) -> None:
    for part in parts:
        unsettled.setdefault(part, set()).update(origins)


def _origins(parts: set[str], unsettled: Unsettled) -> set[int]:
    """The lines that left any of these parts unsettled (empty when all are settled)."""
    found: set[int] = set()
    for part in parts:
        kind, _, _ = part.partition(":")
        wide = {part, ANY_SHIP if kind == "ship" else ANY_ARMY if kind == "army" else part}
        if part == ALL:
            wide = set(unsettled)
        for key in wide & set(unsettled):
            found |= unsettled[key] or {0}
    return found


def _rejection(failed: Event) -> Rejection:
    """The engine's refusal as the receipt gives it: the line, the rule, the reason."""
    reason = failed.data["reason"]
    return Rejection(int(str(failed.data["line"])), str(failed.data["rule"]), reason if isinstance(reason, str) else "")
