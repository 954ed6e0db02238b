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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from adjudicator.core.events import Event
from adjudicator.core.i18n import t
from adjudicator.language.problems import Rejection
from adjudicator.language.submission import OrderLine
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.conquest import conversions
from adjudicator.rulesets.empires.geography import chain_coasts
from adjudicator.rulesets.empires.military import MilitaryTurn, peace_pairs
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import Build, Buy, Copy, Move, NavalAttack, Order, Sail, Standing
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


def _refused(line: OrderLine[Order], reason: str, alone: bool, arrivals: bool = False) -> OrderLine[Order]:
    """Refused with the engine's reason; one that the line alone would not meet says so, and
    one that counts on units his other lines bring in says that these move no more."""
    if arrivals:
        reason = t("%(reason)s; units that arrived there this turn do not move again (ED12)", reason=reason)
    elif not alone:
        reason = t("%(reason)s, after your lines carried out before this one", reason=reason)
    return replace(line, problem=Rejection(line.number, "", reason))


def _noted(line: OrderLine[Order], note: str) -> OrderLine[Order]:
    return replace(line, note=listed([n for n in (line.note, note) if n], "; "))


def skipped_lines(events: Sequence[Event], kind: str) -> dict[int, str]:
    """The lines skipped events of `kind` name, each with its first reason (a message, so it
    keeps its translations)."""
    skipped: dict[int, str] = {}
    for item in events:
        line, reason = item.data.get("line"), item.data.get("reason")
        if item.kind == kind and isinstance(line, int) and isinstance(reason, str):
            skipped.setdefault(line, reason)
    return skipped


# ---- purchases (E6) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Purchases:
    """His purchase turn as the engine carries it out: the lines it skips, each with its first
    reason, the lines with a purchase made, and whether he wins (E10)."""

    skipped: dict[int, str]
    bought: frozenset[int]
    won: bool


def _purchase_turn(board: Board, position: Position, empire: str, orders: Sequence[Order]) -> _Purchases:
    events: list[Event] = []
    after = purchase_turn(board, position, empire, orders, events)
    bought = [line for e in events if e.kind == "purchase" and isinstance(line := e.data.get("line"), int)]
    return _Purchases(skipped_lines(events, "purchase_skipped"), frozenset(bought), after.winner == empire)


def _purchases(board: Board, position: Position, empire: str, lines: Lines) -> Lines:
    """E6.1: each purchase line rehearsed after his earlier ones and his copy (E11.1: it holds
    for the whole turn, whatever its line); the sets the engine picks, the stock, the sites and
    the tiles all as the engine will find them."""
    copies: list[Order] = [line.order for line in lines if line.ok and isinstance(line.order, Copy)]
    kept = list(copies)
    for index, line in enumerate(lines):
        order = line.order
        if not line.ok or not isinstance(order, Build | Buy):
            continue
        turn = _purchase_turn(board, position, empire, [*kept, order])
        if order.line in turn.skipped and order.line in turn.bought:
            lines[index] = _noted(
                line, t("only part of this line is carried out: %(reason)s", reason=turn.skipped[order.line])
            )
        elif order.line in turn.skipped:
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
    turn = _rehearse_military(board, position, empire, orders)
    for index, line in enumerate(lines):
        order, number = line.order, line.number
        if not line.ok or order is None:
            continue
        if number in turn.skipped and number not in turn.others_first:
            alone = number in _rehearse_military(board, position, empire, [*standing, order]).skipped
            lines[index] = _refused(line, turn.skipped[number], alone, number in turn.stranded)
            continue
        for note in _military_notes(turn, number):
            lines[index] = _noted(lines[index], note)
    return lines


def war_first_note(province: str) -> str:
    """E8.4: a war goes on in the turn of each player with units there, without an order; one
    whose turn comes first may leave fewer of his legions to move (the form says it too)."""
    return t(
        "depends on your legions in %(province)s coming through the battle of the war there in "
        "another player's turn before yours (E8.4)",
        province=province,
    )


def _military_notes(turn: _Rehearsal, number: int) -> list[str]:
    """What an accepted military line waits for."""
    notes: list[str] = []
    if number in turn.others_first:
        reason = turn.skipped[number]
        notes.append(t("skipped unless another player's turn before yours changes this: %(reason)s", reason=reason))
    if number in turn.war_first:
        notes.append(war_first_note(turn.war_first[number]))
    if number in turn.through_battle:
        seas = listed(turn.through_battle[number])
        notes.append(t("depends on your triremes in %(seas)s coming through your naval battle there (E7.2)", seas=seas))
    return notes


@dataclass(frozen=True, slots=True)
class _Rehearsal:
    """One player's military turn up to its land battles, as the engine carries out his lines
    alone from the position he sees (E7.1: conversions due, sails, naval battles, legion moves),
    rolling no dice: a naval battle he may fight is taken to be fought and to leave his
    triremes where they are."""

    skipped: Mapping[int, str]  # line -> the engine's reason, as it would report it
    others_first: frozenset[int]  # skipped lines another player's turn before his may let through
    stranded: frozenset[int]  # skipped for too few units, some there having arrived this turn (ED12)
    through_battle: Mapping[int, tuple[str, ...]]  # move lines whose chain needs seas he fights in
    war_first: Mapping[int, str]  # move lines from a province at war where another's turn may fight first


def _rehearse_military(board: Board, position: Position, empire: str, orders: Sequence[Order]) -> _Rehearsal:
    """What his turn, alone, would skip (no other player moving before him), and what it
    carries out only if his triremes come through his own naval battles, or his legions
    through the battle of a war (E8.4) fought in another player's turn before his."""
    events: list[Event] = []
    turn = MilitaryTurn(board, empire, events, peace_pairs(board, position, {empire: orders}, []))
    others_may_play_first = position.step != empire  # stepwise: the turns before his are over
    others_first: set[int] = set()
    stranded: set[int] = set()
    position = conversions(board, position, empire, [])
    for order in orders:
        if isinstance(order, Sail):
            stranded |= {order.line} if _stranded(turn, position, order) else set()
            position = turn.sail(position, order)
    for order in orders:
        if isinstance(order, NavalAttack):
            problem = turn.naval_problem(position, order)
            if not problem:
                turn.naval_seas.add(order.sea)
                continue
            turn.skip(order, problem)
            if (
                others_may_play_first
                and not turn.at_peace(order.enemy)
                and _may_sail_in(board, position, empire, order)
            ):
                others_first.add(order.line)
    fought = tuple(sorted(turn.naval_seas))
    without = {s: position.seas[s].with_ships(empire, -position.seas[s].triremes.get(empire, 0)) for s in fought}
    after_battles = replace(position, seas={**position.seas, **without})
    at_war = {pid for pid, p in position.provinces.items() if p.at_war and others_may_play_first}
    through_battle: dict[int, tuple[str, ...]] = {}
    war_first: dict[int, str] = {}
    for order in orders:
        if not isinstance(order, Move):
            continue
        problem = turn.move_problem(position, order)
        if problem and others_may_play_first and problem == turn.peace_problem(position, order.destination):
            others_first.add(order.line)
        stranded |= {order.line} if problem and _stranded(turn, position, order) else set()
        position = turn.move(position, order)
        if problem:
            continue
        if order.origin in at_war:
            war_first[order.line] = board.provinces[order.origin].name
        by_land = order.destination in board.provinces[order.origin].land
        if not by_land and order.destination not in chain_coasts(board, after_battles, empire, order.origin):
            through_battle[order.line] = tuple(board.seas[sea].name for sea in fought)
    skipped = skipped_lines(events, "order_skipped")
    return _Rehearsal(skipped, frozenset(others_first), frozenset(stranded), through_battle, war_first)


def _stranded(turn: MilitaryTurn, position: Position, order: Sail | Move) -> bool:
    """ED12: too few of his units at the origin can still move, some there having arrived this turn."""
    if isinstance(order, Sail):
        state = position.seas.get(order.origin)
        here, arrived = (state.triremes.get(turn.empire, 0) if state else 0), turn.sailed[order.origin]
    else:
        province = position.provinces.get(order.origin)
        here, arrived = (province.legions.get(turn.empire, 0) if province else 0), turn.marched[order.origin]
    return arrived > 0 and order.count > here - arrived


def _may_sail_in(board: Board, position: Position, empire: str, order: NavalAttack) -> bool:
    """E7.2: his triremes are there, the enemy's are not but one sail away: the enemy's turn, if
    it comes first, may bring them in (a trireme sails one step a turn)."""
    seas = position.seas
    here = seas[order.sea].triremes if order.sea in seas else {}
    if not here.get(empire, 0) or here.get(order.enemy, 0):
        return False
    return any(seas[s].triremes.get(order.enemy, 0) for s in board.seas[order.sea].seas)
