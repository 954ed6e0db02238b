"""A player's order form: the orders he could give next, each a whole line that is accepted
as it stands once he removes the `#` before it. The ruleset proposes; each proposal is parsed
and validated alone against the position, and only those accepted are offered. A player who
writes another language gets the orders with that language's keywords (grammar/keywords.toml),
each checked to mean exactly what the English line means, so his form pastes back as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.game import Game
from adjudicator.i18n import SOURCE
from adjudicator.orders import OrderLine, Piece, written_in


@dataclass(frozen=True, slots=True)
class FormLine:
    order: str
    note: str


def order_form(game: Game, position: Any, civ: str, lang: str = SOURCE) -> list[FormLine]:
    offered = []
    for number, (text, note) in enumerate(game.ruleset.form_candidates(game.board, position, civ), start=1):
        parsed = game.parser.parse_line(Piece(number, text))
        if not game.ruleset.is_order(parsed):
            continue  # a proposal the grammar refuses is a ruleset bug; the form stays usable without it
        checked = game.ruleset.validate(game.board, position, civ, [OrderLine(number, text, order=parsed)])
        if checked and checked[0].ok:
            offered.append(FormLine(written_in(game.parser, text, lang), note))
    return offered
