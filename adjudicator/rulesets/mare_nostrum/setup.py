"""A new game's opening position (R2): basic setup, neutrals, roles, and turn 1 income."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from adjudicator.dice import Dice
from adjudicator.events import Event, event
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import Civ, Phase, ProvinceId, Role
from adjudicator.rulesets.mare_nostrum.income import resolve_income
from adjudicator.rulesets.mare_nostrum.model import PlayerState, Position, ProvinceState, SeaState
from adjudicator.rulesets.mare_nostrum.roles import assign_start_roles


def basic_setup(board: Board, playing: Sequence[Civ], dice: Dice) -> tuple[Position, list[Event]]:
    """R2.1-R2.3, then R4 income, so the game opens at turn 1 trade with hands dealt."""
    provinces: dict[ProvinceId, ProvinceState] = {pid: ProvinceState() for pid in board.provinces}
    players: dict[Civ, PlayerState] = {}
    events: list[Event] = []
    for civ in board.civilizations.values():
        plays = civ.name in playing
        players[civ.name] = PlayerState(civ.name, {}, (civ.hero,) if plays else (), neutral=not plays)
        for holding in civ.start:
            if plays:  # R2.1
                provinces[holding.province] = ProvinceState(
                    influence=civ.name,
                    cities=holding.cities,
                    caravans=holding.caravans,
                    fortresses={civ.name: holding.fortresses} if holding.fortresses else {},
                )
            else:  # R2.3: influence and a legion everywhere, a fortress in the capital
                capital = holding.province == civ.capital
                provinces[holding.province] = ProvinceState(
                    influence=civ.name,
                    legions={civ.name: 1},
                    fortresses={civ.name: 1} if capital else {},
                )
        events.append(event("setup", civ=civ.name, neutral=not plays, rule="R2.3" if not plays else "R2.1"))
    position = Position(
        turn=1,
        phase=Phase.TRADE,
        step=None,
        winner=None,
        roles={role: None for role in Role},
        players=players,
        provinces=provinces,
        seas={sid: SeaState() for sid in board.seas},
    )
    printed = {c.role: c.name for c in board.civilizations.values() if c.role is not None}
    roles, role_events = assign_start_roles(position, printed, dice)
    position, income_events = resolve_income(replace(position, roles=roles), artemis={})
    return position, events + role_events + income_events
