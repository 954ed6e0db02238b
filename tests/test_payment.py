"""The payment solver (R6.1) against brute force on small hands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.rulesets.kit.payment import plan_payment, set_problem

COMMODITIES = ["wine", "fish", "gold", "oil", "gems"]
COSTS = [0, 2, 3, 5, 6]


def _sets(hand: Counter[str], cost: int) -> Iterator[Counter[str]]:
    """Every valid set (R6.1) in the hand paying `cost`, overpaying included."""
    if cost == 0:
        yield Counter()
        return
    for size in range(cost, hand["tax"] + 1):
        yield Counter({"tax": size})
    kinds = [c for c in COMMODITIES if hand[c] > 0]
    for size in range(cost, len(kinds) + 1):
        for chosen in combinations(kinds, size):
            yield Counter(chosen)


def _longest_prefix(hand: Counter[str], costs: Sequence[int]) -> int:
    if not costs:
        return 0
    best = 0
    for cards in _sets(hand, costs[0]):
        best = max(best, 1 + _longest_prefix(hand - cards, costs[1:]))
        if best == len(costs):
            break
    return best


hands = st.builds(
    lambda tax, items: Counter({"tax": tax, **Counter(items)}),
    st.integers(min_value=0, max_value=7),
    st.lists(st.sampled_from(COMMODITIES), max_size=8),
)


@settings(max_examples=400, deadline=None)
@given(hand=hands, costs=st.lists(st.sampled_from(COSTS), min_size=1, max_size=4))
def test_plan_pays_the_longest_prefix_brute_force_can(hand: Counter[str], costs: list[int]) -> None:
    plan = plan_payment(hand, costs)
    assert len(plan) == _longest_prefix(hand, costs)
    spent: Counter[str] = Counter()
    for cards, cost in zip(plan, costs, strict=False):
        assert cost == 0 or set_problem(cards, cost) is None, (cards, cost)
        spent += cards
    assert not spent - hand, "the plan spends cards the hand does not hold"


@settings(max_examples=200, deadline=None)
@given(hand=hands, costs=st.lists(st.sampled_from(COSTS[1:]), min_size=1, max_size=3))
def test_plan_spends_the_fewest_tax_cards(hand: Counter[str], costs: list[int]) -> None:
    plan = plan_payment(hand, costs)
    n = len(plan)

    def least_tax(rest: Counter[str], todo: Sequence[int]) -> int | None:
        if not todo:
            return 0
        options = []
        for cards in _sets(rest, todo[0]):
            if sum(cards.values()) != todo[0]:
                continue  # an overpaying set never saves tax
            tail = least_tax(rest - cards, todo[1:])
            if tail is not None:
                options.append(cards["tax"] + tail)
        return min(options) if options else None

    assert sum(c["tax"] for c in plan) == least_tax(hand, costs[:n])


def test_seed_sets_example() -> None:
    hand = Counter(tax=3, grain=2, perfume=1, livestock=1, gold=1, slaves=1)
    assert len(plan_payment(hand, [3, 3, 3])) == 3, "three sets of three (seed -fr)"
    assert plan_payment(hand, [6]) == [], "no set of six different commodities (two grain)"
