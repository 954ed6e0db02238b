"""A look before you leap (issue 35): a player's orders tried alone (`preview`, by mail or by the
moderator's command) and a whole phase tried without saving it (`adjudicate --dry-run`). Neither
changes a file of the game; a preview uses fresh dice, never the game's, and tells nothing of another
player's orders; a dry run tells exactly what `adjudicate` then writes."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.game.submissions import check_submission
from adjudicator.hosting.adjudication import DRY_RUN_SEED, dry_run
from adjudicator.intake.collect import collect
from adjudicator.reports.preview import his_side, outcomes

runner = CliRunner()
ATTACK = "game demo\npower Rome\npassword rome-secret\nattack Greece in Mare Ionium\n"


def files(folder: Path) -> dict[str, str]:
    """Every file under the folder by its path, with its content's hash and its time."""
    return {
        str(p.relative_to(folder)): f"{hashlib.sha256(p.read_bytes()).hexdigest()} {p.stat().st_mtime_ns}"
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def military(tmp_path: Path, demo_played: Callable[..., Path]) -> Path:
    """The 2003 demo back at T3 military, where Rome's trireme can attack Greece's in Mare Ionium,
    with the orders Rome, Greece and Babylon sent for it on file."""
    game = tmp_path / "demo"
    shutil.copytree(demo_played("mare-nostrum"), game)
    result = runner.invoke(app, ["rollback", str(game), "--to", "9"])
    assert result.exit_code == 0, result.output
    return game


def test_a_preview_changes_no_file_and_shows_the_odds(military: Path, tmp_path: Path) -> None:
    orders = tmp_path / "rome.txt"
    orders.write_text(ATTACK, encoding="utf-8")
    before = files(military)
    result = runner.invoke(app, ["preview", str(military), str(orders)])
    assert result.exit_code == 0, result.output
    assert files(military) == before, "a preview writes nothing"
    said = result.output
    assert "Preview of Rome's orders for T3 military" in said and "OK      attack Greece in Mare Ionium" in said
    shares = [int(n) for n in re.findall(r"^In (\d+) of 200 trials", said, re.M)]
    assert len(shares) >= 2 and shares == sorted(shares, reverse=True), "the likeliest outcome first"
    assert "Naval battle in Mare Ionium" in said


def test_a_preview_tells_nothing_of_the_other_players_orders(military: Path) -> None:
    """Greece and Babylon have orders on file: none of their lines shows, and the preview runs as
    if they had sent none (the same ways to end, whether their files are there or not)."""
    game = Game.load(military)
    theirs = {
        line.strip()
        for civ in ("Greece", "Babylon")
        for line in (military / "orders" / game.slug / f"{civ}.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith(("game", "power", "password", "#"))
    }
    assert theirs, "the demo has their orders for this phase"
    checked = check_submission(game, ATTACK, "Rome")
    orders = [line.order for line in checked.lines if line.ok and line.order is not None]
    found, _ = outcomes(game, "Rome", orders, trials=60)
    for outcome in found:
        told = " ".join(str(e.data) for e in outcome.trial.events)
        assert not [line for line in theirs if line in told]
    for civ in ("Greece", "Babylon"):
        (military / "orders" / game.slug / f"{civ}.txt").unlink()
    alone, _ = outcomes(Game.load(military), "Rome", orders, trials=60)
    ways = {len(o.trial.events) for o in found} | {len(o.trial.events) for o in alone}
    assert len(ways) == 1, "the same events in every outcome, whoever else has orders on file"


def test_a_preview_without_dice_is_certain(demo_played: Callable[..., Path], tmp_path: Path) -> None:
    """The Mare Mediterraneum demo ends at Green's turn: passing rolls nothing, so one trial tells it."""
    game_folder = tmp_path / "demo"
    shutil.copytree(demo_played("mediterraneum"), game_folder)
    game = Game.load(game_folder)
    checked = check_submission(game, "power Green\npass\n", "Green")
    assert checked.errors == 0
    found, run = outcomes(game, "Green", [line.order for line in checked.lines if line.order is not None])
    assert run == 1 and len(found) == 1 and found[0].count == 1 and found[0].trial.rolls == 0


def test_a_preview_by_mail_is_answered_and_stores_nothing(military: Path, tmp_path: Path) -> None:
    inbox = tmp_path / "mail"
    inbox.mkdir()
    mail = "From: rome@example.org\nTo: judge@example.org\nSubject: [demo] try\nMessage-ID: <p@example.org>\n\n"
    (inbox / "p.eml").write_text(mail + ATTACK.replace("attack", "preview\nattack"), encoding="utf-8")
    game = Game.load(military)
    on_file = (military / "orders" / game.slug / "Rome.txt").read_text(encoding="utf-8")
    report = collect(military, imap=False, folder=inbox)
    assert "preview answered" in report.text
    assert (military / "orders" / game.slug / "Rome.txt").read_text(encoding="utf-8") == on_file
    answer = next(p for p in (military / "outbox").glob("*.eml") if ".answer-" in p.name).read_text(encoding="utf-8")
    assert "nothing in it was stored" in answer and "Preview of Rome's orders" in answer


def test_a_preview_mail_in_polish_is_one_too(military: Path) -> None:
    game = Game.load(military)
    from adjudicator.language.submission import parse_submission

    submission = parse_submission("power Rome\npodgląd\n", game.parser)
    assert [r.command for r in submission.requests] == ["preview"]


def test_a_dry_run_tells_what_adjudicate_then_writes(military: Path) -> None:
    before = files(military)
    result = runner.invoke(app, ["adjudicate", str(military), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert files(military) == before, "a dry run writes nothing"
    assert "nothing was saved" in result.output and "No orders from Carthage, Egypt" in result.output
    shown, _ = dry_run(Game.load(military))
    done = runner.invoke(app, ["adjudicate", str(military), "--force"])
    assert done.exit_code == 0, done.output
    written = (military / "reports" / "009-T03-military" / "public.txt").read_text(encoding="utf-8")
    seed = re.search(r"revealed now:\s+([0-9a-f]+)", written)
    assert seed is not None
    words = " ".join(shown.replace(DRY_RUN_SEED, "SEED").split())  # the seed's line wraps otherwise
    assert words == " ".join(re.sub(r"revealed now:\s+[0-9a-f]+", "revealed now: SEED", written).split())


def test_his_side_keeps_what_names_him() -> None:
    data = {
        "turn": 3,
        "roles": {"military": "Rome", "commerce": "Egypt"},
        "players": {"Rome": {"hand": {"tax": 1}}, "Greece": {"hand": {}}},
        "seas": {"ionium": {"triremes": {"Rome": 1, "Greece": 1}}, "aegaeum": {"triremes": {"Greece": 2}}},
        "ships": [{"owner": "Rome", "at": "x"}, {"owner": "Greece", "at": "y"}],
    }
    assert his_side(data, "Rome") == {
        "roles": {"military": "Rome"},
        "players": {"Rome": {"hand": {"tax": 1}}},
        "seas": {"ionium": {"triremes": {"Rome": 1, "Greece": 1}}},
        "ships": [{"owner": "Rome", "at": "x"}],
    }


def test_a_preview_without_orders_says_so(military: Path, tmp_path: Path) -> None:
    inbox = tmp_path / "mail"
    inbox.mkdir()
    mail = "From: rome@example.org\nTo: judge@example.org\nSubject: [demo] try\nMessage-ID: <q@example.org>\n\n"
    (inbox / "q.eml").write_text(mail + "power Rome\npassword rome-secret\npodgląd\n", encoding="utf-8")
    report = collect(military, imap=False, folder=inbox)
    assert "preview answered" in report.text
    answer = next(p for p in (military / "outbox").glob("*.eml") if ".answer-" in p.name).read_text(encoding="utf-8")
    assert "A preview tries the orders written below it, and this mail holds none" in " ".join(answer.split())


def test_a_refused_preview_still_answers_the_mail_s_other_requests(military: Path, tmp_path: Path) -> None:
    """A preview for another phase is refused as orders for it would be, and the `status` beside it is
    answered all the same, as in any refused mail with a right password."""
    inbox = tmp_path / "mail"
    inbox.mkdir()
    mail = "From: rome@example.org\nTo: judge@example.org\nSubject: [demo] try\nMessage-ID: <r@example.org>\n\n"
    body = "power Rome\npassword rome-secret\npreview\nstatus\nphase T9 military\nattack Greece in Mare Ionium\n"
    (inbox / "r.eml").write_text(mail + body, encoding="utf-8")
    report = collect(military, imap=False, folder=inbox)
    assert "rejected from Rome" in report.text
    reply = next((military / "outbox").glob("*.rejection-*.eml"))
    text = " ".join(reply.read_text(encoding="utf-8").split())
    assert "T9 military" in text and "---- status (line 4) ----" in text and "rome-secret" not in text
