"""Players' absences (njudge's SET ABSENCE): a player says when he cannot send orders, and a
deadline that falls inside that window moves to its end. The game limits how many absences
each player may declare and how long each may be ([schedule] absences, absence_max).

Absences are kept in absences.toml and applied whenever a deadline is read, so one declared
ahead of time also moves a deadline set later (at an adjudication, or by the moderator).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from adjudicator.core.errors import UsageError
from adjudicator.core.i18n import t, tn
from adjudicator.core.limits import ABSENCE_YEARS
from adjudicator.game.directory import GameDirectory
from adjudicator.game.schedule import Schedule
from adjudicator.game.storage import PRIVATE, read_toml, write_toml_atomic


@dataclass(frozen=True, slots=True)
class Absence:
    civ: str
    start: datetime
    end: datetime
    declared: datetime

    def to_data(self) -> dict[str, Any]:
        return {"civ": self.civ, "from": self.start, "to": self.end, "declared": self.declared}


class AbsenceRefused(UsageError):
    """An absence the game's limits do not allow, or whose dates make no sense."""


def load(root: Path) -> list[Absence]:
    path = GameDirectory(root).absences_file
    if not path.exists():
        return []
    return [
        Absence(str(entry["civ"]), entry["from"], entry["to"], entry["declared"])
        for entry in read_toml(path).get("absence", [])
    ]


def _save(root: Path, absences: Sequence[Absence]) -> None:
    write_toml_atomic(GameDirectory(root).absences_file, {"absence": [a.to_data() for a in absences]}, mode=PRIVATE)


def moved_deadline(deadline: datetime, absences: Iterable[Absence]) -> datetime:
    """The deadline, moved past the end of every absence it falls in (and of any absence the
    moved deadline falls in in turn)."""
    windows = sorted(absences, key=lambda a: a.start)
    moved = True
    while moved:
        moved = False
        for absence in windows:
            if absence.start <= deadline < absence.end:
                deadline, moved = absence.end, True
    return deadline


def _moment(text: str, zone: ZoneInfo, *, end: bool) -> datetime:
    """`2026-12-24` is that whole day in the game's time zone (from its start, or to its end);
    `2026-12-24T18:00` that moment. A year outside ABSENCE_YEARS is no date a game can mean."""
    try:
        moment = datetime.fromisoformat(text)
        if not ABSENCE_YEARS[0] <= moment.year <= ABSENCE_YEARS[1]:  # 9999-12-31 once overflowed its day's end
            raise ValueError(text)
    except ValueError:
        raise AbsenceRefused(
            t("'%(text)s' is not a date; write e.g. 2026-12-24 or 2026-12-24T18:00", text=text)
        ) from None
    if "T" in text.upper():
        return moment.replace(tzinfo=zone)
    day = datetime.combine(moment.date(), time(0), tzinfo=zone)
    return day + timedelta(days=1) if end else day


Shown = Callable[[datetime], str]  # a moment as the player reads it (his language and time zone)


def declare(
    root: Path,
    schedule: Schedule,
    civ: str,
    start_text: str,
    end_text: str,
    now: datetime,
    shown: Shown,
    zone_name: str = "",
) -> str:
    """Record an absence within the game's limits; the sentence to answer the player with. Its
    days are the player's: from midnight in his time zone (the game's unless he chose one)."""
    zone = ZoneInfo(zone_name or schedule.zone)
    start = max(_moment(start_text, zone, end=False), now)
    end = _moment(end_text, zone, end=True)
    if end <= now:
        raise AbsenceRefused(t("that absence is already over (%(end)s); give days to come", end=shown(end)))
    if end <= start:
        raise AbsenceRefused(t("that absence ends before it begins; give the first day, then the last"))
    if end - start > schedule.absence_max:
        longest = _span(schedule.absence_max)
        raise AbsenceRefused(
            t("an absence may last at most %(longest)s in this game; give a shorter one", longest=longest)
        )
    absences = load(root)
    used = [a for a in absences if a.civ == civ]
    if len(used) >= schedule.absences:
        raise AbsenceRefused(
            tn(
                "you have declared %(count)s absence, as many as this game allows; "
                "'absence cancel' withdraws one that has not begun",
                "you have declared %(count)s absence(s), as many as this game allows; "
                "'absence cancel' withdraws one that has not begun",
                len(used),
            )
        )
    _save(root, [*absences, Absence(civ, start, end, now)])
    left = schedule.absences - len(used) - 1
    return t(
        "Absence recorded: from %(start)s to %(end)s. A deadline in that time moves to its end. "
        "You may declare %(left)s more.",
        start=shown(start),
        end=shown(end),
        left=left,
    )


def cancel(root: Path, civ: str, now: datetime, shown: Shown) -> str:
    """Withdraw a player's absences that have not begun, and end one that has, now."""
    absences = load(root)
    kept: list[Absence] = []
    changed = 0
    for absence in absences:
        if absence.civ != civ or absence.end <= now:
            kept.append(absence)
        elif absence.start > now:
            changed += 1  # never began: it does not count against the limit
        else:
            kept.append(Absence(civ, absence.start, now, absence.declared))
            changed += 1
    if not changed:
        return t("You have no absence now or to come; nothing changed.")
    _save(root, kept)
    return tn(
        "%(count)s absence withdrawn as of %(now)s; deadlines are no longer moved for it.",
        "%(count)s absence(s) withdrawn as of %(now)s; deadlines are no longer moved for them.",
        changed,
        now=shown(now),
    )


def _span(span: timedelta) -> str:
    hours = int(span.total_seconds() // 3600)
    if hours % 24 == 0:
        return tn("%(count)s day", "%(count)s days", hours // 24)
    return tn("%(count)s hour", "%(count)s hours", hours)
