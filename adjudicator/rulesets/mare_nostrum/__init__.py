"""The Mare Nostrum (2003) ruleset: RULES.md R1-R10 behind the `Ruleset` protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lark import Token, Transformer

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event
from adjudicator.core.names import Match
from adjudicator.language.reading import OrderLine
from adjudicator.rulesets import BoardResource, PhaseInfo, Standing
from adjudicator.rulesets.mare_nostrum.board import Board, parse_board
from adjudicator.rulesets.mare_nostrum.candidates import form_candidates
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, PLAYER_COUNTS, Civ, Phase
from adjudicator.rulesets.mare_nostrum.engine import LEADER, resolve_phase
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.options import parse_options
from adjudicator.rulesets.mare_nostrum.orders import ORDER_PHASES, Order, TurnSequence
from adjudicator.rulesets.mare_nostrum.position import position_from_data, position_to_data
from adjudicator.rulesets.mare_nostrum.presentation import report_data
from adjudicator.rulesets.mare_nostrum.setup import advanced_setup_position, basic_setup
from adjudicator.rulesets.mare_nostrum.standings import standings
from adjudicator.rulesets.mare_nostrum.transformer import OrderTransformer
from adjudicator.rulesets.mare_nostrum.validate import validate_orders


class MareNostrum:
    name = "mare-nostrum"
    aliases: tuple[str, ...] = ("mn", "mare nostrum 2003", "marenostrum")
    title = "Mare Nostrum"
    grammar = "mare_nostrum"
    rules = "rules.md"
    board = BoardResource(__name__, "boards/mare-nostrum-2003.toml")
    player_counts = PLAYER_COUNTS
    turn_prefix = "T"
    player_word = "civilization"
    players_rule = "R1"

    def parse_board(self, data: Mapping[str, Any]) -> Board:
        return parse_board(data)

    def find_civ(self, board: Board, text: str) -> Match[str]:
        return board.civ_names.find(text)

    def civilizations(self, board: Board) -> tuple[str, ...]:
        return tuple(board.civilizations)

    def terms(self, board: Board) -> dict[str, tuple[str, ...]]:
        return {"card": tuple(CARD_TOTALS), "choice": ("commodity", "any"), "phase": tuple(Phase)}  # choice: R5.3

    def report_data(
        self, board: Board, state: Mapping[str, Any], player_names: Mapping[str, str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        return report_data(board, state, player_names)

    def place_names(self, board: Board) -> dict[str, str]:
        return {
            **{p.id: p.name for p in board.provinces.values()},
            **{s.id: s.name for s in board.seas.values()},
        }

    def check_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return parse_options(data).to_data()

    def new_position(
        self, board: Board, civs: Sequence[str], dice: Dice, options: Mapping[str, Any]
    ) -> tuple[Position, list[Event]]:
        playing = [Civ(c) for c in civs]
        chosen = parse_options(options)
        if chosen.setup == "advanced":
            return advanced_setup_position(board, playing)
        return basic_setup(board, playing, dice, chosen.start_caravan)

    def position_from_data(
        self, board: Board, data: Mapping[str, Any], playing: Sequence[str] | None = None
    ) -> Position:
        return position_from_data(board, data, None if playing is None else [Civ(c) for c in playing])

    def position_to_data(self, position: Position) -> dict[str, Any]:
        return position_to_data(position)

    def phase_info(self, position: Position) -> PhaseInfo:
        return PhaseInfo(position.turn, str(position.phase), position.step, position.winner, self.turn_prefix)

    def playing(self, position: Position) -> tuple[str, ...]:
        return position.playing

    def due(self, position: Position, stepwise: bool) -> tuple[str, ...]:
        if not stepwise or position.phase not in LEADER:  # simultaneous phases: trade, setup
            return position.playing
        if position.step is not None:
            return (position.step,)
        leader = position.roles.get(LEADER[position.phase])
        return (leader,) if leader is not None else position.playing

    def transformer(self) -> Transformer[Token, Order]:
        return OrderTransformer()

    def is_order(self, value: object) -> bool:
        return type(value) in ORDER_PHASES or isinstance(value, TurnSequence)

    def validate(
        self,
        board: Board,
        position: Position,
        civ: str,
        lines: Sequence[OrderLine[Order]],
        options: Mapping[str, Any],
    ) -> list[OrderLine[Order]]:
        return validate_orders(board, position, Civ(civ), lines)

    def resolve(
        self,
        board: Board,
        position: Position,
        orders: Mapping[str, Sequence[Order]],
        dice: Dice,
        stepwise: bool,
        options: Mapping[str, Any],
    ) -> tuple[Position, list[Event]]:
        given = {Civ(c): o for c, o in orders.items()}
        return resolve_phase(board, position, given, dice, stepwise, parse_options(options))

    def order_text(self, order: Order) -> str:
        return order.to_text()

    def form_candidates(self, board: Board, position: Position, civ: str) -> list[tuple[str, str]]:
        return form_candidates(board, position, civ)

    def standings(self, board: Board, position: Position) -> list[Standing]:
        return standings(board, position)


MARE_NOSTRUM = MareNostrum()
