"""Keywords in the player's language and in English, both ways: an order written `oferuj wino`
is read as `offer wine`, and an order form is written in the reader's words. The words come from
grammar/keywords.toml (core/keywords.py); a grammar's English keywords from its .lark file."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import TypeVar

from adjudicator.core.i18n import SOURCE
from adjudicator.core.keywords import keyword_table
from adjudicator.core.names import normalise
from adjudicator.core.resources import shipped_folder

OrderT = TypeVar("OrderT")


_LITERAL = re.compile(r'"([a-z]+)"i')

WORD = re.compile(r"(\w+)")

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
    first = WORD.search(text)
    if first is not None and keywords.get(normalise(first.group(1))) in (*SECRET_HEADERS, "phase"):
        # a secret, or a phase named in the player's language (`fase R1 compra`, not `buy`), as typed
        return text[: first.start()] + keywords[normalise(first.group(1))] + text[first.end() :]
    return WORD.sub(lambda m: keywords.get(normalise(m.group(1)), m.group(1)), text)


def in_keywords(text: str, keywords: Mapping[str, str]) -> str:
    """An English line with its keywords in another language (`canonical_keywords`). Only words
    written in lower case are keywords, and the first word however written (a header's
    "Game:"): board, card and player names start with a capital."""

    def word(match: re.Match[str]) -> str:
        found = match.group(1)
        if match.start() == 0 and found[:1].isupper() and found.lower() in keywords:
            return keywords[found.lower()].capitalize()
        return keywords.get(found, found)

    first = WORD.match(text)
    if first is not None and first.group(1).lower() in SECRET_HEADERS:  # the secret stays as it is
        return word(first) + text[first.end() :]
    return WORD.sub(word, text)
