"""The pick of a trade chain, answered once: a ruleset's class lines and its default ask it.

A player's `take` line naming a class of cards (`take commodity`, `take any`) and the default
choice when he has none left ask the same question: of what the
players he may take from offer, which card is best for him? The answer is the best card by
his ruleset's ranking among all of them, ties going to the player sitting earliest after him.
Answering it in one place keeps an explicit line from choosing worse than sending none (issue
28: `take commodity` took fish from the first player offering any commodity while papyrus,
which the picker lacked, lay on the table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

SourceT = TypeVar("SourceT")
CardT = TypeVar("CardT")


def best_pick(
    sources: Sequence[SourceT],
    offered: Callable[[SourceT], Iterable[CardT]],
    rank: Callable[[CardT], Any],
    accept: Callable[[CardT], bool] = lambda card: True,
) -> tuple[SourceT, CardT] | None:
    """The source and card to take: the best by `rank` (lowest first) of every card `accept`
    allows among those `sources` offer, the earliest source on a tie; None when none is."""
    best: tuple[Any, int, SourceT, CardT] | None = None
    for place, source in enumerate(sources):
        for card in set(offered(source)):
            if not accept(card):
                continue
            key = (rank(card), place)
            if best is None or key < best[:2] or (key == best[:2] and repr(card) < repr(best[3])):
                best = (key[0], place, source, card)
    return (best[2], best[3]) if best is not None else None
