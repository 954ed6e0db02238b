"""Reports: golden files of the demo game, escaping, privacy, the SVG map, a real browser."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.directory import order_page_name as page_name
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec

runner = CliRunner()
GOLDEN = Path(__file__).parent / "golden" / "demo"  # reports/ and private/, as the demo game holds them
FOLDERS = ("reports", "private")
FIVE = ("Rome", "Carthage", "Greece", "Babylon", "Egypt")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("demo") / "demo"
    result = runner.invoke(app, ["demo", str(target)])
    assert result.exit_code == 0, result.output
    return target


def report_files(root: Path) -> list[Path]:
    """Every report file under root's reports/ and private/, relative to root; not the order pages
    (each holds the map again: tests/test_order_page.py tries them in Chromium)."""
    return sorted(
        p.relative_to(root)
        for folder in FOLDERS
        for p in (root / folder).rglob("*")
        if p.is_file() and not p.name.endswith(page_name(""))
    )


def test_demo_reports_match_the_golden_files(demo: Path, request: pytest.FixtureRequest) -> None:
    produced = report_files(demo)
    if request.config.getoption("--update-golden"):
        for folder in FOLDERS:
            shutil.rmtree(GOLDEN / folder, ignore_errors=True)
        for relative in produced:
            (GOLDEN / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(demo / relative, GOLDEN / relative)
    expected = report_files(GOLDEN)
    assert produced == expected, "the set of report files changed (run pytest --update-golden after checking)"
    for relative in produced:
        assert (demo / relative).read_bytes() == (GOLDEN / relative).read_bytes(), f"{relative} differs"


def test_every_phase_has_every_format(demo: Path) -> None:
    phases = sorted(p.name for p in (demo / "reports").iterdir())
    assert phases == sorted(p.name for p in (demo / "private").iterdir()), "each phase's private reports"
    for phase in phases:
        names = {p.name for p in (demo / "reports" / phase).iterdir()}
        assert names == {"public.txt", "public.md", "public.bbcode", "public.html", "map.svg"}, phase
        mine = {p.name for p in (demo / "private" / phase).iterdir()}
        assert mine == {f"{civ}.txt" for civ in FIVE} | {page_name(civ) for civ in FIVE}, phase


def test_plain_text_reports_fit_72_columns(demo: Path) -> None:
    for path in (demo / "reports").rglob("public.txt"):
        long = [line for line in path.read_text().splitlines() if len(line) > 72 and " " in line.strip()]
        assert not long, f"{path}: {long[:2]}"


def test_the_map_is_svg_and_names_every_place(demo: Path) -> None:
    svg = (demo / "reports" / "006-T02-military" / "map.svg").read_text()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    game = Game.load(demo)
    for name in game.ruleset.place_names(game.board).values():
        assert name in texts, f"the map does not name {name}"
    assert "Battle: Carthage against Egypt" in svg, "this phase's battle is marked"
    paths = {p.get("id"): p for p in root.iter("{http://www.w3.org/2000/svg}path")}
    for place in game.ruleset.place_names(game.board):
        region = paths.get(f"province-{place}") or paths.get(f"sea-{place}")
        assert region is not None and len(region.get("d", "")) > 40, f"{place} is drawn as a region"
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    legend = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.text == "battle"]
    assert legend and height > 706 and width == 1200, "the legend sits below the map, inside the drawing"


def test_html_report_is_self_contained_with_the_map(demo: Path) -> None:
    html = (demo / "reports" / "009-T03-military" / "public.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and 'name="viewport"' in html
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", ""), "nothing is loaded from outside"


def test_private_reports_hold_no_other_hand_and_no_secret(demo: Path) -> None:
    secrets = tomllib.loads((demo / "secrets.toml").read_text())
    words = [*secrets["players"].values(), secrets["dice"]["root"]]
    for relative in report_files(demo):
        text = (demo / relative).read_text()
        assert not any(w in text for w in words), f"{relative} shows a secret"
    for folder in (demo / "private").iterdir():
        for report in folder.glob("*.txt"):
            civ = report.stem
            text = report.read_text()
            for line in text.splitlines():
                if " keeps " in line and not line.lstrip("- ").startswith(civ):
                    assert "discards" in line and " card" in line, f"{report}: another player's cards: {line}"
                if " gives " in line and " to even the trade" not in line:
                    assert civ in line, f"{report}: a compensation card that is not {civ}'s business: {line}"


def test_report_command_prints_any_phase_in_any_format(demo: Path) -> None:
    md = runner.invoke(app, ["report", str(demo), "--phase", "6", "--format", "md"])
    assert md.exit_code == 0 and md.stdout.startswith("# demo: T2 military")
    private = runner.invoke(app, ["report", str(demo), "--power", "Carthage"])
    assert private.exit_code == 0 and "private report for Carthage" in private.stdout
    bad = runner.invoke(app, ["report", str(demo), "--format", "pdf"])
    assert bad.exit_code == 1 and "'pdf' is not a report format" in bad.stderr


NASTY = {
    "Rome": "[url=http://x.example]y[/url]",
    "Greece": "<script>alert(1)</script>",
    "Egypt": "[evil](http://x.example) *bold*",
}


@pytest.fixture(scope="module")
def nasty_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("nasty") / "nasty"
    specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org::{name}") for civ, name in NASTY.items()]
    Game.create(folder, specs)
    orders = "power Egypt\ntake gold from [Rome](http://x.example)\noffer tax\n"
    assert runner.invoke(app, ["submit", "--vouch", str(folder), "-"], input=orders).exit_code == 1
    assert runner.invoke(app, ["adjudicate", str(folder), "--force", "--all-defaults"]).exit_code == 0
    return folder


@pytest.mark.parametrize("fmt", ["md", "bbcode", "html", "txt"])
def test_player_text_comes_out_inert(nasty_game: Path, fmt: str) -> None:
    text = runner.invoke(app, ["report", str(nasty_game), "--format", fmt]).stdout
    if fmt == "bbcode":
        assert "[url" not in text and "<script" not in text
        assert "［url=http://x.example］y［/url］" in text
    elif fmt == "html":
        assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "[url=http://x.example]y[/url]" in text, "harmless in HTML, shown as written"
    elif fmt == "md":
        assert "[evil](http" not in text and "<script>" not in text
        assert "\\[evil\\](http://x.example) \\*bold\\*" in text
    else:
        assert "[url=http://x.example]y[/url]" in text, "plain text shows names as written"


def test_echoed_order_lines_are_inert_in_the_private_report(nasty_game: Path) -> None:
    private = runner.invoke(app, ["report", str(nasty_game), "--power", "Egypt"]).stdout
    assert "take gold from [Rome](http://x.example)" in private, "the line is echoed as written, in plain text"
    assert "ERROR" in private


def test_screenshot_of_the_html_report_in_headless_chromium(demo: Path, tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    page = demo / "reports" / "009-T03-military" / "public.html"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars", "--window-size=1200,1400"]  # fmt: skip
    out = tmp_path / "report.png"
    subprocess.run([chromium, *flags, f"--screenshot={out}", page.as_uri()], check=True, capture_output=True,
                   timeout=120)  # fmt: skip
    assert out.stat().st_size > 20_000, "the page rendered to a real picture"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fmt", ["html", "md", "bbcode", "txt"])
def test_every_map_picture_says_in_words_who_holds_what(fmt: str, demo_played: Callable[..., Path]) -> None:
    """Issue 34: a reader who cannot see the map (a screen reader, a forum without pictures)
    reads it in a sentence: alternative text in Markdown, a caption in BBCode (phpBB's [img]
    takes none) and HTML, beside the link in text; every player is named with his counts."""
    game = demo_played()
    result = runner.invoke(app, ["report", str(game), "--format", fmt, "--map-url", "https://example.org/demo"])
    assert result.exit_code == 0, result.output
    sentence = next(line for line in result.stdout.splitlines() if "Who holds what" in line)
    assert all(f"{civ}: Provinces " in sentence for civ in ("Rome", "Carthage", "Greece", "Babylon", "Egypt"))
    if fmt == "md":
        assert sentence.startswith("![The map after T3 military. Who holds what: Rome: Provinces")
    if fmt == "bbcode":
        assert sentence.startswith("[i]The map after T3 military.")


@pytest.mark.parametrize(("ruleset", "lang", "word"), [("mare-nostrum", "fr", "Vin"), ("empires", "pl", "Wino")])
def test_the_caravan_tags_are_in_the_readers_language(
    ruleset: str, lang: str, word: str, demo_played: Callable[..., Path]
) -> None:
    """Issue 34: the French demo's map tagged its caravans Wine and Metal while its text said vin
    and métaux. A word longer than the baked English tag is squeezed into the tag's room."""
    game = demo_played(ruleset, lang)
    drawn = "".join(p.read_text(encoding="utf-8") for p in (game / "reports").glob("*/map.svg"))
    tags = re.findall(r'class="tag(?:-text)?"[^>]*>([^<]+)<', drawn)
    assert word in tags and not {"Wine", "Sheep", "Stock", "Perf"} & set(tags), sorted(
        set(tags)
    )  # Polish metal is Metal
