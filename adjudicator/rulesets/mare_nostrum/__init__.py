"""The Mare Nostrum (2003) ruleset: RULES.md R1-R10, declared as a `Ruleset` value."""

from __future__ import annotations

from adjudicator.rulesets import BoardResource, Codec, Engine, Ruleset, View
from adjudicator.rulesets.mare_nostrum import presentation
from adjudicator.rulesets.mare_nostrum.board import Board, parse_board
from adjudicator.rulesets.mare_nostrum.candidates import form_candidates
from adjudicator.rulesets.mare_nostrum.components import PLAYER_COUNTS
from adjudicator.rulesets.mare_nostrum.engine import (
    RENAMED_EVENT_FIELDS,
    TURN_PREFIX,
    due,
    new_position,
    phase_info,
    resolve_phase,
)
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.options import OPTIONS
from adjudicator.rulesets.mare_nostrum.orders import ORDER_PHASES, Order, TurnSequence
from adjudicator.rulesets.mare_nostrum.position import position_from_data, position_to_data
from adjudicator.rulesets.mare_nostrum.standings import standings
from adjudicator.rulesets.mare_nostrum.terms import place_names, terms
from adjudicator.rulesets.mare_nostrum.transformer import OrderTransformer
from adjudicator.rulesets.mare_nostrum.validate import validate_orders

MARE_NOSTRUM: Ruleset[Board, Position, Order] = Ruleset(
    name="mare-nostrum",
    aliases=("mn", "mare nostrum 2003", "marenostrum"),
    title="Mare Nostrum",
    grammar="mare_nostrum",
    rules="rules.md",
    board=BoardResource(__name__, "boards/mare-nostrum-2003.toml"),
    player_counts=PLAYER_COUNTS,
    turn_prefix=TURN_PREFIX,
    player_word="civilization",
    players_rule="R1",
    win_rule="R10",
    neutrals_rule="R2.3",
    renamed_event_fields=RENAMED_EVENT_FIELDS,
    engine=Engine(
        new_position=new_position, phase_info=phase_info, due=due, validate=validate_orders, resolve=resolve_phase
    ),
    codec=Codec(
        parse_board=parse_board,
        players=lambda board: tuple(board.civilizations),
        find_player=lambda board, text: board.civ_names.find(text),
        position_from_data=position_from_data,
        position_to_data=position_to_data,
        options=OPTIONS,
        order_types=(*ORDER_PHASES, TurnSequence),
        transformer=OrderTransformer,
    ),
    view=View(
        terms=terms,
        place_names=place_names,
        report_data=lambda board, state, names, _, maps: presentation.report_data(board, state, names, maps),
        form_candidates=form_candidates,
        standings=standings,
    ),
)
