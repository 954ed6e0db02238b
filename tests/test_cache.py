"""The cache folder keeps a board's data between commands, and never gives a stale or a wrong one.

Why: every command reads a board (12 to 40 ms of TOML parsing), so its data is kept under a hash
of the file's bytes (core/cache.py). A cache that served an old board after the moderator edited
it, or failed where the home cannot be written, would be worse than none.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.core.cache import cached_data
from adjudicator.core.errors import GameFileError
from adjudicator.game.storage import read_board_document

BOARD = 'id = "tiny"\n[[province]]\nid = "roma"\nname = "Roma"\nland = ["neapolis"]\n'


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder / "adjudicator" / "boards"


def test_a_board_read_twice_comes_the_second_time_from_the_cache(tmp_path: Path, cache: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text(BOARD, encoding="utf-8")
    first = read_board_document(board)
    [entry] = cache.glob("*.json")
    assert json.loads(entry.read_text(encoding="utf-8")) == first
    entry.write_text(json.dumps({**first, "id": "from the cache"}), encoding="utf-8")
    assert read_board_document(board)["id"] == "from the cache"


def test_an_edited_board_is_read_again_not_served_stale(tmp_path: Path, cache: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text(BOARD, encoding="utf-8")
    read_board_document(board)
    board.write_text(BOARD.replace('"tiny"', '"edited"'), encoding="utf-8")
    assert read_board_document(board)["id"] == "edited"
    assert len(list(cache.glob("*.json"))) == 2


def test_a_broken_board_is_refused_as_before_and_nothing_is_kept(tmp_path: Path, cache: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text("id = \n", encoding="utf-8")
    with pytest.raises(GameFileError, match="not valid TOML"):
        read_board_document(board)
    board.write_bytes(b'id = "\xff"\n')
    with pytest.raises(GameFileError, match="not UTF-8"):
        read_board_document(board)
    assert not list(cache.glob("*.json"))


def test_no_cache_folder_at_all_only_costs_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    board = tmp_path / "board.toml"
    board.write_text(BOARD, encoding="utf-8")
    assert read_board_document(board)["id"] == "tiny"


def test_data_json_cannot_hold_is_built_each_time_and_never_kept(cache: Path) -> None:
    from datetime import date

    calls = []

    def build() -> dict[str, object]:
        calls.append(1)
        return {"when": date(2026, 11, 27)}

    assert cached_data("boards", b"a dated file", build) == cached_data("boards", b"a dated file", build)
    assert len(calls) == 2 and not list(cache.glob("*.json"))
