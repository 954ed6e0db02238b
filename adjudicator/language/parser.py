"""A ruleset's grammar, loaded once, that parses one order piece at a time; a piece that does
not parse in English is read again through the player's language's keywords, and a syntax error
names what was expected. Each piece is parsed on its own, so a bad line costs only itself."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Generic, TypeGuard, TypeVar

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.visitors import merge_transformers

from adjudicator.core.cache import shipped_toml
from adjudicator.core.i18n import SOURCE, Msg, t
from adjudicator.core.names import NameIndex, normalise
from adjudicator.core.passwords import secret_in
from adjudicator.core.resources import shipped_folder
from adjudicator.language.cleaning import Piece
from adjudicator.language.compiled import cache_paths, lark_parser, quick_parser
from adjudicator.language.headers import HeaderTransformer, PasswordHeader
from adjudicator.language.lalr import MISS, RETRY
from adjudicator.language.problems import OrderSyntaxError
from adjudicator.language.translation import WORD, canonical_keywords, in_english, in_keywords, keywords_of

OrderT = TypeVar("OrderT")


class OrderParser(Generic[OrderT]):
    """A ruleset's grammar, loaded once, that parses one order line at a time."""

    def __init__(
        self, grammar: str, transformer: Transformer[Token, OrderT], order_types: tuple[type[OrderT], ...]
    ) -> None:
        self.grammar = grammar
        self.order_types = order_types  # what the transformer makes of an order line, and nothing else does
        folder = shipped_folder("grammar")
        self._folder = folder
        self._transformer = merge_transformers(transformer, common=HeaderTransformer())
        # Compiled once per grammar version and kept in the user's cache folder (compiled.py):
        # a line that parses is read by the quick loop (lalr.py), and Lark's own parser is
        # built only when a line does not, to say why.
        tables, self._lark_cache = cache_paths(folder, grammar)
        self._quick = quick_parser(self._transformer, tables, lambda: self._lark)
        help_data = shipped_toml(folder / f"{grammar}.errors.toml")
        shared_forms = shipped_toml(folder / "common.forms.toml")["forms"]
        self.examples: dict[str, list[str]] = {e["label"]: e["examples"] for e in help_data["error"]}
        self._forms: Mapping[str, str] = {**shared_forms, **help_data["forms"]}
        self.order_forms: tuple[str, ...] = tuple(dict.fromkeys(help_data["forms"].values()))
        self.shared_forms: tuple[str, ...] = tuple(dict.fromkeys(shared_forms.values()))
        self._verbs: NameIndex[str] = NameIndex("order")
        for verb in self._forms:
            self._verbs.add(verb, verb)

    def is_order(self, value: object) -> TypeGuard[OrderT]:
        """Whether a parsed piece is an order of this grammar (not a header or a request)."""
        return isinstance(value, self.order_types)

    def parse_line(self, piece: Piece, *, explain: bool = True) -> Any:
        """The order or header a piece means; an `OrderSyntaxError` when it means nothing. A line
        that is not English is tried again with its keywords in English (`keywords.toml`): only
        then, so that a name holding such a word (a card "Świątynia Artemidy") is left alone.
        With explain=False a line that means nothing is only said to be an error: finding what
        is wrong with it costs a parse per example, too much past EXPLAINED_ERRORS of them."""
        secret = secret_in(piece.text)
        if secret is not None:  # the one reading of a password line, which masking shares
            return PasswordHeader(secret)
        quick = self._quick
        result = quick.parse(piece.text) if quick is not None else RETRY  # _read, without a call
        if result is RETRY:
            result = self._by_lark(piece.text)
        if result is not MISS:
            return result
        english = in_english(piece.text, keywords_of(self.grammar))
        if english != piece.text:
            result = self._read(english)
            if result is not MISS:
                return result
        if not explain:
            return OrderSyntaxError(piece.number, 1, t("not understood (fix the errors above first)"))
        return self._syntax_error(piece, english)

    def _read(self, text: str) -> Any:
        """What a line means, as Lark's parser reads it; MISS when it does not parse."""
        if self._quick is not None:
            result = self._quick.parse(text)
            if result is not RETRY:
                return result
        return self._by_lark(text)

    def _by_lark(self, text: str) -> Any:
        try:
            return self._lark.parse(text)
        except UnexpectedInput:
            return MISS

    @functools.cached_property
    def _lark(self) -> Lark:
        """Lark's parser of the grammar, built the first time a line does not parse (or when
        the quick loop cannot be used): from the cache folder when it was built before."""
        return lark_parser(self._folder, self.grammar, self._transformer, self._lark_cache)

    def is_prose(self, text: str) -> bool:
        """Whether a line that is no order is the player's prose around his orders (`Hi GM,`,
        `Cheers,`, `Anna`, `here are my orders`): its first word is no keyword of the order
        language in any language, and it is not one slip of the keyboard from a word that starts
        an order (`bulid` for `build` stays an error the player is shown) unless it ends as a
        sentence does, with a comma, a colon or an exclamation mark (`Hola,`)."""
        words = WORD.findall(text)
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

    def _syntax_error(self, piece: Piece, english: str) -> Any:
        """What is wrong with a line; `english` is the line with its keywords in English. A line
        that starts with no order's word ("Cheers, Anna", "bulid") is told so without Lark's
        parser, which is built only for a line that goes wrong after its order's word."""
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
        try:  # Lark's parser says where the line goes wrong, and which example it is like
            return self._lark.parse(piece.text)  # (it does not parse: the quick reader said so)
        except UnexpectedInput as error:
            column = getattr(error, "column", 0) or 0
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
