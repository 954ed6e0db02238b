"""The built wheel carries grammar/, templates/, games/ and the board, and works installed."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
        ],
        check=True,
    )
    (built,) = out.glob("adjudicator-*.whl")
    return built


@pytest.mark.slow
def test_wheel_contains_the_shipped_folders(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for needed in (
        "adjudicator/grammar/mare_nostrum.lark",
        "adjudicator/grammar/common.lark",
        "adjudicator/grammar/mare_nostrum.errors.toml",
        "adjudicator/grammar/common.forms.toml",
        "adjudicator/templates/receipt.txt.j2",
        "adjudicator/templates/mare-nostrum/state.txt.j2",
        "adjudicator/games/demo/demo.toml",
        "adjudicator/rulesets/mare_nostrum/boards/mare-nostrum-2003.toml",
        "adjudicator/rulesets/mare_nostrum/boards/mare-nostrum-2003.map.json",
        "adjudicator/fonts/DejaVuSans.ttf",
        "adjudicator/fonts/DejaVuSans-Bold.ttf",
        "adjudicator/fonts/LICENSE",
        "adjudicator/templates/mare-nostrum/map-geographic.svg.j2",
        "adjudicator/templates/site/index.html.j2",
        "adjudicator/core/dice_proof.py",
        "adjudicator/py.typed",
        "adjudicator/docs/rules.md",
        "adjudicator/docs/rules-empires.md",
        "adjudicator/docs/rules-mediterraneum.md",
        "adjudicator/docs/rules.pl.md",
        "adjudicator/docs/rules-mediterraneum.es.md",
        "adjudicator/locale/pl/LC_MESSAGES/adjudicator.po",
        "adjudicator/rulesets/mediterraneum/boards/mediterraneum-1989.toml",
        "adjudicator/rulesets/mediterraneum/boards/mediterraneum-1989.map.json",
        "adjudicator/games/demo-mediterraneum/demo.toml",
        "adjudicator/templates/mediterraneum/events.txt.j2",
    ):
        assert needed in names, f"{needed} missing from the wheel"


@pytest.mark.slow
def test_installed_wheel_runs_a_game_in_a_fresh_venv(wheel: Path, tmp_path: Path) -> None:
    # The dependencies come from this environment (a .pth line, so that the editable install's
    # own .pth is not processed); the package itself only from the wheel.
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "-q", str(wheel)], check=True)
    work = tmp_path / "elsewhere"
    work.mkdir()

    def run(*args: str) -> str:
        result = subprocess.run([env_dir / "bin" / "adjudicator", *args], cwd=work, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result.stdout

    where = subprocess.run(
        [python, "-c", "import adjudicator; print(adjudicator.__file__)"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where, f"the wheel's package must be the one imported, not {where}"
    run("new", "g", "--player", "Rome:r@x.org", "--player", "Egypt:e@x.org", "--player", "Greece:g@x.org")
    state = json.loads(run("state", "g", "--json"))
    assert state["players"]["Babylon"]["neutral"] and state["phase"] == "trade"
    assert "a sound board" in run("board", "check")
    assert run("rules", "R6.4").startswith("### R6.4"), "the rules travel inside the wheel"
    assert run("rules", "E8.3", "--ruleset", "empires").startswith("### E8.3"), "every ruleset's rules"
    assert run("rules", "M4.5", "--ruleset", "mediterraneum").startswith("**M4.5**")
    assert "Reports of every phase are in" in run("demo", "d")
    assert "9 phase(s)" in run("site", "d", "public")
    proof = subprocess.run([python, "verify-dice.py"], cwd=work / "public", capture_output=True, text=True)
    assert proof.returncode == 0 and "verify against the commitment" in proof.stdout, proof.stdout + proof.stderr
