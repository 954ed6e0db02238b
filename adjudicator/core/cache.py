"""The user's cache folder: what the judge works out from a file that does not change (a board's
data, a grammar's parser) is kept there between commands, so that a command that starts a
hundred times a phase pays for it once (issue 31).

The folder is `$XDG_CACHE_HOME/adjudicator`, else `~/.cache/adjudicator`. Every entry is named
by a hash of all that decides it, so a changed file or a new version makes a new entry, never a
stale one; an entry is written whole or not at all (another process may be reading it); and
where the folder cannot be written (a read-only home, a sandbox) nothing is kept and nothing is
said: the moderator sees only a slower start. Entries are plain data (JSON, or pickles that a
reader refusing every class reads), so a file in the folder is never a way to run code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def cache_folder() -> Path | None:
    """Where entries are kept: None when there is no home to keep them in."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "adjudicator"
    try:
        return Path.home() / ".cache" / "adjudicator"
    except (RuntimeError, KeyError, OSError):  # no HOME and no user entry
        return None


def entry_path(kind: str, name: str) -> Path | None:
    """Where an entry of a kind ("boards", "parsers") is kept, its folder made if need be; None
    when there is no folder to keep it in."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        (folder / kind).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / kind / name


def save_bytes(path: Path, data: bytes) -> None:
    """Keeps `data` at `path`, whole or not at all; silently nothing where it cannot."""
    if not os.access(path.parent, os.W_OK):
        return
    import tempfile  # only when something is kept: most commands only read

    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError:
        return
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def cached_data(kind: str, source: bytes, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The data `build` makes of a file's bytes, kept as JSON under a hash of those bytes: read
    back in a millisecond where parsing a 100 kB TOML file takes 40 ms. Data JSON cannot hold
    as it is (a date) is built each time, never kept changed."""
    path = entry_path(kind, hashlib.sha256(source).hexdigest()[:40] + ".json")
    if path is not None:
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(path.read_bytes())
            if isinstance(data, dict):
                return data
    data = build()
    if path is not None:
        try:
            text = json.dumps(data, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):  # not plain JSON data: not kept
            return data
        if json.loads(text) == data:  # tuples and the like would come back otherwise
            save_bytes(path, text.encode("utf-8"))
    return data


def shipped_toml(path: Path) -> dict[str, Any]:
    """A TOML file shipped with the adjudicator (the keywords, a grammar's examples), whose
    data every command that reads orders needs: parsed once, then read back from the cache."""
    import tomllib

    source = path.read_bytes()
    return cached_data("data", source, lambda: tomllib.loads(source.decode("utf-8")))
