"""Invariants over random games (in the spirit of OpenSpiel's random_sim_test): random
order text for every player, every phase, for 20+ turns; whatever the validator lets
through, the engine must resolve, conserving cards and pieces, deterministically."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.core.dice import ChainDice
from adjudicator.language.submission import parse_submission
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, UNIT_STOCK
from tests.random_play import BOARD, RULESET, random_orders

PARSER = RULESET.parser()
PLAYERS = {3: ["Carthage", "Greece", "Babylon"], 4: ["Rome", "Carthage", "Greece", "Egypt"],
           5: ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]}  # fmt: skip


def _check(position: Any) -> None:
    data = RULESET.position_to_data(position)
    RULESET.position_from_data(BOARD, data)  # the codec re-derives and checks stocks, bank, supply
    hands: Counter[str] = Counter()
    for player in data["players"].values():
        hands.update(player["hand"])
        assert all(0 <= n <= UNIT_STOCK[k] for k, n in player["stock"].items()), player["stock"]
    for card, total in CARD_TOTALS.items():
        assert hands[card] + data["bank"][card] == total, f"{card} is not conserved"
    assert all(n >= 0 for n in data["supply"].values()), data["supply"]
    for pid, province in data["provinces"].items():
        assert all(n > 0 for n in province["legions"].values()), pid
        occupiers = Counter(province["occupied"].values())
        for civ, n in occupiers.items():
            assert n <= province["legions"].get(civ, 0), f"{pid}: {civ} occupies more than its legions"
        assert len(province["cities"]) <= len(BOARD.provinces[pid].cities)
    owners = Counter(card for p in data["players"].values() for card in p["cards"])
    assert all(n == 1 for n in owners.values()), "a hero or wonder has two owners"


def _play(seed: int, players: list[str], turns: int) -> list[Any]:
    rng = random.Random(seed)
    root = hashlib.sha256(str(seed).encode()).digest()
    setup_dice = ChainDice("inv", 0, root)
    position, _ = RULESET.new_position(BOARD, players, setup_dice, {})
    history = []
    phase_number = 1
    while RULESET.phase_info(position).turn <= turns and RULESET.phase_info(position).winner is None:
        orders = {}
        for civ in RULESET.playing(position):
            submission = parse_submission(random_orders(rng, position, civ), PARSER)
            lines = RULESET.validate(BOARD, position, civ, submission.lines, {})
            orders[civ] = [line.order for line in lines if line.ok]
        seed_i = hashlib.sha256(root + phase_number.to_bytes(4, "big")).digest()
        before = position
        position, events = RULESET.resolve(BOARD, before, orders, ChainDice("inv", phase_number, seed_i), False, {})
        again, events_again = RULESET.resolve(BOARD, before, orders, ChainDice("inv", phase_number, seed_i), False, {})
        assert again == position and events_again == events, "the same dice must give the same result"
        _check(position)
        history.append(position)
        phase_number += 1
    return history


@pytest.mark.parametrize("count", [3, 4, 5])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_every_invariant(count: int, seed: int) -> None:
    history = _play(seed, PLAYERS[count], turns=20)
    assert history, "at least one phase was played"
    last = RULESET.phase_info(history[-1])
    assert last.turn > 20 or last.winner is not None
