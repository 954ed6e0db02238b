"""The Mare Nostrum (2003) ruleset: RULES.md R1-R10, declared as a `Ruleset` value. Reading a
position needs only the modules imported here; the engine, the order language and the report
views are named `later` and imported by the first command that uses them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.rulesets import BoardResource, Codec, Engine, Ruleset, View, later
from adjudicator.rulesets.kit.palette import classic_colour
from adjudicator.rulesets.mare_nostrum.board import Board, parse_board
from adjudicator.rulesets.mare_nostrum.components import PLAYER_COUNTS
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.options import OPTIONS
from adjudicator.rulesets.mare_nostrum.phases import RENAMED_EVENT_FIELDS, TURN_PREFIX, due, phase_info
from adjudicator.rulesets.mare_nostrum.position import position_from_data, position_to_data
from adjudicator.rulesets.mare_nostrum.terms import place_names, terms

if TYPE_CHECKING:
    from adjudicator.rulesets.mare_nostrum.orders import Order

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
        new_position=later(__name__, "engine", "new_position"),
        phase_info=phase_info,
        due=due,
        validate=later(__name__, "validate", "validate_orders"),
        resolve=later(__name__, "engine", "resolve_phase"),
    ),
    codec=Codec(
        parse_board=parse_board,
        players=lambda board: tuple(board.civilizations),
        find_player=lambda board, text: board.civ_names.find(text),
        position_from_data=position_from_data,
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
        colours=lambda board: {c.name: (c.colour, classic_colour(c.colour)) for c in board.civilizations.values()},
    ),
)
