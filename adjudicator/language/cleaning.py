"""A player's text made plain and cut into pieces, before any is parsed.

Mail and forum text is cut into lines first: invisible characters (zero-width spaces, byte
order marks, soft hyphens) go and typographic spaces, dashes and quotes become the plain ones
(`plain_text`), quoted lines (`>`) and comments (`#`) are set aside, list markers and emphasis
are taken off, `;` splits a line into several orders, and a line `end` (pl `koniec`, hu `vége`,
fr and es `fin`) or `--` ends the orders (a signature follows).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TypeVar

from adjudicator.core.keywords import words_for
from adjudicator.core.names import INVISIBLE
from adjudicator.core.passwords import redact_passwords, secret_span

OrderT = TypeVar("OrderT")


# How people mark a list in a mail or a post: `- offer wine`, `* take gold`, `• take any`,
# `1. offer oil`, `2) take tax`; and Markdown's emphasis, `**take gold**`. They frame an order
# and are not part of it (issue 29).
_BULLETS = "-*+\u2022\u00b7\u2023\u25e6\u25aa\u25cf"
_LIST_MARKER = re.compile(r"^(?:[" + re.escape(_BULLETS) + r"]|\d{1,3}[.)])\s+")

_EMPHASIS = re.compile(r"(\*\*|__|\*)(?=\S)(.+?)(?<=\S)\1")


@functools.cache
def _stop_line() -> re.Pattern[str]:
    """A line that ends the orders (a signature follows): `end` in any language of
    keywords.toml's [end], with or without a full stop, or a dash rule."""
    words = "|".join(re.escape(word) for word in words_for("end"))
    return re.compile(r"^\s*((?:" + words + r")\.?|--\s*|__+)\s*$", re.IGNORECASE)


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


def split_pieces(text: str) -> tuple[list[Piece], list[SetAside]]:
    """Cut text into order pieces; every other line is kept with the reason it was skipped
    (a password on it masked: a set-aside line is echoed and stored, never parsed)."""
    pieces: list[Piece] = []
    aside: list[SetAside] = []
    lines = plain_text(text).splitlines()
    stop_line = _stop_line()
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stop_line.match(stripped):
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
            piece = part.strip()
            if piece:
                pieces.append(Piece(number, _unquoted(piece)))
    aside.sort(key=lambda s: s.number)
    return pieces, aside


def unmarked(line: str) -> str:
    """A line without the list marker before it and the emphasis around its words."""
    if (line[:1] and line[:1] in _BULLETS) or line[:1].isdecimal():  # what _LIST_MARKER may start with (\d: decimal)
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
