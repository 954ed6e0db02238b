"""Password lines: where a piece of order text carries a secret, found by one function.

The order parser reads a password header through `secret_span` (language/parser.py), and
everything that stores, echoes or logs text masks through it (`redact_passwords`), so a
spelling the parser accepts is a spelling that is masked: `:password X`, `«password» X`,
`Pässword X`, full-width letters, an em or ideographic space. The header word is compared as
names are (`names.normalise`: case, accents, width and invisible characters aside).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from adjudicator.core.keywords import words_for
from adjudicator.core.names import INVISIBLE, normalise

MASK = "********"
# A password header's word is any word grammar/keywords.toml gives for `password`, `pass` or
# `secret` (core/keywords.py); French players write "mot de passe" in three words, which
# normalise reads as one.
PASSWORD_KEYWORDS = ("password", "pass", "secret")


@functools.cache
def password_words() -> frozenset[str]:
    """Every password word, normalised."""
    return frozenset(normalise(word) for word in words_for(*PASSWORD_KEYWORDS))


@functools.cache
def _initials() -> frozenset[str]:
    """The first letters of the password words: a piece starting with another is an order."""
    return frozenset(word[0] for word in password_words()) | {"m"}  # m: mot de passe


_DE_PASSE = re.compile(r"[\s\-]+de[\s\-]+passe(?![^\W_])", re.IGNORECASE)
# What may stand between the word and the secret: spaces of any kind, a colon, quote marks.
_BETWEEN = frozenset(":\"'«»„“”‘’‚‛「」『』＂＇：")
_PIECE_CUTS = re.compile(r"([;#])")  # a line's pieces (`;`) and its comment (`#`)


def secret_span(piece: str) -> tuple[int, int] | None:
    """Where the secret of a password header stands in one piece of a line (no `;` or `#` in
    it): after a password word (anything but letters and digits may come before it, such as
    `>` or quote marks) and a space, colon or quote mark. None when the piece is no password
    header: the word alone is the pass order (`pass`), and `password1 X` is not the word."""
    length = len(piece)
    start = 0
    while start < length and not _is_word_character(piece[start]):
        start += 1
    if start == length or (piece[start].isascii() and piece[start].lower() not in _initials()):
        return None  # the common case, an order: decided on its first letter
    end = start
    while end < length and (_is_word_character(piece[end]) or piece[end] in INVISIBLE):
        end += 1
    written = piece[start:end]
    word = written.lower() if written.isascii() else normalise(written)  # the same for ASCII, faster
    if word == "mot" and (french := _DE_PASSE.match(piece, end)):
        word, end = "motdepasse", french.end()
    if word not in password_words():
        return None
    secret = end
    while secret < length and (piece[secret].isspace() or piece[secret] in _BETWEEN or piece[secret] in INVISIBLE):
        secret += 1
    stop = len(piece.rstrip())
    if secret == end or secret >= stop:
        return None
    return secret, stop


def _is_word_character(character: str) -> bool:
    return character.isalnum() or unicodedata.combining(character) > 0


SHORTEST_SECRET_MASKED_EVERYWHERE = 4  # a known secret is masked wherever it stands from this length


def redact_passwords(text: str, secret: str | None = None) -> str:
    """The text with every password header's secret masked, for storing, echoing and logging:
    on a line of its own or after `;`, quoted (`> > password …`) or commented out, since each
    of those is a secret kept or shown. `secret`, the password the text was read with, is
    masked wherever else it stands too (`password=X`, a typo'd header, a comment); a shorter
    one than SHORTEST_SECRET_MASKED_EVERYWHERE only in its header (masking every "ab" would
    leave no text to read)."""
    return "".join(_redacted_line(line) for line in without_secret(text, secret).splitlines(keepends=True))


def without_secret(text: str, secret: str | None) -> str:
    """The text with a known secret masked wherever it stands (from SHORTEST_SECRET_MASKED_EVERYWHERE
    characters): for a reply the judge wrote itself, whose own `password YOUR-SECRET` line stays."""
    if secret and len(secret) >= SHORTEST_SECRET_MASKED_EVERYWHERE and set(secret) != {"*"}:
        return text.replace(secret, MASK)
    return text


def _redacted_line(line: str) -> str:
    parts = _PIECE_CUTS.split(line)
    for index in range(0, len(parts), 2):  # the pieces; the odd places hold the cuts
        span = secret_span(parts[index])
        if span is not None:
            piece = parts[index]
            parts[index] = piece[: span[0]] + MASK + piece[span[1] :]
    return "".join(parts)


def secret_in(piece: str) -> str | None:
    """The secret a password header piece carries, as typed; None when it is no such piece."""
    span = secret_span(piece)
    return piece[span[0] : span[1]] if span is not None else None
