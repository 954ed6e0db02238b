"""Where a bug's details go: a log file, never the moderator's screen.

An error we did not foresee is still one line for the moderator (what broke, and where the
details are) and a file for whoever fixes it, with the command line, the version and the
traceback. The file goes into the game's own `logs/` folder when the command names a game
(or a folder of games), so that it travels with the game to whoever is asked for help. It
holds no secret (each is masked) and only its owner may read it.
"""

from __future__ import annotations

import os
import stat
import sys
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from adjudicator import __version__
from adjudicator.core.passwords import MASK, redact_passwords, without_secret  # the one finder of password lines

LOGS = "logs"


def log_folder(directory: Path | None) -> Path:
    """The game's (or the games folder's) logs/, else one in the temporary folder."""
    if directory is not None and directory.is_dir():
        return directory / LOGS
    import tempfile

    return Path(tempfile.gettempdir()) / "adjudicator-logs"


def write_crash_log(directory: Path | None, error: BaseException, argv: Sequence[str] | None = None) -> Path:
    """Write the details of an unexpected error; returns the file written.

    The log holds no secret: the SECRET of every `--player CIV:EMAIL:SECRET[:NAME]` is masked
    (and so is any other place the log repeats it), and so is every password line, e.g. of
    orders quoted in an error's message. The file is the owner's only (600, in a 700 folder)."""
    import platform  # only when a log is written: every command imports this module

    now = datetime.now(UTC)
    command, secrets = masked_command(argv if argv is not None else sys.argv)
    head = [f"time: {now.isoformat(timespec='seconds')}"]
    versions = [f"adjudicator: {__version__}", f"python: {platform.python_version()} on {platform.platform()}"]
    try:
        details = [f"command: {command}", *versions, "", "".join(traceback.format_exception(error))]
        text = masked("\n".join([*head, *details]), secrets)
    except Exception as failure:  # a crash log must not crash; unmasked, the details stay out
        left_out = f"the command and traceback are left out: masking secrets in them failed ({type(failure).__name__})"
        text = "\n".join([*head, *versions, "", left_out, ""])
    for folder in (log_folder(directory), log_folder(None)):
        try:
            _private_folder(folder)
            return _write_new(folder, f"{now:%Y%m%dT%H%M%S}-{os.getpid()}", text)
        except OSError:
            continue  # a read-only game folder (or one not ours): the temporary folder takes it
    return Path(os.devnull)


def masked_command(argv: Sequence[str]) -> tuple[str, list[str]]:
    """The command line with the SECRET of each `--player CIV:EMAIL:SECRET[:NAME]` (or
    `--player=…`) masked, and the secrets found."""
    shown: list[str] = []
    secrets: list[str] = []
    value_next = False
    for argument in argv:
        if value_next:
            shown.append(_masked_player(argument, secrets))
            value_next = False
        elif argument.startswith("--player="):
            shown.append("--player=" + _masked_player(argument.removeprefix("--player="), secrets))
        else:
            shown.append(argument)
            value_next = argument == "--player"
    return " ".join(shown), secrets


def _masked_player(value: str, secrets: list[str]) -> str:
    parts = value.split(":", 3)  # CIV:EMAIL:SECRET:NAME, as adjudicator.game.players.parse_player_spec reads it
    if len(parts) >= 3 and parts[2]:
        secrets.append(parts[2])
        parts[2] = MASK
    return ":".join(parts)


def masked(text: str, secrets: Sequence[str]) -> str:
    """The text with every password line masked, and each known secret wherever it stands."""
    for secret in sorted(secrets, key=len, reverse=True):  # a longer secret may hold a shorter one
        text = without_secret(text, secret)
    return redact_passwords(text)


def _private_folder(folder: Path) -> None:
    """The folder, made (or kept) 700; one that is a link or is not this user's is not used."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    found = folder.lstat()
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
        raise PermissionError(f"{folder} is not a folder of this user's")
    if stat.S_IMODE(found.st_mode) != 0o700:
        folder.chmod(0o700)  # made by an older version, readable by others


def _write_new(folder: Path, stem: str, text: str) -> Path:
    """A new file, created 600 (never readable by others, not for a moment); a second log of
    the same second and process gets a number, not the first one's place."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for number in range(1, 100):
        path = folder / (f"{stem}.log" if number == 1 else f"{stem}-{number}.log")
        try:
            descriptor = os.open(path, flags, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(descriptor, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
        return path
    raise FileExistsError(folder / f"{stem}.log")


def one_line(error: BaseException, limit: int = 200) -> str:
    """The error as one short line: its type and the first line of its message."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
