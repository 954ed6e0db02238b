"""Deadlines: when the current phase's orders are due, the grace after it, and the time zone
they are shown in. game.toml's [schedule] holds the settings; deadline.toml the deadline of
the phase now open when it was set by `adjudicator deadline` or derived at adjudication.

A derived deadline may fall on fixed wall-clock hours (`at`) and weekdays (`days`) of the
game's zone, so that players can keep it; reminders keep out of each player's `quiet` hours.
Everything here is pure: the moments come in as arguments (docs/hosting.md, "Deadlines on a
fixed hour")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from adjudicator.core.errors import DataError, UsageError
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import SOURCE

_DURATION = re.compile(r"^\s*(\d+)\s*([mhd])\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}
_PHASES = ("trade", "build", "military", "setup")  # each phase's time from adjudication to its deadline
SCHEDULE_KEYS = frozenset(
    {"deadline", "grace", "timezone", "delay", "remind", "absences", "absence_max", *_PHASES}
    | {"at", "days", "at_least", "quiet"}
)
DEFAULT_ABSENCES = 2  # absences a player may declare in a game (njudge's custom), unless [schedule] says
DEFAULT_ABSENCE_MAX = timedelta(days=7)
DEFAULT_AT_LEAST = timedelta(hours=12)  # with `at`, a phase without a duration is due no sooner
DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # date.weekday() order
BEFORE_QUIET = timedelta(minutes=1)  # a reminder due in quiet hours goes this long before they begin
_CLOCK = re.compile(r"^\s*([01]?\d|2[0-3]):([0-5]\d)\s*$")
_AT_HINT = 'write a time of day or a list of them, e.g. at = "20:00" or at = ["12:00", "20:00"]'
_DAYS_HINT = 'write three-letter day names, e.g. days = ["mon", "tue", "wed", "thu", "fri"]'
_QUIET_HINT = 'write two times of day, when the quiet starts and when it ends, e.g. quiet = "23:00-08:00"'


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
    at: tuple[time, ...] = ()  # a derived deadline falls on one of these wall-clock times of the zone
    days: tuple[int, ...] = ()  # ... on one of these weekdays (0 is Monday); () allows every day
    at_least: timedelta = DEFAULT_AT_LEAST  # with `at`: a phase without a duration is due this long after it opened
    quiet: tuple[time, time] | None = None  # no reminder is mailed from the first time to the second

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
            at=_at(f),
            days=_days(f),
            at_least=_duration(f, "at_least", DEFAULT_AT_LEAST),
            quiet=_quiet(f),
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
        if self.at:
            data["at"] = [f"{clock:%H:%M}" for clock in self.at]
        if self.days:
            data["days"] = [DAY_NAMES[day] for day in self.days]
        if self.at_least != DEFAULT_AT_LEAST:
            data["at_least"] = _minutes(self.at_least)
        if self.quiet is not None:
            data["quiet"] = f"{self.quiet[0]:%H:%M}-{self.quiet[1]:%H:%M}"
        return data

    def derived_deadline(self, opened: datetime, phase: str) -> datetime | None:
        """The deadline of a `phase` that opened at `opened`, from this schedule (None: none)."""
        return deadline_after(opened, (self.durations or {}).get(phase), self)

    def snapped(self, moment: datetime) -> datetime:
        """The moment `at` and `days` make of `moment`, in the game's zone: the first `at` time
        at or after it, then, on a day `days` does not allow, the same wall-clock time of the
        first day it does. Without either, `moment` itself."""
        if not self.at and not self.days:
            return moment
        zone = ZoneInfo(self.zone)
        here = moment.astimezone(zone)
        day, clock = here.date(), here.time()
        if self.at:
            day, clock = next(
                (when, at)
                for when in (here.date(), here.date() + timedelta(days=1))
                for at in self.at
                if wall_moment(when, at, zone) >= moment
            )
        elif day.weekday() in self.days:
            return moment  # not read back from its wall-clock time: that may be shown twice
        allowed = next(when for when in (day + timedelta(days=ahead) for ahead in range(7)) if self._allows(when))
        return wall_moment(allowed, clock, zone)

    def _allows(self, day: date) -> bool:
        return not self.days or day.weekday() in self.days

    def on_schedule(self, moment: datetime) -> bool:
        """Whether `moment` is one `at` and `days` allow (every derived deadline is)."""
        return (bool(self.at) or bool(self.days)) and self.snapped(moment) == moment

    def reminder_time(self, due: datetime, zone: str) -> datetime:
        """When a reminder due at `due` goes to a player in `zone`: then, or, when that falls in
        his quiet hours, the last minute before they begin (so it still comes before the deadline)."""
        window = quiet_window(due, zone, self.quiet)
        return due if window is None else window[0] - BEFORE_QUIET

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


def deadline_after(opened: datetime, span: timedelta | None, schedule: Schedule) -> datetime | None:
    """A phase's deadline derived from the schedule: `span` after `opened`, moved on to the
    first time `at` and `days` allow. A phase without a duration of its own gets one only when
    `at` is set: the first `at` time at least `at_least` after it opened."""
    if span is None:
        if not schedule.at:
            return None
        span = schedule.at_least
    return schedule.snapped(opened + span)


def wall_moment(day: date, clock: time, zone: ZoneInfo) -> datetime:
    """The one moment (in UTC) at which `zone`'s clocks show `clock` on `day`. A time the clocks
    skip (spring forward) gives the first moment after the gap; a time they show twice (fall
    back) gives the earlier of the two."""
    wall = datetime.combine(day, clock)
    first = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)  # fold 0: the earlier reading
    if first.astimezone(zone).replace(tzinfo=None) == wall:
        return first
    # In the gap: fold 0 reads the wall with the offset before the change (a moment after it),
    # fold 1 with the offset after (a moment before it); the change lies between the two.
    before, after = wall.replace(tzinfo=zone, fold=1).astimezone(UTC), first
    offset = before.astimezone(zone).utcoffset()
    while after - before > timedelta(seconds=1):
        middle = before + (after - before) // 2
        if middle.astimezone(zone).utcoffset() == offset:
            before = middle
        else:
            after = middle
    return after.replace(microsecond=0)


def quiet_window(moment: datetime, zone: str, quiet: tuple[time, time] | None) -> tuple[datetime, datetime] | None:
    """The quiet hours of `zone` that `moment` falls in, as (start, end), or None. The window
    holds its start and not its end: with 23:00-08:00 a reminder may go at 08:00."""
    if quiet is None:
        return None
    here = ZoneInfo(zone)
    today = moment.astimezone(here).date()
    for day in (today - timedelta(days=1), today):
        start = wall_moment(day, quiet[0], here)
        end = wall_moment(day + timedelta(days=1) if quiet[1] <= quiet[0] else day, quiet[1], here)
        if start <= moment < end:
            return start, end
    return None


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


def _clock(text: str) -> time | None:
    match = _CLOCK.match(text)
    return time(int(match.group(1)), int(match.group(2))) if match else None


def _listed(value: object) -> Sequence[object]:
    """A key that takes one value or a list of them (`at`, `days`), as a list; [] for anything else."""
    return [value] if isinstance(value, str) else value if isinstance(value, list) else []


def _at(f: Fields) -> tuple[time, ...]:
    value = f.data.get("at")
    if value is None:
        return ()
    clocks = [_clock(text) if isinstance(text, str) else None for text in _listed(value)]
    if not clocks or None in clocks:
        raise f.error("at", _AT_HINT)
    return tuple(sorted({clock for clock in clocks if clock is not None}))


def _days(f: Fields) -> tuple[int, ...]:
    value = f.data.get("days")
    if value is None:
        return ()
    lowered = [name.strip().lower() if isinstance(name, str) else "" for name in _listed(value)]
    if not lowered or not all(name in DAY_NAMES for name in lowered):
        raise f.error("days", _DAYS_HINT)
    return tuple(sorted({DAY_NAMES.index(name) for name in lowered}))


def _quiet(f: Fields) -> tuple[time, time] | None:
    value = f.data.get("quiet")
    if value is None:
        return None
    start, dash, end = value.partition("-") if isinstance(value, str) else ("", "", "")
    window = (_clock(start), _clock(end))
    if not dash or window[0] is None or window[1] is None or window[0] == window[1]:
        raise f.error("quiet", _QUIET_HINT)
    return window[0], window[1]


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
