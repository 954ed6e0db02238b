"""A player's record across the games under one root (issue 32): the seats he held, the phases
he played and missed, and how long he takes to send orders, for a moderator choosing a
substitute or a new game's players.

The counts come from each game's seats.toml (game/seats.py); the time to orders from each
phase's opening (its history snapshot's `opened`) to the orders that counted (their
`received`). Phases older than either simply do not count.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from adjudicator.game import seats
from adjudicator.game.directory import GameDirectory
from adjudicator.game.storage import read_toml


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat a player held: which game and civilization, from which phase, until which."""

    game: str
    civ: str
    since: int
    until: int  # 0: he holds it still

    def __str__(self) -> str:
        held = f"from phase {self.since}" if not self.until else f"phases {self.since}-{self.until}, left"
        return f"{self.game} {self.civ} ({held})"


@dataclass
class PlayerRecord:
    email: str
    names: set[str] = field(default_factory=set)
    seats: list[Seat] = field(default_factory=list)
    played: int = 0
    missed: int = 0
    times: list[timedelta] = field(default_factory=list)  # from a phase's opening to his orders

    @property
    def games(self) -> int:
        return len({seat.game for seat in self.seats})

    @property
    def median_time(self) -> timedelta | None:
        if not self.times:
            return None
        return timedelta(seconds=statistics.median(t.total_seconds() for t in self.times))


def records(folders: Iterable[Path]) -> list[PlayerRecord]:
    """Every player of the games in `folders`, the most experienced first."""
    found: dict[str, PlayerRecord] = {}
    for folder in folders:
        directory = GameDirectory(folder)
        game_id = str(read_toml(directory.game_file).get("game", {}).get("id", folder.name))
        for tenure in _tenures(directory):
            record = found.setdefault(tenure.email.lower(), PlayerRecord(tenure.email.lower()))
            if tenure.name:
                record.names.add(tenure.name)
            record.seats.append(Seat(game_id, tenure.civ, tenure.since, tenure.until))
            record.played += tenure.played
            record.missed += tenure.missed
        for email, time in _times_to_orders(directory):
            if email in found:
                found[email].times.append(time)
    return sorted(found.values(), key=lambda r: (-(r.played + r.missed), r.email))


def _tenures(directory: GameDirectory) -> tuple[seats.Tenure, ...]:
    """The game's tenures; a game whose seats were never counted has one per [[player]]."""
    ledger = seats.load(directory)
    if ledger.tenures:
        return ledger.tenures
    players = read_toml(directory.game_file).get("player", [])
    return tuple(
        seats.Tenure(str(p["civ"]), str(p["email"]), str(p.get("name", "")), 1)
        for p in players
        if isinstance(p, dict) and p.get("email") and not p.get("open")
    )


def _times_to_orders(directory: GameDirectory) -> list[tuple[str, timedelta]]:
    """(address, time from the phase's opening to his orders) for every resolved phase that
    says when it opened and who held each seat."""
    times = []
    for path in sorted(directory.history.glob("*.toml")):
        data = read_toml(path)
        opened, holders = data.get("opened"), data.get("seats")
        if not isinstance(opened, datetime) or not isinstance(holders, dict):
            continue
        for civ, email in holders.items():
            meta = directory.orders_folder(path.stem) / f"{civ}.toml"
            received = read_toml(meta).get("received") if meta.exists() else None
            if isinstance(received, datetime) and received >= opened:
                times.append((str(email).lower(), received - opened))
    return times


def shown_time(span: timedelta | None) -> str:
    if span is None:
        return "—"
    hours, seconds = divmod(int(span.total_seconds()), 3600)
    return f"{hours // 24} d {hours % 24} h" if hours >= 24 else f"{hours} h {seconds // 60} min"
