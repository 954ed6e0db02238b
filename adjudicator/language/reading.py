"""The order front end: raw text -> one result per order line, with its line number.

Mail and forum text is cut into lines first: invisible characters (zero-width spaces, byte
order marks, soft hyphens) go and typographic spaces, dashes and quotes become the plain ones
(`plain_text`), quoted lines (`>`) and comments (`#`) are set aside, `;` splits a line into
several orders, and a line `end` (pl `koniec`, hu `vége`, fr and es `fin`) or `--` ends the
orders (a signature follows). Each piece is parsed on its own by the ruleset's Lark grammar, so
a bad line costs only itself.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from lark import Lark, Token, Transformer, UnexpectedInput, v_args
from lark.visitors import merge_transformers

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.i18n import SOURCE, Msg, t
from adjudicator.core.keywords import keyword_table, words_for
from adjudicator.core.limits import EXPLAINED_ERRORS, ORDER_COUNT, ORDER_PIECES
from adjudicator.core.names import INVISIBLE, NameIndex, normalise
from adjudicator.core.passwords import MASK, redact_passwords, secret_in, secret_span
from adjudicator.core.resources import shipped_folder
from adjudicator.language.problems import OrderSyntaxError, Problem

OrderT = TypeVar("OrderT")

# How people mark a list in a mail or a post: `- offer wine`, `* take gold`, `• take any`,
# `1. offer oil`, `2) take tax`; and Markdown's emphasis, `**take gold**`. They frame an order
# and are not part of it (issue 29).
_LIST_MARKER = re.compile(r"^(?:[-*+\u2022\u00b7\u2023\u25e6\u25aa\u25cf]|\d{1,3}[.)])\s+")
_EMPHASIS = re.compile(r"(\*\*|__|\*)(?=\S)(.+?)(?<=\S)\1")
_TURN = re.compile(r"\d+")


@functools.cache
def _stop_line() -> re.Pattern[str]:
    """A line that ends the orders (a signature follows): `end` in any language of
    keywords.toml's [end], with or without a full stop, or a dash rule."""
    words = "|".join(re.escape(word) for word in words_for("end"))
    return re.compile(r"^\s*((?:" + words + r")\.?|--\s*|__+)\s*$", re.IGNORECASE)


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
    `absence FROM TO`, `absence cancel`): answered by return mail, never an order, so a mail
    holding only requests leaves the player's orders as they are."""

    command: str
    arguments: tuple[str, ...] = ()
    number: int = 0


@dataclass(frozen=True, slots=True)
class Piece:
    """One order's text and where it stands in the submission."""

    number: int
    text: str


@dataclass(frozen=True, slots=True)
class SetAside:
    """A line that carries no order, and why (quoted mail, comment, after `end`)."""

    number: int
    text: str
    reason: str


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


def split_pieces(text: str) -> tuple[list[Piece], list[SetAside]]:
    """Cut text into order pieces; every other line is kept with the reason it was skipped
    (a password on it masked: a set-aside line is echoed and stored, never parsed)."""
    pieces: list[Piece] = []
    aside: list[SetAside] = []
    lines = plain_text(text).splitlines()
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if _stop_line().match(stripped):
            aside.extend(
                SetAside(n, redact_passwords(t), "after the end of the orders")
                for n, t in enumerate(lines[number:], start=number + 1)
                if t.strip()
            )
            aside.append(SetAside(number, raw, "end of the orders"))
            break
        if stripped.startswith(">"):
            aside.append(SetAside(number, redact_passwords(raw), "quoted text"))
            continue
        body, hash_sign, _comment = unmarked(stripped).partition("#")
        if hash_sign and not body.strip():
            aside.append(SetAside(number, redact_passwords(raw), "comment"))
            continue
        for part in body.split(";"):
            if part.strip():
                pieces.append(Piece(number, _unquoted(part.strip())))
    aside.sort(key=lambda s: s.number)
    return pieces, aside


def unmarked(line: str) -> str:
    """A line without the list marker before it and the emphasis around its words."""
    line = _LIST_MARKER.sub("", line, count=1)
    return _EMPHASIS.sub(r"\2", line) if "*" in line or "__" in line else line


def end_of_orders(text: str) -> str:
    """The text before its first `end` or `--` line (the one that ends the orders), whole when
    it has none: what a mail's body holds before its signature."""
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if _stop_line().match(plain_text(line).strip()):
            return "".join(lines[:number])
    return text


# What a keyboard, a phone or a web page puts in text that a player did not mean: invisible
# characters are dropped, and typographic spaces, dashes and quotes become the plain ones (a
# phone's em dash is its `--`). Nothing to do for ASCII text; otherwise one regex pass that
# stops only at those characters (faster than `str.translate` with a mapping).
_PLAIN: dict[str, str] = {
    **dict.fromkeys(INVISIBLE, ""),
    **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " "),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d", "-"),
    **dict.fromkeys("\u2014\u2015", "--"),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
}
_NOT_PLAIN = re.compile("[" + "".join(_PLAIN) + "]")
_QUOTE_MARK = re.compile(r"\"|(?<!\w)'|'(?!\w)")


def plain_text(text: str) -> str:
    """The text without invisible characters, with plain spaces, dashes and quotes."""
    return text if text.isascii() else _NOT_PLAIN.sub(lambda match: _PLAIN[match.group()], text)


def _unquoted(piece: str) -> str:
    """Quotes around a name (`take gold from "Rome"`) go; an apostrophe inside a word stays,
    and so does every character of a password."""
    if ('"' not in piece and "'" not in piece) or secret_span(piece) is not None:
        return piece
    return " ".join(_QUOTE_MARK.sub("", piece).split())


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
        return " ".join(str(w) for w in words)

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


class OrderParser(Generic[OrderT]):
    """A ruleset's grammar, loaded once, that parses one order line at a time."""

    def __init__(self, grammar: str, transformer: Transformer[Token, OrderT]) -> None:
        folder = shipped_folder("grammar")
        # The transformer runs inside the LALR parser (no tree is built) and no positions are
        # tracked: together they make parsing about 1.5 times faster (bench/run.py).
        self._lark = Lark(
            (folder / f"{grammar}.lark").read_text(encoding="utf-8"),
            parser="lalr",
            import_paths=[folder],
            maybe_placeholders=False,
            transformer=merge_transformers(transformer, common=HeaderTransformer()),
            cache=True,  # Lark keeps the LALR tables in the temp folder: each process starts faster
        )
        examples_file = folder / f"{grammar}.errors.toml"
        with examples_file.open("rb") as handle:
            help_data = tomllib.load(handle)
        with (folder / "common.forms.toml").open("rb") as handle:
            shared_forms = tomllib.load(handle)["forms"]
        self.examples: dict[str, list[str]] = {e["label"]: e["examples"] for e in help_data["error"]}
        self._forms: Mapping[str, str] = {**shared_forms, **help_data["forms"]}
        self.order_forms: tuple[str, ...] = tuple(dict.fromkeys(help_data["forms"].values()))
        self.shared_forms: tuple[str, ...] = tuple(dict.fromkeys(shared_forms.values()))
        self._verbs: NameIndex[str] = NameIndex("order")
        for verb in self._forms:
            self._verbs.add(verb, verb)
        self.grammar = grammar

    def parse_line(self, piece: Piece, *, explain: bool = True) -> Any:
        """The order or header a piece means; an `OrderSyntaxError` when it means nothing. A line
        that is not English is tried again with its keywords in English (`keywords.toml`): only
        then, so that a name holding such a word (a card "Świątynia Artemidy") is left alone.
        With explain=False a line that means nothing is only said to be an error: finding what
        is wrong with it costs a parse per example, too much past EXPLAINED_ERRORS of them."""
        secret = secret_in(piece.text)
        if secret is not None:  # the one reading of a password line, which masking shares
            return PasswordHeader(secret)
        try:
            return self._lark.parse(piece.text)
        except UnexpectedInput as error:
            english = in_english(piece.text, keywords_of(self.grammar))
            if english != piece.text:
                try:
                    return self._lark.parse(english)
                except UnexpectedInput:
                    pass
            if not explain:
                return OrderSyntaxError(piece.number, 1, t("not understood (fix the errors above first)"))
            return self._syntax_error(piece, error, english)

    def is_prose(self, text: str) -> bool:
        """Whether a line that is no order is the player's prose around his orders (`Hi GM,`,
        `Cheers,`, `Anna`, `here are my orders`): its first word is no keyword of the order
        language in any language, and it is not one slip of the keyboard from a word that starts
        an order (`bulid` for `build` stays an error the player is shown) unless it ends as a
        sentence does, with a comma, a colon or an exclamation mark (`Hola,`)."""
        words = _WORD.findall(text)
        if not words:
            return True  # `:)`, `!!!`
        first = normalise(words[0])
        if first in _every_keyword() or first.isdigit():  # `trade 5` in a game without trades: an error
            return False
        return text.rstrip().endswith((",", ":", "!")) or not any(_one_slip(first, verb) for verb in self._openers)

    @functools.cached_property
    def _openers(self) -> frozenset[str]:
        """The words that start a line, in every language (the orders', the headers', the requests'),
        of four letters or more: a slip in a shorter one is as likely another word."""
        words = keywords_of(self.grammar).items()
        return frozenset(word for word, english in words if english in self._forms and len(word) > 3)  # `dar` ~ `dear`

    def _syntax_error(self, piece: Piece, error: UnexpectedInput, english: str) -> OrderSyntaxError:
        """What is wrong with a line; `english` is the line with its keywords in English."""
        column = getattr(error, "column", 0) or 0
        written = piece.text.split()[0] if piece.text.split() else ""
        verb = keywords_of(self.grammar).get(normalise(written), written)  # "oferuj": the 'offer' order
        match = self._verbs.find(verb)
        if not match.keys:
            known = ", ".join(sorted(self._forms))
            if match.suggestions:
                return OrderSyntaxError(
                    piece.number,
                    1,
                    t(
                        "'%(verb)s' is not an order; did you mean '%(suggestion)s'? (a line starts with: %(known)s)",
                        verb=written,
                        suggestion=match.suggestions[0],
                        known=known,
                    ),
                )
            message = t("'%(verb)s' is not an order (a line starts with: %(known)s)", verb=written, known=known)
            return OrderSyntaxError(piece.number, 1, message)
        label = error.match_examples(
            self._lark.parse, self.examples, use_accepts=False
        )  # lark 1.3 crashes formatting a debug line with accepts
        if not label and english != piece.text:
            try:
                self._lark.parse(english)
            except UnexpectedInput as again:
                label = again.match_examples(self._lark.parse, self.examples, use_accepts=False)
        form = self._forms[match.keys[0]]
        problem = Msg(label) if label else t("this '%(verb)s' order is not understood", verb=written)
        return OrderSyntaxError(piece.number, column, problem, form)


@functools.cache
def _every_keyword() -> frozenset[str]:
    """The keywords of every game's order language, in every language."""
    grammars = [path.stem for path in shipped_folder("grammar").glob("*.lark") if path.stem != "common"]
    return frozenset(word for grammar in grammars for word in keywords_of(grammar))


def _one_slip(written: str, word: str) -> bool:
    """One letter wrong, missing, extra, or two neighbours swapped (Damerau distance 1)."""
    if written == word or abs(len(written) - len(word)) > 1:
        return written == word
    if len(written) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(written, word, strict=True)) if a != b]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and written[diff[0]] == word[diff[1]]
            and written[diff[1]] == word[diff[0]]
        )
    short, long = sorted((written, word), key=len)
    index = next((i for i, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return short[index:] == long[index + 1 :]


_LITERAL = re.compile(r'"([a-z]+)"i')
_WORD = re.compile(r"(\w+)")
PREFERRED = ("order",)  # a word two keys share in one language goes to this one (fr "ordre": order, sequence)


@functools.cache
def keywords_of(grammar: str) -> dict[str, str]:
    """A grammar's keywords in the other languages, read only when a line does not parse in
    English (so an English game never pays for them), then kept for the process."""
    return foreign_keywords(keyword_table(), _literals(grammar))


def end_word(lang: str) -> str:
    """The word that ends a language's orders (keywords.toml's [end]; `end` in English)."""
    return keyword_table().get("end", {}).get(lang, ["end"])[0] if lang != SOURCE else "end"


@functools.cache
def _literals(grammar: str) -> frozenset[str]:
    """The English keywords a grammar (with the common header rules) is written with."""
    folder = shipped_folder("grammar")
    literals = set(_LITERAL.findall((folder / f"{grammar}.lark").read_text(encoding="utf-8")))
    return frozenset(literals | set(_LITERAL.findall((folder / "common.lark").read_text(encoding="utf-8"))))


@functools.cache
def canonical_keywords(grammar: str, lang: str) -> dict[str, str]:
    """Each English keyword of a grammar as a language's players write it: the first word its
    table in keywords.toml gives that language (an order form is written with these). A keyword
    with no word in that language is not in the table, and stays English."""
    literals = _literals(grammar)
    return {
        keyword: words[lang][0] for keyword, words in keyword_table().items() if keyword in literals and words.get(lang)
    }


def foreign_keywords(table: Mapping[str, Mapping[str, list[str]]], literals: frozenset[str]) -> dict[str, str]:
    """Each word players of another language write for a keyword of this grammar, as the
    English keyword: normalised (case and diacritics away) as `names.normalise` does. A word
    two keywords claim is left out, unless one of them is preferred."""
    claims: dict[str, set[str]] = {}
    for keyword, languages in table.items():
        if keyword not in literals:
            continue
        for words in languages.values():
            for word in words:
                if normalise(word) not in literals:
                    claims.setdefault(normalise(word), set()).add(keyword)
    mapping = {literal: literal for literal in literals}  # an English keyword typed with accents: "légion"
    for word, keywords in claims.items():
        chosen = next((k for k in PREFERRED if k in keywords), None) if len(keywords) > 1 else next(iter(keywords))
        if chosen is not None:
            mapping[word] = chosen
    return mapping


_MOT_DE_PASSE = re.compile(r"^(\W*)mot[\s-]+de[\s-]+passe\b", re.IGNORECASE)
SECRET_HEADERS = frozenset({"password", "pass", "secret"})  # what follows these words is a secret, kept as typed


def in_english(text: str, keywords: Mapping[str, str]) -> str:
    """The line with every word that is a keyword in any language written as the English one,
    but a password header's secret and a phase header's phase as typed ("hasło rome-sekret" is
    not "rome-secret"; `PhaseInfo.is_named` reads a phase in any language). French
    players write the password header in three words, "mot de passe"."""
    text = _MOT_DE_PASSE.sub(r"\1motdepasse", text)
    first = _WORD.search(text)
    if first is not None and keywords.get(normalise(first.group(1))) in (*SECRET_HEADERS, "phase"):
        # a secret, or a phase named in the player's language (`fase R1 compra`, not `buy`), as typed
        return text[: first.start()] + keywords[normalise(first.group(1))] + text[first.end() :]
    return _WORD.sub(lambda m: keywords.get(normalise(m.group(1)), m.group(1)), text)


def in_keywords(text: str, keywords: Mapping[str, str]) -> str:
    """An English line with its keywords in another language (`canonical_keywords`). Only words
    written in lower case are keywords, and the first word however written (a header's
    "Game:"): board, card and player names start with a capital."""

    def word(match: re.Match[str]) -> str:
        found = match.group(1)
        if match.start() == 0 and found[:1].isupper() and found.lower() in keywords:
            return keywords[found.lower()].capitalize()
        return keywords.get(found, found)

    first = _WORD.match(text)
    if first is not None and first.group(1).lower() in SECRET_HEADERS:  # the secret stays as it is
        return word(first) + text[first.end() :]
    return _WORD.sub(word, text)


def written_in(parser: OrderParser[Any], line: str, lang: str) -> str:
    """A line of orders (orders, headers, requests; several cut by ';'; a comment after '#')
    with a language's keywords, each piece only if it then means the very same: else as it
    was, since English keywords are read in every language."""
    if lang == SOURCE:
        return line
    body, hash_sign, comment = line.partition("#")
    return ";".join(_piece_in(parser, part, lang) for part in body.split(";")) + hash_sign + comment


def _piece_in(parser: OrderParser[Any], part: str, lang: str) -> str:
    text = part.strip()
    foreign = in_keywords(text, canonical_keywords(parser.grammar, lang))
    if foreign == text:
        return part
    meant = parser.parse_line(Piece(1, text))
    if isinstance(meant, OrderSyntaxError) or parser.parse_line(Piece(1, foreign)) != meant:
        return part
    return part.replace(text, foreign, 1)


class TooManyOrders(AdjudicatorError):
    """A text of more order pieces than any phase needs (limits.ORDER_PIECES): none is read."""


HEADER_KEYWORDS = frozenset({"game", "power", "civ", "civilization", "nation", "phase", "no"})


def is_header_piece(text: str, grammar: str) -> bool:
    """Whether a piece may be a header line (`game`, `power`, `password`, `phase`, `no orders`),
    judged on its first word in any language: what `parse_submission(headers_only=True)` reads."""
    if secret_span(text) is not None:
        return True
    first = _WORD.search(text)  # a password line, "mot de passe" too, is secret_span's
    if first is None:
        return False
    word = normalise(first.group(1))
    return word in HEADER_KEYWORDS or keywords_of(grammar).get(word) in HEADER_KEYWORDS


def is_header_line(text: str) -> bool:
    """Whether a line of a covering note is a header in any language and any game (`power`,
    `Hasło: …`, `mot de passe …`, `gra …`): what a mail's body keeps when its orders come
    in an attachment (issue 29: a Polish password there was lost)."""
    return is_header_piece(plain_text(text).strip(), "common")


def parse_submission(
    text: str, parser: OrderParser[OrderT], is_order: Callable[[object], bool], *, headers_only: bool = False
) -> Submission[OrderT]:
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
        errors += isinstance(result, OrderSyntaxError)
        if isinstance(result, PasswordHeader):
            piece = Piece(piece.number, _masked(piece.text, result.secret))
        if isinstance(result, OrderSyntaxError) and errors <= EXPLAINED_ERRORS and parser.is_prose(piece.text):
            aside.append(SetAside(piece.number, redact_passwords(piece.text), "prose"))
        elif isinstance(result, OrderSyntaxError):
            lines.append(OrderLine(piece.number, piece.text, problem=result))
        elif isinstance(result, GameHeader | PowerHeader | PasswordHeader | PhaseHeader | NoOrdersHeader):
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
        elif is_order(result):
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
