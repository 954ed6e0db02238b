"""Verifiable dice (DESIGN.md "Dice"): the chain, the rolls, verification, scripted rolls."""

from __future__ import annotations

import hashlib
import hmac
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core import dice, dice_proof
from adjudicator.core.errors import DiceError
from adjudicator.game.game import Game

ROOT = bytes(range(32))


def test_chain_links_every_seed_to_the_commitment() -> None:
    commitment = dice.commitment_for(ROOT)
    for phase in (0, 1, 7, 100):
        seed = dice.seed_for(ROOT, phase)
        assert dice_proof.seed_matches(seed, phase, commitment)
        assert hashlib.sha256(dice.seed_for(ROOT, phase + 1)).digest() == seed, "s_(i-1) = SHA-256(s_i)"
    assert not dice_proof.seed_matches(dice.seed_for(ROOT, 3), 4, commitment)


def test_roll_follows_the_published_formula() -> None:
    seed = dice.seed_for(ROOT, 5)
    for number in range(50):
        attempt = 0
        while True:
            first = hmac.new(seed, f"g/5/{number}/{attempt}".encode(), hashlib.sha256).digest()[0]
            if first < 252:
                break
            attempt += 1
        assert dice.roll_value(seed, "g", 5, number) == first % 6 + 1


def test_rolls_are_fair_enough() -> None:
    seed = dice.seed_for(ROOT, 1)
    faces = Counter(dice.roll_value(seed, "fair", 1, j) for j in range(6000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in faces.values()), faces


def test_chain_dice_records_each_roll_with_its_purpose() -> None:
    roller = dice.ChainDice("g", 2, dice.seed_for(ROOT, 2))
    values = [roller.roll(f"die {i}") for i in range(3)]
    assert [r.value for r in roller.rolls] == values
    assert [r.number for r in roller.rolls] == [0, 1, 2] and roller.rolls[1].purpose == "die 1"


def test_scripted_dice_run_out_with_a_clear_error() -> None:
    scripted = dice.ScriptedDice(dice.parse_dice_list("6,3 2"))
    assert [scripted.roll("a"), scripted.roll("b"), scripted.roll("c")] == [6, 3, 2]
    with pytest.raises(DiceError, match="3 dice were given"):
        scripted.roll("the defender's die")


@pytest.mark.parametrize("text", ["7", "0", "six", "1,,x"])
def test_dice_list_rejects_non_faces(text: str) -> None:
    with pytest.raises(DiceError):
        dice.parse_dice_list(text)


@given(st.integers(min_value=0, max_value=40), st.integers(min_value=0, max_value=500))
def test_any_roll_is_a_face(phase: int, number: int) -> None:
    assert 1 <= dice.roll_value(dice.seed_for(ROOT, phase), "h", phase, number) <= 6


def _three_player_game(make_game: Callable[..., Game]) -> Game:
    game = make_game(("Carthage", "Greece", "Babylon"))
    assert game.dice_records()[0].rolls, "a 3-player setup rolls for role ties (R2.3)"
    return game


def _tamper(path: Path, change: Callable[[dict[str, object]], None]) -> None:
    data = tomllib.loads(path.read_text())
    change(data)
    path.write_text(tomli_w.dumps(data))


def test_verify_dice_passes_on_an_untouched_game(make_game: Callable[..., Game]) -> None:
    game = _three_player_game(make_game)
    result = CliRunner().invoke(app, ["verify-dice", str(game.directory.root)])
    assert result.exit_code == 0 and "all match" in result.stdout


def test_verify_dice_fails_on_a_tampered_roll(make_game: Callable[..., Game]) -> None:
    game = _three_player_game(make_game)
    setup = next(game.directory.history.glob("000-*.toml"))

    def change(data: dict[str, object]) -> None:
        roll = data["dice"]["rolls"][0]  # type: ignore[index]
        roll["value"] = roll["value"] % 6 + 1

    _tamper(setup, change)
    result = CliRunner().invoke(app, ["verify-dice", str(game.directory.root)])
    assert result.exit_code == 1 and "the seed gives" in result.stdout


def test_verify_dice_fails_on_a_tampered_seed(make_game: Callable[..., Game]) -> None:
    game = _three_player_game(make_game)
    setup = next(game.directory.history.glob("000-*.toml"))
    _tamper(setup, lambda data: data["dice"].update(seed="00" * 32))  # type: ignore[attr-defined]
    result = CliRunner().invoke(app, ["verify-dice", str(game.directory.root)])
    assert result.exit_code == 1 and "does not hash to the commitment" in result.stdout


def test_verify_dice_checks_later_phases_against_the_secret_chain(make_game: Callable[..., Game]) -> None:
    game = make_game()
    root = bytes.fromhex(tomllib.loads(game.directory.secrets_file.read_text())["dice"]["root"])
    roller = dice.ChainDice(game.settings.id, 4, dice.seed_for(root, 4))
    for purpose in ("attacker", "attacker", "defender"):
        roller.roll(purpose)
    record = dice.DiceRecord(4, dice.DiceSource.CHAIN, roller.seed.hex(), tuple(roller.rolls))
    assert dice.verify_record(game.settings.id, game.settings.commitment, record) == []
    forged = dice.DiceRecord(4, dice.DiceSource.CHAIN, dice.seed_for(dice.new_root(), 4).hex(), tuple(roller.rolls))
    assert dice.verify_record(game.settings.id, game.settings.commitment, forged)
