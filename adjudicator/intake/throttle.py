"""What a stranger's mail may cost the judge: a few password checks, a few replies.

Wrong passwords are counted per civilization and sender address, replies to unauthenticated
mail per address and per game, over a sliding window (adjudicator/limits.py). The counts are
read from the inbox records of the window (inbox/<key>.toml says `wrong_password` and
`replied`), once per game and run, so they hold across runs with no file of their own.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.limits import (
    PASSWORD_FAILURES,
    PASSWORD_WINDOW,
    REPLIES_PER_ADDRESS,
    REPLIES_PER_GAME,
    REPLY_WINDOW,
)
from adjudicator.game.game import Game
from adjudicator.game.storage import read_toml


@dataclass
class _GameCounts:
    wrong: Counter[tuple[str, str]] = field(default_factory=Counter)  # (civ, address) -> wrong passwords
    replies: Counter[str] = field(default_factory=Counter)  # address -> replies to unauthenticated mail


@dataclass
class Throttle:
    """The counts of one run, per game id, read from the records when the game is first met."""

    now: datetime
    games: dict[str, _GameCounts] = field(default_factory=dict)

    def _counts(self, game: Game) -> _GameCounts:
        gid = game.settings.id
        if gid not in self.games:
            self.games[gid] = _recent(game, self.now)
        return self.games[gid]

    def may_guess(self, game: Game, civ: str, address: str) -> bool:
        """Whether a password from this address for this civilization is still checked."""
        return self._counts(game).wrong[(civ, address)] < PASSWORD_FAILURES

    def wrong_guess(self, game: Game, civ: str, address: str) -> int:
        """Count a wrong password; returns how many this address gave in the window."""
        counts = self._counts(game)
        counts.wrong[(civ, address)] += 1
        return counts.wrong[(civ, address)]

    def may_reply(self, game: Game, address: str) -> bool:
        """Whether an unauthenticated mail from this address may still be answered."""
        counts = self._counts(game)
        return counts.replies[address] < REPLIES_PER_ADDRESS and counts.replies.total() < REPLIES_PER_GAME

    def replied(self, game: Game, address: str) -> None:
        self._counts(game).replies[address] += 1


def _recent(game: Game, now: datetime) -> _GameCounts:
    """The wrong passwords and unauthenticated replies the game's inbox records in the window;
    only records written in it by the clock are opened (a long game has thousands)."""
    counts = _GameCounts()
    oldest = time.time() - max(PASSWORD_WINDOW, REPLY_WINDOW).total_seconds() - 60
    for meta in game.directory.inbox.glob("*.toml"):
        try:
            if meta.stat().st_mtime < oldest:
                continue
            entry = read_toml(meta)
        except (OSError, AdjudicatorError):
            continue
        received = entry.get("received")
        if not isinstance(received, datetime) or received.tzinfo is None:
            continue
        address = str(entry.get("from", ""))
        if entry.get("wrong_password") and received >= now - PASSWORD_WINDOW:
            counts.wrong[(str(entry.get("power", "")), address)] += 1
        if entry.get("replied") and not entry.get("authenticated") and received >= now - REPLY_WINDOW:
            counts.replies[address] += 1
    return counts
