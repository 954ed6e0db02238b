"""grammar/keywords.toml: the one home of the order language's words in every language.

The parser translates keywords through it (language/translation.py), and the few words read before
any line is parsed come from it too: a password header's word (`hasło`, `mot de passe`), which
is masked wherever text is stored or logged (core/passwords.py), and the line that ends the
orders (`end`, `koniec`, `vége`, `fin`). Read once, on first use, then kept for the process
(and its data in the cache folder).
"""

from __future__ import annotations

import functools

from adjudicator.core.cache import shipped_toml
from adjudicator.core.names import normalise
from adjudicator.core.resources import shipped_folder


@functools.cache
def keyword_table() -> dict[str, dict[str, list[str]]]:
    """Per English keyword, each language's words (the first one canonical)."""
    return shipped_toml(shipped_folder("grammar") / "keywords.toml")


@functools.cache
def words_for(*keywords: str) -> tuple[str, ...]:
    """The English keywords and every language's words for them, as players write them and as
    `names.normalise` reads them (`hasło` and `haslo`), sorted: the words of one meaning."""
    table = keyword_table()
    written = {word for keyword in keywords for word in (keyword, *_words(table.get(keyword, {})))}
    return tuple(sorted(written | {normalise(word) for word in written}))


def _words(languages: dict[str, list[str]]) -> list[str]:
    return [word for words in languages.values() for word in words]
