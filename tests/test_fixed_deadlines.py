"""Deadlines people can keep (issue 32): derived deadlines on fixed wall-clock hours (`at`) and
weekdays (`days`) of the game's zone, across daylight-saving changes, and reminders kept out of
each player's quiet hours. Every moment is passed in; nothing sleeps."""

from __future__ import annotations

import email
import email.policy
import re
import shutil
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import tomli_w

from adjudicator.commands import set_deadline
from adjudicator.core.errors import DataError
from adjudicator.core.fields import Fields
from adjudicator.game import absences
from adjudicator.game.game import Game
from adjudicator.game.schedule import Schedule, deadline_after, quiet_window, wall_moment
from adjudicator.game.storage import read_toml
from adjudicator.hosting.run import run_pass
from tests.test_hosting import DEMO, plain_game

WARSAW = ZoneInfo("Europe/Warsaw")
NEW_YORK = "America/New_York"


def local(year: int, month: int, day: int, hour: int, minute: int = 0, zone: str = "Europe/Warsaw") -> datetime:
    """A wall-clock time of a zone (the earlier reading of one shown twice)."""
    return datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone))


def schedule(**keys: Any) -> Schedule:
    return Schedule.from_fields(Fields({"timezone": "Europe/Warsaw", **keys}, "schedule"))


def shown(moment: datetime | None) -> str | None:
    """A moment as Warsaw's clocks show it, with the offset: the offset tells the two sides of
    a change apart."""
    return None if moment is None else moment.astimezone(WARSAW).isoformat(timespec="minutes")


# ---- the deadline a phase gets ---------------------------------------------------------------

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri"]

# (settings, phase, when it opened, the deadline as Warsaw shows it)
DEADLINES = [
    pytest.param(
        {"at": "20:00", "trade": "1d"}, "trade", local(2026, 11, 2, 10), "2026-11-03T20:00+01:00", id="01-fixed-hour"
    ),
    pytest.param(
        {"at": "20:00", "trade": "1d"},
        "trade",
        local(2026, 11, 2, 20),
        "2026-11-03T20:00+01:00",
        id="02-fixed-hour-exactly-on-it",
    ),
    pytest.param(
        {"at": ["20:00", "12:00"], "trade": "1d"},
        "trade",
        local(2026, 11, 2, 10),
        "2026-11-03T12:00+01:00",
        id="03-list-of-hours-first",
    ),
    pytest.param(
        {"at": ["12:00", "20:00"], "trade": "1d"},
        "trade",
        local(2026, 11, 2, 13),
        "2026-11-03T20:00+01:00",
        id="04-list-of-hours-second",
    ),
    pytest.param(
        {"at": ["12:00", "20:00"], "trade": "1d"},
        "trade",
        local(2026, 11, 2, 21),
        "2026-11-04T12:00+01:00",
        id="05-list-of-hours-next-day",
    ),
    pytest.param(
        {"at": "20:00", "days": WEEKDAYS, "trade": "1d"},
        "trade",
        local(2026, 11, 6, 10),  # a Friday: Saturday is not allowed
        "2026-11-09T20:00+01:00",
        id="06-days-skip-the-weekend",
    ),
    pytest.param(
        {"at": ["12:00", "20:00"], "days": ["MON", "Fri"], "trade": "1d"},
        "trade",
        local(2026, 11, 6, 13),  # Saturday 20:00, moved to Monday at the same `at` time
        "2026-11-09T20:00+01:00",
        id="07-days-keep-the-at-time",
    ),
    pytest.param(
        {"days": WEEKDAYS, "trade": "1d"},
        "trade",
        local(2026, 11, 6, 10, 37),
        "2026-11-09T10:37+01:00",
        id="08-days-without-at-keep-the-clock-time",
    ),
    pytest.param(
        {"at": "20:00"}, "build", local(2026, 11, 2, 10), "2026-11-03T20:00+01:00", id="09-no-duration-at-least-12h"
    ),
    pytest.param(
        {"at": "20:00", "at_least": "6h"},
        "build",
        local(2026, 11, 2, 10),
        "2026-11-02T20:00+01:00",
        id="10-no-duration-at-least-6h",
    ),
    pytest.param({"trade": "2d"}, "build", local(2026, 11, 2, 10), None, id="11-no-at-no-duration-no-deadline"),
    pytest.param(
        {"trade": "2d"}, "trade", local(2026, 11, 2, 10, 17), "2026-11-04T10:17+01:00", id="12-no-at-as-before"
    ),
    # Spring forward in Warsaw: 2026-03-29 02:00 CET -> 03:00 CEST.
    pytest.param(
        {"at": "20:00", "trade": "12h"},
        "trade",
        local(2026, 3, 28, 7),
        "2026-03-28T20:00+01:00",
        id="13-spring-opened-and-due-before",
    ),
    pytest.param(
        {"at": "20:00", "trade": "1d"},
        "trade",
        local(2026, 3, 28, 12),
        "2026-03-29T20:00+02:00",
        id="14-spring-opened-before-due-after",
    ),
    pytest.param(
        {"at": "20:00", "trade": "1d"},
        "trade",
        local(2026, 3, 29, 12),
        "2026-03-30T20:00+02:00",
        id="15-spring-opened-after",
    ),
    # Fall back in Warsaw: 2026-10-25 03:00 CEST -> 02:00 CET.
    pytest.param(
        {"at": "20:00", "trade": "1d"},
        "trade",
        local(2026, 10, 23, 12),
        "2026-10-24T20:00+02:00",
        id="16-autumn-opened-and-due-before",
    ),
    pytest.param(
        {"at": "20:00", "trade": "1d"},
        "trade",
        local(2026, 10, 24, 12),
        "2026-10-25T20:00+01:00",
        id="17-autumn-opened-before-due-after",
    ),
    pytest.param(
        {"at": "20:00", "trade": "1d"},
        "trade",
        local(2026, 10, 25, 21),
        "2026-10-27T20:00+01:00",
        id="18-autumn-opened-after",
    ),
    pytest.param(
        {"at": "02:30", "trade": "12h"},
        "trade",
        local(2026, 3, 28, 12),
        "2026-03-29T03:00+02:00",
        id="19-nonexistent-time-is-the-end-of-the-gap",
    ),
    pytest.param(
        {"at": "02:30", "trade": "12h"},
        "trade",
        local(2026, 10, 24, 14),
        "2026-10-25T02:30+02:00",
        id="20-ambiguous-time-is-the-earlier",
    ),
    pytest.param(
        {"at": "02:30", "trade": "12h"},
        "trade",
        local(2026, 10, 24, 15),  # 12 h later is 02:00 CET, after the earlier 02:30: the next day's
        "2026-10-26T02:30+01:00",
        id="21-ambiguous-time-passed-goes-to-the-next-day",
    ),
]


@pytest.mark.parametrize(("keys", "phase", "opened", "expected"), DEADLINES)
def test_the_deadline_a_phase_gets(keys: dict[str, Any], phase: str, opened: datetime, expected: str | None) -> None:
    settings = schedule(**keys)
    moment = opened.astimezone(UTC)
    assert shown(settings.derived_deadline(moment, phase)) == expected
    span = (settings.durations or {}).get(phase)
    assert settings.derived_deadline(moment, phase) == deadline_after(moment, span, settings)


def test_without_at_or_days_a_deadline_is_exactly_the_duration_after() -> None:
    """The default schedule changes nothing: `now + duration`, to the second, in UTC."""
    now = datetime(2027, 3, 1, 9, 0, 7, tzinfo=UTC)
    assert schedule(trade="2d").derived_deadline(now, "trade") == now + timedelta(days=2)
    assert schedule(trade="2d").snapped(now) is now


@pytest.mark.parametrize(
    ("day", "clock", "expected"),
    [
        pytest.param((2026, 3, 29), time(2, 30), "2026-03-29T03:00+02:00", id="22-gap-first-moment-after"),
        pytest.param((2026, 3, 29), time(2, 0), "2026-03-29T03:00+02:00", id="23-gap-start"),
        pytest.param((2026, 3, 29), time(3, 0), "2026-03-29T03:00+02:00", id="24-gap-end-exists"),
        pytest.param((2026, 10, 25), time(2, 30), "2026-10-25T02:30+02:00", id="25-twice-the-earlier"),
        pytest.param((2026, 10, 25), time(20, 0), "2026-10-25T20:00+01:00", id="26-same-day-after-the-change"),
    ],
)
def test_a_wall_time_is_one_definite_moment(day: tuple[int, int, int], clock: time, expected: str) -> None:
    from datetime import date

    assert shown(wall_moment(date(*day), clock, WARSAW)) == expected


# ---- the settings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "hint"),
    [
        pytest.param("at", "8pm", 'e.g. at = "20:00" or at = ["12:00", "20:00"]', id="27-at-not-a-time"),
        pytest.param("at", ["12:00", "24:00"], 'e.g. at = "20:00"', id="28-at-out-of-range"),
        pytest.param("at", [], 'e.g. at = "20:00"', id="29-at-empty"),
        pytest.param("days", ["monday"], 'e.g. days = ["mon", "tue", "wed", "thu", "fri"]', id="30-days-long-name"),
        pytest.param("days", [], 'e.g. days = ["mon"', id="31-days-empty"),
        pytest.param("days", 1, 'e.g. days = ["mon"', id="32-days-not-names"),
        pytest.param("at_least", "12", "write e.g. 30m, 12h or 2d", id="33-at-least-not-a-duration"),
        pytest.param("quiet", "23:00", 'e.g. quiet = "23:00-08:00"', id="34-quiet-one-time"),
        pytest.param("quiet", "08:00-08:00", 'e.g. quiet = "23:00-08:00"', id="35-quiet-empty"),
        pytest.param("quiet", ["23:00", "08:00"], 'e.g. quiet = "23:00-08:00"', id="36-quiet-a-list"),
    ],
)
def test_a_wrong_value_is_one_sentence_naming_the_key_with_an_example(key: str, value: Any, hint: str) -> None:
    with pytest.raises(DataError) as raised:
        schedule(**{key: value})
    assert str(raised.value).startswith(f"schedule.{key}: ") and hint in str(raised.value)
    assert not re.search(r"\.\s+[A-Z]|\n", str(raised.value))  # one sentence


def test_the_new_keys_are_written_back_and_the_defaults_write_nothing() -> None:
    keys = {"at": ["20:00", "08:30"], "days": ["Sat", "mon"], "at_least": "6h", "quiet": "23:00-07:30"}
    settings = schedule(**keys)
    data = settings.to_data()
    assert {key: data[key] for key in keys} == {
        "at": ["08:30", "20:00"],
        "days": ["mon", "sat"],
        "at_least": "360m",
        "quiet": "23:00-07:30",
    }
    assert Schedule.from_fields(Fields(data, "schedule")) == settings
    assert Schedule().to_data() == {"timezone": "UTC"}
    assert schedule(at="20:00", at_least="12h").to_data() == {"timezone": "Europe/Warsaw", "at": ["20:00"]}


def test_game_toml_takes_the_new_keys(tmp_path: Path) -> None:
    game = plain_game(tmp_path / "demo", 'at = ["20:00"]\ndays = ["mon", "fri"]\nquiet = "22:00-07:00"\n')
    assert game.settings.schedule.at == (time(20),) and game.settings.schedule.days == (0, 4)
    assert read_toml(game.directory.game_file)["schedule"]["quiet"] == "22:00-07:00"


def hosted_game(folder: Path, keys: dict[str, Any], rome_zone: str = "") -> Path:
    """The demo game with these [schedule] keys (and Rome in his own zone), no mail settings:
    what `run` mails waits in outbox/."""
    game = plain_game(folder)
    data = read_toml(game.directory.game_file)
    data["schedule"] = {**data["schedule"], **keys}
    if rome_zone:
        next(p for p in data["player"] if p["civ"] == "Rome")["timezone"] = rome_zone
    game.directory.game_file.write_text(tomli_w.dumps(data), encoding="utf-8")
    return folder


# ---- deadlines set by hand, and absences -----------------------------------------------------

HAND_SET = {"timezone": "Europe/Warsaw", "at": "20:00", "days": WEEKDAYS}


@pytest.mark.parametrize(
    ("deadline", "absent", "expected"),
    [
        pytest.param("2027-03-06T09:15", None, "2027-03-06T09:15+01:00", id="37-hand-set-on-a-saturday-stays"),
        pytest.param("2027-03-08T20:00", None, "2027-03-08T20:00+01:00", id="38-hand-set-on-the-hour-stays"),
        pytest.param(
            "2027-03-08T19:30",
            ("2027-03-08", "2027-03-09"),
            "2027-03-10T00:00+01:00",
            id="39-hand-set-off-the-hour-moves-to-the-absence-end",
        ),
        pytest.param(
            "2027-03-08T20:00",
            ("2027-03-08", "2027-03-09"),
            "2027-03-10T20:00+01:00",
            id="40-on-the-hour-moved-by-an-absence-snaps",
        ),
        pytest.param(
            "2027-03-05T20:00",
            ("2027-03-05", "2027-03-05"),
            "2027-03-08T20:00+01:00",
            id="41-absence-end-on-a-saturday-snaps-to-monday",
        ),
    ],
)
def test_a_deadline_set_by_hand_is_the_moderators_word(
    tmp_path: Path, deadline: str, absent: tuple[str, str] | None, expected: str
) -> None:
    """at/days never move a deadline set by hand; one an absence moves snaps on when it stood
    on them (as every derived one does), and stays at the absence's end when it did not."""
    game = Game.load(hosted_game(tmp_path / "demo", HAND_SET))
    set_deadline(game.directory.root, deadline)  # `adjudicator deadline GAME WHEN`, in the game's zone
    if absent is not None:
        now = local(2027, 3, 1, 9)
        absences.declare(game.directory.root, game.settings.schedule, "Rome", *absent, now, str)
    assert shown(Game.load(game.directory.root).deadline()) == expected


def test_a_fixed_deadline_in_game_toml_is_not_moved(tmp_path: Path) -> None:
    folder = hosted_game(tmp_path / "demo", {**HAND_SET, "deadline": local(2099, 3, 7, 9, 15)})
    assert shown(Game.load(folder).deadline()) == "2099-03-07T09:15+01:00"  # a Saturday, off the hour


# ---- quiet hours -----------------------------------------------------------------------------

QUIET = {"quiet": "23:00-08:00"}


@pytest.mark.parametrize(
    ("keys", "due", "zone", "expected"),
    [
        pytest.param(QUIET, local(2027, 3, 9, 15), "", "2027-03-09T15:00+01:00", id="42-outside-stays"),
        pytest.param(QUIET, local(2027, 3, 9, 7), "", "2027-03-08T22:59+01:00", id="43-game-zone-before-the-window"),
        pytest.param(
            QUIET, local(2027, 3, 9, 7), NEW_YORK, "2027-03-09T04:59+01:00", id="44-own-zone-before-his-window"
        ),
        pytest.param(QUIET, local(2027, 3, 9, 23, 30), "", "2027-03-09T22:59+01:00", id="45-game-zone-evening"),
        pytest.param(
            QUIET, local(2027, 3, 9, 23, 30), NEW_YORK, "2027-03-09T23:30+01:00", id="46-own-zone-it-is-afternoon"
        ),
        pytest.param(QUIET, local(2027, 3, 9, 23), "", "2027-03-09T22:59+01:00", id="47-the-start-is-quiet"),
        pytest.param(QUIET, local(2027, 3, 9, 8), "", "2027-03-09T08:00+01:00", id="48-the-end-is-not"),
        pytest.param(
            {"quiet": "01:00-07:00"}, local(2027, 3, 9, 3), "", "2027-03-09T00:59+01:00", id="49-window-within-a-day"
        ),
        pytest.param(QUIET, None, "", None, id="50-no-quiet-setting"),
    ],
)
def test_a_reminder_due_in_quiet_hours_goes_before_they_begin(
    keys: dict[str, Any], due: datetime | None, zone: str, expected: str | None
) -> None:
    if due is None:  # without `quiet`, every time stays
        moment = local(2027, 3, 9, 3)
        assert schedule().reminder_time(moment, "Europe/Warsaw") == moment
        return
    settings = schedule(**keys)
    assert shown(settings.reminder_time(due, zone or settings.zone)) == expected


def test_the_quiet_window_of_a_moment() -> None:
    quiet = schedule(**QUIET).quiet
    window = quiet_window(local(2027, 3, 9, 2), "Europe/Warsaw", quiet)
    assert window is not None and [shown(w) for w in window] == ["2027-03-08T23:00+01:00", "2027-03-09T08:00+01:00"]
    assert quiet_window(local(2027, 3, 9, 12), "Europe/Warsaw", quiet) is None
    assert quiet_window(local(2027, 3, 9, 2), "Europe/Warsaw", None) is None


# ---- a whole game through `run` --------------------------------------------------------------

CIVS = ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]
RUN_SCHEDULE = {
    "timezone": "Europe/Warsaw",
    "at": "20:00",
    "days": WEEKDAYS,
    "trade": "1d",
    "build": "1d",
    "military": "1d",
    "remind": ["14h"],
    "quiet": "23:00-08:00",
}


def reminded(folder: Path, kind: str = "") -> list[str]:
    """The players a reminder waits for in outbox/ (or outbox/KIND/), one entry per mail."""
    outbox = folder / "outbox" / kind if kind else folder / "outbox"
    found = []
    for path in sorted(outbox.glob("*reminder*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        found.append(str(message["To"].addresses[0].username).capitalize())
    return sorted(found)


def test_a_game_run_hands_off_keeps_the_hour_the_weekdays_and_each_players_quiet_hours(tmp_path: Path) -> None:
    """`run` gives the first phase its deadline on the hour, reminds each player the minute
    before his own quiet hours (Rome in New York, the others in Warsaw), wakes --watch at those
    moments, and after adjudicating writes the next deadline on a weekday at 20:00."""
    folder = hosted_game(tmp_path / "demo", RUN_SCHEDULE, rome_zone=NEW_YORK)
    thursday = datetime(2027, 3, 4, 9, 0, tzinfo=UTC)  # 10:00 in Warsaw
    first = run_pass(folder, thursday)
    assert "deadline set to 2027-03-05 20:00 Europe/Warsaw" in first.text, first.text
    assert Game.load(folder).deadline() == local(2027, 3, 5, 20)
    # 14 h before is Friday 06:00 in Warsaw (00:00 in New York): quiet for everyone, so each
    # reminder goes at 22:59 of the evening before, in each player's own zone.
    warsaw_evening, new_york_evening = local(2027, 3, 4, 22, 59), local(2027, 3, 4, 22, 59, zone=NEW_YORK)
    assert first.wake == warsaw_evening  # what `run --watch` sleeps until
    assert reminded(folder) == []

    early = run_pass(folder, warsaw_evening - timedelta(minutes=1))
    assert "reminded" not in early.text and early.wake == warsaw_evening
    evening = run_pass(folder, warsaw_evening)
    assert "reminded Carthage, Greece, Babylon, Egypt;" in evening.text, evening.text
    assert evening.wake == new_york_evening
    assert reminded(folder) == ["Babylon", "Carthage", "Egypt", "Greece"]
    night = run_pass(folder, new_york_evening)
    assert "reminded Rome;" in night.text, night.text
    for later in (local(2027, 3, 5, 6), local(2027, 3, 5, 12)):  # the nominal time, and later: nobody twice
        assert "reminded" not in run_pass(folder, later).text
    assert reminded(folder) == sorted(CIVS)

    drop = folder / "drop"
    drop.mkdir()
    for path in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt")):
        shutil.copy(path, drop / path.name)
    friday = local(2027, 3, 5, 13)
    done = run_pass(folder, friday)
    assert "T1 trade adjudicated (every order is in)" in done.text, done.text
    # Saturday 13:00 would be the duration's end: Saturday is no weekday, so Monday at 20:00.
    assert "T1 build: waiting for Rome, Carthage, Greece, Babylon, Egypt, due 2027-03-08 20:00" in done.text
    written = read_toml(folder / "deadline.toml")
    assert written["deadline"] == local(2027, 3, 8, 20) and written["phase"] == Game.load(folder).slug
    assert done.wake == local(2027, 3, 7, 22, 59)  # Monday 06:00 is quiet: Sunday 22:59, Warsaw's


def test_a_reminder_whose_time_came_in_quiet_hours_waits_for_their_end(tmp_path: Path) -> None:
    """A pass inside the quiet hours (cron missed the minute before) sends nothing, wakes at
    their end, and sends then: still before the deadline."""
    folder = hosted_game(tmp_path / "demo", {"timezone": "Europe/Warsaw", "remind": ["2h"], **QUIET})
    Game.load(folder).set_deadline(local(2027, 3, 9, 9))  # 2 h before is 07:00: quiet
    late = run_pass(folder, local(2027, 3, 8, 23, 30))
    assert "reminded" not in late.text and late.wake == local(2027, 3, 9, 8), late.text
    assert reminded(folder) == []
    morning = run_pass(folder, local(2027, 3, 9, 8))
    assert "reminded Rome, Carthage, Greece, Babylon, Egypt" in morning.text, morning.text
    assert reminded(folder) == sorted(CIVS)


def test_a_reminder_quiet_hours_keep_past_the_deadline_is_dropped_and_said_once(tmp_path: Path) -> None:
    folder = hosted_game(tmp_path / "demo", {"timezone": "Europe/Warsaw", "remind": ["2h"], **QUIET})
    Game.load(folder).set_deadline(local(2027, 3, 9, 7, 30))  # the quiet hours end after it
    late = run_pass(folder, local(2027, 3, 8, 23, 30))
    line = "no reminder for Rome, Carthage, Greece, Babylon, Egypt: [schedule] quiet lasts past the deadline"
    assert line in late.text, late.text
    assert reminded(folder) == [] and reminded(folder, "dropped") == sorted(CIVS)
    again = run_pass(folder, local(2027, 3, 9, 6))
    assert "no reminder" not in again.text and "Nothing to do." in again.text, again.text
    assert reminded(folder) == []
