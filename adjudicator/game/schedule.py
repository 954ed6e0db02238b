"""Deadlines: when the current phase's orders are due, the grace after it, and the time zone
they are shown in. game.toml's [schedule] holds the settings; deadline.toml the deadline of
the phase now open when it was set by `adjudicator deadline` or derived at adjudication."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from adjudicator.core.errors import DataError, UsageError
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import SOURCE

_DURATION = re.compile(r"^\s*(\d+)\s*([mhd])\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}
_PHASES = ("trade", "build", "military", "setup")  # each phase's time from adjudication to its deadline
SCHEDULE_KEYS = frozenset({"deadline", "grace", "timezone", "delay", "remind", "absences", "absence_max", *_PHASES})
DEFAULT_ABSENCES = 2  # absences a player may declare in a game (njudge's custom), unless [schedule] says
DEFAULT_ABSENCE_MAX = timedelta(days=7)


def parse_duration(text: str) -> timedelta:
    """`30m`, `12h`, `2d`."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"'{text}' is not a duration; write e.g. 30m, 12h or 2d")
    return timedelta(**{_UNITS[match.group(2).lower()]: int(match.group(1))})


@dataclass(frozen=True, slots=True)
class Schedule:
    deadline: datetime | None = None  # game.toml's fixed deadline, if the moderator set one there
    grace: timedelta = timedelta(0)
    zone: str = "UTC"
    durations: dict[str, timedelta] | None = None  # phase name -> time from adjudication to the next deadline
    delay: timedelta = timedelta(0)  # `run` waits this long after the last orders came, so a player can revise
    remind: tuple[timedelta, ...] = ()  # `run` reminds missing players this long before the deadline
    absences: int = DEFAULT_ABSENCES  # how many absences each player may declare in the game
    absence_max: timedelta = DEFAULT_ABSENCE_MAX  # the longest one

    @classmethod
    def from_fields(cls, f: Fields) -> Schedule:
        f.only(SCHEDULE_KEYS)
        deadline = f.data.get("deadline")
        if deadline is not None and not (isinstance(deadline, datetime) and deadline.tzinfo):
            raise f.error("deadline", f"write a date and time with its offset, e.g. {example_moment(':00+01:00')}")
        zone = f.checked("timezone", check_zone, "UTC")
        durations = {}
        for phase in _PHASES:
            if phase in f:
                durations[phase] = _duration(f, phase)
        remind = f.data.get("remind", [])
        if isinstance(remind, str):
            remind = [remind]
        if not isinstance(remind, list) or not all(isinstance(r, str) for r in remind):
            raise f.error("remind", 'write durations before the deadline, e.g. remind = ["24h", "2h"]')
        return cls(
            deadline,
            _duration(f, "grace"),
            zone,
            durations or None,
            delay=_duration(f, "delay"),
            remind=tuple(sorted({_parsed(f, "remind", r) for r in remind}, reverse=True)),
            absences=f.integer("absences", DEFAULT_ABSENCES, minimum=0),
            absence_max=_duration(f, "absence_max", DEFAULT_ABSENCE_MAX),
        )

    def to_data(self) -> dict[str, object]:
        data: dict[str, object] = {"timezone": self.zone}
        if self.deadline is not None:
            data["deadline"] = self.deadline
        if self.grace:
            data["grace"] = _minutes(self.grace)
        for phase, span in (self.durations or {}).items():
            data[phase] = _minutes(span)
        if self.delay:
            data["delay"] = _minutes(self.delay)
        if self.remind:
            data["remind"] = [_minutes(r) for r in self.remind]
        if self.absences != DEFAULT_ABSENCES:
            data["absences"] = self.absences
        if self.absence_max != DEFAULT_ABSENCE_MAX:
            data["absence_max"] = _minutes(self.absence_max)
        return data

    def local(self, moment: datetime, lang: str = SOURCE, zone: str = "") -> str:
        """A moment as a player reads it: in his time zone (the game's unless he chose one),
        with the zone's name. English keeps the sortable form moderators type back
        (2026-11-23 18:00 UTC); another language writes the date in its own words (Babel's
        CLDR data: "poniedziałek, 23 listopada 2026, 18:00")."""
        zone = zone or self.zone
        here = moment.astimezone(ZoneInfo(zone))
        if lang == SOURCE:
            return here.strftime(f"%Y-%m-%d %H:%M {zone}")
        from babel.dates import format_date, format_time  # only for a reader of another language

        return f"{format_date(here, 'full', locale=lang)}, {format_time(here, 'short', locale=lang)} ({zone})"


def check_zone(name: str) -> str:
    """A time zone the machine's zone database knows (Europe/Warsaw, UTC), or one sentence."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"'{name}' is not a time zone; use a name like Europe/Warsaw") from None
    return name


def _minutes(span: timedelta) -> str:
    return f"{int(span.total_seconds() // 60)}m"


def _parsed(f: Fields, key: str, text: str) -> timedelta:
    try:
        return parse_duration(text)
    except ValueError as error:
        raise DataError(f.key(key), str(error)) from None


def _duration(f: Fields, key: str, default: timedelta = timedelta(0)) -> timedelta:
    return _parsed(f, key, f.text(key)) if key in f else default


def example_moment(offset: str = "") -> str:
    """A date and time to show in a hint: a week from now at 18:00, so that no example is in the past."""
    return f"{(datetime.now(UTC) + timedelta(days=7)):%Y-%m-%d}T18:00{offset}"


def parse_moment(text: str, zone: str) -> datetime:
    """`2027-03-14T18:00` (in the game's zone) or with an offset."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"'{text}' is not a date and time; write e.g. {example_moment()}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(zone))


def is_late(received: datetime, deadline: datetime | None, grace: timedelta) -> bool:
    return deadline is not None and received > deadline + grace


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
