"""Where a bug's details go: a log file, never the moderator's screen.

An error we did not foresee is still one line for the moderator (what broke, and where the
details are) and a file for whoever fixes it, with the command line, the version and the
traceback. The file goes into the game's own `logs/` folder when the command names a game
(or a folder of games), so that it travels with the game to whoever is asked for help.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

from adjudicator import __version__

LOGS = "logs"


def log_folder(directory: Path | None) -> Path:
    """The game's (or the games folder's) logs/, else one in the temporary folder."""
    if directory is not None and directory.is_dir():
        return directory / LOGS
    return Path(tempfile.gettempdir()) / "adjudicator-logs"


def write_crash_log(directory: Path | None, error: BaseException, argv: list[str] | None = None) -> Path:
    """Write the details of an unexpected error; returns the file written."""
    now = datetime.now(UTC)
    text = "\n".join(
        [
            f"time: {now.isoformat(timespec='seconds')}",
            f"command: {' '.join(argv if argv is not None else sys.argv)}",
            f"adjudicator: {__version__}",
            f"python: {platform.python_version()} on {platform.platform()}",
            "",
            "".join(traceback.format_exception(error)),
        ]
    )
    for folder in (log_folder(directory), log_folder(None)):
        path = folder / f"{now:%Y%m%dT%H%M%S}-{os.getpid()}.log"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue  # a read-only game folder: the temporary folder takes it
    return Path(os.devnull)


def one_line(error: BaseException, limit: int = 200) -> str:
    """The error as one short line: its type and the first line of its message."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
