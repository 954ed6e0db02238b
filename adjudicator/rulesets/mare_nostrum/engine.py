"""The phase machine (R3): turn start -> trade -> build -> military -> next turn.

`resolve_phase` is the whole engine as seen from outside: a position, every player's
validated orders and the dice in; the next position and the events out. Its steps are
listed in order below, as named functions, like godip's `Next()`. Beside it, what the
ruleset's engine part names: the opening position, where a position stands, who is due.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.build import apply_build_turn, apply_end_of_build
from adjudicator.rulesets.mare_nostrum.components import Civ, Phase, Role
from adjudicator.rulesets.mare_nostrum.income import resolve_income
from adjudicator.rulesets.mare_nostrum.military import apply_military_turn
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.options import Options
from adjudicator.rulesets.mare_nostrum.orders import Artemis, Keep, Order, RoleChoice, TurnSequence
from adjudicator.rulesets.mare_nostrum.phases import LEADER
from adjudicator.rulesets.mare_nostrum.roles import assign_turn_roles, table_order_from
from adjudicator.rulesets.mare_nostrum.setup import (
    advanced_setup_position,
    apply_advanced_setup,
    basic_setup,
    finish_advanced_setup,
)
from adjudicator.rulesets.mare_nostrum.trade import apply_trade
from adjudicator.rulesets.mare_nostrum.working import Working

DEFAULT_OPTIONS = Options()
NEXT_PHASE = {Phase.TRADE: Phase.BUILD, Phase.BUILD: Phase.MILITARY}


def new_position(board: Board, civs: Sequence[str], dice: Dice, options: Options) -> tuple[Position, list[Event]]:
    """The opening position: the printed setup (R2.1-R2.3) or the empty board of R2.4."""
    playing = [Civ(c) for c in civs]
    if options.setup == "advanced":
        return advanced_setup_position(board, playing)
    return basic_setup(board, playing, dice, options.start_caravan)


class GameOver(Exception):
    """A phase was asked of a game that already has a winner (R10)."""


def resolve_phase(
    board: Board,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    dice: Dice,
    stepwise: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Position, list[Event]]:
    """Resolve the phase (or, stepwise, the step) the position names."""
    if position.winner is not None:
        raise GameOver(f"{position.winner} has already won")
    w = Working.of(position, options.bank_is_finite)
    events: list[Event] = []
    given = _sanitize(w, orders, events)
    if w.phase is Phase.SETUP:
        apply_advanced_setup(w, board, given, events)
        return finish_advanced_setup(w, board, dice, events), events
    if w.phase is Phase.TRADE:
        apply_trade(w, given, dice, events)
        _next_phase(w)
        return _phase_roles(w.freeze(), options, dice, events), events
    sequence = _sequence_for_phase(w, given, events)
    movers = sequence if not stepwise else [w.step or sequence[0]]
    for civ in movers:
        _resolve_turn(w, board, civ, given, dice, events)
        if w.winner is not None:
            return w.freeze(), events
    if stepwise and movers[0] != sequence[-1]:
        w.step = sequence[sequence.index(movers[0]) + 1]
        events.append(event("next_step", player=w.step))
        return w.freeze(), events
    if w.phase is Phase.MILITARY:
        return _start_turn(w, given, dice, events)
    _next_phase(w)
    return _phase_roles(w.freeze(), options, dice, events), events


def _phase_roles(position: Position, options: Options, dice: Dice, events: list[Event]) -> Position:
    """D1 option `roles_each = "phase"`: roles are counted again as each phase opens."""
    if options.roles_each != "phase":
        return position
    roles, role_events = assign_turn_roles(position, {}, dice)
    events += role_events
    return replace(position, roles=roles)


def _sanitize(w: Working, orders: Mapping[str, Sequence[Order]], events: list[Event]) -> dict[Civ, list[Order]]:
    """Orders of playing civilizations only; everyone without orders is named (defaults apply)."""
    kept = {civ: list(orders.get(civ, ())) for civ in w.playing}
    missing = [civ for civ in w.playing if not kept[civ]]
    if missing:
        events.append(event("orders_defaulted", civs=missing, phase=str(w.phase)))
    return kept


def _sequence_for_phase(w: Working, orders: Mapping[Civ, Sequence[Order]], events: list[Event]) -> list[Civ]:
    """R3.3: the leader's `sequence` (named players first, the rest in default order), fixed
    when the phase (or its first step) is resolved."""
    if w.step is not None and w.sequence:
        return list(w.sequence)
    leader = w.roles.get(LEADER[w.phase])
    default = list(table_order_from(leader, w.playing))
    given = next((o for o in reversed(orders.get(leader, [])) if isinstance(o, TurnSequence)), None) if leader else None
    named = [Civ(c) for c in given.civs if c in w.playing] if given else []
    sequence = named + [c for c in default if c not in named]
    w.sequence = sequence
    events.append(event("sequence", phase=str(w.phase), leader=leader, order=list(sequence), defaulted=given is None))
    return sequence


def _resolve_turn(
    w: Working, board: Board, civ: Civ, orders: Mapping[Civ, Sequence[Order]], dice: Dice, events: list[Event]
) -> None:
    events.append(event("turn_of", player=civ, phase=str(w.phase)))
    if w.phase is Phase.BUILD:
        apply_build_turn(w, board, civ, orders.get(civ, ()), events)
        if w.winner is None:  # R6.8, at the end of the player's build (no card arrives later)
            keeps = [o for o in orders.get(civ, ()) if isinstance(o, Keep)]
            apply_end_of_build(w, {civ: keeps}, events, only=civ)
    else:
        apply_military_turn(w, board, civ, orders, dice, events)


def _next_phase(w: Working) -> None:
    w.phase = NEXT_PHASE[w.phase]
    w.step = None
    w.used = []


def _start_turn(
    w: Working, orders: Mapping[Civ, Sequence[Order]], dice: Dice, events: list[Event]
) -> tuple[Position, list[Event]]:
    """After the military phase: roles (R3), income (R4), and the turn-start influence (R6.4)."""
    w.turn += 1
    w.phase = Phase.TRADE
    w.step = None
    w.used = []
    events.append(event("turn_start", turn=w.turn))
    choices = {
        Role(o.role): Civ(o.civ)
        for civ in w.playing
        for o in orders.get(civ, ())
        if isinstance(o, RoleChoice) and w.roles.get(Role(o.role)) == civ
    }
    position = w.freeze()
    roles, role_events = assign_turn_roles(position, choices, dice)
    artemis = {civ: o.commodity for civ in w.playing for o in orders.get(civ, ()) if isinstance(o, Artemis)}
    position, income_events = resolve_income(replace(position, roles=roles), artemis, w.finite_bank)
    held = {civ: tuple(pid for pid, p in position.provinces.items() if p.influence == civ) for civ in position.players}
    return replace(position, held=held), events + role_events + income_events
