"""Reports and site pages read on a phone (issue 34): laid out by Chromium at 390 px, as a phone's
browser does, at 768 px, as a tablet's does, and at 1280 px, no part of a page reaches past the
screen's right edge unless it sits in a box of its own that scrolls sideways, so the page itself
never needs a sideways swipe; the map and the charts shrink to the screen (a tap opens the map full
size), and the demo's tables fit whole, none cut at the edge of its box (the site's standings were
cut after "Caravans")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from tests.chromium import Chromium

runner = CliRunner()
SCREENS = {"phone": (390, 844, True), "tablet": (768, 1024, True), "desktop": (1280, 900, False)}

STICKS_OUT = Path(__file__).parent / "data" / "sticks-out.js"  # run in the page with the screen's width


def demo_pages(game: Path, tmp_path: Path) -> list[Path]:
    """A demo game's last phase's public HTML report, and its campaign site's index, the same
    report as a page of the site, the map history and the dice page."""
    site = tmp_path / "site"
    result = runner.invoke(app, ["site", str(game), str(site)])
    assert result.exit_code == 0, result.output
    last = sorted(p for p in (game / "reports").iterdir() if p.is_dir())[-1]
    return [last / "public.html", site / "index.html", site / last.name / "index.html", site / "maps.html",
            site / "dice.html"]  # fmt: skip


def overflows(browser: Chromium, pages: list[Path]) -> list[str]:
    """What sticks out of each page on each screen, one line each; none when all is well."""
    problems = []
    for screen, (width, height, mobile) in SCREENS.items():
        tab = browser.tab(width, height, mobile=mobile)
        for page in pages:
            tab.open(page.as_uri())
            seen = tab.evaluate(f"({STICKS_OUT.read_text()})({width})")
            where = f"{screen} {page.parent.name}/{page.name}:"
            if seen["page"] > width or seen["window"] != width:
                problems.append(f"{where} the page is {max(seen['page'], seen['window'])} px wide")
            problems += [f"{where} {line}" for line in seen["out"]]
            problems += [f"{where} picture {line}" for line in seen["pictures"]]
            problems += [f"{where} {line}: the rest needs a swipe inside it" for line in seen["cut"]]
    return problems


@pytest.mark.parametrize("ruleset", ["mare-nostrum", "empires", "mediterraneum"])
def test_reports_and_site_fit_a_phone_and_a_desktop(
    browser: Chromium, tmp_path: Path, ruleset: str, demo_played: Callable[..., Path]
) -> None:
    problems = overflows(browser, demo_pages(demo_played(ruleset), tmp_path))
    assert not problems, "\n".join(problems)
