"""Seats (issue 32): a player who stops sending orders is counted, warned and his seat opened;
the game goes on by default orders; a substitute is seated, caught up, and plays on.

The numbered cases are the ledger's rules (game/seats.py) on their own; the story below them
plays a whole game through `adjudicate`, the CLI's `seat` and the mail intake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import Message
from pathlib import Path

import pytest
import tomli_w

from adjudicator import commands
from adjudicator.core.errors import UsageError
from adjudicator.game import seats
from adjudicator.game.game import Game
from adjudicator.game.seats import Ledger, SeatRules, Tenure
from adjudicator.game.storage import read_toml
from adjudicator.game.submissions import SubmissionError
from adjudicator.hosting.adjudication import adjudicate, replay

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def ledger_of(**in_row: int) -> Ledger:
    return Ledger(
        0, tuple(Tenure(civ, f"{civ.lower()}@example.org", "", 1, in_row=n, missed=n) for civ, n in in_row.items())
    )


# (id, rules, in a row before, missed this phase?, notice expected, seat still held)
THREE = SeatRules(open_after=3)  # as tests/README set it: the default opens no seat by itself

COUNTING = [
    ("S1 orders came: the run ends", THREE, 2, False, None, True),
    ("S2 first miss: nothing said", THREE, 0, True, None, True),
    ("S3 second in a row: warned", THREE, 1, True, "warn", True),
    ("S4 third in a row: the seat opens", THREE, 2, True, "open", False),
    ("S4a by default no seat opens by itself", SeatRules(), 9, True, "warn", True),
    ("S5 open_after 0: warned, never opened", SeatRules(warn_after=2, open_after=0), 9, True, "warn", True),
    ("S6 warn_after 0: never warned", SeatRules(warn_after=0, open_after=5), 1, True, None, True),
    ("S7 in all: opens on the total", SeatRules(open_after=0, open_after_total=1), 0, True, "open", False),
]


@pytest.mark.parametrize(
    ("rules", "before", "misses", "expected", "held"), [c[1:] for c in COUNTING], ids=[c[0] for c in COUNTING]
)
def test_counting(rules: SeatRules, before: int, misses: bool, expected: str | None, held: bool) -> None:
    ledger = ledger_of(Rome=before)
    after, notices = seats.count_phase(ledger, rules, 5, ["Rome"], ["Rome"] if misses else [])
    assert [n.kind for n in notices] == ([expected] if expected else [])
    tenure = after.tenures[0]
    assert tenure.holding is held and tenure.in_row == (before + 1 if misses else 0)


def test_a_phase_is_counted_once_and_only_for_those_it_was_due_from() -> None:
    ledger = ledger_of(Rome=1, Egypt=1)
    once, notices = seats.count_phase(ledger, THREE, 5, ["Rome"], ["Rome"])
    again, repeated = seats.count_phase(once, THREE, 5, ["Rome"], ["Rome"])
    assert again == once and repeated == [] and [n.civ for n in notices] == ["Rome"]
    assert once.tenures[1].in_row == 1  # Egypt owed nothing this phase (a stepwise step)


def test_a_warning_is_given_once_per_run_of_missed_phases() -> None:
    ledger = ledger_of(Rome=1)
    rules = SeatRules(warn_after=2, open_after=9)
    kinds = []
    for number, missed in enumerate([True, True, True, False, True, True], start=5):
        ledger, notices = seats.count_phase(ledger, rules, number, ["Rome"], ["Rome"] if missed else [])
        kinds += [(number, n.kind) for n in notices]
    assert kinds == [(5, "warn"), (10, "warn")]


def _submit_for(game: Game, civs: list[str]) -> None:
    for civ in civs:
        commands.submit_text(game.directory.root, f"power {civ}\nno orders\n", None, vouch=True)


def _outbox(game: Game) -> list[Message]:
    return [message_from_bytes(p.read_bytes()) for p in sorted(game.directory.outbox.glob("*.eml"))]


def _body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8")


def test_a_player_who_stops_is_warned_his_seat_opens_and_a_substitute_plays_on(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = make_game()
    with game.directory.game_file.open("a", encoding="utf-8") as settings:
        settings.write("\n[seats]\nopen_after = 3\n")
    others = [civ for civ in game.playing() if civ != "Rome"]
    now = NOW
    for _ in range(3):  # Rome sends nothing three phases running; the others send theirs
        game = Game.load(game.directory.root)
        _submit_for(game, [c for c in others if c in game.due()])
        now += timedelta(days=1)
        adjudicate(game, force=True, now=now)  # Rome alone is missing: his default orders
        game = Game.load(game.directory.root)
        if "Rome" in game.settings.open_seats():
            break
    game = Game.load(game.directory.root)
    assert game.settings.open_seats() == ("Rome",)
    assert "Rome" not in game.due() and "Rome" in game.playing()  # its pieces stay; nobody waits for it
    history = sorted(game.directory.history.glob("0*.toml"))
    missed = [read_toml(p).get("missed") for p in history if "missed" in read_toml(p)]
    assert missed and all(m == ["Rome"] for m in missed)
    subjects = [str(m["Subject"]) for m in _outbox(game)]
    assert sum("Seat of Rome" in s for s in subjects) >= 2 * len(others)  # warned, then opened: everyone told
    assert "rome-secret" not in read_toml(game.directory.secrets_file).get("players", {}).get("Rome", "")

    # the seat is open: the game goes on with default orders, and the old secret no longer works
    _submit_for(game, others)
    adjudicate(game, now=now + timedelta(days=1))  # nobody is missing: Rome's seat is waited for by nobody
    game = Game.load(game.directory.root)

    with pytest.raises(UsageError, match="already plays Egypt"):
        commands.seat_player(game.directory.root, "Rome", "egypt@example.org", False)
    outcome = commands.seat_player(game.directory.root, "Rome", "nova@example.org:Nova", False)
    assert "nova@example.org" in outcome.text
    with pytest.raises(UsageError, match=r"held by nova@example\.org"):
        commands.seat_player(game.directory.root, "Rome", "other@example.org", False)
    game = Game.load(game.directory.root)
    player = game.settings.player("Rome")
    assert player is not None and player.email == "nova@example.org" and not player.open
    secret = read_toml(game.directory.secrets_file)["players"]["Rome"]
    assert player.accepts(secret) and not player.accepts("rome-secret")
    welcome = next(
        m for m in _outbox(game) if str(m["To"]).endswith("nova@example.org>") or str(m["To"]) == "nova@example.org"
    )
    text = _body(welcome)
    assert secret in text and "Rome" in text and "password YOUR-SECRET" in text  # the form of the phase now open
    assert "Rome" in game.due()  # his orders count from the phase now open

    commands.submit_text(game.directory.root, f"power Rome\npassword {secret}\nno orders\n", None)
    _submit_for(game, [c for c in others if c in game.due()])
    result = adjudicate(game, now=now + timedelta(days=2))
    last = read_toml(game.directory.history_file(result.slug))
    assert last["missed"] == [] and last["seats"]["Rome"] == "nova@example.org"

    ledger = seats.load(game.directory)
    rome = [t for t in ledger.tenures if t.civ == "Rome"]
    assert [t.email for t in rome] == ["rome@example.org", "nova@example.org"]
    assert rome[0].missed == 3 and not rome[0].holding and rome[1].played == 1 and rome[1].missed == 0

    phases, problems = replay(Game.load(game.directory.root))
    assert problems == [] and phases >= 5


def test_open_resigns_a_seat_and_bad_requests_change_nothing(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = game.directory.root
    before = game.directory.game_file.read_bytes()
    commands.seat_player(root, "Rome", None, True)
    with pytest.raises(UsageError, match="open already"):
        commands.seat_player(root, "Rome", None, True)
    game = Game.load(root)
    assert game.settings.open_seats() == ("Rome",)
    with pytest.raises(UsageError, match="either --player"):
        commands.seat_player(root, "Egypt", "a@example.org", True)
    with pytest.raises(UsageError, match="not an address"):
        commands.seat_player(root, "Rome", "not-an-address", False)
    assert game.directory.game_file.read_bytes() != before  # only the first --open changed it
    notices = [m for m in _outbox(game) if "Seat of Rome" in str(m["Subject"])]
    assert {str(m["To"]).split("<")[-1].rstrip(">") for m in notices} >= {"rome@example.org", "egypt@example.org"}


def test_status_shows_missed_phases_and_open_seats(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = game.directory.root
    _submit_for(game, [c for c in game.due() if c != "Rome"])
    adjudicate(game, force=True, now=NOW)
    shown = commands.status(root).text
    assert "Missed: Rome (rome@example.org) 1 phase(s), the last 1 in a row" in shown
    commands.seat_player(root, "Rome", None, True)
    assert "OPEN SEAT" in commands.status(root).text


def test_players_shows_each_record_across_the_games_under_a_root(make_game: Callable[..., Game]) -> None:
    """The moderator picks a substitute by his record: seats held, phases played and missed, and
    the median time from a phase's opening to his orders."""
    alpha, beta = make_game(name="alpha"), make_game(("Rome", "Greece", "Egypt"), name="beta")
    for game, minutes in ((alpha, 90), (beta, 30)):
        for _ in range(2):
            game = Game.load(game.directory.root)
            opened = NOW if game.phase_number == 1 else game_opened(game)
            for civ in game.due():
                if civ != "Egypt":
                    commands.submit_text(game.directory.root, f"power {civ}\nno orders\n", None, vouch=True)
                    meta = game.directory.orders_folder(game.slug) / f"{civ}.toml"
                    data = read_toml(meta) | {"received": opened + timedelta(minutes=minutes)}
                    meta.write_text(tomli_w.dumps(data), encoding="utf-8")  # he took this long
            adjudicate(game, force=True, now=opened + timedelta(days=1))
    shown = commands.show_players(alpha.directory.root.parent).text
    rows = {line.split()[0]: line for line in shown.splitlines()[1:] if "@" in line.split(" ")[0]}
    assert set(rows) == {f"{c.lower()}@example.org" for c in ("Rome", "Carthage", "Greece", "Babylon", "Egypt")}
    rome = rows["rome@example.org"].split()
    assert (
        rome[1:4] == ["2", "4", "0"]
        and "alpha Rome (from phase 1); beta Rome (from phase 1)" in rows["rome@example.org"]
    )
    egypt = rows["egypt@example.org"].split()
    assert egypt[1:4] == ["2", "0", "4"] and "—" in rows["egypt@example.org"]
    assert "1 h 0 min" in rows["rome@example.org"]  # the median of 90, 90 (alpha) and 30, 30 minutes (beta)


def game_opened(game: Game) -> datetime:
    opened = read_toml(game.directory.history_file(game.slug))["opened"]
    assert isinstance(opened, datetime)
    return opened


def test_a_rollback_takes_back_the_counts_of_the_phases_it_sets_aside(make_game: Callable[..., Game]) -> None:
    from adjudicator.hosting.adjudication import rollback

    game = make_game()
    for day in (1, 2):
        game = Game.load(game.directory.root)
        _submit_for(game, [c for c in game.due() if c != "Rome"])
        adjudicate(game, force=True, now=NOW + timedelta(days=day))

    def rome() -> Tenure:
        return next(t for t in seats.load(game.directory).tenures if t.civ == "Rome")

    assert (rome().missed, rome().in_row) == (2, 2)
    rollback(Game.load(game.directory.root), 2)
    assert (rome().missed, rome().in_row, rome().played) == (1, 1, 0)
    game = Game.load(game.directory.root)
    _submit_for(game, list(game.due()))
    adjudicate(game, force=True, now=NOW + timedelta(days=3))
    assert (rome().missed, rome().in_row, rome().played) == (1, 0, 1)


def test_a_player_resigns_by_mail_and_the_answer_reaches_him(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    root = game.directory.root
    folder = tmp_path / "mail"
    folder.mkdir()
    unsigned = "From: rome@example.org\nTo: judge@example.org\nSubject: [test-game] bye\n\npower Rome\nresign\n"
    (folder / "1.eml").write_text(unsigned, encoding="utf-8")
    commands.collect_mail(root, False, folder)
    assert Game.load(root).settings.open_seats() == ()  # no password: nothing changed
    (folder / "1.eml").unlink()
    signed = unsigned.replace("resign\n", "password rome-secret\nrezygnuję\n").replace("bye", "bye now")
    (folder / "2.eml").write_text(signed, encoding="utf-8")
    commands.collect_mail(root, False, folder)
    game = Game.load(root)
    assert game.settings.open_seats() == ("Rome",)
    to_rome = [m for m in _outbox(game) if "rome@example.org" in str(m["To"])]
    assert any("no longer works" in _body(m) for m in to_rome), [str(m["Subject"]) for m in to_rome]
    assert any("Seat of Rome" in str(m["Subject"]) for m in _outbox(game) if "egypt@" in str(m["To"]))


def test_the_public_report_names_runs_of_missed_phases_open_seats_and_new_players(
    make_game: Callable[..., Game],
) -> None:
    game = make_game()
    root = game.directory.root
    for day in (1, 2):
        game = Game.load(root)
        _submit_for(game, [c for c in game.due() if c != "Rome"])
        result = adjudicate(game, force=True, now=NOW + timedelta(days=day))
    second = _report(game, result.slug)
    assert "Rome has sent no orders for 2 phases in a row." in second
    commands.seat_player(root, "Rome", None, True)
    game = Game.load(root)
    _submit_for(game, list(game.due()))
    result = adjudicate(game, now=NOW + timedelta(days=3))
    third = _report(game, result.slug)
    assert "Rome's seat is open: it plays default orders until a new player takes it." in third
    assert "in a row" not in third
    commands.seat_player(root, "Rome", "nova@example.org:Nova", False)
    game = Game.load(root)
    _submit_for(game, [c for c in game.due() if c != "Rome"])
    commands.submit_text(root, "power Rome\nno orders\n", None, vouch=True)
    result = adjudicate(game, now=NOW + timedelta(days=4))
    fourth = _report(game, result.slug)
    assert "Rome has a new player, Nova." in fourth and "nova@example.org" not in fourth


def _report(game: Game, slug: str) -> str:
    """A phase's public text report, its wrapped lines joined again."""
    return " ".join((game.directory.reports_folder(slug) / "public.txt").read_text(encoding="utf-8").split())


def test_a_rollback_past_the_phase_that_opened_a_seat_gives_it_back(make_game: Callable[..., Game]) -> None:
    """Found by the soak: the redo of a rolled-back phase must see the seat as that phase did."""
    from adjudicator.hosting.adjudication import rollback

    game = make_game(("Rome", "Carthage", "Greece"))
    with game.directory.game_file.open("a", encoding="utf-8") as settings:
        settings.write("\n[seats]\nopen_after = 2\n")
    results = []
    for day in (1, 2):
        game = Game.load(game.directory.root)
        _submit_for(game, [c for c in game.due() if c != "Rome"])
        results.append(adjudicate(game, force=True, now=NOW + timedelta(days=day)))
    first = game.directory.history_file(results[1].slug).read_bytes()
    assert Game.load(game.directory.root).settings.open_seats() == ("Rome",)
    rollback(Game.load(game.directory.root), 2)
    game = Game.load(game.directory.root)
    player = game.settings.player("Rome")
    assert player is not None and not player.open and player.accepts("rome-secret")
    assert read_toml(game.directory.secrets_file)["players"]["Rome"] == "rome-secret"
    _submit_for(game, [c for c in game.due() if c != "Rome"])
    redo = adjudicate(game, force=True, now=NOW + timedelta(days=2))
    assert game.directory.history_file(redo.slug).read_bytes() == first


def test_nobody_enters_orders_for_an_open_seat(make_game: Callable[..., Game]) -> None:
    game = make_game()
    commands.seat_player(game.directory.root, "Rome", None, True)
    with pytest.raises(SubmissionError, match="its seat is open"):
        commands.submit_text(game.directory.root, "power Rome\nno orders\n", None, vouch=True)


def test_a_seat_given_to_a_substitute_since_is_not_given_back_by_a_rollback() -> None:
    """The count opened Rome's seat at phase 4; Nova took it, then left; a rollback to phase 3
    leaves it open: the moderator's later decisions stand."""
    opened = replace(Tenure("Rome", "rome@example.org", "", 1, until=4, missed=3), kept={"civ": "Rome"})
    nova = Tenure("Rome", "nova@example.org", "Nova", 5, until=6)
    assert seats.given_back(Ledger(6, (opened, nova)), "Rome", 3) == (Ledger(6, (opened, nova)), None)
    ledger, back = seats.given_back(Ledger(4, (opened,)), "Rome", 3)
    assert back == opened and ledger.tenures[0].holding and not ledger.tenures[0].kept
