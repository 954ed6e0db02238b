"""The campaign site (issue 15, part 2): pages, links followed in Chromium, incremental rebuilds,
the dice proof a player runs, and the standings each ruleset reports."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.reports.site import MANIFEST, build_site

runner = CliRunner()
CRAWLER = Path(__file__).parent / "data" / "crawl.html"
DEMO_PHASES = Path(__file__).parent.parent / "games" / "demo" / "phases"


@pytest.fixture(scope="module")
def demo_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site") / "demo"
    result = runner.invoke(app, ["demo", str(target)])
    assert result.exit_code == 0, result.output
    return target


@pytest.fixture(scope="module")
def demo_site(demo_game: Path) -> Path:
    out = demo_game.parent / "site"
    result = runner.invoke(app, ["site", str(demo_game), str(out)])
    assert result.exit_code == 0, result.output
    assert "9 phase(s)" in result.output
    return out


def crawl(page: Path, profile: Path) -> list[str]:
    """Every file the site links from `page`, as Chromium finds them: 'OK url', 'MISSING url', …"""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
             "--allow-file-access-from-files", "--virtual-time-budget=20000", "--dump-dom"]  # fmt: skip
    done = subprocess.run(
        [chromium, *flags, f"{CRAWLER.as_uri()}#{page.as_uri()}"], check=True, capture_output=True, timeout=120
    )
    dom = done.stdout.decode()
    found = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    assert found is not None and found.group(1).endswith("DONE"), dom[:500]
    return html.unescape(found.group(1)).splitlines()[:-1]


def test_chromium_opens_the_site_and_every_link_leads_to_a_page_of_it(demo_site: Path, tmp_path: Path) -> None:
    lines = crawl(demo_site / "index.html", tmp_path / "profile")
    problems = [line for line in lines if not line.startswith("OK ")]
    assert problems == []
    reached = {line.removeprefix("OK ").removeprefix(demo_site.as_uri() + "/") for line in lines}
    phases = [f"{p.name[:2].zfill(3)}-{p.name[3:]}" for p in sorted(DEMO_PHASES.iterdir())]
    assert {"index.html", "maps.html", "dice.html", "dice.json", "verify-dice.py"} <= reached
    assert {f"{slug}/index.html" for slug in phases} <= reached
    assert {f"{slug}/map.svg" for slug in phases} <= reached


def test_the_crawler_reports_a_missing_page(demo_game: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(Game.load(demo_game), out)
    (out / "005-T02-build" / "map.svg").unlink()
    lines = crawl(out / "index.html", tmp_path / "profile")
    assert f"MISSING {(out / '005-T02-build' / 'map.svg').as_uri()}" in lines


def test_each_phase_page_links_its_neighbours_and_shows_its_map(demo_site: Path) -> None:
    page = (demo_site / "005-T02-build" / "index.html").read_text(encoding="utf-8")
    assert 'href="../004-T02-trade/index.html" rel="prev">‹ T2 trade' in page
    assert 'href="../006-T02-military/index.html" rel="next">T2 military ›' in page
    assert 'href="../maps.html#005-T02-build"' in page
    assert "<svg" in page and "T2 build" in page
    first = (demo_site / "001-T01-trade" / "index.html").read_text(encoding="utf-8")
    last = (demo_site / "009-T03-military" / "index.html").read_text(encoding="utf-8")
    assert 'rel="prev"' not in first and 'rel="next"' not in last


def test_the_map_history_describes_each_map_as_its_report_does(demo_game: Path, demo_site: Path) -> None:
    """Each picture on maps.html has the alternative text of its phase's report (who holds what after
    it), not one sentence for them all."""
    page = (demo_site / "maps.html").read_text(encoding="utf-8")
    pictures = dict(re.findall(r'<figure id="([^"]+)">.*?<img [^>]*alt="([^"]*)"', page, re.S))
    assert len(pictures) == 9
    for slug, alt in pictures.items():
        report = (demo_game / "reports" / slug / "public.html").read_text(encoding="utf-8")
        said = re.search(r'<p class="map-alt">(.*?)</p>', report, re.S)
        assert said is not None and html.unescape(alt) == html.unescape(said.group(1)), slug
    assert len(set(pictures.values())) > 1, "the holdings change over the game"


def test_the_site_is_self_contained(demo_site: Path) -> None:
    for page in demo_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'(?:src="|<link[^>]*href=")(?:https?:)?//', text), f"{page} fetches from elsewhere"
        assert not re.search(r'href="(?:https?:)?//', text), f"{page} links elsewhere (the demo sets no rules_url)"
        assert "@example.org" not in text, f"{page} shows a player's mail address"


def test_the_index_shows_standings_and_a_chart_per_measure(demo_site: Path) -> None:
    index = (demo_site / "index.html").read_text(encoding="utf-8")
    for measure in ("Provinces", "Cities", "Caravans", "Heroes and wonders", "Cards in hand"):
        assert f"<figcaption>{measure}</figcaption>" in index
    assert index.count("<polyline") == 5 * 5, "a line per player in each chart"
    assert "Now: <b>T4 trade</b>" in index


def test_the_published_dice_verify_with_the_shipped_script(demo_site: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "verify-dice.py", "dice.json"], cwd=demo_site, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All 6 rolls of 10 phases of game demo verify" in done.stdout
    data = json.loads((demo_site / "dice.json").read_text(encoding="utf-8"))
    roll = next(r for p in data["phases"] for r in p["rolls"])
    roll["value"] = roll["value"] % 6 + 1
    (tmp_path / "dice.json").write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(demo_site / "verify-dice.py"), str(tmp_path / "dice.json")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "do NOT verify" in done.stdout


def test_the_dice_page_shows_the_command_and_every_roll(demo_site: Path) -> None:
    page = (demo_site / "dice.html").read_text(encoding="utf-8")
    assert "<code>python3 verify-dice.py dice.json</code>" in page
    assert "roll 9/0 = <b>" in page and "roll 6/1 = <b>" in page


def test_a_second_build_writes_nothing(demo_game: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = build_site(Game.load(demo_game), out)
    again = build_site(Game.load(demo_game), out)
    assert len(first.written) > 20 and again.written == ()


def test_a_folder_with_other_files_is_refused(demo_game: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["site", str(demo_game), str(tmp_path)])
    assert result.exit_code == 1
    assert "is not empty and holds no campaign site" in result.output
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine" and not (tmp_path / MANIFEST).exists()


def test_a_game_without_a_site_setting_asks_where(demo_game: Path) -> None:
    result = runner.invoke(app, ["site", str(demo_game)])
    assert result.exit_code == 1
    assert "[game] site" in result.output


def _set_site(game_dir: Path, site: str, map_url: str = "") -> None:
    path = game_dir / "game.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["game"]["site"] = site
    if map_url:
        data["game"]["map_url"] = map_url
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def test_the_game_s_site_follows_rollback_and_adjudication(tmp_path: Path) -> None:
    game_dir = tmp_path / "demo"
    assert runner.invoke(app, ["demo", str(game_dir)]).exit_code == 0
    _set_site(game_dir, "public", map_url="https://example.org/demo")  # map.png drawn, and published too
    site = game_dir / "public"

    rolled = runner.invoke(app, ["rollback", str(game_dir), "--to", "8"])
    assert rolled.exit_code == 0, rolled.output
    assert not (site / "008-T03-build").exists() and not (site / "009-T03-military").exists()
    assert 'rel="next"' not in (site / "007-T03-trade" / "index.html").read_text(encoding="utf-8")

    for phase in ("08-T03-build", "09-T03-military"):
        for orders in sorted((DEMO_PHASES / phase).iterdir()):
            civ = orders.stem.split("-", 1)[1].capitalize()
            submitted = runner.invoke(app, ["submit", "--vouch", str(game_dir), str(orders), "--power", civ])
            assert submitted.exit_code == 0, submitted.output
        done = runner.invoke(app, ["adjudicate", str(game_dir), "--force", "--all-defaults"])
        assert done.exit_code == 0 and "Warning" not in done.output, done.output
    assert (site / "009-T03-military" / "index.html").exists()
    png = (site / "009-T03-military" / "map.png").read_bytes()
    assert png == (game_dir / "reports" / "009-T03-military" / "map.png").read_bytes(), "where map_url points"
    assert 'rel="next">T3 build' in (site / "007-T03-trade" / "index.html").read_text(encoding="utf-8")
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    assert "009-T03-military/map.svg" in manifest["files"]

    again = build_site(Game.load(game_dir), site)
    assert again.written == (), "adjudicate left the site up to date"


def test_a_site_that_cannot_be_written_warns_and_the_game_goes_on(tmp_path: Path) -> None:
    game_dir = tmp_path / "demo"
    assert runner.invoke(app, ["demo", str(game_dir)]).exit_code == 0
    (game_dir / "blocked").write_text("a file where the site's folder should be", encoding="utf-8")
    _set_site(game_dir, "blocked")
    rolled = runner.invoke(app, ["rollback", str(game_dir), "--to", "9"])
    assert rolled.exit_code == 0, rolled.output
    assert "Warning: the campaign site in" in rolled.output and "is not updated" in rolled.output
    assert "T3 military" in runner.invoke(app, ["status", str(game_dir)]).output


def test_standings_count_an_occupied_caravan_for_the_occupier(demo_game: Path) -> None:
    """R8.6: after T3 the Carthaginian legion in Cyrenae holds its grain caravan; the province
    stays Egyptian."""
    game = Game.load(demo_game)
    rows = {s.civ: s.counts for s in game.ruleset.standings(game.board, game.position)}
    assert game.position.provinces["cyrenae"].occupied == {"caravan:grain": "Carthage"}
    assert rows["Carthage"]["Caravans"] == 5 and rows["Egypt"]["Caravans"] == 1
    assert rows["Egypt"]["Provinces"] == 4
    assert list(rows["Rome"]) == ["Provinces", "Cities", "Caravans", "Heroes and wonders", "Cards in hand"]


def test_the_shipped_dice_proof_needs_only_the_standard_library() -> None:
    import ast

    import adjudicator.core.dice_proof as proof

    tree = ast.parse(Path(proof.__file__).read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported - {"__future__"} <= sys.stdlib_module_names


def test_map_url_and_site_are_set_at_new_and_map_url_given_to_one_report(demo_game: Path, tmp_path: Path) -> None:
    players = [f"{civ}:{civ.lower()}@example.org" for civ in ("Rome", "Carthage", "Greece")]
    args = ["new", str(tmp_path / "g"), *(a for p in players for a in ("--player", p))]
    made = runner.invoke(app, [*args, "--map-url", "https://example.org/g", "--site", "public"])
    assert made.exit_code == 0, made.output
    settings = tomllib.loads((tmp_path / "g" / "game.toml").read_text(encoding="utf-8"))["game"]
    assert settings["map_url"] == "https://example.org/g" and settings["site"] == "public"

    shown = runner.invoke(app, ["report", str(demo_game), "--format", "bbcode", "--map-url", "https://x.example/d/"])
    assert "[img]https://x.example/d/009-T03-military/map.png[/img]" in shown.output
    plain = runner.invoke(app, ["report", str(demo_game), "--format", "bbcode"])
    assert "[img]" not in plain.output, "only for that report"


def test_a_site_names_the_phases_in_the_games_language(tmp_path: Path, demo_played: Callable[..., Path]) -> None:
    """Issue 34: a Hungarian game's site listed its phases as R3 military, in English."""
    site = tmp_path / "site"
    result = runner.invoke(app, ["site", str(demo_played("empires", "hu")), str(site)])
    assert result.exit_code == 0, result.output
    shown = re.findall(r'<a href="[^"]+/index.html">([^<]+)</a>', (site / "index.html").read_text(encoding="utf-8"))
    assert "R3 katonai" in shown and not any("military" in label or "trade" in label for label in shown), shown
