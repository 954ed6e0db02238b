"""The README holds what works: its two commands, and every `adjudicator` command of its shell
blocks runs as written, in order, against a scratch folder, its mail settings pointed at local
servers: each succeeds, unless its comment says it refuses there (then with one `error:` line)."""

from __future__ import annotations

import re
import shlex
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import default_board_path
from adjudicator.game.storage import read_toml
from adjudicator.rulesets import find_ruleset
from tests.http_receiver import http_receiver
from tests.mail_servers import PASSWORD, USER, imap_server, smtp_server

README = Path(__file__).resolve().parents[1] / "README.md"
INSTALL_AND_DEMO = "python3 -m venv .venv && . .venv/bin/activate && pip install . && adjudicator demo"
INSTALL_AND_TEST = "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest"
STAYS_UP = "--watch"  # a command that runs until stopped is not run here (tests/test_hosting.py runs it)
runner = CliRunner()


def shell_lines() -> list[str]:
    """Every command line of the README's ```sh blocks, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [line.strip() for block in blocks for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_the_readme_holds_its_two_commands() -> None:
    lines = shell_lines()
    assert INSTALL_AND_DEMO in lines and INSTALL_AND_TEST in lines


def mail_settings(readme: str, imap_port: int, smtp_port: int) -> dict[str, Any]:
    """The README's `[intake.imap]`, `[delivery.smtp]` and `[schedule]` block, as written, with
    its servers made this machine's test servers (Dovecot or pymap, aiosmtpd)."""
    block = next(b for b in re.findall(r"```toml\n(.*?)```", readme, re.S) if "[intake.imap]" in b)
    data = tomllib.loads(block)
    local = {"host": "127.0.0.1", "security": "plain", "user": USER}
    data["intake"]["imap"] |= local | {"port": imap_port}
    data["delivery"]["smtp"] |= local | {"port": smtp_port}
    return data


def expects_refusal(line: str) -> bool:
    """The README marks a command that refuses where the walk-through runs it: its comment says so."""
    comment = line.partition(" #")[2]
    return "refuses" in comment


def test_every_readme_command_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: every command of the walk-through, in order, in a fresh folder, with the README's
    mail settings pointed at local servers: each exits 0 unless the README says it refuses there."""
    monkeypatch.chdir(tmp_path)
    readme = README.read_text(encoding="utf-8")
    Path("rome.txt").write_text("power Rome\noffer wine, tax\ntake commodity\n")
    Path("posts").mkdir()
    Path("posts/greece.txt").write_text("power Greece\noffer fish\n")
    shutil.copy(default_board_path(find_ruleset("mare-nostrum")), "my-corrected-board.toml")
    ran, refused = 0, 0
    with imap_server() as imap_port, smtp_server() as smtp, http_receiver() as chat:
        settings = mail_settings(readme, imap_port, smtp.port)
        for variable in (settings["intake"]["imap"]["password_env"], settings["delivery"]["smtp"]["password_env"]):
            monkeypatch.setenv(variable, PASSWORD)
        for line in shell_lines():
            if not line.startswith("adjudicator ") or STAYS_UP in line:
                continue
            if "--imap" in line and "intake" not in read_toml(Path("games/spring-2027/game.toml")):
                add_mail_settings(Path("games/spring-2027/game.toml"), settings)  # "Put ... in game.toml"
                add_mail_settings(Path("games/intake.toml"), {k: settings[k] for k in ("intake", "delivery")})
            args = shlex.split(line, comments=True)[1:]
            if args[0] == "notify" and "notify" not in read_toml(Path("games/spring-2027/game.toml")):
                for variable in add_destinations(readme, Path("games/spring-2027/game.toml")):
                    monkeypatch.setenv(variable, f"json://127.0.0.1:{chat.port}/{variable}")
            result = runner.invoke(app, args)
            said = f"$ {line}\n{result.output}"
            if args[:2] == ["new", "games/spring-2027"]:  # Rome's mail carries his password, as the README says
                secret = read_toml(Path("games/spring-2027/secrets.toml"))["players"]["Rome"]
                Path("rome.txt").write_text(f"power Rome\npassword {secret}\noffer wine, tax\ntake commodity\n")
            assert "internal error" not in result.output, said
            if expects_refusal(line):
                assert result.exit_code == 1 and result.stderr.startswith("error:"), said
                refused += 1
            else:
                assert result.exit_code == 0, said
            ran += 1
    assert ran >= 25 and refused >= 2
    assert Path("games/spring-2027/game.toml").exists()
    assert smtp.messages_to("anna@example.org"), "send and remind went out through the README's settings"
    tested = sorted(r.path for r in chat.received if r.json()["title"].endswith("a test post"))
    assert tested == ["/MN_DISCORD", "/MN_MATRIX"], "notify --test posted to both of the README's places"


def add_destinations(readme: str, game_file: Path) -> list[str]:
    """The README's [[notify]] tables into game.toml ("in game.toml, one table per place"); the
    variables that hold their addresses, which the test points at a local receiver."""
    block = next(b for b in re.findall(r"```toml\n(.*?)```", readme, re.S) if "[[notify]]" in b)
    game_file.write_text(game_file.read_text(encoding="utf-8") + "\n" + block, encoding="utf-8")
    return [table["url_env"] for table in tomllib.loads(block)["notify"]]


def add_mail_settings(path: Path, settings: dict[str, Any]) -> None:
    """Into the file's tables, key by key: `new` wrote `[schedule]` already (TOML allows a table once)."""
    data = read_toml(path) if path.exists() else {}
    for table, values in settings.items():
        data[table] = _merged(data.get(table, {}), values)
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def _merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {**old, **{k: _merged(old.get(k, {}), v) if isinstance(v, dict) else v for k, v in new.items()}}
