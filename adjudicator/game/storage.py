"""Files on disk: TOML read/write, atomic replace, and file locks (where each file of a game
lives is game/directory.py).

Every write goes to a temporary file in the same folder, is fsynced and then renamed over
the target, so a crash leaves either the old file or the new one, never half of one. The
folder is then fsynced so that the rename itself is on disk; inside
`deferred_directory_sync()` that last step is done once per folder when the block ends.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import tempfile
import time
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import tomli_w

from adjudicator.core.cache import cached_data
from adjudicator.core.errors import GameFileError, UsageError

# The folders whose renames wait for their fsync, while a deferred_directory_sync() block runs
# in this context (None outside one). Scoped to the block, never a cache across calls.
_PENDING_FOLDERS: ContextVar[set[Path] | None] = ContextVar("pending_folder_syncs", default=None)

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


def check_game_id(game_id: str) -> str:
    """Game ids become file names and mail tags, so they are plain slugs."""
    if not GAME_ID.match(game_id):
        raise UsageError(
            f"'{game_id}' is not a usable game id; use lower-case letters, digits and "
            "hyphens (at most 63), starting with a letter or digit"
        )
    return game_id


def without_none(value: Any) -> Any:
    """TOML has no null: a key whose value is None is left out (and read back as None)."""
    if isinstance(value, Mapping):
        return {k: without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [without_none(v) for v in value]
    return value


def compact(value: Any) -> Any:
    """A position as a file holds it: empty tables, empty lists, false and null left out, since
    reading puts them back. Files stay short to read by eye and fast to parse."""
    if isinstance(value, Mapping):
        kept = {k: compact(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if not (v is None or v is False or v == {} or v == [])}
    if isinstance(value, list | tuple):
        return [compact(v) for v in value]
    return value


def read_toml(path: Path) -> dict[str, Any]:
    return _toml(path, _bytes_of(path))


def read_board_document(path: Path) -> dict[str, Any]:
    """A board file's data, as `read_document` reads it; a TOML board's is kept in the cache
    folder under a hash of its bytes (core/cache.py), since every command reads a board and a
    board seldom changes: 1 ms instead of 12 to 40 ms of parsing."""
    if path.suffix.lower() == ".json":
        return read_document(path)
    source = _bytes_of(path)
    return cached_data("boards", source, lambda: _toml(path, source))


def _bytes_of(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise GameFileError(path, "file not found") from None


def _toml(path: Path, source: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(source.decode("utf-8"))
    except UnicodeDecodeError:
        raise GameFileError(path, "not valid TOML (it is not UTF-8 text)") from None
    except tomllib.TOMLDecodeError as error:
        raise GameFileError(path, f"not valid TOML ({error})") from None


def read_document(path: Path) -> dict[str, Any]:
    """A position or board given by the moderator: TOML, or JSON when it ends in .json."""
    if path.suffix.lower() != ".json":
        return read_toml(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameFileError(path, "file not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise GameFileError(path, f"not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise GameFileError(path, "the top level must be an object")
    return data


PRIVATE = 0o600  # a file that holds player data (hands, addresses, orders): the moderator's only
PRIVATE_FOLDER = 0o700  # a folder of such files (orders/, private/)


def is_public_page(name: str) -> bool:
    """Whether a page of a phase's reports is for everyone (public.*, map.*): made to be
    published, so it goes to reports/<phase>/, readable by all. Every other page (<Civ>.txt)
    is a player's own: private/<phase>/, the moderator's only."""
    return name.startswith(("public.", "map."))


def write_bytes_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(descriptor, mode)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    pending = _PENDING_FOLDERS.get()
    if pending is None:
        fsync_directory(path.parent)
    else:
        pending.add(path.parent)


def write_text_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    write_bytes_atomic(path, text.encode("utf-8"), mode)


def write_toml_atomic(path: Path, data: Mapping[str, Any], mode: int = 0o644, header: str = "") -> None:
    text = tomli_w.dumps(without_none(data))
    write_text_atomic(path, header + text, mode)


@contextmanager
def deferred_directory_sync() -> Iterator[None]:
    """Many atomic writes, each folder fsynced once at the end instead of after every write.

    Inside the block every write still goes to a temporary file that is fsynced before it is
    renamed over the target (a crash leaves the old file or the new one, whole), and what a
    write leaves is read back at once by this process. What waits is only the fsync of the
    folder that makes the rename itself durable: it is done once per folder when the block
    ends, however it ends. So leave the block before telling anyone (an IMAP server) that what
    was written is safe. A nested block joins the outer one."""
    if _PENDING_FOLDERS.get() is not None:
        yield
        return
    pending: set[Path] = set()
    token = _PENDING_FOLDERS.set(pending)
    try:
        yield
    finally:
        _PENDING_FOLDERS.reset(token)
        for folder in sorted(pending):
            if folder.is_dir():
                fsync_directory(folder)


def fsync_directory(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def phase_slug(phase_number: int, turn: int, phase: str, prefix: str = "T") -> str:
    """`007-T03-build`: sorts by running number and says what the phase was."""
    return f"{phase_number:03d}-{prefix}{turn:02d}-{phase}"


@contextmanager
def file_lock(path: Path, wait_seconds: float = 0.0) -> Iterator[bool]:
    """Try to hold an advisory lock on `path` (waiting up to `wait_seconds`); yields whether
    this process holds it. The kernel lets go of it when the process dies, however it dies."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
