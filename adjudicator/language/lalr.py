"""A Lark LALR parser's decisions as plain data, and a small loop that reads a line with them.

Lark's own loop is general (interactive parsing, positions over many lines, error recovery,
wrappers around every transformer call) and reads about 10,000 order lines a second; this one
does what the order language needs and no more, about three times faster (issue 31), and its
tables load from the cache folder in a millisecond where Lark takes 35 ms to rebuild itself.
It reads a line exactly as Lark does: the same terminals tried in the same order in each
parser state (Lark's contextual lexer), keywords told from words as Lark tells them, the same
shifts and reductions, and the transformer's methods called with the same arguments, tokens
included (`Token`, with the same positions). It only says whether a line parses: the why of
a line that does not is for Lark (`OrderParser` builds it when one comes), and so is anything
else out of the ordinary: a line of several lines, or a transformer method that raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from lark import Lark, Token, Transformer
from lark.lexer import BasicLexer, ContextualLexer, PatternStr, UnlessCallback
from lark.parsers.lalr_analysis import Shift
from lark.tree import Tree
from lark.visitors import Transformer_InPlace, _vargs_inline

MISS: Final = object()  # the line does not parse: Lark would raise UnexpectedInput on it
RETRY: Final = object()  # out of the ordinary: Lark reads it, and says what it says

# Plain data only (dicts, tuples, strings, ints, bools), so that it pickles without naming a
# class: the cache file is read with an unpickler that refuses every class (compiled.py).
Tables = dict[str, Any]

_Patterns = tuple[tuple[str, int], ...]


def tables_of(lark: Lark) -> Tables | None:
    """What `QuickParser` needs of a Lark LALR parser; None when it was built with an option
    the quick loop does not follow (then every line is Lark's)."""
    options = lark.options
    if (
        options.parser != "lalr"
        or options.lexer != "contextual"
        or options.postlex is not None
        or options.lexer_callbacks
        or options.propagate_positions
        or options.maybe_placeholders
        or options.tree_class is not None
        or options.use_bytes
        or options.regex
        or options._plugins
        or list(options.start) != ["start"]
    ):
        return None
    frontend: Any = lark.parser
    lexer = frontend.lexer
    if type(lexer) is not ContextualLexer or not hasattr(frontend.parser, "_parse_table"):
        return None
    table = frontend.parser._parse_table
    rules: list[tuple[str, str, bool, int, tuple[tuple[int, bool], ...]]] = []
    rule_index: dict[int, int] = {}
    actions: dict[int, dict[str, int]] = {}
    for state, row in table.states.items():
        codes: dict[str, int] = {}
        for name, (action, arg) in row.items():
            if action is Shift:
                codes[str(name)] = int(arg)
                continue
            if id(arg) not in rule_index:
                rule_index[id(arg)] = len(rules)
                rules.append(_rule_shape(arg))
            codes[str(name)] = ~rule_index[id(arg)]
        actions[int(state)] = codes
    lexers: list[tuple[_Patterns, tuple[str, ...], dict[str, _Patterns]]] = []
    lexer_index: dict[int, int] = {}
    lexer_of: dict[int, int] = {}
    for state, basic in lexer.lexers.items():
        if id(basic) not in lexer_index:
            shape = _lexer_shape(basic)
            if shape is None:
                return None
            lexer_index[id(basic)] = len(lexers)
            lexers.append(shape)
        lexer_of[int(state)] = lexer_index[id(basic)]
    return {
        "start": int(table.start_states["start"]),
        "end": int(table.end_states["start"]),
        "actions": actions,
        "rules": tuple(rules),
        "lexer_of": lexer_of,
        "lexers": tuple(lexers),
        "terminals": tuple(str(terminal.name) for terminal in lark.terminals),
    }


def _rule_shape(rule: Any) -> tuple[str, str, bool, int, tuple[tuple[int, bool], ...]]:
    """A rule as Lark's parse tree builder shapes its callback (parse_tree_builder.py, LALR
    without placeholders): the name of the transformer method, whether a lone child stands
    for the rule (`?rule`), how many values it takes off the stack, and which of them it keeps
    (anonymous keywords go), each with whether it is an inlined `_rule` to be spread."""
    options = rule.options
    keep = options.keep_all_tokens
    include = tuple(
        (index, not symbol.is_term and symbol.name.startswith("_"))
        for index, symbol in enumerate(rule.expansion)
        if keep or not (symbol.is_term and symbol.filter_out)
    )
    name = rule.alias or options.template_source or rule.origin.name
    return str(rule.origin.name), str(name), bool(options.expand1 and not rule.alias), len(rule.expansion), include


def _lexer_shape(basic: Any) -> tuple[_Patterns, tuple[str, ...], dict[str, _Patterns]] | None:
    """One state's lexer: its patterns in the order Lark tries them, what it ignores, and for
    a pattern that may match a keyword (`WORD` on "move") the keyword patterns that then win."""
    if type(basic) is not BasicLexer:
        return None
    scanner = basic.scanner  # building the scanner sets basic.callback
    unless: dict[str, _Patterns] = {}
    for name, callback in basic.callback.items():
        if type(callback) is not UnlessCallback:
            return None
        unless[str(name)] = _patterns(callback.scanner)
    return _patterns(scanner), tuple(sorted(str(name) for name in basic.ignore_types)), unless


def _patterns(scanner: Any) -> _Patterns:
    return tuple((str(mre.pattern), int(mre.flags)) for mre in scanner._mres)


class _Spread(list[Any]):
    """What a `_rule` without a method of its own makes: its values, which the rule that
    holds it spreads among its own (where Lark builds a Tree only to take its children)."""


Callback = Callable[[list[Any]], Any]


class QuickParser:
    """Reads a line with the tables of `tables_of` and a transformer, as Lark would."""

    def __init__(self, tables: Tables, transformer: Transformer[Token, Any]) -> None:
        self._start: int = tables["start"]
        self._end: int = tables["end"]
        self._actions: dict[int, dict[str, int]] = tables["actions"]
        self._lexer_of: dict[int, int] = tables["lexer_of"]
        self._lexer_shapes: tuple[tuple[_Patterns, tuple[str, ...], dict[str, _Patterns]], ...] = tables["lexers"]
        self._lexers: dict[int, tuple[tuple[re.Pattern[str], ...], frozenset[str], dict[str, Any]]] = {}
        self._rules: list[tuple[int, str, Callback]] = [
            (size, origin, _callback(transformer, name, expand1, size, include))
            for origin, name, expand1, size, include in tables["rules"]
        ]
        self._on_token: dict[str, Callable[[Token], Any]] = {}
        for terminal in tables["terminals"]:  # lark.parser_frontends._get_lexer_callbacks
            method = getattr(transformer, terminal, None)
            if method is not None:
                self._on_token[terminal] = method

    @staticmethod
    def supports(transformer: Transformer[Token, Any]) -> bool:
        """Whether the loop calls this transformer's methods as Lark does: methods that take
        their children as arguments (`v_args(inline=True)`) or as one list, not in place."""
        return not isinstance(transformer, Transformer_InPlace) and all(
            getattr(getattr(transformer, name, None), "visit_wrapper", _vargs_inline) is _vargs_inline
            for name in dir(transformer)
            if not name.startswith("__")
        )

    def _lexer(self, state: int) -> tuple[tuple[re.Pattern[str], ...], frozenset[str], dict[str, Any]]:
        """A state's lexer, its patterns compiled the first time a line reaches that state."""
        found = self._lexers.get(state)
        if found is None:
            patterns, ignore, unless = self._lexer_shapes[self._lexer_of[state]]
            found = (
                tuple(re.compile(pattern, flags) for pattern, flags in patterns),
                frozenset(ignore),
                {name: tuple(re.compile(p, f) for p, f in keywords) for name, keywords in unless.items()},
            )
            self._lexers[state] = found
        return found

    def parse(self, text: str) -> Any:
        """The transformer's value for the line; MISS when it does not parse, RETRY when Lark
        must read it (more than one line, a method that raised)."""
        if "\n" in text:  # Lark counts lines and columns across them: its job
            return RETRY
        try:
            return self._parse(text)
        except Exception:  # a transformer method raised: Lark raises it its own way
            return RETRY

    def _parse(self, text: str) -> Any:
        actions = self._actions
        rules = self._rules
        on_token = self._on_token
        lexers = self._lexers
        new_token = _new_token
        states = [self._start]
        values: list[Any] = []
        position = 0
        length = len(text)
        while True:
            state = states[-1]
            lexer = lexers.get(state) or self._lexer(state)
            patterns, ignore, unless = lexer
            token: Token | None = None
            kind = "$END"
            while position < length:  # lark.lexer.BasicLexer.next_token
                for pattern in patterns:
                    match = pattern.match(text, position, length)
                    if match:
                        break
                else:
                    return MISS
                kind = match.lastgroup  # type: ignore[assignment]  # every alternative is a named group
                stop = match.end()
                if kind in ignore:
                    position = stop
                    kind = "$END"
                    continue
                value = match.group(0)
                if kind in unless:  # lark.lexer.UnlessCallback: a keyword that a word pattern matched
                    for keyword in unless[kind]:
                        whole = keyword.fullmatch(value)
                        if whole:
                            kind = whole.lastgroup
                            break
                token = new_token(kind, value, position, 1, position + 1, 1, stop + 1, stop)
                position = stop
                break
            while True:  # lark.parsers.lalr_parser_state.ParserState.feed_token
                code = actions[states[-1]].get(kind)
                if code is None:
                    return MISS
                if code >= 0:
                    if token is None:  # Lark never shifts the end: it would fail an assertion
                        return RETRY
                    states.append(code)
                    values.append(on_token[kind](token) if kind in on_token else token)
                    break
                size, origin, callback = rules[~code]
                if size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                else:
                    children = []
                value = callback(children)
                goto = actions[states[-1]][origin]
                states.append(goto)
                values.append(value)
                if token is None and goto == self._end:
                    return value


def _new_token(
    kind: str, value: str, start: int, line: int, column: int, end_line: int, end_column: int, end: int
) -> Token:
    return Token(kind, value, start, line, column, end_line, end_column, end)


_new_token = getattr(Token, "_future_new", _new_token)  # Token() without its deprecated-argument check  # noqa: F811


def _callback(
    transformer: Transformer[Token, Any], name: str, expand1: bool, size: int, include: tuple[tuple[int, bool], ...]
) -> Callback:
    """A rule's callback as Lark's ParseTreeBuilder.create_callback makes it, without its
    layers of wrappers: keep the wanted values, spread the inlined ones, and call the method
    with them (inline), or with their list; without a method, a Tree of them."""
    method = getattr(transformer, name, None)
    if method is None:
        default = getattr(transformer, "__default__", None)
        if name.startswith("_") and getattr(type(transformer), "__default__", None) is Transformer.__default__:
            call: Callable[..., Any] = _Spread  # the holder spreads it at once: no Tree needed
            inline = False
        elif default is not None:

            def call(children: list[Any]) -> Any:
                return default(name, children, None)

            inline = False
        else:

            def call(children: list[Any]) -> Any:
                return Tree(name, children)

            inline = False
    else:
        inline = getattr(method, "visit_wrapper", None) is _vargs_inline
        call = getattr(method, "base_func", method) if inline else method
    spread = [index for index, inlined in include if inlined]
    kept = [index for index, _ in include]
    if not spread and kept == list(range(size)) and not expand1:
        return (lambda children: call(*children)) if inline else call
    if not spread and not expand1:
        if inline:
            return lambda children: call(*[children[index] for index in kept])
        return lambda children: call([children[index] for index in kept])

    def shaped(children: list[Any]) -> Any:
        values: list[Any] = []
        for index, inlined in include:
            if inlined:
                child = children[index]
                values.extend(child if type(child) is _Spread else child.children)
            else:
                values.append(children[index])
        if expand1 and len(values) == 1:
            return values[0]
        return call(*values) if inline else call(values)

    return shaped
