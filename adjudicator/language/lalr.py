"""A Lark LALR parser's decisions as plain data, and a small loop that reads a line with them.

Lark's own loop is general (interactive parsing, positions over many lines, error recovery,
layers of wrappers around every transformer call, every terminal of a state tried on every
character); this one does what the order language needs and no more, and reads order lines
about 2.5 times as fast (issue 31; bench/run.py's bench_parsing), and its tables load from the
cache folder (compiled.py) in about a millisecond, where Lark takes about 30 ms to load its own
cache of a grammar and 170 ms to compile one.
It reads a line exactly as Lark does: the same terminals tried in the same order in each
parser state (Lark's contextual lexer), keywords told from words as Lark tells them, the same
shifts and reductions, and the transformer's methods called with the same arguments, tokens
included (`Token`, with the same positions). It only says whether a line parses: the why of
a line that does not is for Lark (`OrderParser` builds it when one comes), and so is anything
else out of the ordinary: a line of several lines, or a transformer method that raises.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, overload

from lark import Lark, Token, Transformer
from lark.lexer import BasicLexer, ContextualLexer, UnlessCallback
from lark.parsers.lalr_analysis import Shift
from lark.tree import Tree
from lark.visitors import Transformer_InPlace, _vargs_inline

MISS: Final = object()  # the line does not parse: Lark would raise UnexpectedInput on it
RETRY: Final = object()  # out of the ordinary: Lark reads it, and says what it says

# Plain data only (dicts, tuples, strings, ints, bools; but for tables_of(whole=False), which
# are never kept), so that it pickles without naming a class: the cache file is read with an
# unpickler that refuses every class (compiled.py).
Tables = dict[str, Any]

_Patterns = tuple[tuple[str, int], ...]
# A lexer: its patterns, the terminals it ignores, the keywords a word may be, its terminals.
_LexerShape = tuple[_Patterns, tuple[str, ...], dict[str, _Patterns], tuple[tuple[str, str, str | None], ...]]


def tables_of(lark: Lark, *, whole: bool = True) -> Tables | None:
    """What `QuickParser` needs of a Lark LALR parser; None when it was built with an option
    the quick loop does not follow (then every line is Lark's). whole=False: each state's
    lexer is taken from Lark when a line first reaches it, not all of them now (70 ms): for a
    process that keeps no cache, and so reads only a few kinds of line with them."""
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
    kept: set[str] = set()  # the terminals some rule hands its method (a WORD, not a keyword)
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
                kept.update(str(arg.expansion[index].name) for index, _ in rules[-1][4] if arg.expansion[index].is_term)
            codes[str(name)] = ~rule_index[id(arg)]
        actions[int(state)] = codes
    basics: list[Any] = []
    lexer_index: dict[int, int] = {}
    lexer_of: dict[int, int] = {}
    for state, basic in lexer.lexers.items():
        if type(basic) is not BasicLexer:
            return None
        if id(basic) not in lexer_index:
            lexer_index[id(basic)] = len(basics)
            basics.append(basic)
        lexer_of[int(state)] = lexer_index[id(basic)]
    lexers: Sequence[_LexerShape | None] = tuple(_lexer_shape(basic) for basic in basics) if whole else _Later(basics)
    if whole and None in lexers:
        return None
    return {
        "start": int(table.start_states["start"]),
        "end": int(table.end_states["start"]),
        "actions": actions,
        "rules": tuple(rules),
        "lexer_of": lexer_of,
        "lexers": lexers,
        "terminals": tuple(str(terminal.name) for terminal in lark.terminals),
        "kept": tuple(sorted(kept)),
    }


class _Later(Sequence[_LexerShape | None]):
    """Lark's lexers, each made a shape the first time it is asked for."""

    def __init__(self, basics: list[Any]) -> None:
        self.basics = basics
        self.shapes: dict[int, _LexerShape | None] = {}

    def __len__(self) -> int:
        return len(self.basics)

    @overload
    def __getitem__(self, index: int) -> _LexerShape | None: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[_LexerShape | None]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index not in self.shapes:
            self.shapes[index] = _lexer_shape(self.basics[index])
        return self.shapes[index]


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


def _lexer_shape(basic: Any) -> _LexerShape | None:
    """One state's lexer: its patterns in the order Lark tries them, what it ignores, and for
    a pattern that may match a keyword (`WORD` on "move") the keyword patterns that then win;
    with its terminals one by one, each with the first letter of a keyword, so that the loop
    need try only those that may start where it stands (None where that is not known)."""
    if type(basic) is not BasicLexer:
        return None
    scanner = basic.scanner  # building the scanner sets basic.callback
    unless: dict[str, _Patterns] = {}
    for name, callback in basic.callback.items():
        if type(callback) is not UnlessCallback:
            return None
        unless[str(name)] = _patterns(callback.scanner)
    whole = _patterns(scanner)
    flags = whole[0][1] if whole else 0
    alternatives = tuple(
        (str(terminal.name), regexp, _first_letter(regexp, flags))
        for terminal in scanner.terminals
        for regexp in [str(terminal.pattern.to_regexp())]
    )
    if len(whole) != 1 or whole[0][0] != _alternation((name, regexp) for name, regexp, _ in alternatives):
        alternatives = ()  # not the pattern it was thought to be: the whole pattern, always
    return whole, tuple(sorted(str(name) for name in basic.ignore_types)), unless, alternatives


@functools.lru_cache(maxsize=1024)  # a terminal stands in many states' lexers
def _first_letter(regexp: str, flags: int) -> str | None:
    """A pattern of one character that the first character of any match of `regexp` matches
    ("move"i: `(?i:m)`; `WORD`: `[^\\W\\d_]`); it may match more (a lookbehind is left out),
    never less. None when that is not known: the terminal is then tried on every letter."""
    try:
        from re import _parser  # Python's own reading of a pattern, which Lark uses too

        return _first_of(list(_parser.parse(regexp, flags).data), bool(flags & re.IGNORECASE))
    except Exception:
        return None


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _first_of(items: list[tuple[Any, Any]], ignorecase: bool) -> str | None:
    for op, argument in items:
        name = str(op)
        if name in ("ASSERT", "ASSERT_NOT", "AT"):  # takes no character: the next item says
            continue
        if name == "LITERAL":
            return _cased(re.escape(chr(argument)), ignorecase)
        if name == "NOT_LITERAL":
            return _cased(f"[^{re.escape(chr(argument))}]", ignorecase)
        if name == "IN":
            letters = _class(argument)
            return None if letters is None else _cased(letters, ignorecase)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            least, _, repeated = argument
            return _first_of(list(repeated), ignorecase) if least >= 1 else None
        if name == "SUBPATTERN":
            _, add, remove, inner = argument
            if (add | remove) & ~re.IGNORECASE:
                return None
            return _first_of(list(inner), (ignorecase or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE)
        if name == "BRANCH":
            firsts = [_first_of(list(branch), ignorecase) for branch in argument[1]]
            return None if any(first is None for first in firsts) else "(?:" + "|".join(map(str, firsts)) + ")"
        return None
    return None


def _class(items: list[tuple[Any, Any]]) -> str | None:
    """A character class as written (`[^\\W\\d_]`), from Python's reading of it."""
    parts: list[str] = []
    for op, argument in items:
        name = str(op)
        if name == "NEGATE" and not parts:
            parts.append("^")
        elif name == "LITERAL":
            parts.append(re.escape(chr(argument)))
        elif name == "RANGE":
            parts.append(f"{re.escape(chr(argument[0]))}-{re.escape(chr(argument[1]))}")
        elif name == "CATEGORY" and str(argument) in _CATEGORIES:
            parts.append(_CATEGORIES[str(argument)])
        else:
            return None
    return "[" + "".join(parts) + "]"


def _cased(letters: str, ignorecase: bool) -> str:
    return f"(?i:{letters})" if ignorecase else f"(?-i:{letters})"


def _alternation(alternatives: Iterable[tuple[str, str]]) -> str:
    """Terminals as one pattern, as lark.lexer.Scanner writes them."""
    return "|".join(f"(?P<{name}>{regexp})" for name, regexp in alternatives)


def _patterns(scanner: Any) -> _Patterns:
    return tuple((str(mre.pattern), int(mre.flags)) for mre in scanner._mres)


class _Alternatives:
    """Lark's patterns of a state that has too many terminals for one regular expression (a
    hundred groups), tried in turn as lark.lexer.Scanner.match does."""

    def __init__(self, patterns: tuple[re.Pattern[str], ...]) -> None:
        self.patterns = patterns

    def match(self, text: str, position: int, end: int) -> re.Match[str] | None:
        for pattern in self.patterns:
            found = pattern.match(text, position, end)
            if found:
                return found
        return None


_Pattern = re.Pattern[str] | _Alternatives

_REMEMBERED = 2048  # letters, or words, a lexer remembers what it made of: a stranger's mail stays small
_NOTHING = re.compile("(?!)")  # no terminal starts with this letter


class _ByLetter(dict[str, _Pattern | frozenset[str]]):
    """A lexer's pattern for each letter a terminal may start with: Lark's pattern without
    the keywords that start with another letter. Python tries a pattern's alternatives one by
    one, forty keywords in some states: with only those that may match, a token is found
    faster, and it is the same token, since a keyword that cannot match where the line stands
    is never the one chosen. Patterns other than keywords stay in each. Where the first that
    may match is an ignored run of blanks (`SPACE: /[ \\t]+/`), the blanks themselves: the
    loop steps over them without a pattern."""

    def __init__(
        self,
        whole: _Pattern,
        alternatives: tuple[tuple[str, str, str | None], ...],
        flags: int,
        ignore: frozenset[str],
    ) -> None:
        super().__init__()
        self.whole = whole
        self.alternatives = alternatives
        self.flags = flags
        self.ignore = ignore
        self.letters: list[re.Pattern[str] | None] | None = None
        self.made: dict[tuple[int, ...], _Pattern] = {}

    def __missing__(self, letter: str) -> _Pattern | frozenset[str]:
        found = self._for(letter)
        if len(self) < _REMEMBERED:
            self[letter] = found
        return found

    def _for(self, letter: str) -> _Pattern | frozenset[str]:
        if not self.alternatives:
            return self.whole
        if self.letters is None:
            self.letters = [re.compile(first, self.flags) if first else None for _, _, first in self.alternatives]
        chosen = tuple(
            index for index, first in enumerate(self.letters) if first is None or first.fullmatch(letter) is not None
        )
        if chosen:
            name, regexp, _ = self.alternatives[chosen[0]]
            blanks = _blank_run(regexp, self.flags) if name in self.ignore else None
            if blanks is not None and letter in blanks:
                return blanks
        pattern = self.made.get(chosen)
        if pattern is None:
            if not chosen:
                pattern = _NOTHING
            else:
                try:
                    pattern = re.compile(
                        _alternation(self.alternatives[index][:2] for index in chosen),
                        self.flags,
                    )
                except Exception:  # too many groups for one pattern: Lark's patterns as they are
                    pattern = self.whole
            self.made[chosen] = pattern
        return pattern


_SIMPLE_RUN = re.compile(r"\[([^\]\[\\^-][^\]\[\\-]*)\]\+")


def _blank_run(regexp: str, flags: int) -> frozenset[str] | None:
    """The characters of a pattern that is a run of any of them and nothing else (`[ \\t]+`),
    matched without regard to case or anything else; None for any other pattern."""
    simple = _SIMPLE_RUN.fullmatch(regexp)
    if simple is None or flags & (re.IGNORECASE | re.VERBOSE):
        return None
    characters = frozenset(simple.group(1))
    return characters if all(c.lower() == c == c.upper() for c in characters) else None


class _Keywords(dict[tuple[str, str], str]):
    """What a lexer makes of a word its word pattern matched: the keyword it fully matches
    first (lark.lexer.UnlessCallback), or the word pattern's own terminal; remembered."""

    def __init__(self, unless: dict[str, tuple[re.Pattern[str], ...]]) -> None:
        super().__init__()
        self.unless = unless

    def __missing__(self, key: tuple[str, str]) -> str:
        kind, value = key
        found = kind
        for keyword in self.unless[kind]:
            whole = keyword.fullmatch(value)
            if whole:
                found = whole.lastgroup or kind
                break
        if len(self) < _REMEMBERED:
            self[key] = found
        return found


# What the loop needs in a state: the lexer (its patterns by letter, the terminals it ignores,
# the terminals that may be keywords, and what a word is) and the parser's actions.
_Plan = tuple[_ByLetter, frozenset[str], frozenset[str], _Keywords, dict[str, int]]

_DROPPED: Final = object()  # on the stack for a keyword that no rule passes on


class _Unknown(Exception):
    """A state whose lexer the loop does not know: Lark reads the line (RETRY)."""


class _Plans(dict[int, _Plan]):
    """The plan of each state, made the first time a line reaches it."""

    def __init__(self, make: Callable[[int], _Plan]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, state: int) -> _Plan:
        return self.make(state)


class _Spread(list[Any]):
    """What a `_rule` without a method of its own makes: its values, which the rule that
    holds it spreads among its own (where Lark builds a Tree only to take its children)."""


class QuickParser:
    """Reads a line with the tables of `tables_of` and a transformer, as Lark would."""

    def __init__(self, tables: Tables, transformer: Transformer[Token, Any]) -> None:
        self._start: int = tables["start"]
        self._end: int = tables["end"]
        self._actions: dict[int, dict[str, int]] = tables["actions"]
        self._lexer_of: dict[int, int] = tables["lexer_of"]
        self._lexer_shapes: Sequence[_LexerShape | None] = tables["lexers"]
        self._lexers: dict[int, tuple[_ByLetter, frozenset[str], frozenset[str], _Keywords]] = {}
        self._plans = _Plans(self._plan)
        self._rules: list[tuple[int, str, bool, Callable[..., Any]]] = [
            (size, origin, *_callback(transformer, name, expand1, size, include))
            for origin, name, expand1, size, include in tables["rules"]
        ]
        self._on_token: dict[str, Callable[[Token], Any]] = {}
        for terminal in tables["terminals"]:  # lark.parser_frontends._get_lexer_callbacks
            method = getattr(transformer, terminal, None)
            if method is not None:
                self._on_token[terminal] = method
        self._kept = frozenset(tables["kept"]) | frozenset(self._on_token)

    @staticmethod
    def supports(transformer: Transformer[Token, Any]) -> bool:
        """Whether the loop calls this transformer's methods as Lark does: methods that take
        their children as arguments (`v_args(inline=True)`) or as one list, not in place."""
        return not isinstance(transformer, Transformer_InPlace) and all(
            getattr(getattr(transformer, name, None), "visit_wrapper", _vargs_inline) is _vargs_inline
            for name in dir(transformer)
            if not name.startswith("__")
        )

    def _plan(self, state: int) -> _Plan:
        """A state's plan, its lexer's patterns compiled the first time a line reaches it."""
        index = self._lexer_of[state]
        lexer = self._lexers.get(index)
        if lexer is None:
            shape = self._lexer_shapes[index]
            if shape is None:  # a lexer unlike Lark's own (whole=False finds it only now)
                raise _Unknown
            patterns, ignore, unless, alternatives = shape
            compiled = tuple(re.compile(pattern, flags) for pattern, flags in patterns)
            whole = compiled[0] if len(compiled) == 1 else _Alternatives(compiled)
            keywords = {name: tuple(re.compile(p, f) for p, f in shapes) for name, shapes in unless.items()}
            lexer = (
                _ByLetter(whole, alternatives, patterns[0][1], frozenset(ignore)),
                frozenset(ignore),
                frozenset(unless),
                _Keywords(keywords),
            )
            self._lexers[index] = lexer
        plan = (*lexer, self._actions[state])
        self._plans[state] = plan
        return plan

    def parse(self, text: str) -> Any:
        """The transformer's value for the line; MISS when it does not parse, RETRY when Lark
        must read it (more than one line, a method that raised)."""
        if "\n" in text:  # Lark counts lines and columns across them: its job
            return RETRY
        try:
            actions = self._actions
            rules = self._rules
            on_token = self._on_token
            kept = self._kept
            plans = self._plans
            new_token = _new_token
            end_state = self._end
            state = self._start
            states = [state]
            values: list[Any] = []
            position = 0
            length = len(text)
            while True:
                by_letter, ignore, maybe_keyword, keywords, row = plans[state]
                token: Any = None
                kind = "$END"
                while position < length:  # lark.lexer.BasicLexer.next_token
                    found = by_letter[text[position]]
                    if isinstance(found, frozenset):  # ignored blanks: stepped over
                        position += 1
                        while position < length and text[position] in found:
                            position += 1
                        continue
                    match = found.match(text, position, length)
                    if match is None:
                        return MISS
                    kind = match.lastgroup  # type: ignore[assignment]  # every alternative is a named group
                    if kind in ignore:
                        position = match.end()
                        kind = "$END"
                        continue
                    stop = match.end()
                    value = match.group()
                    if kind in maybe_keyword:  # lark.lexer.UnlessCallback: a keyword that a word pattern matched
                        kind = keywords[kind, value]
                    if kind in kept:  # a keyword that no rule passes on needs no token, only its kind
                        token = new_token(kind, value, position, 1, position + 1, 1, stop + 1, stop)
                    else:
                        token = _DROPPED
                    position = stop
                    break
                while True:  # lark.parsers.lalr_parser_state.ParserState.feed_token
                    try:
                        code = row[kind]
                    except KeyError:
                        return MISS
                    if code >= 0:
                        if token is None:  # Lark never shifts the end: it would fail an assertion
                            return RETRY
                        state = code
                        states.append(code)
                        values.append(on_token[kind](token) if kind in on_token else token)
                        break
                    size, origin, star, call = rules[~code]
                    if size:
                        children = values[-size:]
                        del states[-size:]
                        del values[-size:]
                    else:
                        children = []
                    value = call(*children) if star else call(children)
                    state = actions[states[-1]][origin]
                    states.append(state)
                    values.append(value)
                    if token is None and state == end_state:
                        return value
                    row = actions[state]
        except Exception:  # a transformer method raised: Lark raises it its own way
            return RETRY


# Token() without its check for a deprecated argument name: the same token, made faster
_new_token: Callable[..., Token] = getattr(Token, "_future_new", Token)


def _callback(
    transformer: Transformer[Token, Any], name: str, expand1: bool, size: int, include: tuple[tuple[int, bool], ...]
) -> tuple[bool, Callable[..., Any]]:
    """A rule's callback as Lark's ParseTreeBuilder.create_callback makes it, without its
    layers of wrappers: keep the wanted values, spread the inlined ones, and call the method
    with them (inline), or with their list; without a method, a Tree of them (or a `_Spread`
    when the rule is inlined). With whether it is called with the values as arguments."""
    method: Any = getattr(transformer, name, _ABSENT)
    inline = False
    if method is _ABSENT:
        default = getattr(transformer, "__default__", None)
        if name.startswith("_") and getattr(type(transformer), "__default__", None) is Transformer.__default__:
            call: Callable[..., Any] = _Spread
        elif default is not None:

            def call(children: list[Any]) -> Any:
                return default(name, children, None)

        else:

            def call(children: list[Any]) -> Any:
                return Tree(name, children)

    else:
        inline = getattr(method, "visit_wrapper", None) is _vargs_inline
        call = getattr(method, "base_func", method) if inline else method
    kept = [index for index, _ in include]
    if expand1 or any(inlined for _, inlined in include):
        return False, _shaped(call, inline, include, expand1)
    if kept == list(range(size)):
        return inline, call
    if len(kept) == 1:
        (only,) = kept
        if inline:
            return False, lambda children: call(children[only])
        return False, lambda children: call([children[only]])
    pick: Callable[[list[Any]], Any] = operator.itemgetter(*kept) if kept else (lambda children: ())
    if inline:
        return False, lambda children: call(*pick(children))
    return False, lambda children: call(list(pick(children)))


def _values(child: Any) -> list[Any]:
    """The values an inlined rule hands the rule that holds it."""
    return child if type(child) is _Spread else child.children


def _shaped(
    call: Callable[..., Any], inline: bool, include: tuple[tuple[int, bool], ...], expand1: bool
) -> Callable[[list[Any]], Any]:
    """A callback that spreads inlined rules (lark.parse_tree_builder.ChildFilterLALR_NoPlaceholders)."""
    if include == ((0, True),) and not expand1:  # `name: WORD+`: one inlined rule, all of it
        if inline:

            def spread(children: list[Any]) -> Any:
                child = children[0]
                return call(*child) if type(child) is _Spread else call(*child.children)

            return spread
        return lambda children: call(list(_values(children[0])))
    if call is _Spread and include[0] == (0, True) and not expand1 and not any(i for _, i in include[1:]):
        rest = [index for index, _ in include[1:]]

        def grown(children: list[Any]) -> Any:  # a left-recursive list (`WORD+`): grown in place, as Lark does
            first = children[0]
            values = first if type(first) is _Spread else _Spread(first.children)
            values.extend([children[index] for index in rest])
            return values

        return grown

    def shaped(children: list[Any]) -> Any:
        values: list[Any] = []
        for index, inlined in include:
            child = children[index]
            if not inlined:
                values.append(child)
            elif type(child) is _Spread:
                values.extend(child)
            else:
                values.extend(child.children)
        if expand1 and len(values) == 1:
            return values[0]
        return call(*values) if inline else call(values)

    return shaped


_ABSENT: Final = object()
