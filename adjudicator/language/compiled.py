"""A grammar's parser compiled once per grammar version, not on every command (issue 31).

Lark compiles a grammar in about 170 ms and loads its own cache of it in about 30 ms; the quick
loop's tables (lalr.py) load in about a millisecond. Both are kept in the user's cache folder
(core/cache.py: `$XDG_CACHE_HOME/adjudicator/parsers`, else `~/.cache/adjudicator/parsers`),
under a name that holds a hash of every grammar file, of Lark's and Python's versions and of the
code that reads the tables: a new grammar or a new Lark makes a new file, never a stale parser.
Where the folder cannot be written (a read-only home, a sandbox) the parser is compiled in each
process, silently: the moderator sees nothing but a slower start.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Transformer

from adjudicator.core.cache import cache_folder, entry_path, save_bytes
from adjudicator.language import lalr
from adjudicator.language.lalr import QuickParser, Tables, tables_of

# How every order grammar is compiled: LALR, whose transformer runs inside the parser (no tree
# is built), and no positions kept: together about 1.5 times faster than a tree (bench/run.py).
LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "maybe_placeholders": False}

_TABLE_KEYS = frozenset({"start", "end", "actions", "rules", "lexer_of", "lexers", "terminals", "kept"})


def cache_paths(folder: Path, grammar: str) -> tuple[Path | None, Path | None]:
    """Where a grammar's tables and Lark's own parser of it are kept; None where nothing can be."""
    if cache_folder() is None:
        return None, None
    stem = cache_stem(folder, grammar)
    return entry_path("parsers", f"{stem}.tables"), entry_path("parsers", f"{stem}.lark-parser")


def cache_stem(folder: Path, grammar: str) -> str:
    """The name a grammar's compiled forms are kept under: the grammar's name and a hash of
    all that decides them (every .lark file, since a grammar imports common.lark)."""
    digest = hashlib.sha256()
    for part in (lark.__version__, sys.implementation.cache_tag or "", repr(sorted(LARK_OPTIONS.items()))):
        digest.update(part.encode() + b"\0")
    digest.update(_reader_source() + b"\0")
    for path in sorted(folder.glob("*.lark")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{grammar}-{digest.hexdigest()[:32]}"


def _reader_source() -> bytes:
    """The code that makes and reads the tables: a change to it must not read an old file."""
    try:
        return Path(lalr.__file__).read_bytes()
    except OSError:
        return b""


def lark_parser(folder: Path, grammar: str, transformer: Transformer[Token, Any], cache: Path | None) -> Lark:
    """Lark's parser of a grammar: from `cache` when Lark saved it there before (Lark checks
    that the file was made from this very grammar), else compiled and saved there (Lark says
    nothing when it cannot write it)."""
    return Lark(
        (folder / f"{grammar}.lark").read_text(encoding="utf-8"),
        import_paths=[folder],
        transformer=transformer,
        cache=str(cache) if cache is not None else False,
        **LARK_OPTIONS,
    )


def quick_parser(
    transformer: Transformer[Token, Any], cache: Path | None, build_lark: Callable[[], Lark]
) -> QuickParser | None:
    """The quick loop over a grammar's tables: read from `cache`, else taken from Lark's
    parser (`build_lark`) and saved there. None when the loop cannot read like that parser."""
    if not QuickParser.supports(transformer):
        return None
    tables = load_tables(cache) if cache is not None else None
    if tables is not None:
        try:
            return QuickParser(tables, transformer)
        except Exception:  # a damaged file: made again below
            pass
    built = build_lark()
    keep = cache is not None and os.access(cache.parent, os.W_OK)
    try:
        tables = tables_of(built, whole=keep)  # all its lexers only for a file that keeps them
        quick = QuickParser(tables, transformer) if tables is not None else None
    except Exception:  # a Lark whose insides are not as lalr.py knows them: Lark reads every line
        return None
    if cache is not None and keep and tables is not None:
        save_tables(cache, tables)
    return quick


class _PlainData(pickle.Unpickler):
    """Reads dicts, tuples, strings and numbers, and refuses anything that names a class: a
    file in the cache folder is never a way to run code."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name}: a parser cache holds plain data only")


def load_tables(path: Path) -> Tables | None:
    """The tables kept at `path`; None when there are none, or none whole."""
    try:
        with path.open("rb") as handle:
            tables = _PlainData(handle).load()
    except Exception:  # missing, unreadable, cut short, or not ours
        return None
    if not isinstance(tables, dict) or set(tables) != _TABLE_KEYS:
        return None
    return tables


def save_tables(path: Path, tables: Tables) -> None:
    """Keeps the tables at `path`, whole or not at all; silently nothing where it cannot."""
    save_bytes(path, pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL))
