"""game.toml (and a games folder's intake.toml) checked as a whole when a game is loaded:
every table and key, the players against the board and the position (issue 11, item 7)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core.errors import GameFileError
from adjudicator.game.game import Game
from adjudicator.game.settings_check import check_intake_file
from adjudicator.game.storage import without_none, write_toml_atomic

runner = CliRunner()
FOUR = ("Rome", "Carthage", "Greece", "Egypt")  # R2.3: Babylon is neutral

MAIL_SETTINGS = {
    "intake": {"imap": {"host": "imap.example.org", "user": "gm@example.org", "password_env": "GM_IMAP"}},
    "delivery": {"smtp": {"host": "smtp.example.org", "from": "gm@example.org", "list": "list@example.org"}},
}


def edit_game_toml(game: Game, change: Callable[[dict[str, Any]], None]) -> None:
    data = tomllib.loads(game.directory.game_file.read_text())
    change(data)
    game.directory.game_file.write_text(tomli_w.dumps(data))


def load_error(game: Game) -> str:
    with pytest.raises(GameFileError) as caught:
        Game.load(game.directory.root)
    assert caught.value.path == game.directory.game_file, "the error names game.toml"
    return str(caught.value)


def test_a_misspelt_civ_in_game_toml_is_an_error_with_did_you_mean(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"][4].update(civ="Egytp"))
    assert load_error(game).endswith(
        "game.toml [player[4].civ]: 'Egytp' is not a civilization of this board; did you mean 'Egypt'?"
    )
    reminded = runner.invoke(app, ["remind", str(game.directory.root)])
    assert reminded.exit_code == 1 and "did you mean 'Egypt'?" in reminded.stderr, "remind no longer skips Egypt"
    assert "Traceback" not in reminded.output and reminded.stderr.count("\n") == 1, "one line on stderr"


def test_a_civ_far_from_any_name_lists_the_civilizations(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"][0].update(civ="Atlantis"))
    assert "'Atlantis' is not a civilization of this board; the civilizations are Rome, " in load_error(game)


def test_a_civ_by_another_spelling_is_read_as_the_board_spells_it(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"][0].update(civ="romans"))
    loaded = Game.load(game.directory.root)
    assert loaded.settings.player("Rome") is not None and loaded.settings.players[0].civ == "Rome"


def test_a_neutral_civ_listed_as_player_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game(FOUR)
    babylon = {"civ": "Babylon", "email": "babylon@example.org", "secret_hash": game.settings.players[0].secret_hash}
    edit_game_toml(game, lambda data: data["player"].append(babylon))
    assert load_error(game).endswith(
        "game.toml [player[4].civ]: Babylon is neutral in this game (R2.3), so it has no player; "
        "correct the civ or remove this [[player]]"
    )


def test_a_civ_listed_twice_as_player_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"][1].update(civ="rome"))
    assert "[player[1].civ]: Rome is already played by player[0]; remove one of the two" in load_error(game)


def test_a_playing_civ_without_a_player_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"].pop())
    assert 'game.toml [player]: Egypt plays in state.toml but has no [[player]]; add one with civ = "Egypt"' in (
        load_error(game)
    )


@pytest.mark.parametrize(
    ("table", "typo", "meant"),
    [
        ("game", "moed", "mode"),
        ("schedule", "dedline", "deadline"),
        ("dice", "comitment", "commitment"),
        ("options", "setpu", "setup"),
        ("player[0]", "e-mail", "email"),
        ("", "shedule", "schedule"),
    ],
)
def test_an_unknown_key_under_game_is_an_error_like_under_schedule(
    make_game: Callable[..., Game], table: str, typo: str, meant: str
) -> None:
    game = make_game()

    def add_typo(data: dict[str, Any]) -> None:
        target = data
        if table.startswith("player"):
            target = data["player"][0]
        elif table:
            target = data.setdefault(table, {})
        target[typo] = "x"

    edit_game_toml(game, add_typo)
    key = f"{table}.{typo}" if table else typo
    assert load_error(game).endswith(f"game.toml [{key}]: unknown key; did you mean '{meant}'?")


def test_an_unknown_key_far_from_any_lists_the_keys(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["game"].update(colour="blue"))
    keys = "board, created, id, lang, map_url, mode, palette, rules_url, ruleset, site"
    assert f"[game.colour]: unknown key; the keys here are {keys}" in load_error(game)


@pytest.mark.parametrize(
    ("section", "name", "typo", "meant"),
    [
        ("intake", "imap", "pasword_env", "password_env"),
        ("intake", "imap", "proccessed", "processed"),
        ("delivery", "smtp", "form", "from"),
        ("delivery", "smtp", "lists", "list"),
    ],
)
def test_an_unknown_key_in_the_mail_settings_is_an_error_when_the_game_loads(
    make_game: Callable[..., Game], section: str, name: str, typo: str, meant: str
) -> None:
    game = make_game()

    def add_typo(data: dict[str, Any]) -> None:
        data.update(MAIL_SETTINGS)
        data[section] = {name: {**MAIL_SETTINGS[section][name], typo: "x"}}

    edit_game_toml(game, add_typo)
    result = runner.invoke(app, ["status", str(game.directory.root)])
    assert result.exit_code == 1
    assert f"game.toml [{section}.{name}.{typo}]: unknown key; did you mean '{meant}'?" in result.stderr


def test_a_misnamed_mail_table_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data.update(intake={"imapp": {"host": "imap.example.org"}}))
    assert load_error(game).endswith("game.toml [intake.imapp]: unknown key; did you mean 'imap'?")


def test_a_mail_setting_of_the_wrong_kind_is_an_error_when_the_game_loads(make_game: Callable[..., Game]) -> None:
    game = make_game()
    settings = {**MAIL_SETTINGS["delivery"]["smtp"], "port": "465"}
    edit_game_toml(game, lambda data: data.update(delivery={"smtp": settings}))
    assert load_error(game).endswith("game.toml [delivery.smtp.port]: expected a whole number, found '465'")


def test_mail_settings_load_without_their_passwords_in_the_environment(
    make_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GM_IMAP", raising=False)
    game = make_game()
    edit_game_toml(game, lambda data: data.update(MAIL_SETTINGS))
    assert Game.load(game.directory.root).settings.id == game.settings.id, "the password is needed only to collect"


def test_the_intake_toml_of_a_games_folder_is_checked_with_did_you_mean(tmp_path: Path) -> None:
    path = tmp_path / "intake.toml"
    path.write_text(tomli_w.dumps(MAIL_SETTINGS))
    check_intake_file(path)
    smtp = {**MAIL_SETTINGS["delivery"]["smtp"], "form": "gm@example.org"}
    path.write_text(tomli_w.dumps({**MAIL_SETTINGS, "delivery": {"smtp": smtp}}))
    with pytest.raises(GameFileError, match=r"intake.toml \[delivery.smtp.form\]: unknown key; did you mean 'from'\?"):
        check_intake_file(path)
    path.write_text(tomli_w.dumps({**MAIL_SETTINGS, "schedule": {"grace": "2h"}}))
    with pytest.raises(
        GameFileError, match=r"intake.toml \[schedule\]: unknown key; the keys here are delivery, intake"
    ):
        check_intake_file(path)


def test_a_player_email_that_is_no_address_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"][2].update(email="chloe at example.org"))
    assert load_error(game).endswith(
        "game.toml [player[2].email]: 'chloe at example.org' is not an address the judge can mail; "
        "write it as name@example.org, in ASCII"
    )


def test_a_damaged_secret_hash_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["player"][0].update(secret_hash="rome-secret"))
    assert "game.toml [player[0].secret_hash]: not a hash written by the adjudicator" in load_error(game)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ruleset": "chess"}, "[game.ruleset]: unknown ruleset 'chess'"),
        ({"id": "Spring 2027"}, "[game.id]: 'Spring 2027' is not a usable game id"),
        ({"created": "yesterday"}, "[game.created]: write a date and time with its offset"),
        ({"mode": "turbo"}, "[game.mode]: 'turbo' is not a mode"),
    ],
)
def test_a_wrong_value_under_game_names_the_key(
    make_game: Callable[..., Game], change: dict[str, str], message: str
) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["game"].update(change))
    assert message in load_error(game)


def test_a_changed_dice_chain_length_is_an_error(make_game: Callable[..., Game]) -> None:
    game = make_game()
    edit_game_toml(game, lambda data: data["dice"].update(chain_length=10))
    assert "[dice.chain_length]: this adjudicator's dice chain has 4096 links" in load_error(game)


@pytest.mark.parametrize(
    "civs", [("Rome", "Greece", "Egypt"), FOUR, ("Rome", "Carthage", "Greece", "Babylon", "Egypt")]
)
def test_game_toml_written_by_create_loads_back_and_saves_the_same(
    make_game: Callable[..., Game], civs: tuple[str, ...]
) -> None:
    created = make_game(civs, options={"roles_each": "phase"})
    loaded = Game.load(created.directory.root)
    assert loaded.settings == created.settings, "create -> load gives the same settings"
    written = created.directory.game_file.read_text()
    write_toml_atomic(created.directory.game_file, loaded.settings.to_data())
    again = Game.load(created.directory.root).settings.to_data()
    assert without_none(again) == tomllib.loads(written), "load -> save -> load gives the same file"
