"""An offer in a trade filled up by the dice (Mare Nostrum R5.2, Empires E5.3): the cards or
tokens a player's ranked lists leave short of the size, each chosen by a roll among what he has
left. The rolls are part of the dice contract (the golden games replay them), so the one rule the
two games tell apart, whether a forced choice is rolled for, is a parameter, not a copy."""

from __future__ import annotations

from collections import Counter
from collections.abc import MutableSequence
from typing import Any, Protocol, TypeVar

from adjudicator.core.dice import Dice, choose_index


class _Sortable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


ItemT = TypeVar("ItemT", bound=_Sortable)


def pad_by_dice(
    offered: MutableSequence[ItemT], held: Counter[ItemT], size: int, dice: Dice, purpose: str, *, roll_forced: bool
) -> int:
    """Fill `offered` up to `size` from what `held` has left, in sorted order one roll at a time;
    returns how many the dice chose. A forced choice (what is left just fills the offer, or is
    all one kind) is rolled for all the same in Mare Nostrum (`roll_forced`), and simply taken in
    Empires (E5.3)."""
    by_dice = 0
    while len(offered) < size:
        left = sorted((held - Counter(offered)).elements())
        missing = size - len(offered)
        if not roll_forced and (len(left) == missing or len(set(left)) == 1):
            offered += left[:missing]
            break
        offered.append(left[choose_index(dice, len(left), purpose)])
        by_dice += 1
    return by_dice
