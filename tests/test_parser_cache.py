"""The order language's parser is compiled once per grammar version and kept in the cache folder
(language/compiled.py), and its quick reader reads every line exactly as Lark's parser does
(language/lalr.py).

Why: compiling a ruleset's grammar cost every command about 55 ms, and Lark read 20,000 order
lines a second (issue 31). A cache that served an old grammar, a quick reader that read one line
otherwise than Lark, or a home that cannot be written stopping the judge would each be worse
than the time they save.
"""

from __future__ import annotations

import pickle
import random
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from lark import UnexpectedInput

import adjudicator.language.parser as parser_module
from adjudicator.core.resources import shipped_folder
from adjudicator.language.cleaning import Piece
from adjudicator.language.compiled import load_tables
from adjudicator.language.lalr import MISS, RETRY
from adjudicator.language.parser import OrderParser
from adjudicator.language.translation import _literals
from adjudicator.rulesets import REGISTRY, find_ruleset

RULESETS = tuple(REGISTRY)
NAMES = ["Roma", "Mare Nostrum", "Carthago", "wine", "gold", "x3", "3", "12", "of", "O'Brien", "a.b-c"]
PIECES = ["T3", "r2", "2026-01-05", "R6.4", "mn-1", ",", "&", "and", ":", "  ", "x", "1x", "Świątynia"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder / "adjudicator" / "parsers"


def corpus(parser: OrderParser[Any], size: int = 600) -> list[str]:
    """Lines a grammar accepts and lines it refuses: its order forms, its error examples, and
    the same with words put in, changed and taken out; the same cases in capitals and colons."""
    folder = shipped_folder("grammar")
    with (folder / f"{parser.grammar}.errors.toml").open("rb") as handle:
        help_data = tomllib.load(handle)
    lines = [example for error in help_data["error"] for example in error["examples"]]
    lines += [*help_data["forms"], *help_data["forms"].values(), *parser.order_forms, *parser.shared_forms]
    words = sorted(_literals(parser.grammar)) + NAMES + PIECES
    rng = random.Random(31)
    for _ in range(size):
        line = rng.choice(lines).split() or ["move"]
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(line))
            action = rng.random()
            if action < 0.45:
                line.insert(at, rng.choice(words))
            elif action < 0.8:
                line[at] = rng.choice(words)
            elif len(line) > 1:
                del line[at]
        lines.append(" ".join(line))
    return [variant for line in lines for variant in (line, line.upper(), line.replace(" ", ": ", 1))]


def readings(parser: OrderParser[Any], lines: list[str]) -> list[Any]:
    return [parser.parse_line(Piece(1, line)) for line in lines]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_quick_reader_reads_every_line_as_lark_does(ruleset: str, cache: Path) -> None:
    parser = find_ruleset(ruleset).parser()
    quick = parser._quick
    assert quick is not None, "lalr.py no longer understands this Lark: every line is read by Lark, slowly"
    accepted = refused = 0
    for line in corpus(parser):
        mine = quick.parse(line)
        assert mine is not RETRY, line
        try:
            lark = parser._lark.parse(line)
        except UnexpectedInput:
            lark = MISS
        assert mine == lark and type(mine) is type(lark), line
        accepted += mine is not MISS
        refused += mine is MISS
    assert accepted > 100 and refused > 100


def test_a_parser_built_from_the_cache_reads_as_one_compiled_anew(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = find_ruleset("mare-nostrum")
    first = ruleset.parser()
    [tables] = cache.glob("mare_nostrum-*.tables")
    assert load_tables(tables) is not None
    second = ruleset.parser()
    assert "_lark" not in vars(second), "the second parser compiled the grammar again"
    lines = corpus(second, 200)
    from_cache = readings(second, lines)
    assert from_cache == readings(first, lines)
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert from_cache == readings(ruleset.parser(), lines)


def test_a_changed_grammar_is_compiled_anew_not_read_stale(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grammar = tmp_path / "grammar"
    shutil.copytree(shipped_folder("grammar"), grammar)
    monkeypatch.setattr(parser_module, "shipped_folder", lambda name: grammar)
    ruleset = find_ruleset("mare-nostrum")
    stroll = Piece(1, "stroll 2 legions from Roma to Neapolis")
    assert type(ruleset.parser().parse_line(stroll)).__name__ == "OrderSyntaxError"
    lark = grammar / "mare_nostrum.lark"
    text = lark.read_text(encoding="utf-8")
    lark.write_text(text.replace('move: ("move"i | "march"i)', 'move: ("move"i | "march"i | "stroll"i)'), "utf-8")
    assert type(ruleset.parser().parse_line(stroll)).__name__ == "Move"
    assert len(list(cache.glob("mare_nostrum-*.tables"))) == 2
    lark.write_text(text, encoding="utf-8")  # and back: the first file serves again
    assert type(ruleset.parser().parse_line(stroll)).__name__ == "OrderSyntaxError"
    assert len(list(cache.glob("mare_nostrum-*.tables"))) == 2


@pytest.mark.parametrize("damage", [b"", b"not a pickle", pickle.dumps(Path("/etc/passwd")), pickle.dumps({"a": 1})])
def test_a_damaged_cache_file_is_made_again(cache: Path, damage: bytes) -> None:
    ruleset = find_ruleset("mare-nostrum")
    lines = corpus(ruleset.parser(), 100)
    expected = readings(ruleset.parser(), lines)
    [tables] = cache.glob("mare_nostrum-*.tables")
    tables.write_bytes(damage)
    assert readings(ruleset.parser(), lines) == expected
    assert load_tables(tables) is not None


def test_no_cache_folder_only_costs_time(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ruleset = find_ruleset("mare-nostrum")
    lines = corpus(ruleset.parser(), 100)
    expected = readings(ruleset.parser(), lines)
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    parser = ruleset.parser()
    assert parser._quick is not None
    assert readings(parser, lines) == expected
    assert capsys.readouterr() == ("", "")
    assert not caplog.records
