"""The Empires phase machine (E3.1): Trade, Purchase, Military; then Claims and the next round's
Production, which take no orders, run on at the end of the military phase, so a position only
ever waits at Trade, Purchase or Military. In stepwise mode purchase and military resolve one
player's turn per adjudication, after the leader has fixed the order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.rulesets.empires import setup
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.claims import claim_titles, titles_winner
from adjudicator.rulesets.empires.military import (
    military_order,
    military_turn,
    peace_pairs,
    record_standing,
    resolve_military,
)
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import Order
from adjudicator.rulesets.empires.phases import LEADER
from adjudicator.rulesets.empires.production import produce
from adjudicator.rulesets.empires.purchase import purchase_order, purchase_turn, refill_track, resolve_purchase
from adjudicator.rulesets.empires.trade import resolve_trade


def new_position(board: Board, empires: Sequence[str], dice: Dice, options: None) -> tuple[Position, list[Event]]:
    """The opening position (E2); Empires has no options."""
    return setup.new_position(board, empires, dice)


def resolve_phase(
    board: Board,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    dice: Dice,
    stepwise: bool,
    options: None = None,
) -> tuple[Position, list[Event]]:
    """The engine: the phase (or step) the position names, resolved. Pure. Empires has no
    options (`options` is taken for the ruleset's engine part)."""
    if position.winner:
        return position, []
    if position.phase is Phase.TRADE:
        position, events = resolve_trade(board, position, orders, dice)
        return replace(position, phase=Phase.PURCHASE, step=None), events
    if stepwise and position.phase in LEADER:
        return _step(board, position, orders, dice)
    if position.phase is Phase.PURCHASE:
        position, events = resolve_purchase(board, position, orders, dice)
        return (position if position.winner else replace(position, phase=Phase.MILITARY, step=None)), events
    position, events = resolve_military(board, position, orders, dice)
    return _after_military(board, position, dice, events)


def _step(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice
) -> tuple[Position, list[Event]]:
    """One player's purchase or military turn; the first adjudication fixes the leader's order."""
    events: list[Event] = []
    phase = position.phase
    if position.step is None:
        order = purchase_order(position, orders, board) if phase is Phase.PURCHASE else military_order(position, orders)
        events.append(event(f"{phase}_order", order=order, rule="E6.1" if phase is Phase.PURCHASE else "E7.1"))
        return replace(position, sequence=tuple(order), step=order[0]), events
    empire = position.step
    mine = orders.get(empire, ())
    if phase is Phase.PURCHASE:
        position = purchase_turn(board, position, empire, mine, events)
        if position.winner:
            return position, events
    else:
        position = record_standing(position, {empire: mine})
        peace = peace_pairs(board, position, orders, events)
        position = military_turn(board, position, empire, mine, dice, events, peace)
        if position.winner:
            return position, events
    later = list(position.sequence[position.sequence.index(empire) + 1 :])
    if later:
        return replace(position, step=later[0]), events
    if phase is Phase.PURCHASE:
        position = refill_track(position, dice, events)
        return replace(position, phase=Phase.MILITARY, step=None), events
    return _after_military(board, replace(position, step=None), dice, events)


def _after_military(board: Board, position: Position, dice: Dice, events: list[Event]) -> tuple[Position, list[Event]]:
    """Claims (E9, E10.3), then the next round: Production (E4) and its Trade. A game won during
    the phase (E10.2, ED17) ends there."""
    if position.winner:
        return position, events
    events.append(event("phase_start", phase="claims", round=position.round))
    position, claimed = claim_titles(board, replace(position, phase=Phase.CLAIMS, step=None))
    events += claimed
    winner, won = titles_winner(position)
    events += won
    if winner:
        return replace(position, winner=winner), events
    position = replace(position, round=position.round + 1, phase=Phase.PRODUCTION, used=(), trade_size=None)
    events.append(event("round_start", round=position.round))
    position, produced = produce(board, position, dice)
    events += produced
    return replace(position, phase=Phase.TRADE), events
