"""Random but plausible order text for any player and phase: for the invariant tests and
the benchmarks. Mostly sensible, sometimes wrong, never filtered: the validator decides."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.game import default_board_path, load_board
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, GENERAL_HEROES, WONDERS

RULESET = find_ruleset("mare-nostrum")
BOARD = load_board(RULESET, default_board_path(RULESET))

CARDS = list(CARD_TOTALS)
PIECES = ["city", "caravan", "temple", "market", "fortress", "legion", "trireme", "influence"]
BUYABLE = [*GENERAL_HEROES, *WONDERS, "Julius Caesar", "Hannibal"]


def random_orders(rng: random.Random, position: Any, civ: str) -> str:
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
