"""Paying for purchases with sets (Mare Nostrum R6.1, Empires E6.3): the same rule in both games,
with cards in one and tokens in the other, so both rulesets use this module.

A set is tax cards only, or commodity cards all different; it pays one item costing at most
its number of cards. Given a hand and the costs of a purchase list, `plan_payment` finds sets
that pay the longest possible prefix of the list, exactly (not greedily).

Overpaying never helps, so a cost c is paid by exactly c tax cards or by c different
commodities. Which purchases take tax is tried exhaustively, counting only how many of each
cost do (purchases of equal cost are interchangeable); whether the others can all be paid
by distinct-commodity sets is a 0-1 matrix question (sets x commodities, row sums = costs,
column sums <= cards held) answered by the Gale-Ryser condition: sorted descending, the k
largest costs never exceed sum(min(held, k)).
Among plans paying the same prefix, the one spending fewest tax cards wins, because unused
commodities are discarded at the end of the phase while two tax cards may be kept (R6.8).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from adjudicator.core.i18n import Msg, t

TAX = "tax"  # the one resource that is not a commodity, in both games
CardSet = Counter[str]


@dataclass(frozen=True, slots=True)
class SetWords:
    """How a game says its two set rules: with cards and commodities (Mare Nostrum) or with
    tokens and goods (Empires). Whole sentences, so each language words them its own way."""

    mixed: Msg
    repeated: Msg


CARD_SETS = SetWords(
    t("a set is tax cards only or different commodities only; tax and commodities do not mix"),
    t("the commodities of one set must all be different"),
)
TOKEN_SETS = SetWords(
    t("a set is tax tokens only or different goods only; tax and goods do not mix"),
    t("the goods of one set must all be different"),
)


def set_problem(cards: Mapping[str, int], cost: int, words: SetWords = CARD_SETS) -> Msg | None:
    """Why these cards are not one valid set paying `cost` (R6.1, E6.3), or None if they are;
    in the ruleset's words for its pieces and goods."""
    size = sum(cards.values())
    if TAX in cards and cards[TAX] != size:
        return words.mixed
    if TAX not in cards and any(n > 1 for n in cards.values()):
        return words.repeated
    if size < cost:
        return t("the set is worth %(size)s but the item costs %(cost)s", size=size, cost=cost)
    return None


def commodities_can_pay(held: Mapping[str, int], costs: Sequence[int]) -> bool:
    """Gale-Ryser: can each cost be paid by that many different commodities, all at once?"""
    demands = sorted((c for c in costs if c > 0), reverse=True)
    counts = [n for card, n in held.items() if card != TAX and n > 0]
    running = 0
    for k, demand in enumerate(demands, start=1):
        running += demand
        if running > sum(min(n, k) for n in counts):
            return False
    return True


def _commodity_sets(held: Mapping[str, int], costs: Sequence[int]) -> list[CardSet]:
    """Concrete sets for `costs`, known to be payable: largest first, each taking the
    commodities held most (then by name), backtracking only if that choice would strand
    the remaining costs."""
    remaining = Counter({c: n for c, n in held.items() if c != TAX and n > 0})
    order = sorted(range(len(costs)), key=lambda i: -costs[i])
    sets: list[CardSet] = [Counter() for _ in costs]

    def assign(position: int) -> bool:
        if position == len(order):
            return True
        index = order[position]
        ranked = sorted((c for c in remaining if remaining[c] > 0), key=lambda c: (-remaining[c], c))
        rest = [costs[i] for i in order[position + 1 :]]
        for choice in combinations(ranked, costs[index]):
            for card in choice:
                remaining[card] -= 1
            if commodities_can_pay(remaining, rest) and assign(position + 1):
                sets[index] = Counter(choice)
                return True
            for card in choice:
                remaining[card] += 1
        return False

    if not assign(0):  # pragma: no cover - commodities_can_pay said it fits
        raise AssertionError("Gale-Ryser feasibility without a construction")
    return sets


def _tax_choices(costs: Sequence[int], tax: int) -> list[tuple[int, int]]:
    """Every way to pay some purchases with tax, as (tax spent, mask), cheapest first and,
    at equal cost, the smallest mask first.

    Purchases of equal cost are interchangeable for feasibility, so only how many of each
    cost take tax matters, and those are the earliest of that cost (the smallest mask with
    those counts). That keeps the choices to a few hundred however long the list is."""
    groups: dict[int, list[int]] = {}
    for index, cost in enumerate(costs):
        if cost > 0:
            groups.setdefault(cost, []).append(index)
    values = sorted(groups)
    choices: list[tuple[int, int]] = []

    def extend(position: int, spent: int, mask: int) -> None:
        if position == len(values):
            choices.append((spent, mask))
            return
        cost, indices = values[position], groups[values[position]]
        taken = mask
        for count in range(len(indices) + 1):
            if spent + count * cost > tax:
                break
            extend(position + 1, spent + count * cost, taken)
            if count < len(indices):
                taken |= 1 << indices[count]

    extend(0, 0, 0)
    return sorted(choices)


def _plan_all(hand: Mapping[str, int], costs: Sequence[int]) -> list[CardSet] | None:
    """Sets paying every cost, spending the fewest tax cards; None if impossible."""
    for _spent, mask in _tax_choices(costs, hand.get(TAX, 0)):
        others = [i for i in range(len(costs)) if not mask >> i & 1]
        if commodities_can_pay(hand, [costs[i] for i in others]):
            break
    else:
        return None
    commodity_sets = _commodity_sets(hand, [costs[i] for i in others])
    sets: list[CardSet] = [Counter() for _ in costs]
    for i in range(len(costs)):
        if mask >> i & 1:
            sets[i] = Counter({TAX: costs[i]})
    for i, cards in zip(others, commodity_sets, strict=True):
        sets[i] = cards
    return sets


def can_pay(hand: Mapping[str, int], costs: Sequence[int]) -> bool:
    """Whether sets from `hand` pay every one of `costs` at once (their order does not matter).
    A receipt asks this once per purchase line, most often the same question again (a list of
    lines the purse cannot pay): the answers are kept."""
    return _can_pay(tuple(sorted((card, n) for card, n in hand.items() if n > 0)), tuple(sorted(costs)))


@functools.lru_cache(maxsize=4096)
def _can_pay(hand: tuple[tuple[str, int], ...], costs: tuple[int, ...]) -> bool:
    positive = [cost for cost in costs if cost > 0]
    if sum(positive) > sum(n for _card, n in hand):
        return False
    if sum(positive) <= dict(hand).get(TAX, 0):
        return True  # tax cards alone pay everything
    return _plan_all(dict(hand), positive) is not None


def plan_payment(hand: Mapping[str, int], costs: Sequence[int]) -> list[CardSet]:
    """Sets paying the longest payable prefix of `costs` (one set per purchase, in order).

    A prefix costing more cards than the hand holds cannot be paid, and a payable prefix
    stays payable when shortened, so the longest one is found by bisection below that bound:
    a list of a thousand purchases costs a handful of plans, not a thousand."""
    cards, total, bound = sum(hand.values()), 0, 0
    for cost in costs:
        total += cost
        if total > cards:
            break
        bound += 1
    best: list[CardSet] = []
    low, high = 0, bound  # the prefix of length `low` is payable; longer than `high` is not
    while low < high:
        middle = (low + high + 1) // 2
        plan = _plan_all(hand, costs[:middle])
        if plan is None:
            high = middle - 1
        else:
            low, best = middle, plan
    return best
