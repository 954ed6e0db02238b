"""Mare Nostrum: Empires (2016): docs/rules-empires.md E1-E11 behind the `Ruleset` protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lark import Token, Transformer

from adjudicator.core.dice import Dice
from adjudicator.core.errors import DataError
from adjudicator.core.events import Event
from adjudicator.core.names import Match
from adjudicator.language.reading import OrderLine
from adjudicator.rulesets import BoardResource, PhaseInfo, Standing
from adjudicator.rulesets.empires.board import PLAYER_COUNTS, Board, Title, parse_board
from adjudicator.rulesets.empires.candidates import form_candidates
from adjudicator.rulesets.empires.engine import due, resolve_phase
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import ORDER_PHASES, Order, TurnOrder
from adjudicator.rulesets.empires.position import position_from_data, position_to_data
from adjudicator.rulesets.empires.presentation import place_names, report_data
from adjudicator.rulesets.empires.setup import new_position
from adjudicator.rulesets.empires.standings import standings
from adjudicator.rulesets.empires.transformer import OrderTransformer
from adjudicator.rulesets.empires.validate import validate_orders


class Empires:
    name = "empires"
    aliases: tuple[str, ...] = ("empire", "mare nostrum empires", "mare nostrum: empires", "empires 2016", "mne")
    title = "Mare Nostrum: Empires"
    grammar = "empires"
    rules = "rules-empires.md"
    board = BoardResource(__name__, "boards/empires-2016.toml")
    player_counts: tuple[int, ...] = PLAYER_COUNTS
    turn_prefix = "R"
    player_word = "empire"
    players_rule = "E2.1"

    def parse_board(self, data: Mapping[str, Any]) -> Board:
        return parse_board(data)

    def find_civ(self, board: Board, text: str) -> Match[str]:
        return board.empire_names.find(text)

    def civilizations(self, board: Board) -> tuple[str, ...]:
        return tuple(board.empires)

    def terms(self, board: Board) -> dict[str, tuple[str, ...]]:
        # tax: E1.3; the choices a `take` line may name besides a token (E5.3)
        return {
            "card": ("tax", *board.commodities),
            "choice": ("good", "any"),
            "title": tuple(str(title) for title in Title),  # as a `title` line names it (E9.2)
            "phase": tuple(Phase),
        }

    def place_names(self, board: Board) -> dict[str, str]:
        return place_names(board)

    def report_data(
        self, board: Board, state: Mapping[str, Any], player_names: Mapping[str, str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        return report_data(board, state, player_names)

    def check_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        for key in data:
            raise DataError(f"options.{key}", "Empires has no options")
        return {}

    def new_position(
        self, board: Board, civs: Sequence[str], dice: Dice, options: Mapping[str, Any]
    ) -> tuple[Position, list[Event]]:
        return new_position(board, tuple(civs), dice)

    def position_from_data(
        self, board: Board, data: Mapping[str, Any], playing: Sequence[str] | None = None
    ) -> Position:
        position = position_from_data(board, data)
        if playing is not None and set(playing) != set(position.playing):
            raise DataError("players", f"the position's empires are {', '.join(position.playing)}; no neutrals (E2.1)")
        return position

    def position_to_data(self, position: Position) -> dict[str, Any]:
        return position_to_data(position)

    def phase_info(self, position: Position) -> PhaseInfo:
        return PhaseInfo(position.round, str(position.phase), position.step, position.winner, self.turn_prefix)

    def playing(self, position: Position) -> tuple[str, ...]:
        return position.playing

    def due(self, position: Position, stepwise: bool) -> tuple[str, ...]:
        return due(position, stepwise)

    def transformer(self) -> Transformer[Token, Order]:
        return OrderTransformer()

    def is_order(self, value: object) -> bool:
        return type(value) in ORDER_PHASES or isinstance(value, TurnOrder)

    def validate(
        self,
        board: Board,
        position: Position,
        civ: str,
        lines: Sequence[OrderLine[Order]],
        options: Mapping[str, Any],
    ) -> list[OrderLine[Order]]:
        return validate_orders(board, position, civ, lines)

    def resolve(
        self,
        board: Board,
        position: Position,
        orders: Mapping[str, Sequence[Order]],
        dice: Dice,
        stepwise: bool,
        options: Mapping[str, Any],
    ) -> tuple[Position, list[Event]]:
        return resolve_phase(board, position, orders, dice, stepwise)

    def order_text(self, order: Order) -> str:
        return order.to_text()

    def form_candidates(self, board: Board, position: Position, civ: str) -> list[tuple[str, str]]:
        return form_candidates(board, position, civ)

    def standings(self, board: Board, position: Position) -> list[Standing]:
        return standings(board, position)


EMPIRES = Empires()
