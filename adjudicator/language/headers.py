"""The header lines of a submission (`game`, `power`, `password`, `phase`, `no orders`), the
requests to the judge (`status`, `orders`, `help`, `rules`, `absence`, `resign`), and the pieces of
grammar/common.lark every ruleset's order rules share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from lark import Token, Transformer, v_args

from adjudicator.core.limits import ORDER_COUNT
from adjudicator.core.names import normalise
from adjudicator.core.passwords import secret_span
from adjudicator.language.cleaning import plain_text
from adjudicator.language.translation import WORD, keywords_of

OrderT = TypeVar("OrderT")


_TURN = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class GameHeader:
    game: str


@dataclass(frozen=True, slots=True)
class PowerHeader:
    power: str


@dataclass(frozen=True, slots=True)
class PasswordHeader:
    secret: str


@dataclass(frozen=True, slots=True)
class PhaseHeader:
    turn: int
    phase: str


@dataclass(frozen=True, slots=True)
class NoOrdersHeader:
    """`no orders`: the player means to send nothing, which is not the same as a mail that
    lost its orders on the way (an empty text is refused, so it never replaces real ones)."""


Header = GameHeader | PowerHeader | PasswordHeader | PhaseHeader | NoOrdersHeader


@dataclass(frozen=True, slots=True)
class Request:
    """A question or instruction to the judge (`status`, `orders`, `help`, `rules R6.4`,
    `absence FROM TO`, `absence cancel`, `resign`, `preview`): answered by return mail, never an order, so a mail
    holding only requests leaves the player's orders as they are."""

    command: str
    arguments: tuple[str, ...] = ()
    number: int = 0


def bounded_number(digits: str, cap: int = ORDER_COUNT) -> int:
    """A number as written, but never more than one past `cap`: the rules check refuses that
    line with its reason. A number of thousands of digits is never converted (Python refuses
    past 4,300 digits, and once that stopped every collect): past cap's length it is too large."""
    if len(digits.lstrip("0")) > len(str(cap)):
        return cap + 1
    return min(int(digits), cap + 1)


@v_args(inline=True)
class SharedPieces(Transformer[Token, OrderT]):
    """The pieces of grammar/common.lark every ruleset's order rules use (names, lists, counts);
    a ruleset's transformer inherits them."""

    def start(self, item: OrderT) -> OrderT:
        return item

    def name(self, *words: Token) -> str:
        return " ".join(words)  # a Token is a str: the same plain str as joining str(word)s

    def names(self, *names: str) -> tuple[str, ...]:
        return names

    def count(self, value: Token) -> int:
        return bounded_number(str(value))


@v_args(inline=True)
class HeaderTransformer(Transformer[Token, Header]):
    def game_header(self, game: Token) -> GameHeader:
        return GameHeader(str(game).lower())

    def power_header(self, power: str) -> PowerHeader:
        return PowerHeader(power)

    def password_header(self, secret: Token) -> PasswordHeader:
        return PasswordHeader(str(secret))

    def phase_header(self, turn: Token, phase: str) -> PhaseHeader:
        match = _TURN.search(str(turn))
        return PhaseHeader(bounded_number(match.group()) if match else 0, phase.lower())

    def no_orders_header(self) -> NoOrdersHeader:
        return NoOrdersHeader()

    def status_request(self) -> Request:
        return Request("status")

    def orders_request(self) -> Request:
        return Request("orders")

    def help_request(self) -> Request:
        return Request("help")

    def rules_request(self, number: Token | None = None) -> Request:
        return Request("rules", (str(number).upper(),) if number is not None else ())

    def absence_request(self, start: Token, end: Token | None = None) -> Request:
        return Request("absence", (str(start).upper(), str(end if end is not None else start).upper()))

    def absence_cancel_request(self) -> Request:
        return Request("absence-cancel")

    def resign_request(self) -> Request:
        return Request("resign")

    def preview_request(self) -> Request:
        return Request("preview")


HEADER_KEYWORDS = frozenset({"game", "power", "civ", "civilization", "nation", "phase", "no"})


def is_header_piece(text: str, grammar: str) -> bool:
    """Whether a piece may be a header line (`game`, `power`, `password`, `phase`, `no orders`),
    judged on its first word in any language: what `parse_submission(headers_only=True)` reads."""
    if secret_span(text) is not None:
        return True
    first = WORD.search(text)  # a password line, "mot de passe" too, is secret_span's
    if first is None:
        return False
    word = normalise(first.group(1))
    return word in HEADER_KEYWORDS or keywords_of(grammar).get(word) in HEADER_KEYWORDS


def is_header_line(text: str) -> bool:
    """Whether a line of a covering note is a header in any language and any game (`power`,
    `Hasło: …`, `mot de passe …`, `gra …`): what a mail's body keeps when its orders come
    in an attachment (issue 29: a Polish password there was lost)."""
    return is_header_piece(plain_text(text).strip(), "common")
