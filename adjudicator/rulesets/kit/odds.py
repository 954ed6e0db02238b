"""Exact odds of the rules' dice, for the notes of the order forms (issue 35): a battle's chances
worked out from the pieces known now, by counting every face, never by sampling.

A ruleset says how a battle's dice make its outcome, in one function its engine calls too; this
module only adds up the faces (`dice_sum`), carries a distribution through that function
(`mapped`), and words the result (`odds_note`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from adjudicator.core.i18n import Msg, joined, t

D6 = (1, 2, 3, 4, 5, 6)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V", bound=Hashable)

Odds = dict[K, Fraction]


def dice_sum(count: int, faces: Sequence[int] = D6, per_die: int = 0, fixed: int = 0) -> Odds[int]:
    """The sum of `count` dice, each showing `faces[roll - 1]` plus `per_die`, plus `fixed`."""
    odds: dict[int, Fraction] = {fixed: Fraction(1)}
    for _ in range(count):
        rolled: dict[int, Fraction] = defaultdict(Fraction)
        for total, chance in odds.items():
            for face in faces:
                rolled[total + face + per_die] += chance / len(faces)
        odds = rolled
    return dict(odds)


def mapped(odds: Mapping[K, Fraction], outcome: Callable[[K], V]) -> Odds[V]:
    """The odds of `outcome(x)` where x has `odds`."""
    result: dict[V, Fraction] = defaultdict(Fraction)
    for value, chance in odds.items():
        result[outcome(value)] += chance
    return dict(result)


def both(a: Mapping[K, Fraction], b: Mapping[V, Fraction]) -> Odds[tuple[K, V]]:
    """Two independent outcomes together (the two sides of a battle roll their own dice)."""
    return {(x, y): p * q for x, p in a.items() for y, q in b.items()}


def percent(chance: Fraction) -> str:
    """A chance in whole percent; a chance that is neither none nor certain never reads 0 or 100."""
    if chance in (0, 1):
        return str(int(chance * 100))
    shown = round(chance * 100)
    return "<1" if shown < 1 else ">99" if shown > 99 else str(shown)


def odds_note(sides: Sequence[tuple[str, Mapping[int, Fraction]]]) -> Msg:
    """`odds: Rome loses 0/1 (44/56 %), Greece loses 0/1 (72/28 %)`: each side's losses."""
    parts = []
    for civ, losses in sides:
        counts = sorted(n for n, chance in losses.items() if chance)
        parts.append(
            t(
                "%(civ)s loses %(counts)s (%(shares)s %%)",
                civ=civ,
                counts="/".join(str(n) for n in counts),
                shares="/".join(percent(losses[n]) for n in counts),
            )
        )
    return t("odds: %(sides)s", sides=joined(parts))


def with_odds(what: Msg, odds: Msg) -> Msg:
    """A form line's note (`a naval battle (R8)`) with its odds after it."""
    return t("%(battle)s; %(odds)s", battle=what, odds=odds)


def chances_note(odds: Mapping[K, Fraction], named: Mapping[K, Msg]) -> Msg:
    """`odds: taken 50 %, held 33 %, army lost 17 %`: each outcome by its name, the likeliest first."""
    shown = sorted(((named[outcome], chance) for outcome, chance in odds.items() if chance), key=lambda o: -o[1])
    parts = [t("%(outcome)s %(share)s %%", outcome=msg, share=percent(chance)) for msg, chance in shown]
    return t("odds: %(sides)s", sides=joined(parts))
