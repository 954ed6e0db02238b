"""Robustness: fuzzed mail, state and board files raise only our own errors, with a message;
a crash after any file write of `adjudicate` leaves a game that loads and redoes the phase to
the same result; two adjudications at once never both write."""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.core.errors import AdjudicatorError
from adjudicator.game import storage
from adjudicator.game.game import Game, default_board_path
from adjudicator.hosting.adjudication import adjudicate
from adjudicator.intake.mail import MailRejected, parse_mail
from adjudicator.intake.receive import receive
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.board import parse_board
from tests.random_play import BOARD, RULESET

# CI runs a short fuzz; ADJUDICATOR_FUZZ_EXAMPLES=5000 pytest tests/test_robustness.py runs a long one.
FUZZ = settings(
    max_examples=int(os.environ.get("ADJUDICATOR_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# ---- mail -----------------------------------------------------------------------------

_headers = st.sampled_from(
    [
        b"Content-Type: text/plain; charset=utf-8",
        b"Content-Type: text/html",
        b"Content-Type: multipart/mixed; boundary=x",
        b"Content-Transfer-Encoding: base64",
        b"Content-Transfer-Encoding: quoted-printable",
        b"Content-Type: text/plain; charset=bogus-8",
        b"From: =?utf-8?q?=C5=81?= <a@b.c>",
        b"Subject: [demo] x",
        b"Message-ID: <x@y>",
        b"Content-Disposition: attachment; filename=orders.txt",
    ]
)


@FUZZ
@given(st.lists(_headers, max_size=6), st.binary(max_size=400))
def test_any_mail_reads_or_is_rejected_with_a_reason(headers: list[bytes], body: bytes) -> None:
    raw = b"\r\n".join(headers) + b"\r\n\r\n" + body
    try:
        mail = parse_mail(raw)
    except MailRejected as rejected:
        assert str(rejected)
        return
    assert isinstance(mail.text, str)


@pytest.fixture(scope="module")
def fuzz_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    from adjudicator.game.players import parse_player_spec
    from tests.conftest import FIVE, player_args

    game, _ = Game.create(tmp_path_factory.mktemp("fuzz") / "g", [parse_player_spec(p) for p in player_args(FIVE)])
    return game


@FUZZ
@given(
    st.text(max_size=300),
    st.sampled_from(
        ["", "power Rome\n", "power Rome\npassword rome-secret\n", "game other\npower Egypt\npassword egypt-secret\n"]
    ),
)
def test_receiving_any_mail_never_raises(fuzz_game: Game, body: str, head: str) -> None:
    raw = f"From: x@y.org\r\nSubject: t\r\nMessage-ID: <{abs(hash(body + head))}@f>\r\n\r\n{head}{body}".encode()
    outcome = receive(fuzz_game, raw)
    assert outcome.status in ("accepted", "rejected", "late", "duplicate", "answered")


# ---- state and board files -------------------------------------------------------------

_junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 99),
    st.text(max_size=8),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _mutate(data: Any, path: tuple[Any, ...], junk: Any, delete: bool) -> Any:
    data = copy.deepcopy(data)
    target = data
    for step in path[:-1]:
        target = target[step]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = junk
    return data


def _opening_state() -> dict[str, Any]:
    from adjudicator.core.dice import ChainDice

    position, _ = RULESET.new_position(
        BOARD, ["Rome", "Carthage", "Greece", "Babylon", "Egypt"], ChainDice("f", 0, bytes(32)), {}
    )
    return storage.compact(RULESET.position_to_data(position))


STATE = _opening_state()
STATE_PATHS = _paths(STATE)
with default_board_path(find_ruleset("mare-nostrum")).open("rb") as _handle:
    BOARD_DATA = tomllib.load(_handle)
BOARD_PATHS = _paths(BOARD_DATA)


@FUZZ
@given(st.sampled_from(STATE_PATHS), _junk, st.booleans())
def test_a_damaged_state_file_fails_with_our_error_and_its_key(path: tuple[Any, ...], junk: Any, delete: bool) -> None:
    data = _mutate(STATE, path, junk, delete)
    try:
        RULESET.position_from_data(BOARD, data)
    except AdjudicatorError as error:
        assert str(error), "a message"


@FUZZ
@given(st.sampled_from(BOARD_PATHS), _junk, st.booleans())
def test_a_damaged_board_file_fails_with_our_error(path: tuple[Any, ...], junk: Any, delete: bool) -> None:
    data = _mutate(BOARD_DATA, path, junk, delete)
    try:
        parse_board(data)
    except AdjudicatorError as error:
        assert str(error)


# ---- crash safety ---------------------------------------------------------------------


class Crash(Exception):
    """Stands for the process dying right after a file write."""


def _files(folder: Path) -> dict[str, bytes]:
    skip = ("outbox", "rolled-back")
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not str(p.relative_to(folder)).startswith(skip) and p.name != ".lock"
    }


@pytest.fixture(scope="module")
def military_phase(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo game with its last phase (a military phase with dice) rolled back."""
    from typer.testing import CliRunner

    from adjudicator.cli import app

    folder = tmp_path_factory.mktemp("crash") / "demo"
    assert CliRunner().invoke(app, ["demo", str(folder)]).exit_code == 0
    assert CliRunner().invoke(app, ["rollback", str(folder), "--to", "9"]).exit_code == 0
    shutil.rmtree(folder / "rolled-back")
    return folder


def test_a_crash_after_any_write_leaves_a_game_that_redoes_the_phase(
    military_phase: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = tmp_path / "reference"
    shutil.copytree(military_phase, reference)
    real_write = storage.write_bytes_atomic
    writes: list[Path] = []
    monkeypatch.setattr(
        storage, "write_bytes_atomic", lambda p, d, mode=0o644: (writes.append(p), real_write(p, d, mode))
    )
    # one moment for every run: what a phase records of when it ran (its opening, a deadline
    # derived from it) is the redo's own moment, like any command's
    moment = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    adjudicate(Game.load(reference), force=True, now=moment)
    expected = _files(reference)
    total = len(writes)
    assert total > 10, "an adjudication writes history, reports and state"
    for crash_after in range(total):
        folder = tmp_path / f"crash-{crash_after}"
        shutil.copytree(military_phase, folder)
        count = 0

        def dying_write(path: Path, data: bytes, mode: int = 0o644, crash_after: int = crash_after) -> None:
            nonlocal count
            if count == crash_after:
                raise Crash(path)
            count += 1
            real_write(path, data, mode)

        monkeypatch.setattr(storage, "write_bytes_atomic", dying_write)
        with pytest.raises(Crash):
            adjudicate(Game.load(folder), force=True, now=moment)
        monkeypatch.setattr(storage, "write_bytes_atomic", real_write)
        game = Game.load(folder)  # always loadable
        assert not list(folder.rglob("*.tmp")), "no half-written file is left behind"
        if game.phase_number == 9:
            adjudicate(game, force=True, now=moment)
        assert _files(folder) == expected, f"after a crash at write {crash_after + 1} of {total} the redo differs"


def test_two_adjudications_at_once_never_both_write(military_phase: Path, tmp_path: Path) -> None:
    folder = tmp_path / "g"
    shutil.copytree(military_phase, folder)
    exe = shutil.which("adjudicator") or "adjudicator"
    runs = [
        subprocess.Popen(
            [exe, "adjudicate", str(folder), "--force", "--all-defaults"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [(run.wait(timeout=120), run.stderr.read() if run.stderr else "") for run in runs]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 1], results
    refused = next(err for code, err in results if code == 1)
    assert "another adjudicator process" in refused
    assert Game.load(folder).phase_number == 10, "exactly one phase was resolved"
