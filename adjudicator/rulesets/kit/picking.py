"""The pick of a trade chain, answered once: a ruleset's class lines and its default ask it.

A player's `take` line naming a class of cards (`take commodity`, `take any`; Empires' `take
good`) and the default choice when he has none left ask the same question: of what the players
he may take from offer, which card is best for him? The answer is the best card by
his ruleset's ranking among all of them, ties going to the player sitting earliest after him.
Answering it in one place keeps an explicit line from choosing worse than sending none (issue
28: `take commodity` took fish from the first player offering any commodity while papyrus,
which the picker lacked, lay on the table).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

SourceT = TypeVar("SourceT")
CardT = TypeVar("CardT")


class TakeLine(Protocol):
    """A player's `take` line, as both games write it: a class or a card, maybe from one player."""

    @property
    def choice(self) -> str: ...

    @property
    def source(self) -> str | None: ...


LineT = TypeVar("LineT", bound=TakeLine)


def best_pick(
    sources: Sequence[SourceT],
    offered: Callable[[SourceT], Iterable[CardT]],
    rank: Callable[[CardT], Any],
    accept: Callable[[CardT], bool] = lambda card: True,
) -> tuple[SourceT, CardT] | None:
    """The source and card to take: the best by `rank` (lowest first) of every card `accept`
    allows among those `sources` offer, the earliest source on a tie; None when none is."""
    candidates = (
        ((rank(card), place, repr(card)), source, card)  # repr: one answer even where two cards rank alike
        for place, source in enumerate(sources)
        for card in set(offered(source))
        if accept(card)
    )
    best = min(candidates, key=lambda candidate: candidate[0], default=None)
    return (best[1], best[2]) if best is not None else None


def pick_by_lines(
    sources: Sequence[SourceT],
    offered: Callable[[SourceT], Iterable[CardT]],
    rank: Callable[[CardT], Any],
    lines: MutableSequence[LineT],
    matches: Callable[[str, CardT], bool],
) -> tuple[SourceT, CardT, LineT | None]:
    """One pick of a trade chain: the picker's first `take` line that something on offer
    `matches` (used up: taken out of `lines`), else the default (None for the line); both the
    best card by `rank` among those they allow (`best_pick`)."""
    for index, line in enumerate(lines):
        where = [s for s in sources if s == line.source] if line.source else sources
        found = best_pick(where, offered, rank, functools.partial(matches, line.choice))
        if found is not None:
            del lines[index]
            return found[0], found[1], line
    found = best_pick(sources, offered, rank)
    assert found is not None, "a player taken from always has a card face up"
    return found[0], found[1], None
