"""A Mare Mediterraneum game through the moderator's commands, as for the other two rulesets:
created, its welcome forms pasted back, turns adjudicated one player at a time, every report
rendered, history replayed and the dice verified; and a game played to its winner, by files and
by mail through real IMAP and SMTP servers. Shared code runs the third ruleset untouched."""

from __future__ import annotations

import email
import email.policy
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core.dice import ChainDice
from adjudicator.game.game import Game
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mediterraneum.board import GOALS
from adjudicator.rulesets.mediterraneum.model import goals_of
from tests.mediterraneum_support import board
from tests.test_empires_cli import pasted, run

runner = CliRunner()
PLAYERS = ["Red:red@example.org:red-secret", "Blue:blue@example.org:blue-secret",
           "Green:green@example.org:green-secret"]  # fmt: skip


def players() -> list[str]:
    return [a for p in PLAYERS for a in ("--player", p)]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mediterraneum") / "m1"
    run("new", str(folder), "--ruleset", "mediterraneum", *players())
    return folder


def to_move(folder: Path) -> str:
    shown = run("state", str(folder))
    found = re.search(r"\((\w+) to move\)", shown)
    assert found, shown
    return found.group(1)


def test_a_game_is_created_with_the_reconstructed_board(game: Path) -> None:
    shown = run("state", str(game))
    assert "Mare Mediterraneum · turn 1, turn" in shown and "Play order (from the first player, M2.4):" in shown
    assert sorted(p.name for p in (game / "history").iterdir()) == ["000-T01-setup.toml", "001-T01-turn.toml"]


def test_the_welcome_forms_paste_back_and_a_round_of_turns_adjudicates(game: Path, tmp_path: Path) -> None:
    first = to_move(game)
    for path in sorted((game / "outbox").glob("*.welcome.*.eml")):
        body = str(email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_content())
        colour = re.search(r"you play (\w+)", body)
        assert colour is not None
        if colour.group(1) != first:
            assert "Nothing to order now" in body, "only the player to move is offered orders (M3.1)"
            continue
        orders = tmp_path / f"{first}.txt"
        form = "# Orders for" + body.split("# Orders for", 1)[1]
        form = form.replace("# buy ship at", "buy ship at", 1)  # the ship, whatever the form's first line
        orders.write_text(pasted(form, keep=0).format(secret=f"{first.lower()}-secret"))
        receipt = run("submit", "--vouch", str(game), str(orders))
        assert "ERROR" not in receipt and "1 order accepted" in receipt, receipt
    told = run("adjudicate", str(game))
    assert "T1 turn" in told
    for _ in range(2):  # the other two players: each pastes his own form back
        colour = to_move(game)
        form = run("report", str(game), "--power", colour).rsplit("# Orders for", 1)[1]
        form = form.replace("# buy ship at", "buy ship at", 1)
        orders = tmp_path / f"{colour}.txt"
        orders.write_text(pasted("# Orders for" + form, keep=0).format(secret=f"{colour.lower()}-secret"))
        assert "ERROR" not in run("submit", "--vouch", str(game), str(orders))
        run("adjudicate", str(game))
    assert "turn 2, turn" in run("state", str(game)) and to_move(game) == first


def test_an_order_out_of_turn_is_refused_with_its_rule(game: Path, tmp_path: Path) -> None:
    colour = next(c.split(":")[0] for c in PLAYERS if c.split(":")[0] != to_move(game))
    orders = tmp_path / "late.txt"
    orders.write_text(f"game m1\npower {colour}\npassword {colour.lower()}-secret\npass\n")
    result = runner.invoke(app, ["submit", "--vouch", str(game), str(orders)])
    assert (
        result.exit_code != 0
        and "M3.1: it is " in result.output
        and "your orders count in your own turn" in result.output
    )


def test_every_report_renders_and_the_history_holds(game: Path, tmp_path: Path) -> None:
    for fmt in ("txt", "md", "bbcode", "html"):
        text = run("report", str(game), "--phase", "2", "--format", fmt)
        assert "Wanted goods" in text and "Ships" in text
    private = run("report", str(game), "--phase", "3", "--power", "Red")
    assert "Your purse:" in private and "Your orders this phase" in private
    assert "identical" in run("replay", str(game))
    assert "all match the commitment" in run("verify-dice", str(game))
    assert "3 phase(s)" in run("site", str(game), str(tmp_path / "site"))
    assert "M4.5" in run("rules", "M4.5", "--ruleset", "mediterraneum")
    assert "MD13" in run("rules", "MD13", "--ruleset", "mediterraneum")
    assert "a sound board" in run("board", "check", "--ruleset", "mediterraneum")


def test_a_bad_option_is_one_sentence(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["new", str(tmp_path / "g"), "--ruleset", "mediterraneum", "--option", "goals=huge", *players()]
    )
    assert result.exit_code != 0 and "goals" in result.output and "M12.4" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_from_the_forms_report_every_phase(tmp_path: Path, seed: int) -> None:
    """The player to move pastes back a random part of his form (everyone bids in an auction),
    for six rounds: every phase's reports render and nothing is logged as an internal error."""
    from adjudicator.game.players import parse_player_spec
    from adjudicator.game.submissions import check_submission, store_submission
    from adjudicator.hosting.adjudication import adjudicate
    from adjudicator.reports.order_form import order_form

    rng = random.Random(seed)
    specs = [parse_player_spec(p) for p in PLAYERS]
    game, _ = Game.create(tmp_path / "g", specs, ruleset_name="mediterraneum")
    for _ in range(40):
        if game.phase_info.winner or game.phase_info.turn > 6:
            break
        for colour in game.ruleset.due(game.position, False):
            lines = [line.order for line in order_form(game, game.position, colour)]
            chosen = rng.sample(lines, min(len(lines), rng.randint(1, 6))) or ["pass"]
            text = f"power {colour}\n" + "\n".join(chosen) + "\n"
            store_submission(game, check_submission(game, text, colour), text, source="test")
        result = adjudicate(game, force=True)
        assert not result.report_problem, result.report_problem
        game = Game.load(tmp_path / "g")
    assert game.phase_info.turn > 3
    assert not (tmp_path / "g" / "logs").exists() or not any((tmp_path / "g" / "logs").iterdir())


# ---- a game to its winner ---------------------------------------------------------------------


def near_victory(folder: Path) -> tuple[Path, str]:
    """A position file in which Green, to move, holds an empire with an army and meets every goal
    of his State card under the short goal set (M12.4) but one building: one more building wins."""
    ruleset = find_ruleset("mediterraneum")
    options = ruleset.check_options({"goals": "short"})
    opening, _ = ruleset.new_position(
        board(), ["Red", "Blue", "Green"], ChainDice("nv", 0, bytes(32), root=bytes(32)), options
    )
    data: dict[str, Any] = ruleset.position_to_data(opening)
    state = data["decks"]["states"][0]
    data["decks"]["states"] = data["decks"]["states"][1:]
    goals = goals_of(board(), state, "short")
    cities = [c for c, s in data["cities"].items() if s.get("owner") == "Green"]
    capital = cities[0]  # his other Residenz stays a province
    free = [c for c, s in data["cities"].items() if not s.get("owner")]
    for city in free[: goals["provinces"] - 1]:  # the capital does not count as a province
        data["cities"][city] = {**data["cities"][city], "owner": "Green", "status": "province"}
    singles = [a for a, art in board().art.items() if not art.half and a in data["decks"]["art"]]
    art = singles[: goals["art"]]
    data["decks"]["art"] = [a for a in data["decks"]["art"] if a not in art]
    own_goods = set(board().produces(capital))
    wares = [g for g in board().goods if g not in own_goods][: goals["wares"]]
    houses = [wares[i : i + 2] for i in range(0, len(wares), 2)]
    buildings = [b for b, n in data["decks"]["buildings"].items() if n and board().buildings[b].kind == "decorative"]
    built = buildings[: goals["buildings"] - 1]
    for b in built:
        data["decks"]["buildings"][b] -= 1
    data["cities"][capital] = {**data["cities"][capital], "status": "capital", "buildings": built, "warehouses": houses}
    data["players"]["Green"] = {**data["players"]["Green"], "money": 20, "state": state, "art": art, "founded_at": 1}
    land = board().cities[capital].land
    data["armies"] = [{"owner": "Green", "number": 1, "at": land}]
    data["stone"], data["stone_owner"] = 1, "Green"
    data["step"] = "Green"
    data["order"] = ["Green", "Red", "Blue"]
    assert not {g for g in GOALS if goals[g] <= 0}, goals
    path = folder / "near-victory.toml"
    path.write_text(tomli_w.dumps({**data, "dice": {"phase_number": 1}}))
    return path, next(
        b
        for b, n in data["decks"]["buildings"].items()
        if n and b not in built and board().buildings[b].kind == "decorative"
    )


def game_near_victory(tmp_path: Path, name: str) -> tuple[Path, str]:
    """A game created from `near_victory`'s position, with the short goal set; the building that wins."""
    position, building = near_victory(tmp_path)
    folder = tmp_path / name
    run(
        "new",
        str(folder),
        "--ruleset",
        "mediterraneum",
        "--option",
        "goals=short",
        "--position",
        str(position),
        *players(),
    )
    return folder, building


def test_a_game_is_won_by_files_and_the_dice_root_is_revealed(tmp_path: Path) -> None:
    folder, building = game_near_victory(tmp_path, "won")
    assert to_move(folder) == "Green"
    orders = tmp_path / "green.txt"
    orders.write_text(f"game won\npower Green\npassword green-secret\nbuild {board().buildings[building].name}\n")
    assert "ERROR" not in run("submit", "--vouch", str(folder), str(orders))
    told = run("adjudicate", str(folder))
    assert "WINNER: Green" in run("state", str(folder)), told
    public = run("report", str(folder))
    assert "Green WINS" in public and "the chain's root is revealed" in public
    refused = runner.invoke(app, ["adjudicate", str(folder), "--force", "--all-defaults"])
    assert refused.exit_code != 0 and "over" in refused.output
    assert "identical" in run("replay", str(folder))
    root = tomllib.loads((folder / "secrets.toml").read_text())["dice"]["root"]
    assert root in public
    assert "Your State card:" in run("report", str(folder), "--power", "Green")  # his own, in his report only
    assert "State card:" not in public and "Your State card" not in run("report", str(folder), "--power", "Red")


def test_a_game_is_won_by_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.mail_servers import PASSWORD, imap_server, smtp_server
    from tests.test_mail import deliver, mail, settings_toml

    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    folder, building = game_near_victory(tmp_path, "bymail")
    with imap_server(dovecot=True) as imap_port, smtp_server() as smtp:
        with (folder / "game.toml").open("a") as handle:
            handle.write(settings_toml(imap_port, smtp.port))
        body = f"game bymail\npower Green\npassword green-secret\nbuild {board().buildings[building].name}\n"
        deliver(imap_port, mail(body, sender="green@example.org"))
        collected = run("collect", str(folder), "--imap")
        assert "accepted" in collected, collected
        run("adjudicate", str(folder))
        run("send", str(folder))
        reports = [m for m in smtp.messages_to("green@example.org") if "your report" in m["Subject"]]
        assert reports and "The game is over: Green won." in reports[-1].get_body(("plain",)).get_content()
        listed = smtp.messages_to("list@example.org")
        assert listed and "Green WINS" in listed[-1].get_content()
    assert "WINNER: Green" in run("state", str(folder))
