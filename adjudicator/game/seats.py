"""Seats: who holds each civilization, the phases he missed, and when his seat opens (issue 32).

Mail games die of players, not of rules. So each adjudication counts, per seat, the phases whose
orders were due from its holder and did not come; game.toml's `[seats]` says after how many in a
row everyone is warned, and after how many (in a row, or in all) the seat is declared open. An
open seat has no player: it plays the game's default orders, its pieces and cards stay where
they are, and nobody is waited for. `adjudicator seat GAME CIV --player EMAIL` gives it to a
substitute.

seats.toml (the moderator's only, like secrets.toml) keeps every tenure: who held which seat
from which phase, and what he played and missed there. A player's record stays his when another
takes his seat; the tenure of a player who left keeps his secret's hash, so that a newcomer who
was handed the old secret is told that a new one was mailed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from adjudicator.core.fields import Fields
from adjudicator.game.directory import GameDirectory
from adjudicator.game.players import Player
from adjudicator.game.storage import PRIVATE, read_toml, write_toml_atomic

SEATS_KEYS = frozenset({"warn_after", "open_after", "open_after_total"})
DEFAULT_WARN_AFTER = 2  # missed phases in a row before everyone is told
DEFAULT_OPEN_AFTER = 0  # missed phases in a row before the seat opens (0: the moderator opens it)
DEFAULT_OPEN_AFTER_TOTAL = 0  # missed phases in all before the seat opens (0: never for this reason)


@dataclass(frozen=True, slots=True)
class SeatRules:
    """game.toml's `[seats]`: 0 turns a rule off."""

    warn_after: int = DEFAULT_WARN_AFTER
    open_after: int = DEFAULT_OPEN_AFTER
    open_after_total: int = DEFAULT_OPEN_AFTER_TOTAL

    @classmethod
    def from_fields(cls, f: Fields) -> SeatRules:
        f.only(SEATS_KEYS)
        return cls(
            f.integer("warn_after", DEFAULT_WARN_AFTER, minimum=0),
            f.integer("open_after", DEFAULT_OPEN_AFTER, minimum=0),
            f.integer("open_after_total", DEFAULT_OPEN_AFTER_TOTAL, minimum=0),
        )

    def to_data(self) -> dict[str, int]:
        return {"warn_after": self.warn_after, "open_after": self.open_after, "open_after_total": self.open_after_total}


@dataclass(frozen=True, slots=True)
class Tenure:
    """One player's time in one seat."""

    civ: str
    email: str
    name: str
    since: int  # the first phase (by number) he held it
    until: int = 0  # the last phase he held it, once he has left it; 0 while he holds it
    played: int = 0  # phases whose orders were due from him and came
    missed: int = 0  # phases whose orders were due from him and did not
    in_row: int = 0  # phases missed since his last orders
    warned: bool = False  # everyone was told of this run of missed phases
    secret_hash: str = ""  # kept once he has left (see the module's docstring)
    kept: Mapping[str, Any] = field(default_factory=dict)  # his [[player]] table, when the count opened the seat

    @property
    def opened_by_count(self) -> bool:
        """Whether an adjudication opened this seat (a rollback past it gives it back)."""
        return bool(self.kept)

    @property
    def holding(self) -> bool:
        return self.until == 0

    def to_data(self) -> dict[str, Any]:
        data = {f: getattr(self, f) for f in self.__slots__ if f not in ("secret_hash", "kept")}
        data |= {"secret_hash": self.secret_hash} if self.secret_hash else {}
        return data | ({"kept": dict(self.kept)} if self.kept else {})

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tenure:
        f = Fields(dict(data))
        return cls(
            f.text("civ"),
            f.text("email"),
            f.text("name", ""),
            f.integer("since", 1, minimum=0),
            f.integer("until", 0, minimum=0),
            f.integer("played", 0, minimum=0),
            f.integer("missed", 0, minimum=0),
            f.integer("in_row", 0, minimum=0),
            bool(data.get("warned", False)),
            f.text("secret_hash", ""),
            dict(data["kept"]) if isinstance(data.get("kept"), dict) else {},
        )


@dataclass(frozen=True, slots=True)
class SeatNotice:
    """What everyone is told: a seat's holder missed `in_row` phases in a row (`warn`), his seat
    opened for it (`open`), or he left it (`left`: he resigned, or the moderator opened it)."""

    kind: Literal["warn", "open", "left"]
    civ: str
    email: str
    in_row: int
    missed: int

    @property
    def summary(self) -> str:
        """One line for the moderator's screen (the players' mails say it in their language)."""
        if self.kind == "warn":
            return f"{self.civ} warned ({self.in_row} phases missed in a row)"
        if self.kind == "open":
            return f"{self.civ}'s seat is open ({self.missed} phases missed, {self.in_row} in a row)"
        return f"{self.civ}'s seat is open (its player left)"


@dataclass(frozen=True, slots=True)
class Ledger:
    counted: int = 0  # the last phase whose missed orders are counted (adjudication may run again)
    tenures: tuple[Tenure, ...] = field(default_factory=tuple)

    def holder(self, civ: str) -> Tenure | None:
        return next((t for t in reversed(self.tenures) if t.civ == civ and t.holding), None)

    def left(self, civ: str) -> tuple[Tenure, ...]:
        """The players who held this seat before, the last one first."""
        return tuple(t for t in reversed(self.tenures) if t.civ == civ and not t.holding)

    def former(self, civ: str) -> Tenure | None:
        """The player who held this seat last before its holder now (or before it opened)."""
        return next(iter(self.left(civ)), None)


def _last(tenures: Sequence[Tenure], civ: str) -> int | None:
    """Where the seat's latest tenure stands in `tenures`."""
    return next((i for i in range(len(tenures) - 1, -1, -1) if tenures[i].civ == civ), None)


def seats_file(directory: GameDirectory) -> Any:
    return directory.root / "seats.toml"


def load(directory: GameDirectory) -> Ledger:
    path = seats_file(directory)
    if not path.exists():
        return Ledger()
    data = read_toml(path)
    counted = Fields(data).integer("counted", 0, minimum=0)
    return Ledger(counted, tuple(Tenure.from_data(entry) for entry in data.get("tenure", [])))


def save(directory: GameDirectory, ledger: Ledger) -> None:
    write_toml_atomic(
        seats_file(directory),
        {"counted": ledger.counted, "tenure": [t.to_data() for t in ledger.tenures]},
        mode=PRIVATE,
    )


def with_holders(ledger: Ledger, players: Iterable[Player], phase_number: int) -> Ledger:
    """The ledger with a tenure for every seat's present holder: a game begun before seats were
    counted starts its tenures now, and a holder changed by hand in game.toml ends the last one."""
    tenures = list(ledger.tenures)
    for player in players:
        current = _last(tenures, player.civ)
        held = current is not None and tenures[current].holding
        if held and current is not None and (player.open or tenures[current].email != player.email):
            tenures[current] = replace(tenures[current], until=max(phase_number - 1, tenures[current].since))
            held = False
        if not held and not player.open:
            tenures.append(Tenure(player.civ, player.email, player.name, since=phase_number))
    return replace(ledger, tenures=tuple(tenures))


def count_phase(
    ledger: Ledger,
    rules: SeatRules,
    phase_number: int,
    due: Sequence[str],
    missed: Iterable[str],
) -> tuple[Ledger, list[SeatNotice]]:
    """The ledger after phase `phase_number`, whose orders were due from `due` and did not come
    from `missed`, and what everyone is to be told. A phase counted already counts once."""
    if phase_number <= ledger.counted:
        return ledger, []
    absent = set(missed)
    tenures = list(ledger.tenures)
    notices: list[SeatNotice] = []
    for index, tenure in enumerate(tenures):
        if not tenure.holding or tenure.civ not in due:
            continue
        if tenure.civ not in absent:
            tenures[index] = replace(tenure, played=tenure.played + 1, in_row=0, warned=False)
            continue
        tenure = replace(tenure, missed=tenure.missed + 1, in_row=tenure.in_row + 1)
        in_row_out = rules.open_after and tenure.in_row >= rules.open_after
        total_out = rules.open_after_total and tenure.missed >= rules.open_after_total
        if in_row_out or total_out:
            notices.append(SeatNotice("open", tenure.civ, tenure.email, tenure.in_row, tenure.missed))
            tenure = replace(tenure, until=phase_number)
        elif rules.warn_after and tenure.in_row >= rules.warn_after and not tenure.warned:
            notices.append(SeatNotice("warn", tenure.civ, tenure.email, tenure.in_row, tenure.missed))
            tenure = replace(tenure, warned=True)
        tenures[index] = tenure
    return Ledger(phase_number, tuple(tenures)), notices


def opened(ledger: Ledger, civ: str, phase_number: int, secret_hash: str) -> Ledger:
    """The ledger once the holder of `civ` has left it (resigned, or the moderator opened it)
    before phase `phase_number`, his secret's hash kept."""
    tenures = tuple(
        replace(t, until=max(phase_number - 1, t.since), secret_hash=secret_hash) if t.civ == civ and t.holding else t
        for t in ledger.tenures
    )
    return replace(ledger, tenures=tenures)


def with_seat_kept(ledger: Ledger, civ: str, player: Mapping[str, Any]) -> Ledger:
    """The last tenure of `civ` that ended (the count opened it), with the player's [[player]]
    table as it was: his secret's hash for the former-secret answer, and all of it for a
    rollback past this phase to give the seat back."""
    last = _last(ledger.tenures, civ)
    if last is None or ledger.tenures[last].holding:
        return ledger
    tenures = list(ledger.tenures)
    tenures[last] = replace(tenures[last], secret_hash=str(player.get("secret_hash", "")), kept=dict(player))
    return replace(ledger, tenures=tuple(tenures))


def given_back(ledger: Ledger, civ: str, to: int) -> tuple[Ledger, Tenure | None]:
    """After a rollback to phase `to`: the tenure of `civ` that an adjudication from `to` on
    ended, held again, if it is the seat's last (None when there is none: a substitute seated
    since keeps what the moderator decided, even if the seat is open again)."""
    last = _last(ledger.tenures, civ)
    if last is None:
        return ledger, None
    tenure = ledger.tenures[last]
    if not (tenure.opened_by_count and tenure.until >= to):
        return ledger, None
    tenures = list(ledger.tenures)
    tenures[last] = replace(tenure, until=0, kept={}, secret_hash="")
    return replace(ledger, tenures=tuple(tenures)), tenure


def recounted(ledger: Ledger, phases: Iterable[tuple[int, Sequence[str], Sequence[str]]]) -> Ledger:
    """The ledger counted again from the phases still in history, each (number, whose orders
    were due, whose did not come): after a rollback, the phases set aside no longer count. The
    tenures stay as they are; a warning is given again if the run of missed phases goes on."""
    tenures = [replace(t, played=0, missed=0, in_row=0, warned=False) for t in ledger.tenures]
    counted = 0
    for number, due, missed in sorted(phases):
        for index, tenure in enumerate(tenures):
            if tenure.civ in due and tenure.since <= number and (tenure.holding or number <= tenure.until):
                if tenure.civ in missed:
                    tenures[index] = replace(tenure, missed=tenure.missed + 1, in_row=tenure.in_row + 1)
                else:
                    tenures[index] = replace(tenure, played=tenure.played + 1, in_row=0)
        counted = number
    return Ledger(counted, tuple(tenures))
