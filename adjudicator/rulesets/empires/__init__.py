"""Mare Nostrum: Empires (2016): docs/rules-empires.md E1-E11, declared as a `Ruleset` value.
Reading a position needs only the modules imported here; the engine, the order language and the
report views are named `later` and imported by the first command that uses them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.rulesets import BoardResource, Codec, Engine, Ruleset, View, later
from adjudicator.rulesets.empires.board import PLAYER_COUNTS, Board, parse_board
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.empires.options import OPTIONS
from adjudicator.rulesets.empires.phases import RENAMED_EVENT_FIELDS, TURN_PREFIX, due, phase_info
from adjudicator.rulesets.empires.position import position_from_data, position_to_data
from adjudicator.rulesets.empires.terms import place_names, terms
from adjudicator.rulesets.kit.palette import classic_colour
from adjudicator.rulesets.kit.players import no_neutrals

if TYPE_CHECKING:
    from adjudicator.rulesets.empires.orders import Order

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
        new_position=later(__name__, "engine", "new_position"),
        phase_info=phase_info,
        due=due,
        validate=later(__name__, "validate", "validate_orders"),
        resolve=later(__name__, "engine", "resolve_phase"),
    ),
    codec=Codec(
        parse_board=parse_board,
        players=lambda board: tuple(board.empires),
        find_player=lambda board, text: board.empire_names.find(text),
        position_from_data=no_neutrals(position_from_data, "empires", "E2.1"),
        position_to_data=position_to_data,
        options=OPTIONS,
        order_types=later(__name__, "orders", "order_types"),
        transformer=later(__name__, "transformer", "OrderTransformer"),
    ),
    view=View(
        terms=terms,
        place_names=place_names,
        report_data=later(__name__, "presentation", "report_data"),
        form_candidates=later(__name__, "candidates", "form_candidates"),
        standings=later(__name__, "standings", "standings"),
        colours=lambda board: {e.name: (e.colour, classic_colour(e.colour)) for e in board.empires.values()},
    ),
)
