"""A player's order form: the orders he could give next, each a whole line that is accepted
as it stands once he removes the `#` before it. The ruleset proposes; each proposal is parsed
and validated alone against the position, and only those accepted are offered. A player who
writes another language gets his form in it: the headers and orders with that language's
keywords (grammar/keywords.toml) and the cards and goods by that language's names (the
catalog's terms), each line checked to mean exactly what the English one means, so his form
pastes back as it is."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.i18n import SOURCE, t, term
from adjudicator.game.game import Game
from adjudicator.language.cleaning import Piece
from adjudicator.language.parser import written_in
from adjudicator.language.submission import OrderLine
from adjudicator.language.translation import canonical_keywords, end_word


@dataclass(frozen=True, slots=True)
class FormLine:
    order: str
    note: str


@dataclass(frozen=True, slots=True)
class OrderForm:
    """The form's header lines (game, power, password, phase) and the order lines below them."""

    head: tuple[str, ...]
    lines: tuple[FormLine, ...]
    password: str  # the header word the player writes his secret after, as the head has it
    end: str  # the line that closes the form (`koniec`), so that a signature below is never read

    def __iter__(self) -> Iterator[FormLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)


def order_form(game: Game, position: Any, civ: str, lang: str = SOURCE) -> OrderForm:
    names = _named_terms(game, lang)
    offered = []
    for number, (text, note) in enumerate(game.ruleset.form_candidates(game.board, position, civ), start=1):
        parsed = game.parser.parse_line(Piece(number, text))
        if not game.parser.is_order(parsed):
            continue  # a proposal the grammar refuses is a ruleset bug; the form stays usable without it
        line = OrderLine(number, text, order=parsed)
        checked = game.ruleset.validate(game.board, position, civ, [line], game.settings.options)
        if checked and checked[0].ok:
            named = _with_names(text, names, lang)  # the names first: a keyword elsewhere may be a name here
            if named != text and _means(game, position, civ, named, checked[0]):
                text = named
            offered.append(FormLine(written_in(game.parser, text, lang), note))
    head = _head(game, position, civ, lang)
    return OrderForm(head, tuple(offered), _keyword(game, "password", lang), end_word(lang))


def _head(game: Game, position: Any, civ: str, lang: str) -> tuple[str, ...]:
    secret = t("YOUR-SECRET").render(lang)
    label = game.ruleset.phase_info(position).label.render(lang)
    english = (f"game {game.settings.id}", f"power {civ}", f"password {secret}")
    return (*(written_in(game.parser, line, lang) for line in english), f"{_keyword(game, 'phase', lang)} {label}")


def _keyword(game: Game, keyword: str, lang: str) -> str:
    return canonical_keywords(game.parser.grammar, lang).get(keyword, keyword) if lang != SOURCE else keyword


NAMED_KINDS = ("card", "choice", "building", "title")  # the terms an order may name: cards, goods, buildings…


def _named_terms(game: Game, lang: str) -> dict[str, tuple[str, str]]:
    """Each English name an order may hold that is a term (a card, good, choice, building or
    title), in lower case -> its kind and name, for those the language writes otherwise."""
    if lang == SOURCE:
        return {}
    terms = game.ruleset.terms(game.board)
    return {
        name.lower(): (kind, name)
        for kind in NAMED_KINDS
        for name in terms.get(kind, ())
        if term(kind, name).render(lang) != name
    }


def _with_names(text: str, names: Mapping[str, tuple[str, str]], lang: str) -> str:
    """The order part of a line with each card written in lower case (as forms write them; a
    capitalised word is a board or player name) in the language, in the form its count asks for:
    `offre vin, 2 impôts`."""
    if not names:
        return text
    body, hash_sign, comment = text.partition("#")
    pattern = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))

    def named(match: re.Match[str]) -> str:
        count = int(match.group(1)) if match.group(1) else 1
        written = term(*names[match.group(3)], count).render(lang)
        return match.group(1) + match.group(2) + written if match.group(1) else written

    found = re.sub(rf"(?<![\w-])(?:(\d+)(\s+))?({pattern})(?![\w-])", named, body)
    return found + hash_sign + comment


def _means(game: Game, position: Any, civ: str, text: str, english: OrderLine[Any]) -> bool:
    """Whether a line, validated as the English one was, is that very order."""
    parsed = game.parser.parse_line(Piece(english.number, text))
    if not game.parser.is_order(parsed):
        return False
    line = OrderLine(english.number, text, order=parsed)
    checked = game.ruleset.validate(game.board, position, civ, [line], game.settings.options)
    return bool(checked) and checked[0].ok and checked[0].order == english.order
