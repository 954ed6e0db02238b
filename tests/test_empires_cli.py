"""An Empires game through the moderator's commands, as for the 2003 game: created, its welcome
forms pasted back, phases adjudicated, every report rendered, the site built, history replayed
and the dice verified. Shared code runs the second ruleset untouched."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.reports.picture import svg_to_png

runner = CliRunner()
PLAYERS = ["Rome:rome@example.org:rome-secret", "Greece:greece@example.org:greece-secret",
           "Carthage:carthage@example.org:carthage-secret"]  # fmt: skip


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output
    return result.output


def pasted(form: str, keep: int) -> str:
    """The form with the # removed before its first `keep` order lines, and the secret in."""
    lines, kept, orders_begun = [], 0, False
    for line in form.splitlines():
        order = re.match(r"# (\S.*?)(\s+# .*)?$", line)
        if order and orders_begun and kept < keep:
            lines.append(order.group(1))
            kept += 1
        else:
            lines.append(line)
        orders_begun = orders_begun or line.startswith("phase ")
    return "\n".join(lines).replace("YOUR-SECRET", "{secret}")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("empires") / "e1"
    run("new", str(folder), "--ruleset", "empires", *(a for p in PLAYERS for a in ("--player", p)))
    return folder


def test_a_game_is_created_with_the_empires_board(game: Path) -> None:
    assert "round 1, trade phase" in run("state", str(game))
    assert sorted(p.name for p in (game / "history").iterdir()) == ["000-R01-setup.toml", "001-R01-trade.toml"]


def test_the_welcome_forms_paste_back_and_three_phases_adjudicate(game: Path, tmp_path: Path) -> None:
    for path in sorted((game / "outbox").glob("*.welcome.*.eml")):
        body = email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_content()
        empire = re.search(r"you play (\w+)", str(body))
        assert empire is not None
        orders = tmp_path / f"{empire.group(1)}.txt"
        form = "# Orders for" + str(body).split("# Orders for", 1)[1]
        orders.write_text(pasted(form, keep=3).format(secret=f"{empire.group(1).lower()}-secret"))
        receipt = run("submit", "--vouch", str(game), str(orders))
        assert "ERROR" not in receipt, receipt
    trade = run("adjudicate", str(game))
    assert "Offers revealed (E5.3)" in trade and "R1 purchase" in trade
    for phase in ("purchase", "military"):
        for empire in ("Rome", "Greece", "Carthage"):
            form = run("report", str(game), "--power", empire).rsplit("# Orders for", 1)[1]
            orders = tmp_path / f"{empire}-{phase}.txt"
            for keep in (4, 3, 2, 1):  # each line is accepted alone; together the tokens may run out
                orders.write_text(pasted("# Orders for" + form, keep=keep).format(secret=f"{empire.lower()}-secret"))
                result = runner.invoke(app, ["submit", "--vouch", str(game), str(orders)])
                refusals = re.findall(r"ERROR .*\n\s+(.*)", result.output)
                if result.exit_code == 0 or not refusals:
                    break
                assert all("after your lines carried out before this one" in r for r in refusals), result.output
            assert result.exit_code == 0 and "ERROR" not in result.output, result.output
        run("adjudicate", str(game))
    assert "round 2, trade phase" in run("state", str(game))


def test_every_report_renders_and_the_history_holds(game: Path, tmp_path: Path) -> None:
    for fmt in ("txt", "md", "bbcode", "html"):
        text = run("report", str(game), "--phase", "3", "--format", fmt)
        assert "Titles" in text and "Hero track" in text
    svg = (game / "reports" / "003-R01-military" / "map.svg").read_text()
    assert "Mare Tyrrhenum" in svg and "Natural Earth" in svg, "the baked Empires map"
    assert "identical" in run("replay", str(game))
    assert "all match the commitment" in run("verify-dice", str(game))
    assert "3 phase(s)" in run("site", str(game), str(tmp_path / "site"))
    assert "E8.3 Fortresses" in run("rules", "E8.3", "--ruleset", "empires")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_from_the_forms_report_every_phase(tmp_path: Path, seed: int) -> None:
    """Players who paste back a random part of their form every phase, for five rounds: every
    phase's reports render (events as history stores them), in batch and stepwise mode."""
    import hashlib
    import random

    from adjudicator.game.game import Game
    from adjudicator.game.players import parse_player_spec
    from adjudicator.game.submissions import check_submission, store_submission
    from adjudicator.hosting.adjudication import adjudicate
    from adjudicator.reports.order_form import order_form

    rng = random.Random(seed)
    specs = [parse_player_spec(p) for p in PLAYERS]
    mode = "stepwise" if seed == 2 else "batch"
    root = hashlib.sha256(f"empires-forms/{seed}".encode()).digest()  # the same game on every run
    game, _ = Game.create(tmp_path / "g", specs, ruleset_name="empires", mode=mode, dice_root=root)
    for _ in range(60):
        if game.phase_info.winner or game.phase_info.turn > 5:
            break
        for empire in game.ruleset.due(game.position, mode == "stepwise"):
            lines = [line.order for line in order_form(game, game.position, empire)]
            chosen = rng.sample(lines, min(len(lines), rng.randint(0, 6))) or ["no orders"]
            text = f"power {empire}\n" + "\n".join(chosen) + "\n"
            store_submission(game, check_submission(game, text, empire), text, source="test")
        result = adjudicate(game, force=True)
        assert not result.report_problem, result.report_problem
        game = Game.load(tmp_path / "g")
    assert game.phase_info.turn > 1 or game.phase_info.winner


def test_the_empires_demo_plays_three_rounds_through_the_cli(tmp_path: Path) -> None:
    shown = run("demo", str(tmp_path / "demo"), "--ruleset", "empires")
    assert "R3 military" in shown and "round 4, trade phase" in shown
    reports = sorted(p.name for p in (tmp_path / "demo" / "reports").iterdir())
    assert len(reports) == 9 and reports[-1] == "009-R03-military"
    told = "".join((tmp_path / "demo" / "reports" / r / "public.txt").read_text() for r in reports)
    for sentence in ("Naval battle in", "conquers", "buys Lighthouse", "becomes Military Leader"):
        assert sentence in told, sentence
    assert not (tmp_path / "demo" / "logs").exists(), "no internal error was logged"


def test_the_empires_map_legend_fits_inside_the_drawing(tmp_path: Path) -> None:
    """The right-hand 12 units of the legend and its last 6 rows hold no ink: nothing is cut off
    (the caravan abbreviations once ran past the right edge)."""
    from tests.test_pictures import pixels

    run("demo", str(tmp_path / "demo"), "--ruleset", "empires")
    svg = (tmp_path / "demo" / "reports" / "009-R03-military" / "map.svg").read_text()
    width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())  # type: ignore[union-attr]
    band = float(re.search(r'<g transform="translate\(0,([\d.]+)\)"', svg).group(1))  # type: ignore[union-attr]
    assert "Caravan tags: Glad: gladiators" in svg
    for view, size in ((f"{width - 12} {band} 12 {height - band}", 12), (f"0 {height - 6} {width} 6", 600)):
        strip = re.sub(r'viewBox="[^"]*"', f'viewBox="{view}"', svg, count=1)
        _, _, rows = pixels(svg_to_png(strip, width=size))
        assert not any(sum(row[i : i + 3]) < 300 for row in rows for i in range(0, len(row), 4)), f"ink in {view}"


def test_state_json_shows_each_empire_s_title_levels(game: Path) -> None:
    """`state --json` carries the title levels (E3.4) the reports and Claims count (issue 28)."""
    import json

    state = json.loads(run("state", str(game), "--json"))
    for empire in ("Rome", "Greece", "Carthage"):
        levels = state["players"][empire]["levels"]
        assert set(levels) == {"commerce", "political", "military"} and all(n >= 0 for n in levels.values())
    assert state["players"]["Rome"]["levels"]["commerce"] > 0, "Rome's opening caravans count for commerce"


def _game_from(tmp_path: Path, position: Any) -> Path:
    """A three-player game started from an Empires position (`new --position`)."""
    import json

    from adjudicator.rulesets.empires.position import position_to_data

    data = tmp_path / "position.json"
    data.write_text(json.dumps(position_to_data(position)), encoding="utf-8")
    folder = tmp_path / "g"
    run("new", str(folder), "--ruleset", "empires", "--position", str(data),
        *(a for p in PLAYERS for a in ("--player", p)))  # fmt: skip
    return folder


def _submit(folder: Path, empire: str, orders: str) -> str:
    path = folder.parent / f"{empire}.txt"
    path.write_text(f"power {empire}\npassword {empire.lower()}-secret\n{orders}\n", encoding="utf-8")
    return run("submit", "--vouch", str(folder), str(path))


def test_the_fourth_capital_wins_at_once_and_the_report_says_so_under_the_winner_s_turn(tmp_path: Path) -> None:
    """Issue 28: Rome's fourth capital ends the game in Rome's turn; Greece, later in the military
    order, never counter-attacks, and the public report prints the win under Rome's turn. Rome's
    receipt notes the `then` that his `occupy` line overrides, and the report says it was skipped."""
    from dataclasses import replace
    from types import MappingProxyType

    from adjudicator.rulesets.empires.board import Title
    from adjudicator.rulesets.empires.model import Phase
    from tests.empires_support import opening_position

    opening = opening_position(("Rome", "Greece", "Carthage"))
    provinces = dict(opening.provinces)
    for pid in ("latium", "sicilia", "asia"):
        provinces[pid] = replace(provinces[pid], influence="Rome", city=True)
    provinces["macedonia"] = replace(provinces["macedonia"], influence="Rome", legions=MappingProxyType({"Rome": 1}))
    provinces["achaea"] = replace(
        provinces["achaea"], influence="Greece", city=True, legions=MappingProxyType({}), fortress=None
    )
    provinces["peloponnesus"] = replace(
        provinces["peloponnesus"], influence="Greece", legions=MappingProxyType({"Greece": 2})
    )
    titles = {**opening.titles, Title.MILITARY: "Rome"}
    folder = _game_from(tmp_path, replace(opening, phase=Phase.MILITARY, provinces=provinces, titles=titles))
    receipt = _submit(folder, "Rome", "move legion from Macedonia to Achaea then sack city\noccupy city in Achaea")
    assert "line 4's choice for Achaea is carried out, not 'sack city' here" in receipt, receipt
    _submit(folder, "Greece", "move 2 legions from Peloponnesus to Achaea")
    run("adjudicate", str(folder), "--force", "--all-defaults")
    (report,) = (folder / "reports").iterdir()
    public = (report / "public.txt").read_text(encoding="utf-8")
    told = public.split("What happened", 1)[1].split("Titles", 1)[0]
    assert "Greece's turn" not in told and "Battle in" not in told, told
    rome = told.split("Rome's turn:", 1)[1]
    assert "Rome's line 3 is skipped: E8.5:" in rome and "occupies the city in Achaea" in rome, told
    assert "*** Rome WINS: 4 capitals and legendary cities (E10.2). ***" in rome, told
    assert "WINNER: Rome" in run("state", str(folder))


def test_a_trade_side_on_a_used_token_is_noted_in_the_receipt_and_under_the_line(tmp_path: Path) -> None:
    """Issue 28: Carthage's `trade 2` is on the 2/3 token he used last round: his receipt says
    the side played instead, and his report gives the side under that line."""
    from dataclasses import replace

    from tests.empires_support import opening_position

    folder = _game_from(tmp_path, replace(opening_position(("Rome", "Greece", "Carthage")), tokens_used=(2,)))
    receipt = _submit(folder, "Carthage", "trade 2")
    expected = "E5.7: 2 is on no trade token you still hold; 4 (the 1/4 token) is played instead (ED4)"
    assert expected in " ".join(receipt.split()), receipt
    run("adjudicate", str(folder), "--force", "--all-defaults")
    (report,) = (folder / "private").iterdir()
    private = (report / "Carthage.txt").read_text(encoding="utf-8")
    under = private.split("trade 2", 1)[1].split("What happened to you", 1)[0]
    assert "turns the 1/4 token to 4 (2 is on no token he still holds, E5.1)" in " ".join(under.split()), private


def test_the_public_report_names_the_token_that_evens_out_the_trade(tmp_path: Path) -> None:
    """Issue 28: the public report says which token the Master gives to even out the trade."""
    run("demo", str(tmp_path / "demo"), "--ruleset", "empires")
    public = (tmp_path / "demo" / "reports" / "004-R02-trade" / "public.txt").read_text(encoding="utf-8")
    assert "Rome gives metal to Greece" in " ".join(public.split()), public


@pytest.mark.parametrize("lang", ["", ".pl", ".hu", ".fr", ".es"])
def test_the_rules_page_tells_how_to_create_an_empires_game(lang: str, tmp_path: Path) -> None:
    """Issue 28: the page's status gives the command that creates a game, and it works."""
    from adjudicator.core.resources import shipped_folder

    page = (shipped_folder("docs") / f"rules-empires{lang}.md").read_text(encoding="utf-8")
    (status,) = [p for p in page.split("\n\n") if p.startswith("**") and "--ruleset empires" in p]
    assert "`adjudicator new " in status and "`adjudicator demo " in status, status
    shown = run("new", str(tmp_path / "game"), "--ruleset", "empires", *(a for p in PLAYERS for a in ("--player", p)))
    assert "Mare Nostrum: Empires" in shown
