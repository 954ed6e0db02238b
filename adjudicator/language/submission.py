"""A whole submission read: every line with its order or its problem, the headers gathered
(game, power, password, phase), the requests, and what was set aside; the number of pieces and
of explained errors bounded, so a stranger's mail costs milliseconds, not minutes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, get_args

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.i18n import t
from adjudicator.core.limits import EXPLAINED_ERRORS, ORDER_PIECES
from adjudicator.core.passwords import MASK, redact_passwords
from adjudicator.language.cleaning import Piece, SetAside, split_pieces
from adjudicator.language.headers import (
    GameHeader,
    Header,
    NoOrdersHeader,
    PasswordHeader,
    PhaseHeader,
    PowerHeader,
    Request,
    is_header_piece,
)
from adjudicator.language.parser import OrderParser
from adjudicator.language.problems import OrderSyntaxError, Problem

OrderT = TypeVar("OrderT")


@dataclass(frozen=True, slots=True)
class OrderLine(Generic[OrderT]):
    """An order line's fate: the order it became, or the problem that stopped it. An accepted
    line may carry a note for the receipt: what else must happen first for it to work."""

    number: int
    text: str
    order: OrderT | None = None
    problem: Problem | None = None
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.problem is None


@dataclass(frozen=True, slots=True)
class Submission(Generic[OrderT]):
    game: str | None = None
    power: str | None = None
    password: str | None = None
    phase: PhaseHeader | None = None
    lines: tuple[OrderLine[OrderT], ...] = ()
    set_aside: tuple[SetAside, ...] = ()
    header_problems: tuple[OrderLine[OrderT], ...] = field(default=())
    no_orders: bool = False
    requests: tuple[Request, ...] = ()


_HEADERS = get_args(Header)  # the header types, as a tuple for a quick isinstance


class TooManyOrders(AdjudicatorError):
    """A text of more order pieces than any phase needs (limits.ORDER_PIECES): none is read."""


def parse_submission(text: str, parser: OrderParser[OrderT], *, headers_only: bool = False) -> Submission[OrderT]:
    """Every line of a submission, with headers gathered and problems kept per line. A text of
    more than ORDER_PIECES pieces raises TooManyOrders before any is parsed, and syntax errors
    past EXPLAINED_ERRORS are not explained: a stranger's mail costs milliseconds, not minutes.
    headers_only: only the header lines are read (who sends, with which password), as a mail is
    before its sender is known; its orders wait until the password is right."""
    pieces, aside = split_pieces(text)
    if len(pieces) > ORDER_PIECES:
        raise TooManyOrders(
            t(
                "the text holds %(count)s orders; at most %(limit)s are read in one mail or post",
                count=len(pieces),
                limit=ORDER_PIECES,
            )
        )
    if headers_only:
        pieces = [piece for piece in pieces if is_header_piece(piece.text, parser.grammar)]
    headers: dict[type, Header] = {}
    lines: list[OrderLine[OrderT]] = []
    header_problems: list[OrderLine[OrderT]] = []
    requests: list[Request] = []
    errors = 0
    for piece in pieces:
        result = parser.parse_line(piece, explain=errors < EXPLAINED_ERRORS)
        wrong = isinstance(result, OrderSyntaxError)
        errors += wrong
        if isinstance(result, PasswordHeader):
            piece = Piece(piece.number, _masked(piece.text, result.secret))
        if wrong and errors <= EXPLAINED_ERRORS and parser.is_prose(piece.text):
            aside.append(SetAside(piece.number, redact_passwords(piece.text), "prose"))
        elif isinstance(result, OrderSyntaxError):
            lines.append(OrderLine(piece.number, piece.text, problem=result))
        elif isinstance(result, _HEADERS):
            if type(result) in headers and headers[type(result)] != result:
                header_problems.append(
                    OrderLine(
                        piece.number,
                        piece.text,
                        problem=OrderSyntaxError(
                            piece.number, 1, t("this header line contradicts an earlier one; keep only one")
                        ),
                    )
                )
            headers.setdefault(type(result), result)
            aside.append(SetAside(piece.number, piece.text, "header"))
        elif isinstance(result, Request):
            requests.append(Request(result.command, result.arguments, piece.number))
            aside.append(SetAside(piece.number, piece.text, "request"))
        elif parser.is_order(result):
            lines.append(OrderLine(piece.number, piece.text, order=_with_line(result, piece.number)))
        else:  # a grammar rule without a transformer method: a bug, never a dropped line
            raise TypeError(f"line {piece.number} parsed to {result!r}, which is neither order nor header")
    game = headers.get(GameHeader)
    power = headers.get(PowerHeader)
    password = headers.get(PasswordHeader)
    phase = headers.get(PhaseHeader)
    return Submission(
        game=game.game if isinstance(game, GameHeader) else None,
        power=power.power if isinstance(power, PowerHeader) else None,
        password=password.secret if isinstance(password, PasswordHeader) else None,
        phase=phase if isinstance(phase, PhaseHeader) else None,
        lines=tuple(lines),
        set_aside=tuple(sorted(aside, key=lambda s: s.number)),
        header_problems=tuple(header_problems),
        no_orders=NoOrdersHeader in headers,
        requests=tuple(requests),
    )


def _masked(text: str, secret: str) -> str:
    """A password line as echoed: the player's own word (`Hasło: ********`), or `password
    ********` when the secret might still show in it (a secret the word itself holds)."""
    masked = redact_passwords(text)
    return masked if set(secret) == {"*"} or secret not in masked else f"password {MASK}"


def _with_line(order: Any, number: int) -> Any:
    """The parser made this order a moment ago and nobody else holds it: setting its line in
    place is safe, and much cheaper than `dataclasses.replace` on a hot path."""
    object.__setattr__(order, "line", number)
    return order
