#!/usr/bin/env python3
"""Check a game's published dice against its commitment, with nothing but Python 3.

The campaign site ships this very file as `verify-dice.py` beside `dice.json`, so a player can
read the whole proof (about a hundred lines, standard library only) and run it himself:

    python3 verify-dice.py dice.json

The chain: the moderator drew a secret root s_K at the start and published the commitment
s_0, where s_{i-1} = SHA-256(s_i). Phase i rolls with seed s_i, revealed after the phase:
hashing it i times must give s_0. Roll j of phase i is b % 6 + 1 for the first attempt a
whose HMAC-SHA256(s_i, "<game>/<i>/<j>/<a>") starts with a byte b below 252 (252 = 42 * 6,
so each face is equally likely). The adjudicator rolls with these same functions.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ACCEPT_BELOW = 252
MAX_ATTEMPTS = 1000


def seed_matches(seed: bytes, phase_number: int, commitment: str) -> bool:
    """Whether hashing s_i i times gives the published s_0."""
    value = seed
    for _ in range(phase_number):
        value = hashlib.sha256(value).digest()
    return hmac.compare_digest(value.hex(), commitment.lower())


def roll_value(seed: bytes, game_id: str, phase_number: int, roll_number: int) -> int:
    for attempt in range(MAX_ATTEMPTS):
        message = f"{game_id}/{phase_number}/{roll_number}/{attempt}".encode()
        first = hmac.new(seed, message, hashlib.sha256).digest()[0]
        if first < ACCEPT_BELOW:
            return first % 6 + 1
    raise ValueError(f"roll {phase_number}/{roll_number} found no fair byte")  # pragma: no cover


def check_phase(
    game_id: str, commitment: str, phase_number: int, seed_hex: str, rolls: Sequence[tuple[int, int, str]]
) -> list[str]:
    """Every discrepancy between one phase's revealed seed and rolls (number, value, purpose)
    and the chain; empty when they verify."""
    where = f"phase {phase_number}"
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return [f"{where}: the revealed seed is not hexadecimal"]
    if not seed_matches(seed, phase_number, commitment):
        return [f"{where}: the revealed seed does not hash to the commitment {commitment[:16]}…"]
    problems = []
    for expected, (number, value, purpose) in enumerate(rolls):
        if number != expected:
            problems.append(f"{where}: roll {number} is out of order (expected {expected})")
            continue
        computed = roll_value(seed, game_id, phase_number, number)
        if computed != value:
            problems.append(f"{where} roll {number} ({purpose}): published {value}, the seed gives {computed}")
    return problems


def check_published(data: Mapping[str, Any]) -> tuple[int, list[str]]:
    """(rolls checked, problems) for a site's dice.json; rolls entered from an external dice
    server cannot be checked here and are not counted."""
    checked, problems = 0, []
    for phase in data["phases"]:
        if phase["source"] != "chain":
            continue
        rolls = [(r["number"], r["value"], r["purpose"]) for r in phase["rolls"]]
        problems += check_phase(data["game"], data["commitment"], phase["phase_number"], phase["seed"], rolls)
        checked += len(rolls)
    return checked, problems


def main(arguments: Sequence[str]) -> int:
    path = Path(arguments[0] if arguments else "dice.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        checked, problems = check_published(data)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot read {path}: {error}; give the dice.json file of the game's site", file=sys.stderr)
        return 2
    if problems:
        print("The dice do NOT verify:\n" + "\n".join(f"  - {p}" for p in problems))
        return 1
    phases = sum(1 for p in data["phases"] if p["source"] == "chain")
    print(
        f"All {checked} rolls of {phases} phases of game {data['game']} verify against the "
        f"commitment {data['commitment']}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
