"""Mare Mediterraneum (Jean du Poël, 1989): docs/rules-mediterraneum.md M1-M12, declared as a
`Ruleset` value. A sequential money game: every phase is one player's turn (or an auction that a
card opened), so only the player to move is waited for, in either mode. Reading a position needs
only the modules imported here; the rest is named `later` and imported when first used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.rulesets import BoardResource, Codec, Engine, Ruleset, View, later
from adjudicator.rulesets.mediterraneum.board import PLAYER_COUNTS, Board, parse_board
from adjudicator.rulesets.mediterraneum.model import Position
from adjudicator.rulesets.mediterraneum.options import OPTIONS
from adjudicator.rulesets.mediterraneum.phases import TURN_PREFIX, due, phase_info
from adjudicator.rulesets.mediterraneum.position import given_position, position_to_data
from adjudicator.rulesets.mediterraneum.terms import place_names, terms

if TYPE_CHECKING:
    from adjudicator.rulesets.mediterraneum.orders import Order

_RESOLVE = later(__name__, "engine", "resolve_phase")  # stepwise or not, a phase is one player's turn

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
        new_position=later(__name__, "setup", "new_position"),
        phase_info=phase_info,
        due=due,
        validate=later(__name__, "validate", "validate_orders"),
        resolve=lambda board, position, orders, dice, _, options: _RESOLVE(board, position, orders, dice, options),
    ),
    codec=Codec(
        parse_board=parse_board,
        players=lambda board: tuple(board.colours),
        find_player=lambda board, text: board.colour_names.find(text),
        position_from_data=given_position,
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
        colours=lambda board: {c.name: (c.id, c.css) for c in board.colours.values()},
    ),
)
