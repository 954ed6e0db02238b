"""Hands-off hosting against real servers on loopback (Dovecot or pymap, aiosmtpd): the tests
only put players' mails in the mailbox and move a fake clock; everything else is `run`."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.commands import demo
from adjudicator.core.resources import shipped_folder
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.game.storage import read_toml
from adjudicator.hosting.run import run_pass
from adjudicator.rulesets import Ruleset
from tests.mail_servers import SmtpServer, imap_server, smtp_server
from tests.test_mail import deliver, mail, mailbox, settings_toml

DEMO = shipped_folder("games") / "demo"
START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
SCHEDULE = """grace = "1h"
trade = "2d"
build = "2d"
military = "2d"
remind = ["12h"]
"""


@dataclass
class Hosted:
    root: Path
    imap_port: int
    smtp: SmtpServer

    @property
    def game(self) -> Game:
        return Game.load(self.root / "demo")

    def post(self, *messages: EmailMessage) -> None:
        deliver(self.imap_port, *messages)

    def waiting_on_server(self) -> int:
        client = mailbox(self.imap_port)
        count = len(client.search(["ALL"]))
        client.logout()
        return count


def demo_players() -> list[str]:
    players: list[str] = read_toml(DEMO / "demo.toml")["game"]["players"]
    return players


def address(civ: str) -> str:
    return f"{civ.lower()}@example.org"


def create_demo(folder: Path, settings: str = "", schedule: str = "") -> Game:
    """The shipped demo game (same dice), with mail settings and [schedule] keys."""
    spec = read_toml(DEMO / "demo.toml")["game"]
    root = hashlib.sha256(spec["dice_seed"].encode()).digest()
    game, _ = Game.create(folder, [parse_player_spec(p) for p in spec["players"]], game_id="demo", dice_root=root)
    text = game.directory.game_file.read_text().replace("[schedule]\n", "[schedule]\n" + schedule)
    game.directory.game_file.write_text(text + settings)
    return Game.load(folder)


@pytest.fixture
def hosted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hosted]:
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", "s3cret")
    with imap_server() as imap_port, smtp_server() as smtp:
        create_demo(tmp_path / "games" / "demo", settings_toml(imap_port, smtp.port), SCHEDULE)
        yield Hosted(tmp_path / "games", imap_port, smtp)


def start_watch(root: Path, poll: int) -> subprocess.Popen[str]:
    """`adjudicator run ROOT --watch` in a process of its own (SIGTERM ends it)."""
    command = [sys.executable, "-m", "adjudicator", "run", str(root), "--watch", "--poll", str(poll)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def orders_mail(path: Path) -> EmailMessage:
    text = path.read_text(encoding="utf-8")
    civ = path.stem.split("-")[-1].capitalize()
    return mail(text, sender=address(civ), subject="[demo] orders")


def subjects(smtp: SmtpServer) -> Counter[str]:
    return Counter(str(message["Subject"]) for _, _, message in smtp.received)


def test_a_whole_three_turn_game_runs_hands_off(hosted: Hosted, tmp_path: Path) -> None:
    """Nine phases of the demo game by mail: `run` collects, answers, adjudicates when every
    order is in or the deadline has passed, reminds once, and mails each report once."""
    clock = START
    sent_mails: list[EmailMessage] = []
    reminded: set[str] = set()
    for phase in sorted(p for p in (DEMO / "phases").iterdir() if p.is_dir()):
        label = hosted.game.phase_info.label
        messages = [orders_mail(path) for path in sorted(phase.glob("*.txt"))]
        hosted.post(*messages)
        sent_mails += messages
        report = run_pass(hosted.root, clock)
        if len(messages) == 5:
            assert f"{label} adjudicated (every order is in)" in report.text, report.text
        else:
            assert "waiting for" in report.text and not report.needs_moderator, report.text
            deadline = hosted.game.deadline()
            assert deadline is not None
            missing = report.text.split("waiting for ")[1].split(", due")[0].split(", ")
            report = run_pass(hosted.root, deadline - timedelta(hours=6))
            assert f"reminded {', '.join(missing)}" in report.text, report.text
            reminded.update(f"{civ} {label}" for civ in missing)
            again = run_pass(hosted.root, deadline - timedelta(hours=5))
            assert "reminded" not in again.text and "Nothing to do." in again.text, again.text
            clock = deadline + timedelta(hours=1, minutes=1)
            report = run_pass(hosted.root, clock)
            assert f"{label} adjudicated (the deadline passed; default orders for" in report.text, report.text
        clock += timedelta(hours=3)
    again = run_pass(hosted.root, clock)
    assert "Nothing to do." in again.text, again.text

    # Every player got each report exactly once, the list each public report once.
    received = subjects(hosted.smtp)
    labels = [f"T{turn} {phase}" for turn in (1, 2, 3) for phase in ("trade", "build", "military")]
    civs = [spec.split(":")[0] for spec in demo_players()]
    for label in labels:
        for civ in civs:
            assert received[f"[demo] {label}: your report, {civ}"] == 1, (label, civ)
        assert received[f"[demo] {label}: the report"] == 1, label
    # Every mail got exactly one receipt, and each reminder went out once.
    replies = Counter(str(m["In-Reply-To"]) for _, _, m in hosted.smtp.received if m["In-Reply-To"])
    assert all(replies[str(m["Message-ID"])] == 1 for m in sent_mails)
    reminders = [m for _, _, m in hosted.smtp.received if "Reminder" in str(m["Subject"])]
    assert len(reminders) == len(reminded) > 0
    assert hosted.waiting_on_server() == 0

    # Hands-off comes to the same position as the moderator's own commands (the demo).
    by_hand = tmp_path / "by-hand"
    demo(by_hand, "mare-nostrum")
    assert hosted.game.state_data() == Game.load(by_hand).state_data()


def test_a_second_run_does_nothing_and_says_so(hosted: Hosted) -> None:
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    first = run_pass(hosted.root, START)
    assert "T1 trade adjudicated" in first.text
    count = len(hosted.smtp.received)
    second = run_pass(hosted.root, START + timedelta(minutes=5))
    assert second.text.splitlines()[-1] == "Nothing to do.", second.text
    assert "demo: nothing due; T1 build: waiting for" in second.text
    assert len(hosted.smtp.received) == count


def test_two_concurrent_runs_leave_the_game_as_one(hosted: Hosted) -> None:
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    command = [sys.executable, "-m", "adjudicator", "run", str(hosted.root)]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    game = hosted.game
    assert game.phase_info.label == "T1 build" and game.phase_number == 2, outputs
    received = subjects(hosted.smtp)
    assert all(count == 1 for count in received.values()), received
    assert sum(1 for s in received if "your report" in s) == 5
    assert sum(1 for s in received if "Orders received" in s) == 5


def test_sigterm_during_watch_loses_no_mail_and_no_receipt(hosted: Hosted) -> None:
    """Killed in the middle of a batch, --watch finishes the mail in hand and stops; the next
    run takes the rest. Every mail ends up in inbox/ with exactly one receipt."""
    bodies = {
        "rome": "power Rome\npassword rome-secret\noffer wine\n",
        "greece": "power Greece\npassword greece-secret\noffer fish\n",
    }
    messages = [mail(bodies[civ], sender=address(civ), subject="[demo] orders") for _ in range(60) for civ in bodies]
    hosted.post(*messages)
    inbox = hosted.root / "demo" / "inbox"
    watcher = start_watch(hosted.root, poll=5)
    try:
        deadline = time.monotonic() + 60
        while not (inbox.is_dir() and len(list(inbox.glob("*.toml"))) >= 3):
            assert time.monotonic() < deadline and watcher.poll() is None, watcher.communicate()
            time.sleep(0.005)
        watcher.send_signal(signal.SIGTERM)
        out, err = watcher.communicate(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
    assert watcher.returncode == 0, (out, err)
    assert "stopped (SIGTERM)" in out, out
    left = hosted.waiting_on_server()
    print(f"{left} of {len(messages)} mails were still on the server when --watch stopped")
    run_pass(hosted.root)
    assert hosted.waiting_on_server() == 0
    assert len(list(inbox.glob("*.toml"))) == len(messages)
    replies = Counter(str(m["In-Reply-To"]) for _, _, m in hosted.smtp.received if m["In-Reply-To"])
    assert sorted(replies.values()) == [1] * len(messages)
    assert set(replies) == {str(m["Message-ID"]) for m in messages}


def test_watch_answers_new_mail_within_seconds(hosted: Hosted) -> None:
    watcher = start_watch(hosted.root, poll=600)
    try:
        time.sleep(2)  # watching, and idle: nothing due for ten minutes
        sent = time.monotonic()
        hosted.post(mail("power Rome\npassword rome-secret\nstatus\n", sender=address("Rome"), subject="[demo] q"))
        while not any("Answer" in str(m["Subject"]) for _, _, m in hosted.smtp.received):
            assert time.monotonic() - sent < 20, "no answer within 20 s"
            time.sleep(0.05)
        answered = time.monotonic() - sent
    finally:
        watcher.send_signal(signal.SIGTERM)
        out, err = watcher.communicate(timeout=60)
    assert watcher.returncode == 0, (out, err)
    print(f"answered in {answered:.2f} s")
    assert answered < 10


# ---- players ask the judge ---------------------------------------------------------------


def ask(hosted: Hosted, body: str, civ: str = "Rome", when: datetime = START) -> str:
    """Mail `body` as the player of `civ` and run a pass: the reply's text."""
    message = mail(body, sender=address(civ), subject="[demo] question")
    hosted.post(message)
    run_pass(hosted.root, when)
    replies = [m for _, _, m in hosted.smtp.received if m["In-Reply-To"] == message["Message-ID"]]
    assert len(replies) == 1, [str(m["Subject"]) for _, _, m in hosted.smtp.received]
    return str(replies[0].get_content())


def test_status_says_who_has_sent_orders_never_what(hosted: Hosted) -> None:
    hosted.post(mail("power Greece\npassword greece-secret\noffer fish, slaves, tax\n", sender=address("Greece")))
    run_pass(hosted.root, START)
    answer = ask(hosted, "power Rome\npassword rome-secret\nstatus")
    assert "Orders sent: Greece." in answer
    assert "Orders awaited: Rome, Carthage, Babylon, Egypt." in answer
    assert "slaves" not in answer and "fish" not in answer
    assert "Your mail held no orders, so any orders of yours on file stand." in answer


def test_orders_shows_my_orders_and_a_request_mail_keeps_them(hosted: Hosted) -> None:
    hosted.post(mail("power Rome\npassword rome-secret\noffer oil, livestock, metal\n", sender=address("Rome")))
    run_pass(hosted.root, START)
    answer = ask(hosted, "power Rome\npassword rome-secret\norders")
    assert "offer oil, livestock, metal" in answer and "password ********" in answer
    stored = hosted.root / "demo" / "orders" / "001-T01-trade" / "Rome.txt"
    assert "offer oil, livestock, metal" in stored.read_text()


def test_help_gives_the_order_language_and_the_rules(hosted: Hosted) -> None:
    answer = ask(hosted, "power Rome\npassword rome-secret\nhelp\nrules R6.4")
    assert "build [N] city|temple|market" in answer and "absence 2026-12-24 to 2026-12-28" in answer
    assert "R6.4" in answer and "Influence" in answer


def test_a_wrong_password_gets_an_answer_that_leaks_nothing(hosted: Hosted) -> None:
    hosted.post(mail("power Greece\npassword greece-secret\noffer fish, slaves, tax\n", sender=address("Greece")))
    run_pass(hosted.root, START)
    answer = ask(hosted, "power Rome\npassword guess\nstatus\norders\nhelp\nabsence 2027-03-02 2027-03-03")
    assert "the password for Rome is wrong" in answer
    for leak in ("Greece", "Orders sent", "fish", "offer", "build", "Absence"):
        assert leak not in answer, leak
    assert not (hosted.root / "demo" / "absences.toml").exists()


def test_an_unknown_command_gets_did_you_mean(hosted: Hosted) -> None:
    answer = ask(hosted, "power Rome\npassword rome-secret\nstauts")
    assert "did you mean 'status'?" in answer
    assert not (hosted.root / "demo" / "orders" / "001-T01-trade" / "Rome.txt").exists()


def test_absence_moves_a_deadline_within_the_games_limits(hosted: Hosted) -> None:
    game = hosted.game
    game.set_deadline(datetime(2027, 3, 3, 18, 0, tzinfo=UTC))
    answer = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-03-03 to 2027-03-05")
    assert "Absence recorded: from 2027-03-03 00:00 UTC to 2027-03-06 00:00 UTC" in answer
    assert hosted.game.deadline() == datetime(2027, 3, 6, 0, 0, tzinfo=UTC)
    status = ask(hosted, "power Greece\npassword greece-secret\nstatus", civ="Greece")
    assert "Deadline: 2027-03-06 00:00 UTC" in status
    too_long = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-04-01 2027-04-20")
    assert "Not done: an absence may last at most 7 days in this game" in too_long
    ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-05-01 2027-05-02")
    too_many = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-06-01 2027-06-02")
    assert "Not done: you have declared 2 absence(s), as many as this game allows" in too_many
    cancelled = ask(hosted, "power Rome\npassword rome-secret\nabsence cancel")
    assert "2 absence(s) withdrawn" in cancelled
    assert hosted.game.deadline() == datetime(2027, 3, 3, 18, 0, tzinfo=UTC)


# ---- the moderator keeps control ---------------------------------------------------------


def test_a_paused_game_is_not_adjudicated_until_resumed(hosted: Hosted) -> None:
    from adjudicator.commands import pause_game, resume_game

    pause_game(hosted.root / "demo", "waiting for a ruling")
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    report = run_pass(hosted.root, START)
    assert "paused by the moderator (waiting for a ruling)" in report.text and not report.needs_moderator
    assert hosted.game.phase_info.label == "T1 trade"
    assert sum(1 for s in subjects(hosted.smtp) if "Orders received" in s) == 5  # mail is still answered
    resume_game(hosted.root / "demo")
    assert "T1 trade adjudicated" in run_pass(hosted.root, START).text


def test_a_failing_pass_pauses_the_game_and_mails_the_moderator_once(
    hosted: Hosted, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("the engine fell over")

    original = Ruleset.resolve
    monkeypatch.setattr(Ruleset, "resolve", broken)
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    report = run_pass(hosted.root, START)
    assert report.needs_moderator and "RuntimeError: the engine fell over" in report.text, report.text
    assert "adjudicator resume" in report.text
    to_moderator = [m for _, rcpts, m in hosted.smtp.received if "gm@example.org" in rcpts]
    assert len(to_moderator) == 1 and "paused" in str(to_moderator[0]["Subject"])
    again = run_pass(hosted.root, START + timedelta(minutes=5))
    assert again.needs_moderator
    assert len([1 for _, rcpts, _ in hosted.smtp.received if "gm@example.org" in rcpts]) == 1
    monkeypatch.setattr(Ruleset, "resolve", original)
    from adjudicator.commands import resume_game

    resume_game(hosted.root / "demo")
    assert "T1 trade adjudicated" in run_pass(hosted.root, START + timedelta(minutes=10)).text


def test_a_broken_game_does_not_hold_up_the_others(hosted: Hosted) -> None:
    other = create_demo(hosted.root / "other-folder")  # its mail names its id, not its folder
    text = other.directory.game_file.read_text().replace('id = "demo"', 'id = "other"')
    other.directory.game_file.write_text(text)
    (hosted.root / "intake.toml").write_text(settings_toml(hosted.imap_port, hosted.smtp.port))
    (hosted.root / "other-folder" / "state.toml").write_text("this is not toml = = =")
    hosted.post(
        mail("power Rome\npassword rome-secret\noffer wine\n", sender=address("Rome"), subject="[other] orders")
    )
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    report = run_pass(hosted.root, START)
    assert "T1 trade adjudicated" in report.text, report.text
    assert "other: NEEDS THE MODERATOR" in report.text and "state.toml" in report.text
    assert hosted.waiting_on_server() == 1  # the broken game's mail waits on the server


def test_delay_lets_a_player_revise(hosted: Hosted) -> None:
    game_file = hosted.root / "demo" / "game.toml"
    game_file.write_text(game_file.read_text().replace('remind = ["12h"]', 'remind = ["12h"]\ndelay = "30m"'))
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    early = run_pass(hosted.root, START)
    assert "T1 trade adjudicated" not in early.text, early.text
    assert "every order is in; adjudicated at 2027-03-01 09:30 UTC ([schedule] delay)" in early.text
    assert early.wake == START + timedelta(minutes=30)
    assert "T1 trade adjudicated" not in run_pass(hosted.root, START + timedelta(minutes=29)).text
    assert "T1 trade adjudicated" in run_pass(hosted.root, START + timedelta(minutes=30)).text


def test_watch_reconnects_after_the_imap_server_went_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_mail_jams import restartable_dovecot

    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", "s3cret")
    with restartable_dovecot() as (imap_port, stop_imap, start_imap), smtp_server() as smtp:
        create_demo(tmp_path / "demo", settings_toml(imap_port, smtp.port), SCHEDULE)
        watcher = start_watch(tmp_path / "demo", poll=600)
        try:
            time.sleep(2)
            stop_imap()
            time.sleep(3)  # the watcher notices, and tries again after 1 s, 2 s, …
            start_imap()
            message = mail("power Rome\npassword rome-secret\nstatus\n", sender=address("Rome"), subject="[demo] q")
            deliver(imap_port, message)
            sent = time.monotonic()
            while not any(m["In-Reply-To"] == message["Message-ID"] for _, _, m in smtp.received):
                assert time.monotonic() - sent < 30, "no answer within 30 s of the server's return"
                time.sleep(0.05)
        finally:
            watcher.send_signal(signal.SIGTERM)
            out, err = watcher.communicate(timeout=60)
    assert watcher.returncode == 0, (out, err)
    assert "mail: no connection to 127.0.0.1" in out and "trying again in" in out, out
    assert "mail: connected to 127.0.0.1 again" in out, out


def test_the_reports_tell_the_next_deadline(hosted: Hosted) -> None:
    hosted.post(*(orders_mail(p) for p in sorted((DEMO / "phases" / "01-T01-trade").glob("*.txt"))))
    run_pass(hosted.root, START)
    due = "2027-03-03 09:00 UTC"  # START plus the build phase's 2 days
    public = (hosted.root / "demo" / "reports" / "001-T01-trade" / "public.txt").read_text()
    assert f"by {due}" in " ".join(public.split()), public
    private = [m for _, _, m in hosted.smtp.received if "your report, Rome" in str(m["Subject"])]
    assert f"Orders for T1 build, due {due}" in str(private[0].get_body(("plain",)).get_content())


def test_resume_warns_of_a_passed_deadline_and_keeps_a_broken_game_paused(hosted: Hosted) -> None:
    from adjudicator.commands import pause_game, resume_game
    from adjudicator.core.errors import UsageError

    folder = hosted.root / "demo"
    hosted.game.set_deadline(datetime(2020, 1, 1, tzinfo=UTC))
    pause_game(folder, "")
    assert "its deadline 2020-01-01 00:00 UTC has passed" in resume_game(folder).text
    pause_game(folder, "a ruling")
    state_file = folder / "state.toml"
    good = state_file.read_text()
    state_file.write_text("broken = = =")
    failed = run_pass(hosted.root, START)  # the failure lies on top of the moderator's pause
    assert "NEEDS THE MODERATOR" in failed.text and "state.toml" in failed.text
    with pytest.raises(UsageError, match="stays paused until it loads again"):
        resume_game(folder)
    state_file.write_text(good)
    lifted = resume_game(folder).text
    assert "is lifted, but it is still paused since" in lifted and "(a ruling)" in lifted, lifted
    assert "paused by the moderator (a ruling)" in run_pass(hosted.root, START).text
    assert "is running again" in resume_game(folder).text


# ---- without mail servers ------------------------------------------------------------------


def plain_game(folder: Path, schedule: str = "") -> Game:
    return create_demo(folder, "", schedule)


def test_a_fixed_deadline_counts_only_for_the_phase_it_falls_in(tmp_path: Path) -> None:
    """A phase that opens after game.toml's fixed deadline has passed is not overdue from the
    start: one pass adjudicates the phase that was due, not the whole game."""
    game = plain_game(tmp_path / "demo", "deadline = 2020-01-01T00:00:00Z\n")
    assert game.deadline() is None  # the game opened after it
    game.directory.history_file(game.slug).touch()
    os.utime(game.directory.history_file(game.slug), (1_500_000_000, 1_500_000_000))  # opened in 2017
    assert Game.load(game.directory.root).deadline() == datetime(2020, 1, 1, tzinfo=UTC)
    report = run_pass(tmp_path / "demo", START)
    assert report.text.count("adjudicated") == 1, report.text
    assert "T1 build: waiting for" in report.text


def test_run_gives_a_phase_its_deadline_from_the_schedule(tmp_path: Path) -> None:
    plain_game(tmp_path / "demo", 'trade = "2d"\n')
    report = run_pass(tmp_path / "demo", START)
    assert "deadline set to 2027-03-03 09:00 UTC" in report.text, report.text
    assert Game.load(tmp_path / "demo").deadline() == START + timedelta(days=2)
    assert "deadline set" not in run_pass(tmp_path / "demo", START).text


def test_the_drop_folder_is_read_once_and_odd_files_are_named(tmp_path: Path) -> None:
    plain_game(tmp_path / "demo")
    drop = tmp_path / "demo" / "drop"
    drop.mkdir()
    (drop / "rome.txt").write_text("power Rome\noffer wine\n")
    (drop / "notes.md").write_text("the moderator's notes")
    report = run_pass(tmp_path / "demo", START)
    assert "rome.txt: Rome: 1 order, 0 errors" in report.text
    assert "notes.md: not read (only .eml, .htm, .html, .txt, .xml files are); moved to" in report.text
    assert [p.name.split("-", 1)[1] for p in (drop / "collected").iterdir()] == ["rome.txt"]
    assert [p.name.split("-", 1)[1] for p in (drop / "unused").iterdir()] == ["notes.md"]
    assert list(drop.glob("*.*")) == []
    assert "Nothing to do." in run_pass(tmp_path / "demo", START).text


def test_a_mailbox_away_holds_up_no_drop_folder_and_wrong_settings_need_the_moderator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.mail_servers import free_port

    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", "s3cret")
    plain_game(tmp_path / "demo")
    with (tmp_path / "demo" / "game.toml").open("a") as handle:
        handle.write(settings_toml(free_port(), free_port()))  # nobody listens there
    (tmp_path / "demo" / "drop").mkdir()
    (tmp_path / "demo" / "drop" / "rome.txt").write_text("power Rome\noffer wine\n")
    away = run_pass(tmp_path / "demo", START)
    assert "rome.txt: Rome: 1 order, 0 errors" in away.text, away.text
    assert "warning: mail not read for" in away.text and not away.needs_moderator
    assert "Nothing to do." not in run_pass(tmp_path / "demo", START).text
    monkeypatch.delenv("ADJ_TEST_MAIL_PASSWORD")
    wrong = run_pass(tmp_path / "demo", START)
    assert wrong.needs_moderator and "ADJ_TEST_MAIL_PASSWORD is not set" in wrong.text, wrong.text


def test_a_pause_holds_back_the_reports_of_a_phase_adjudicated_by_hand(tmp_path: Path) -> None:
    from adjudicator.commands import adjudicate_phase, pause_game, resume_game

    folder = plain_game(tmp_path / "demo").directory.root
    pause_game(folder, "a ruling")
    adjudicate_phase(folder, None, force=True, all_defaults=True)
    assert "queued" not in run_pass(folder, START).text
    resume_game(folder)
    assert "5 report(s) of 001-T01-trade queued" in run_pass(folder, START).text


# ---- what a review as a new moderator found ------------------------------------------------


@pytest.fixture
def folder_of_two(hosted: Hosted) -> Hosted:
    """demo and a second game, beta, in one folder reading one mailbox (intake.toml)."""
    beta = create_demo(hosted.root / "beta")
    text = beta.directory.game_file.read_text().replace('id = "demo"', 'id = "beta"')
    beta.directory.game_file.write_text(text)
    game_file = hosted.root / "demo" / "game.toml"
    game_file.write_text(game_file.read_text().split("\n[intake.imap]")[0])
    (hosted.root / "intake.toml").write_text(settings_toml(hosted.imap_port, hosted.smtp.port))
    return hosted


def test_a_run_of_one_game_leaves_the_other_games_mail_on_the_server(folder_of_two: Hosted) -> None:
    hosted = folder_of_two
    hosted.post(mail("power Rome\npassword rome-secret\nstatus", sender=address("Rome"), subject="[beta] q"))
    alone = run_pass(hosted.root / "demo", START)
    assert "held: a mail for beta from rome@example.org stays on the server" in alone.text, alone.text
    assert hosted.waiting_on_server() == 1 and "quarantined" not in alone.text
    whole = run_pass(hosted.root, START)
    assert "beta: answered from Rome (status answered)" in whole.text, whole.text
    assert hosted.waiting_on_server() == 0


def test_a_mail_naming_no_game_goes_to_the_one_game_its_sender_plays(folder_of_two: Hosted) -> None:
    hosted = folder_of_two
    beta_toml = hosted.root / "beta" / "game.toml"
    beta_toml.write_text(beta_toml.read_text().replace("rome@example.org", "someone-else@example.org"))
    hosted.post(mail("power Rome\npassword rome-secret\nstatus", sender=address("Rome"), subject="a question"))
    assert "demo: answered from Rome (status answered)" in run_pass(hosted.root, START).text


def test_one_games_broken_mail_settings_hold_up_no_other_game(folder_of_two: Hosted) -> None:
    hosted = folder_of_two
    with (hosted.root / "demo" / "game.toml").open("a") as handle:
        handle.write('\n[delivery.smtp]\npassword_env = "NOT_SET_ANYWHERE"\n')
    hosted.post(mail("power Rome\npassword rome-secret\nstatus", sender=address("Rome"), subject="[demo] q"))
    hosted.post(mail("power Rome\npassword rome-secret\nstatus", sender=address("Rome"), subject="[beta] q"))
    report = run_pass(hosted.root, START)
    assert "demo: NEEDS THE MODERATOR: 1 mail(s) wait in outbox/" in report.text, report.text
    assert "NOT_SET_ANYWHERE is not set" in report.text
    assert "beta: 1 mail(s) sent" in report.text
    assert report.needs_moderator


def test_a_mistyped_request_alone_is_answered_and_keeps_the_orders(hosted: Hosted) -> None:
    hosted.post(mail("power Rome\npassword rome-secret\noffer oil, livestock, metal\n", sender=address("Rome")))
    run_pass(hosted.root, START)
    answer = ask(hosted, "power Rome\npassword rome-secret\nstauts")
    assert "Not understood: 'stauts' is not an order; did you mean 'status'?" in answer
    assert "Your mail held no orders, so any orders of yours on file stand." in answer
    assert "offer oil" in (hosted.root / "demo" / "orders" / "001-T01-trade" / "Rome.txt").read_text()
    from adjudicator.commands import status

    assert "rejected" not in status(hosted.root / "demo").text


def test_a_single_day_absence_and_clear_refusals(hosted: Hosted) -> None:
    one_day = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-03-05")
    assert "Absence recorded: from 2027-03-05 00:00 UTC to 2027-03-06 00:00 UTC" in one_day
    reversed_ = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-03-09 to 2027-03-07")
    assert "that absence ends before it begins" in reversed_
    over = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-02-01 to 2027-02-02")
    assert "that absence is already over" in over
    nonsense = ask(hosted, "power Rome\npassword rome-secret\nabsence 2027-13-45")
    assert "'2027-13-45' is not a date" in nonsense


def test_drop_posts_that_no_game_can_use_are_kept_apart_and_requests_in_posts_are_named(tmp_path: Path) -> None:
    plain_game(tmp_path / "games" / "demo")
    beta = plain_game(tmp_path / "games" / "beta").directory.game_file
    beta.write_text(beta.read_text().replace('id = "demo"', 'id = "beta"'))
    drop = tmp_path / "games" / "drop"
    drop.mkdir()
    (drop / "rome.txt").write_text("game demo\npower Rome\noffer wine\nstatus\n")
    (drop / "lost.txt").write_text("power Egypt\noffer gold\n")
    report = run_pass(tmp_path / "games", START)
    asked = "(its requests, such as 'status', are answered by mail only)"
    assert f"rome.txt: Rome: 1 order, 0 errors {asked}" in report.text
    assert "lost.txt: skipped: it names no game of this folder" in report.text
    assert "lost.txt: moved to" in report.text and "fix it and put it back into" in report.text
    assert [p.name.split("-", 1)[1] for p in (drop / "unused").iterdir()] == ["lost.txt"]


def test_a_deadline_set_in_the_past_is_said_to_be(tmp_path: Path) -> None:
    from adjudicator.commands import set_deadline

    plain_game(tmp_path / "demo")
    said = set_deadline(tmp_path / "demo", "2020-01-01T00:00").text
    assert "that is in the past" in said and "default orders for Rome" in said
