"""Name matching that forgives case, accents and punctuation, and suggests on a miss."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K")
K_co = TypeVar("K_co", covariant=True)

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
# Characters a keyboard, phone or web page puts in text that nobody sees: zero-width spaces and
# joiners, the byte order mark, the soft hyphen. The order front end drops them, and the
# password finder reads a word across them.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"


def normalise(text: str) -> str:
    """`Athènes`, `athenes` and ` ATHENES!` all become `athenes`; `Mare-Ionium` becomes `mareionium`."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    stripped = stripped.replace("ß", "ss").replace("ł", "l").replace("ø", "o")
    return _NOT_ALNUM.sub("", stripped)


def _may_be_close(a: str, b: str) -> bool:
    """The edit distance is at least the difference in length: can `similarity` reach 0.6?"""
    return abs(len(a) - len(b)) <= 0.4 * max(len(a), len(b))


def similarity(a: str, b: str) -> float:
    """1 minus the optimal-string-alignment distance over the longer length.

    Typing mistakes are mostly one letter wrong, missing, extra or two letters swapped;
    each of those costs 1 here (difflib's ratio scores a swap like two changes).
    """
    if not a or not b:
        return 0.0
    previous_row: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        before, previous_row, row = previous_row, row, [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            row[j] = min(previous_row[j] + 1, row[j - 1] + 1, previous_row[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], before[j - 2] + 1)
    return 1 - row[-1] / max(len(a), len(b))


@dataclass(frozen=True, slots=True)
class Match(Generic[K_co]):
    """What a lookup found: one key, several keys (ambiguous), or none with suggestions."""

    keys: tuple[K_co, ...]
    suggestions: tuple[str, ...] = ()


@dataclass(slots=True)
class NameIndex(Generic[K]):
    """Maps every spelling of a thing (name, aliases, id) to the thing's key."""

    kind: str
    _keys: dict[str, list[K]] = field(default_factory=dict)
    _spelling: dict[str, str] = field(default_factory=dict)
    _display: dict[K, str] = field(default_factory=dict)

    def add(self, key: K, display: str, spellings: Iterable[str] = ()) -> None:
        """Register `key` under its display name and every other spelling."""
        self._display.setdefault(key, display)
        for spelling in (display, *spellings):
            norm = normalise(spelling)
            if not norm:
                continue
            keys = self._keys.setdefault(norm, [])
            if key not in keys:
                keys.append(key)
            self._spelling.setdefault(norm, spelling)

    def display(self, key: K) -> str:
        return self._display[key]

    def collisions(self) -> dict[str, list[K]]:
        """Spellings that lead to more than one key (a board error)."""
        return {self._spelling[n]: keys for n, keys in self._keys.items() if len(keys) > 1}

    def find(self, text: str) -> Match[K]:
        norm = normalise(text)
        if norm in self._keys:
            return Match(tuple(self._keys[norm]))
        # A pair whose lengths alone keep it under the 0.6 that makes a suggestion is not
        # scored: a long line of junk then costs nothing, however many names there are.
        scored = sorted(
            ((similarity(norm, known), known) for known in self._keys if _may_be_close(norm, known)), reverse=True
        )
        best = scored[0][0] if scored else 0.0
        close = [known for score, known in scored[:3] if score >= 0.6 and score >= best - 0.08]
        if not close and len(norm) >= 3:
            close = [n for n in self._keys if n.startswith(norm)][:3]
        suggestions: list[str] = []
        for n in close:
            for key in self._keys[n]:
                shown = self._display[key]
                if shown not in suggestions:
                    suggestions.append(shown)
        return Match((), tuple(suggestions))
