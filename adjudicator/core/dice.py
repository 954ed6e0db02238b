"""Verifiable dice: a committed SHA-256 hash chain of seeds and HMAC-derived d6 rolls.

At creation a secret root s_K is drawn and s_{i-1} = SHA-256(s_i) is computed down to s_0,
which is published as the commitment. Running phase number i rolls with seed s_i; roll j
is the first attempt a whose HMAC-SHA256(s_i, "<game>/<i>/<j>/<a>") starts with a byte
below 252, mapped to b % 6 + 1 (252 = 42 * 6, so every face is equally likely). Revealing
s_i after the phase lets anyone check it against the commitment and recompute the rolls.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from adjudicator.core.dice_proof import check_phase, roll_value
from adjudicator.core.errors import DiceError

CHAIN_LENGTH = 4096


class DiceSource(StrEnum):
    CHAIN = "chain"
    EXTERNAL = "external"


@dataclass(frozen=True, slots=True)
class Roll:
    """One die: its number within the phase, its face and what it was rolled for."""

    number: int
    value: int
    purpose: str  # a message (adjudicator.core.i18n.Msg) where the rules give one, kept as one in history


class Dice(Protocol):
    """What the engine sees of the dice: one d6 at a time, each with its purpose, and how
    many were rolled so far (so events can cite roll numbers)."""

    def roll(self, purpose: str) -> int: ...

    @property
    def used(self) -> int: ...

    def sealed(self) -> Dice:
        """Dice for what must stay hidden until the game ends, such as the order of a face-down
        deck: published rolls would give it away, since anyone can redo a shuffle from them."""
        ...


def choose_index(dice: Dice, count: int, purpose: str) -> int:
    """A uniform choice among `count` items with d6s: base-6 digits, rejecting the overflow."""
    if count <= 1:
        return 0
    digits, span = 1, 6
    while span < count:
        digits, span = digits + 1, span * 6
    limit = span - span % count
    while True:
        value = 0
        for _ in range(digits):
            value = value * 6 + dice.roll(purpose) - 1
        if value < limit:
            return value % count


def new_root() -> bytes:
    return secrets.token_bytes(32)


def seed_for(root: bytes, phase_number: int) -> bytes:
    """s_i, found by hashing the root K - i times."""
    if not 0 <= phase_number <= CHAIN_LENGTH:
        raise DiceError(
            f"phase number {phase_number} is outside the dice chain (0 to {CHAIN_LENGTH}); "
            "start a new game to continue with fresh dice"
        )
    seed = root
    for _ in range(CHAIN_LENGTH - phase_number):
        seed = hashlib.sha256(seed).digest()
    return seed


def commitment_for(root: bytes) -> str:
    return seed_for(root, 0).hex()


@dataclass(slots=True)
class ChainDice:
    """Rolls from the committed chain for one phase, remembering each roll. Its sealed rolls
    come from the chain's secret root, which no phase reveals: they are HMACs of the root under
    "<game>/sealed/<i>/<j>/<a>", checked once the root is published at the game's end."""

    game_id: str
    phase_number: int
    seed: bytes
    rolls: list[Roll] = field(default_factory=list)
    root: bytes = b""
    hidden: ChainDice | None = None

    def sealed(self) -> ChainDice:
        if not self.root:
            raise DiceError("this phase's sealed rolls need the dice root from secrets.toml")
        if self.hidden is None:
            self.hidden = ChainDice(f"{self.game_id}/sealed", self.phase_number, self.root)
        return self.hidden

    @property
    def used(self) -> int:
        return len(self.rolls)

    def roll(self, purpose: str) -> int:
        number = len(self.rolls)
        value = roll_value(self.seed, self.game_id, self.phase_number, number)
        self.rolls.append(Roll(number, value, purpose))
        return value


@dataclass(slots=True)
class ScriptedDice:
    """Rolls given in advance: from an external dice server (`--dice`) or a rule case."""

    values: Sequence[int]
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        for position, value in enumerate(self.values, start=1):
            if not 1 <= value <= 6:
                raise DiceError(f"die number {position} is {value}; every die is 1 to 6")

    @property
    def used(self) -> int:
        return len(self.rolls)

    def sealed(self) -> ScriptedDice:
        """Given rolls are all in the open: hidden draws take the next of them too."""
        return self

    def roll(self, purpose: str) -> int:
        number = len(self.rolls)
        if number >= len(self.values):
            raise DiceError(
                f"{len(self.values)} dice were given but the phase needs more "
                f"(roll {number + 1} is for {purpose}); give all the rolls with --dice"
            )
        value = self.values[number]
        self.rolls.append(Roll(number, value, purpose))
        return value


def parse_dice_list(text: str) -> list[int]:
    """`6,3,2` or `6 3 2` as given on the command line."""
    values: list[int] = []
    for item in text.replace(",", " ").split():
        if not item.isdigit() or not 1 <= int(item) <= 6:
            raise DiceError(f"'{item}' is not a die; write the rolls as 6,3,2 with faces 1 to 6")
        values.append(int(item))
    return values


@dataclass(frozen=True, slots=True)
class DiceRecord:
    """What a phase publishes about its dice, as stored in history and printed in reports."""

    phase_number: int
    source: DiceSource
    seed: str  # hex of s_i; empty when the rolls came from outside
    rolls: tuple[Roll, ...]


def verify_record(game_id: str, commitment: str, record: DiceRecord) -> list[str]:
    """Every discrepancy between a published record and the chain; empty when it verifies."""
    if record.source is DiceSource.EXTERNAL:
        return []
    rolls = [(r.number, r.value, r.purpose) for r in record.rolls]
    return check_phase(game_id, commitment, record.phase_number, record.seed, rolls)


def verify_records(game_id: str, commitment: str, records: Iterable[DiceRecord]) -> list[str]:
    problems: list[str] = []
    for record in records:
        problems.extend(verify_record(game_id, commitment, record))
    return problems
