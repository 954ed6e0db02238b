"""Mare Mediterraneum (Jean du Poël, 1989): docs/rules-mediterraneum.md M1-M12, declared as a
`Ruleset` value. A sequential money game: every phase is one player's turn (or an auction that a
card opened), so only the player to move is waited for, in either mode."""

from __future__ import annotations

from adjudicator.rulesets import BoardResource, Codec, Engine, Ruleset, View
from adjudicator.rulesets.mediterraneum.board import PLAYER_COUNTS, Board, parse_board
from adjudicator.rulesets.mediterraneum.candidates import form_candidates
from adjudicator.rulesets.mediterraneum.engine import TURN_PREFIX, due, phase_info, resolve_phase
from adjudicator.rulesets.mediterraneum.model import Position
from adjudicator.rulesets.mediterraneum.options import OPTIONS
from adjudicator.rulesets.mediterraneum.orders import ORDER_TYPES, Order
from adjudicator.rulesets.mediterraneum.position import position_to_data
from adjudicator.rulesets.mediterraneum.presentation import place_names, report_data
from adjudicator.rulesets.mediterraneum.setup import given_position, new_position
from adjudicator.rulesets.mediterraneum.standings import standings
from adjudicator.rulesets.mediterraneum.terms import terms
from adjudicator.rulesets.mediterraneum.transformer import OrderTransformer
from adjudicator.rulesets.mediterraneum.validate import validate_orders

MEDITERRANEUM: Ruleset[Board, Position, Order] = Ruleset(
    name="mediterraneum",
    aliases=("mare mediterraneum", "mare mediterraneum 1989", "mm", "mediterraneum 1989"),
    title="Mare Mediterraneum",
    grammar="mediterraneum",
    rules="rules-mediterraneum.md",
    board=BoardResource(__name__, "boards/mediterraneum-1989.toml"),
    player_counts=PLAYER_COUNTS,
    turn_prefix=TURN_PREFIX,
    player_word="colour",
    players_rule="M1.1",
    win_rule="M12.2",
    neutrals_rule=None,
    engine=Engine(
        new_position=new_position,
        phase_info=phase_info,
        due=due,
        validate=validate_orders,
        resolve=lambda board, position, orders, dice, _, options: resolve_phase(board, position, orders, dice, options),
    ),
    codec=Codec(
        parse_board=parse_board,
        players=lambda board: tuple(board.colours),
        find_player=lambda board, text: board.colour_names.find(text),
        position_from_data=given_position,
        position_to_data=position_to_data,
        options=OPTIONS,
        order_types=tuple(ORDER_TYPES),
        transformer=OrderTransformer,
    ),
    view=View(
        terms=terms,
        place_names=place_names,
        report_data=report_data,
        form_candidates=form_candidates,
        standings=standings,
    ),
)
