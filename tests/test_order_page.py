"""The order page (issue 35): a player's order form as one self-contained HTML page. In Chromium, for
each ruleset's demo, orders clicked together make a text that `check` accepts line for line; a click
on the map shows that place's orders; the page fits a phone and asks for nothing over the network."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.directory import order_page_name as page_name
from adjudicator.game.game import Game
from adjudicator.reports.order_page import named_places
from tests.chromium import Chromium, Tab

runner = CliRunner()
STICKS_OUT = Path(__file__).parent / "data" / "sticks-out.js"
SECRETS = {"mare-nostrum": "rome-secret", "empires": "", "mediterraneum": ""}


def test_a_line_names_its_places_longest_name_first() -> None:
    names = {"ionium": "Ionium", "mare-ionium": "Mare Ionium", "aegaeum": "Mare Aegaeum", "roma": "Roma"}
    assert named_places("sail 1 trireme from Mare Ionium to Mare Aegaeum", names) == ["mare-ionium", "aegaeum"]
    assert named_places("move 2 legions from roma to Romagna", names) == ["roma"], "whole words, any case"


def last_page(game: Path) -> tuple[Path, str]:
    """The last phase's order page of the first player with orders to give, and his civilization."""
    loaded = Game.load(game)
    folder = sorted(p for p in (game / "private").iterdir() if p.is_dir())[-1]
    for civ in loaded.due() or loaded.ruleset.playing(loaded.position):
        if (folder / page_name(civ)).is_file():
            return folder / page_name(civ), civ
    raise AssertionError(f"no order page in {folder}")


def secret_of(game: Path, civ: str) -> str:
    import tomllib

    with (game / "secrets.toml").open("rb") as handle:
        return str(tomllib.load(handle)["players"][civ])


def click_orders(tab: Tab, count: int) -> list[str]:
    """Click the first order of each of `count` different places (or the first orders), as a player would."""
    picked: list[str] = tab.evaluate(
        f"""(() => {{
          const seen = new Set(), picked = [];
          for (const item of document.querySelectorAll('#choices li[data-places]')) {{
            const first = item.dataset.places.split(' ')[0] || '';
            if (seen.has(first) || picked.length >= {count}) continue;
            seen.add(first);
            const button = item.querySelector('button');
            button.click();
            picked.push(button.dataset.line);
          }}
          return picked;
        }})()"""
    )
    return picked


@pytest.mark.parametrize("ruleset", ["mare-nostrum", "empires", "mediterraneum"])
def test_orders_clicked_together_are_accepted_line_for_line(
    browser: Chromium, tmp_path: Path, ruleset: str, demo_played: Callable[..., Path]
) -> None:
    game = tmp_path / "demo"
    shutil.copytree(demo_played(ruleset), game)
    page, civ = last_page(game)
    tab = browser.tab(1280, 900, mobile=False)
    tab.listen_network()
    tab.open(page.as_uri())
    picked = click_orders(tab, 1)  # one order: two may exclude each other (the same legions twice)
    assert picked, "the page offers orders"
    tab.evaluate(
        f"(() => {{ const s = document.getElementById('secret'); s.value = {json.dumps(secret_of(game, civ))};"
        " s.dispatchEvent(new Event('input')); })()"
    )
    text = tab.evaluate("document.getElementById('text').value")
    assert all(line in text.splitlines() for line in picked)
    orders = tmp_path / "orders.txt"
    orders.write_text(text, encoding="utf-8")
    checked = runner.invoke(app, ["check", str(game), str(orders)])
    assert checked.exit_code == 0, f"{text}\n{checked.output}"
    assert checked.output.count(" OK ") >= len(picked), checked.output
    assert tab.requests() == [page.as_uri()], "the page asks for nothing but itself"


def test_a_click_on_the_map_shows_that_place_s_orders(browser: Chromium, demo_played: Callable[..., Path]) -> None:
    page, _ = last_page(demo_played("mare-nostrum"))
    tab = browser.tab(1280, 900, mobile=False)
    tab.open(page.as_uri())
    shown = tab.evaluate(
        """(() => {
          const option = document.querySelector('#place option[value]:not([value=""])');
          const region = document.querySelector(`#map [data-place="${option.value.split(' ')[0]}"]`);
          const box = region.getBoundingClientRect();
          const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
          const under = document.elementsFromPoint(x, y).find((el) => el.dataset && el.dataset.place);
          const click = new MouseEvent('click', {clientX: x, clientY: y, bubbles: true});
          document.getElementById('map').dispatchEvent(click);
          const visible = [...document.querySelectorAll('#choices li[data-places]')].filter((li) => !li.hidden);
          return {place: under.dataset.place, selected: document.getElementById('place').value,
                  visible: visible.map((li) => li.dataset.places),
                  all: document.querySelectorAll('#choices li').length};
        })()"""
    )
    assert shown["visible"] and len(shown["visible"]) < shown["all"]
    assert all(shown["place"] in places.split(" ") for places in shown["visible"]), shown
    assert shown["place"] in shown["selected"].split(" ")


def test_the_keyboard_alone_chooses_a_place_and_picks_an_order(
    browser: Chromium, demo_played: Callable[..., Path]
) -> None:
    game = demo_played("mare-nostrum")
    page = game / "private" / "008-T03-build" / page_name("Rome")  # Rome's T3 military orders
    tab = browser.tab(1280, 900, mobile=False)
    tab.open(page.as_uri())
    for _ in range(5):  # Tab from the top of the page to the list of places
        tab.press("Tab", 9)
        if tab.evaluate("document.activeElement.id") == "place":
            break
    tab.press("ArrowDown", 40)  # the first place
    chosen = tab.evaluate("document.getElementById('place').value")
    assert chosen, "the list of places takes the keyboard"
    tab.press("Tab", 9)  # to the first order shown there
    line = tab.evaluate("document.activeElement.dataset.line")
    hidden = tab.evaluate("document.activeElement.closest('li').hidden")
    assert line and not hidden, "Tab goes on to an order of that place"
    tab.press("Enter", 13)
    assert line in tab.evaluate("document.getElementById('text').value").splitlines()


def test_the_page_fits_a_phone(browser: Chromium, demo_played: Callable[..., Path]) -> None:
    page, _ = last_page(demo_played("empires"))
    tab = browser.tab(390, 844, mobile=True)
    tab.open(page.as_uri())
    seen = tab.evaluate(f"({STICKS_OUT.read_text()})(390)")
    assert seen["page"] <= 390 and seen["window"] == 390 and not seen["out"], seen


def test_the_page_is_attached_to_the_private_report_mail(demo_played: Callable[..., Path], tmp_path: Path) -> None:
    game = tmp_path / "demo"
    shutil.copytree(demo_played("mare-nostrum"), game)
    with (game / "game.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[delivery.smtp]\nhost = "localhost"\nfrom = "judge@example.org"\n')
    sent = runner.invoke(app, ["send", str(game), "--dry-run"])
    assert sent.exit_code == 0, sent.output
    import email

    mails = [email.message_from_bytes(p.read_bytes()) for p in (game / "outbox" / "dry-run").rglob("*.eml")]
    reports = [m for m in mails if "your report" in str(m["Subject"])]
    assert reports
    for mail in reports:
        civ = str(mail["Subject"]).rsplit(", ", 1)[-1]
        parts = [p for p in mail.walk() if p.get_filename() == page_name(civ)]
        assert len(parts) == 1, [p.get_filename() for p in mail.walk()]
        html = parts[0].get_payload(decode=True).decode()
        assert '"to": "judge@example.org"' in html and f"orders of {civ}" in html


def test_a_polish_player_s_page_is_in_polish(demo_played: Callable[..., Path]) -> None:
    """The page reads in the player's language, its orders written with his keywords, as his form is."""
    game = demo_played("mare-nostrum", "pl")
    page = (game / "private" / "008-T03-build" / page_name("Rome")).read_text(encoding="utf-8")
    form = (game / "private" / "008-T03-build" / "Rome.txt").read_text(encoding="utf-8")
    assert "Twoje rozkazy" in page and "Rozkazy Rome na T3 militarna" in page, "its words"
    polish = [line for line in form.splitlines() if line.startswith("# przesuń")]
    assert polish and all(f'data-line="{line[2:].split("  #")[0].rstrip()}"' in page for line in polish)
