"""Mare Mediterraneum (Jean du Poël, 1989): docs/rules-mediterraneum.md M1-M12 behind the
`Ruleset` protocol. A sequential money game: every phase is one player's turn (or an auction
that a card opened), so only the player to move is waited for, in either mode."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lark import Token, Transformer

from adjudicator.core.dice import Dice
from adjudicator.core.errors import DataError
from adjudicator.core.events import Event
from adjudicator.core.fields import Fields
from adjudicator.core.names import Match
from adjudicator.language.reading import OrderLine
from adjudicator.rulesets import BoardResource, PhaseInfo, Standing
from adjudicator.rulesets.mediterraneum.board import PLAYER_COUNTS, Board, parse_board
from adjudicator.rulesets.mediterraneum.candidates import form_candidates
from adjudicator.rulesets.mediterraneum.engine import due, resolve_phase
from adjudicator.rulesets.mediterraneum.model import Options, Phase, Position
from adjudicator.rulesets.mediterraneum.orders import ORDER_TYPES, WAREHOUSE, Order
from adjudicator.rulesets.mediterraneum.position import position_from_data, position_to_data
from adjudicator.rulesets.mediterraneum.presentation import place_names, report_data
from adjudicator.rulesets.mediterraneum.setup import new_position
from adjudicator.rulesets.mediterraneum.standings import standings
from adjudicator.rulesets.mediterraneum.transformer import OrderTransformer
from adjudicator.rulesets.mediterraneum.validate import validate_orders

# M12.4, each option's default and the values allowed: the goal set (T:137, T:139); 0 passes of
# the tax chart (play until someone wins) or the game of two passes (T:140); empty ships that
# sail two spaces (T:142).
OPTIONS = {
    "goals": ("standard", ("standard", "long", "short")),
    "tax_passes": ("0", ("0", "2")),
    "fast_empty_ships": ("false", ("true", "false")),
}


def options_of(data: Mapping[str, Any]) -> Options:
    """The game's options (M12.4) as the engine reads them, from `check_options`' table."""
    return Options(
        goals=str(data.get("goals", "standard")),
        tax_passes=int(data.get("tax_passes", 0)),
        fast_empty_ships=data.get("fast_empty_ships") is True,
    )


class Mediterraneum:
    name = "mediterraneum"
    aliases: tuple[str, ...] = ("mare mediterraneum", "mare mediterraneum 1989", "mm", "mediterraneum 1989")
    title = "Mare Mediterraneum"
    grammar = "mediterraneum"
    rules = "rules-mediterraneum.md"
    board = BoardResource(__name__, "boards/mediterraneum-1989.toml")
    player_counts: tuple[int, ...] = PLAYER_COUNTS
    turn_prefix = "T"
    player_word = "colour"
    players_rule = "M1.1"

    def parse_board(self, data: Mapping[str, Any]) -> Board:
        return parse_board(data)

    def find_civ(self, board: Board, text: str) -> Match[str]:
        return board.colour_names.find(text)

    def civilizations(self, board: Board) -> tuple[str, ...]:
        return tuple(board.colours)

    def terms(self, board: Board) -> dict[str, tuple[str, ...]]:
        return {
            "card": tuple(good.name for good in board.goods.values()),
            "building": (*(building.name for building in board.buildings.values()), WAREHOUSE),  # M7.1, M7.8
            "state": tuple(dict.fromkeys(state.name for state in board.states.values())),  # M5.4: 3 forms of state
            "phase": tuple(Phase),
        }

    def place_names(self, board: Board) -> dict[str, str]:
        return place_names(board)

    def report_data(
        self, board: Board, state: Mapping[str, Any], player_names: Mapping[str, str], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        return report_data(board, state, player_names, options_of(options))

    def check_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """From game.toml (typed) or `new --option KEY=VALUE` (text), every key checked."""
        f = Fields(data, "options")
        f.only(OPTIONS)
        for key, value in data.items():
            if isinstance(value, list):
                raise f.error(key, f"give {key} once (M12.4)")
        chosen = {key: str(data.get(key, default)).strip().lower() for key, (default, _) in OPTIONS.items()}
        for key, (_, allowed) in OPTIONS.items():
            if chosen[key] not in allowed:
                raise f.error(key, f"'{data[key]}' is not allowed; use {' or '.join(allowed)} (M12.4)")
        return {
            "goals": chosen["goals"],
            "tax_passes": int(chosen["tax_passes"]),
            "fast_empty_ships": chosen["fast_empty_ships"] == "true",
        }

    def new_position(
        self, board: Board, civs: Sequence[str], dice: Dice, options: Mapping[str, Any]
    ) -> tuple[Position, list[Event]]:
        return new_position(board, tuple(civs), dice, options_of(options))

    def position_from_data(
        self, board: Board, data: Mapping[str, Any], playing: Sequence[str] | None = None
    ) -> Position:
        """With `playing`, a position to start a game from (`new --position`): its players are the
        game's, and its decks hold cards, since a game whose decks are all empty is one the
        state file cannot keep (it leaves an empty table out)."""
        position = position_from_data(board, data)
        if playing is not None and set(playing) != set(position.playing):
            raise DataError("order", f"the position's players are {', '.join(position.playing)}; no neutrals (M1.1)")
        if playing is not None and not any(position_to_data(position)["decks"].values()):
            raise DataError(
                "decks",
                "every deck is empty; give the trade, art, patronage and State cards and the buildings' "
                "supply the game deals from (M1.7)",
            )
        return position

    def position_to_data(self, position: Position) -> dict[str, Any]:
        return position_to_data(position)

    def phase_info(self, position: Position) -> PhaseInfo:
        mover = position.step if position.phase is Phase.TURN else None  # in an auction everyone bids
        return PhaseInfo(position.turn, str(position.phase), mover, position.winner, self.turn_prefix)

    def playing(self, position: Position) -> tuple[str, ...]:
        return position.playing

    def due(self, position: Position, stepwise: bool) -> tuple[str, ...]:
        return due(position)

    def transformer(self) -> Transformer[Token, Order]:
        return OrderTransformer()

    def is_order(self, value: object) -> bool:
        return type(value) in ORDER_TYPES

    def validate(
        self,
        board: Board,
        position: Position,
        civ: str,
        lines: Sequence[OrderLine[Order]],
        options: Mapping[str, Any],
    ) -> list[OrderLine[Order]]:
        return validate_orders(board, position, civ, lines, options_of(options))

    def resolve(
        self,
        board: Board,
        position: Position,
        orders: Mapping[str, Sequence[Order]],
        dice: Dice,
        stepwise: bool,
        options: Mapping[str, Any],
    ) -> tuple[Position, list[Event]]:
        return resolve_phase(board, position, orders, dice, options_of(options))

    def order_text(self, order: Order) -> str:
        return order.to_text()

    def form_candidates(self, board: Board, position: Position, civ: str) -> list[tuple[str, str]]:
        return form_candidates(board, position, civ)

    def standings(self, board: Board, position: Position) -> list[Standing]:
        return standings(board, position)


MEDITERRANEUM = Mediterraneum()
