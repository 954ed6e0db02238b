"""bench/run.py keeps working: its pieces run at toy sizes (the figures are in docs/performance.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


def test_bench_pieces_run_and_measure_something(bench: Any, tmp_path: Path) -> None:
    engine = bench.bench_engine(2)
    assert set(engine) == {"trade", "build", "military"} and all(v > 0 for v in engine.values())
    heavy_ms, accepted = bench.bench_heavy_build(1)
    assert heavy_ms > 0 and accepted > 30, "the heavy build phase has real purchase lines (those the purses pay)"
    assert bench.bench_parsing(1) > 1000
    assert bench.bench_peer(3) > 0
    game = bench.build_long_game(tmp_path / "g", 1)
    assert game.phase_number >= 4
    commands = bench.bench_commands(1, tmp_path / "g")
    assert "state" in commands and all(t.cpu_ms > 0 and t.ratio > 0 and t.peak_mb > 0 for t in commands.values())
    plain, png, peak = bench.bench_adjudicate_cpu(1, tmp_path / "g")
    assert png > 0 and plain > 0 and peak > 0
    assert bench.bench_notify_queue(tmp_path / "g", 1) > 0
    preview_ms, trials, pages_ms = bench.bench_preview_and_pages(tmp_path / "g", 1)
    assert preview_ms > 0 and trials >= 1 and pages_ms > 0


def test_bench_idle_run_runs_at_toy_size(bench: Any) -> None:
    idle, process, load = bench.bench_run_idle(games=3, repeat=1)
    assert idle > 0 and process > 0 and load > 0


def test_bench_mail_intake_runs_at_toy_size(bench: Any) -> None:
    seconds, peak_mb = bench.bench_mail_intake(mails=6, games=2)
    assert seconds > 0 and peak_mb > 0


def test_bench_hostile_mails_run_at_toy_size(bench: Any, tmp_path: Path) -> None:
    figures = bench.bench_hostile(tmp_path, 1)
    assert len(figures) == len(bench.hostile_mails()) and all(ms > 0 for _, ms in figures)
