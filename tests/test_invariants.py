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

from adjudicator.dice import ChainDice
from adjudicator.game import default_board_path, load_board
from adjudicator.orders import OrderParser, parse_submission
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, GENERAL_HEROES, UNIT_STOCK, WONDERS

RULESET = find_ruleset("mare-nostrum")
BOARD = load_board(RULESET, default_board_path(RULESET))
PARSER = OrderParser(RULESET.grammar, RULESET.transformer())
PLAYERS = {3: ["Carthage", "Greece", "Babylon"], 4: ["Rome", "Carthage", "Greece", "Egypt"],
           5: ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]}  # fmt: skip
CARDS = list(CARD_TOTALS)
PIECES = ["city", "caravan", "temple", "market", "fortress", "legion", "trireme", "influence"]
BUYABLE = [*GENERAL_HEROES, *WONDERS, "Julius Caesar", "Hannibal"]


def _orders(rng: random.Random, position: Any, civ: str) -> str:
    """Plausible order text: mostly sensible, sometimes wrong, never filtered by us."""
    data = RULESET.position_to_data(position)
    hand = [c for c, n in data["players"][civ]["hand"].items() for _ in range(n)]
    mine = [p for p, s in data["provinces"].items() if s["influence"] == civ]
    legions = [p for p, s in data["provinces"].items() if s["legions"].get(civ)]
    lines: list[str] = []
    if data["phase"] == "trade":
        lines.append(f"trade {rng.randint(0, 4)}")
        if hand:
            lines.append("offer " + ", ".join(rng.sample(hand, min(len(hand), rng.randint(1, 4)))))
        lines += [f"take {rng.choice([*CARDS, 'commodity', 'any'])}" for _ in range(rng.randint(0, 3))]
        lines.append(f"give {rng.choice(CARDS)}")
    elif data["phase"] == "build":
        lines.append("sequence " + ", ".join(rng.sample(list(data["players"]), 3)))
        for _ in range(rng.randint(0, 4)):
            place = rng.choice(mine + list(BOARD.provinces)) if mine else rng.choice(list(BOARD.provinces))
            piece = rng.choice(PIECES)
            if piece == "caravan" and BOARD.provinces[place].commodities:
                lines.append(f"build caravan on {rng.choice(BOARD.provinces[place].commodities)} in {place}")
            else:
                lines.append(f"build {piece} in {place}")
        if rng.random() < 0.2:
            lines.append(f"buy {rng.choice(BUYABLE)}")
        if rng.random() < 0.3:
            lines.append(f"exchange {rng.choice(CARDS)} for tax")
        lines.append(f"keep {rng.randint(0, 2)} tax")
    else:
        lines.append("sequence " + ", ".join(rng.sample(list(data["players"]), 2)))
        for port in [p for p, s in data["provinces"].items() if s["port"].get(civ)]:
            lines.append(f"sail trireme from {port} to {rng.choice(BOARD.provinces[port].seas)}")
        for sea in [s for s, t in data["seas"].items() if t["triremes"].get(civ)]:
            lines.append(f"sail trireme from {sea} to {rng.choice(BOARD.seas[sea].seas)}")
            lines.append(f"attack {rng.choice(list(data['players']))} in {sea}")
        for origin in legions:
            neighbours = list(BOARD.provinces[origin].land) or list(BOARD.provinces)
            then = rng.choice(["", " then occupy", " then convert", " then sack city", " then sack temple"])
            count = rng.randint(1, data["provinces"][origin]["legions"][civ])
            lines.append(f"move {count} legions from {origin} to {rng.choice(neighbours)}{then}")
        lines.append(rng.choice(["casualties fortress, legion", "casualties legion", "helen on", "artemis gold"]))
    return "\n".join(lines)


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
            submission = parse_submission(_orders(rng, position, civ), PARSER, RULESET.is_order)
            lines = RULESET.validate(BOARD, position, civ, submission.lines)
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
