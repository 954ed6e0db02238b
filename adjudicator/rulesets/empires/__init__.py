"""Mare Nostrum: Empires (2016): docs/rules-empires.md E1-E11, declared as a `Ruleset` value."""

from __future__ import annotations

from adjudicator.rulesets import BoardResource, Codec, Engine, Ruleset, View
from adjudicator.rulesets.empires import presentation, setup
from adjudicator.rulesets.empires.board import PLAYER_COUNTS, Board, parse_board
from adjudicator.rulesets.empires.candidates import form_candidates
from adjudicator.rulesets.empires.engine import RENAMED_EVENT_FIELDS, TURN_PREFIX, due, phase_info, resolve_phase
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.empires.options import OPTIONS
from adjudicator.rulesets.empires.orders import ORDER_PHASES, Order, TurnOrder
from adjudicator.rulesets.empires.position import position_from_data, position_to_data
from adjudicator.rulesets.empires.standings import standings
from adjudicator.rulesets.empires.terms import terms
from adjudicator.rulesets.empires.transformer import OrderTransformer
from adjudicator.rulesets.empires.validate import validate_orders
from adjudicator.rulesets.kit.players import no_neutrals

EMPIRES: Ruleset[Board, Position, Order] = Ruleset(
    name="empires",
    aliases=("empire", "mare nostrum empires", "mare nostrum: empires", "empires 2016", "mne"),
    title="Mare Nostrum: Empires",
    grammar="empires",
    rules="rules-empires.md",
    board=BoardResource(__name__, "boards/empires-2016.toml"),
    player_counts=PLAYER_COUNTS,
    turn_prefix=TURN_PREFIX,
    player_word="empire",
    players_rule="E2.1",
    win_rule="E10",
    neutrals_rule=None,
    renamed_event_fields=RENAMED_EVENT_FIELDS,
    engine=Engine(
        new_position=lambda board, empires, dice, _: setup.new_position(board, empires, dice),
        phase_info=phase_info,
        due=due,
        validate=validate_orders,
        resolve=resolve_phase,
    ),
    codec=Codec(
        parse_board=parse_board,
        players=lambda board: tuple(board.empires),
        find_player=lambda board, text: board.empire_names.find(text),
        position_from_data=no_neutrals(position_from_data, "empires", "E2.1"),
        position_to_data=position_to_data,
        options=OPTIONS,
        order_types=(*ORDER_PHASES, TurnOrder),
        transformer=OrderTransformer,
    ),
    view=View(
        terms=terms,
        place_names=presentation.place_names,
        report_data=lambda board, state, names, _, maps: presentation.report_data(board, state, names, maps),
        form_candidates=form_candidates,
        standings=standings,
    ),
)
