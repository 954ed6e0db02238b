"""Plays every shipped demo (each ruleset in each language) and prints one line per file it wrote.

Why: a change that only moves code (issue 30) must leave every report, map and form byte for byte
as it was. Run it before and after, and compare: `python tools/demo_fingerprint.py > before.txt`.
Lines read `<ruleset>/<lang>/<path> <sha256>`. The three facts that differ from run to run by
design (when the game was created, when each order arrived, and each password's salted hash) are
left out of the TOML files before hashing; everything else must match.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

RULESETS = ("mare-nostrum", "empires", "mediterraneum")
LANGUAGES = ("en", "pl", "hu", "fr", "es")
SKIPPED = {"adjudicator.log"}
VOLATILE = ("created = ", "received = ", "secret_hash = ")


def content(path: Path) -> bytes:
    data = path.read_bytes()
    if path.suffix != ".toml":
        return data
    kept = [line for line in data.splitlines(keepends=True) if not line.decode().startswith(VOLATILE)]
    return b"".join(kept)


def fingerprint(ruleset: str, lang: str, work: Path) -> list[str]:
    folder = work / f"{ruleset}-{lang}"
    subprocess.run(
        [sys.executable, "-m", "adjudicator", "demo", str(folder), "--ruleset", ruleset, "--lang", lang],
        check=True,
        capture_output=True,
    )
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name not in SKIPPED):
        digest = hashlib.sha256(content(path)).hexdigest()
        lines.append(f"{ruleset}/{lang}/{path.relative_to(folder).as_posix()} {digest}")
    return lines


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        for ruleset in RULESETS:
            for lang in LANGUAGES:
                print("\n".join(fingerprint(ruleset, lang, Path(work))), flush=True)


if __name__ == "__main__":
    main()
