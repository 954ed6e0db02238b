"""Games under way keep the history files an earlier version wrote. Before every ruleset named
the player an event is about `player`, 2003 wrote `civ` and Empires `empire`: such a history
still renders the same reports, builds the same campaign site and replays clean
(game/event_records.py reads it in today's names)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.hosting.adjudication import replay
from adjudicator.reports.phase import PhaseReports, load_record
from adjudicator.reports.site import MANIFEST, build_site

runner = CliRunner()
# history/ files of the shipped demos as they were written before the rename (English, each
# ruleset's phases with the most kinds of events that name a player)
OLD = Path(__file__).parent / "data" / "history-before-player"
OLD_NAME = {"mare-nostrum": "civ", "empires": "empire"}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("ruleset", sorted(OLD_NAME))
def test_history_naming_the_player_the_old_way_reads_as_before(ruleset: str, tmp_path: Path) -> None:
    folder = tmp_path / "game"
    result = runner.invoke(app, ["demo", str(folder), "--ruleset", ruleset])
    assert result.exit_code == 0, result.output
    game = Game.load(folder)
    assert runner.invoke(app, ["site", str(folder), str(tmp_path / "site-before")]).exit_code == 0
    old_files = sorted((OLD / ruleset).glob("*.toml"))
    assert old_files, f"no old history files for {ruleset}"
    for old in old_files:
        events = tomllib.loads(old.read_text())["events"]
        assert any(OLD_NAME[ruleset] in e for e in events) and not any("player" in e for e in events), old.name
        today = game.directory.history_file(old.stem)
        assert today.read_bytes() != old.read_bytes(), f"{old.name}: the demo writes `player` now"
        # what a phase has kept of its seats since (issue 32) is no part of the rename: carried over
        written = tomllib.loads(today.read_text())
        seated = {key: written[key] for key in ("due", "missed", "seats", "opened") if key in written}
        today.write_text(tomli_w.dumps(tomllib.loads(old.read_text()) | seated))

    for old in old_files:
        pages = PhaseReports(game, load_record(game, old.stem)).pages()
        for name, text in pages.items():
            written = game.directory.page_file(old.stem, name).read_text()
            assert text == written, f"{old.stem}/{name} differs from the report the demo wrote"
    build_site(game, tmp_path / "site-after")
    before, after = _files(tmp_path / "site-before"), _files(tmp_path / "site-after")
    before.pop(MANIFEST), after.pop(MANIFEST)  # it fingerprints the history files
    assert before == after, f"site pages differ: {sorted(k for k in before if before[k] != after.get(k))}"
    phases, problems = replay(game)
    assert phases > len(old_files) and problems == [], problems
