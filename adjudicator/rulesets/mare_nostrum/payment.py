"""Paying for purchases with sets of cards (R6.1).

A set is tax cards only, or commodity cards all different; it pays one item costing at most
its number of cards. Given a hand and the costs of a purchase list, `plan_payment` finds sets
that pay the longest possible prefix of the list, exactly (not greedily).

Overpaying never helps, so a cost c is paid by exactly c tax cards or by c different
commodities. Which purchases take tax is tried exhaustively (lists are short); whether the
others can all be paid by distinct-commodity sets is a 0-1 matrix question (sets x
commodities, row sums = costs, column sums <= cards held) answered by the Gale-Ryser
condition: sorted descending, the k largest costs never exceed sum(min(held, k)).
Among plans paying the same prefix, the one spending fewest tax cards wins, because unused
commodities are discarded at the end of the phase while two tax cards may be kept (R6.8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from adjudicator.rulesets.mare_nostrum.components import TAX

CardSet = Counter[str]


def set_problem(cards: Mapping[str, int], cost: int) -> str | None:
    """Why these cards are not one valid set paying `cost` (R6.1), or None if they are."""
    size = sum(cards.values())
    if TAX in cards and cards[TAX] != size:
        return "a set is tax cards only or different commodities only; tax and commodities do not mix"
    if TAX not in cards and any(n > 1 for n in cards.values()):
        return "the commodities of one set must all be different"
    if size < cost:
        return f"the set is worth {size} but the item costs {cost}"
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


def _plan_all(hand: Mapping[str, int], costs: Sequence[int]) -> list[CardSet] | None:
    """Sets paying every cost, spending the fewest tax cards; None if impossible."""
    tax = hand.get(TAX, 0)
    best: tuple[int, int] | None = None
    for mask in range(1 << len(costs)):
        by_tax = [i for i in range(len(costs)) if mask >> i & 1]
        spent = sum(costs[i] for i in by_tax)
        if spent > tax or (best is not None and spent >= best[0]):
            continue
        if commodities_can_pay(hand, [costs[i] for i in range(len(costs)) if not mask >> i & 1]):
            best = (spent, mask)
    if best is None:
        return None
    mask = best[1]
    others = [i for i in range(len(costs)) if not mask >> i & 1]
    commodity_sets = _commodity_sets(hand, [costs[i] for i in others])
    sets: list[CardSet] = [Counter() for _ in costs]
    for i in range(len(costs)):
        if mask >> i & 1 and costs[i] > 0:
            sets[i] = Counter({TAX: costs[i]})
    for i, cards in zip(others, commodity_sets, strict=True):
        sets[i] = cards
    return sets


def plan_payment(hand: Mapping[str, int], costs: Sequence[int]) -> list[CardSet]:
    """Sets paying the longest payable prefix of `costs` (one set per purchase, in order)."""
    for length in range(len(costs), 0, -1):
        plan = _plan_all(hand, costs[:length])
        if plan is not None:
            return plan
    return []
