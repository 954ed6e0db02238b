"""What hosting keeps per game in hosting.toml: whether the game is paused (by the moderator,
or by a pass that failed) and why, and which phase's reports were last queued for mailing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.storage import read_toml, write_toml_atomic

HOSTING_FILE = "hosting.toml"


@dataclass(frozen=True, slots=True)
class Pause:
    reason: str
    since: datetime
    by: str  # "moderator", or "run" when a pass failed (the game then needs the moderator)
    log: str = ""

    @property
    def needs_moderator(self) -> bool:
        return self.by != "moderator"


def _read(root: Path) -> dict[str, Any]:
    path = root / HOSTING_FILE
    return read_toml(path) if path.exists() else {}


def _write(root: Path, data: dict[str, Any]) -> None:
    write_toml_atomic(root / HOSTING_FILE, {k: v for k, v in data.items() if v is not None})


def paused(root: Path) -> Pause | None:
    entry = _read(root).get("pause")
    if not isinstance(entry, dict):
        return None
    return Pause(
        str(entry.get("reason", "")), entry["since"], str(entry.get("by", "moderator")), str(entry.get("log", ""))
    )


def pause(root: Path, pause: Pause) -> None:
    data = _read(root)
    data["pause"] = {"reason": pause.reason, "since": pause.since, "by": pause.by, "log": pause.log}
    _write(root, data)


def resume(root: Path) -> Pause | None:
    """Lift the pause; returns it (None when the game was not paused)."""
    was = paused(root)
    data = _read(root)
    data.pop("pause", None)
    _write(root, data)
    return was


def reports_queued(root: Path) -> str:
    """The phase (slug) whose reports were last queued for mailing."""
    return str(_read(root).get("reports_queued", ""))


def mark_reports_queued(root: Path, slug: str) -> None:
    data = _read(root)
    data["reports_queued"] = slug
    _write(root, data)
