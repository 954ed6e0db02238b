"""What hosting keeps per game in hosting.toml: whether the game is paused (by the moderator,
or by a pass that failed) and why, and which phase's reports were last queued for mailing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.game.directory import GameDirectory
from adjudicator.game.storage import read_toml, write_toml_atomic


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
    path = GameDirectory(root).pause_file
    return read_toml(path) if path.exists() else {}


def _write(root: Path, data: dict[str, Any]) -> None:
    write_toml_atomic(GameDirectory(root).pause_file, {k: v for k, v in data.items() if v is not None})


def _pauses(root: Path) -> list[Pause]:
    entries = _read(root).get("pause", [])
    return [
        Pause(str(e.get("reason", "")), e["since"], str(e.get("by", "moderator")), str(e.get("log", "")))
        for e in (entries if isinstance(entries, list) else [])
    ]


def _write_pauses(root: Path, pauses: list[Pause]) -> None:
    data = _read(root)
    data["pause"] = [{"reason": p.reason, "since": p.since, "by": p.by, "log": p.log} for p in pauses]
    _write(root, data)


def paused(root: Path) -> Pause | None:
    """The pause in force: the latest (a failure during the moderator's own pause lies on top
    of it, so lifting the failure leaves his pause)."""
    pauses = _pauses(root)
    return pauses[-1] if pauses else None


def pause(root: Path, pause: Pause) -> None:
    _write_pauses(root, [*_pauses(root), pause])


def resume(root: Path) -> tuple[Pause | None, Pause | None]:
    """Lift the pause in force; returns it (None when the game was not paused) and the one
    still in force under it, if any."""
    pauses = _pauses(root)
    if not pauses:
        return None, None
    _write_pauses(root, pauses[:-1])
    return pauses[-1], (pauses[-2] if len(pauses) > 1 else None)


def reports_queued(root: Path) -> str:
    """The phase (slug) whose reports were last queued for mailing."""
    return str(_read(root).get("reports_queued", ""))


def mark_reports_queued(root: Path, slug: str) -> None:
    data = _read(root)
    data["reports_queued"] = slug
    _write(root, data)
