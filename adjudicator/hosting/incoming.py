"""A pass's reading: the mailbox of the root and of each game that has its own, and the drop
folders (posts and mails saved as files), through `collect`; a drop folder's files are set
aside once read (collected/), or named when no game could use them (unused/)."""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.core.controls import shown_name
from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.errors import AdjudicatorError
from adjudicator.delivery.smtp import DeliveryError
from adjudicator.game.directory import Folder
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import has_own_mailbox
from adjudicator.hosting.pass_report import PassReport, Stop
from adjudicator.intake.collect import CollectBusyError, CollectReport, collect, mailbox_settings
from adjudicator.intake.imap import ImapError
from adjudicator.intake.threads import THREAD_SUFFIXES

COLLECTED = "collected"  # where a drop folder's files go once collected

UNUSED = "unused"  # where a drop folder's files go that no game could use (named in the pass's output)

DROP_KINDS = frozenset({".txt", ".eml", *THREAD_SUFFIXES})  # what collect reads from a folder


def collect_all(
    root: Path, games: dict[str, Game], held: dict[str, str], now: datetime, stop: Stop, out: PassReport
) -> None:
    """New mail (the root's mailbox and each game's own) and the drop folders' files, each
    answered at once. A mailbox that cannot be read holds up nothing else."""
    if not games:
        return
    sources = [(root, games)]
    sources += [(g.directory.root, {gid: g}) for gid, g in games.items() if g.directory.root != root]
    for where, which in sources:
        if where == root or has_own_mailbox(next(iter(which.values()))):
            try:
                mailbox = mailbox_settings(where, which)[0] is not None
            except AdjudicatorError as error:
                out.problems.append(f"the mail settings for {where} are wrong: {error}")
                mailbox = False
            if mailbox:
                _read(out, where, which, dict(imap=True, now=now, stop=stop, held=held))
        drop = Folder(where).drop
        if drop.is_dir():
            files = _files_in(drop)
            got = _read(out, where, which, dict(folder=drop, now=now))
            if got is not None:
                out.mail += _set_aside(files, set(got.unkept), now)


def _read(out: PassReport, where: Path, games: dict[str, Game], how: dict[str, Any]) -> CollectReport | None:
    """One collect; what it read goes into the pass's lines. None when it could not run."""
    try:
        got = collect(where, games=games, deliver=False, **how)
    except CollectBusyError:
        out.warnings.append(f"another 'adjudicator collect' is reading mail for {where}; the next pass reads it")
        return None
    except (ImapError, DeliveryError) as error:  # the server is away: the next pass tries again
        out.warnings.append(f"mail not read for {where}: {error}")
        return None
    except AdjudicatorError as error:  # the settings are wrong (a password variable not set, …)
        out.problems.append(f"mail not read for {where}: {error}")
        return None
    except Exception as error:  # a bug: the games are still hosted, and the moderator is told where to look
        log = write_crash_log(where, error)
        out.problems.append(f"mail not read for {where}: internal error: {one_line(error)} (details in {log})")
        return None
    out.mail += got.lines
    out.warnings += got.problems
    return got


def _files_in(folder: Path) -> dict[Path, tuple[int, int]]:
    """The files of a drop folder as a pass finds them (modified time and size)."""
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir() if p.is_file()}


def _set_aside(files: dict[Path, tuple[int, int]], unkept: set[str], now: datetime) -> list[str]:
    """Collected files go to drop/collected/ (their text is kept in inbox/ as well), so the
    next pass reads only new ones; a file changed while it was read stays to be read again.
    A file no game kept (it names no game, it cannot be read, it is of a kind never read)
    goes to drop/unused/, and is named."""
    said = []
    for path, seen in files.items():
        with contextlib.suppress(FileNotFoundError):
            if (path.stat().st_mtime_ns, path.stat().st_size) != seen:
                continue
            unused = path.name in unkept or path.suffix.lower() not in DROP_KINDS
            target = path.parent / (UNUSED if unused else COLLECTED) / f"{now:%Y%m%dT%H%M%S}-{path.name}"
            target.parent.mkdir(mode=0o700, exist_ok=True)
            target.parent.chmod(0o700)  # raw mails hold passwords: the moderator's eyes only
            os.replace(path, target)
            target.chmod(0o600)
            moved = target.parent / shown_name(target)
            if path.suffix.lower() not in DROP_KINDS:
                kinds = ", ".join(sorted(DROP_KINDS))
                said.append(f"{shown_name(path)}: not read (only {kinds} files are); moved to {moved}")
            elif unused:
                said.append(f"{shown_name(path)}: moved to {moved}; fix it and put it back into {path.parent}")
    return said
