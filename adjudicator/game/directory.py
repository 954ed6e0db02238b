"""Where each file of a game, and of a folder of games, lives: the one home of every path.

A game folder and a folder of games share some names (quarantine/, drop/, logs/, intake.toml),
because `collect` and `run` read mail into either; `Folder` holds those, and `GameDirectory`
adds the game's own files (DESIGN.md, "Game directory").
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from adjudicator.core.crashlog import LOGS
from adjudicator.core.errors import GameLockedError, UsageError
from adjudicator.game.storage import PRIVATE, PRIVATE_FOLDER, file_lock, fsync_directory, is_public_page

ROOT_SETTINGS = "intake.toml"  # a folder of games' shared settings ([intake.imap], [delivery.smtp])


@dataclass(frozen=True, slots=True)
class Folder:
    """A folder mail is read into: one game's, or a folder of games (the root of `run`)."""

    root: Path

    @property
    def settings_file(self) -> Path:
        """intake.toml: the settings a folder of games shares (a game's folder may have one too)."""
        return self.root / ROOT_SETTINGS

    @property
    def quarantine(self) -> Path:
        """Mail no game could take, kept raw with why (private)."""
        return self.root / "quarantine"

    @property
    def drop(self) -> Path:
        """Files to collect (.txt posts, .eml mails, saved threads), for `run`."""
        return self.root / "drop"

    @property
    def logs(self) -> Path:
        return self.root / LOGS

    @property
    def collect_lock(self) -> Path:
        """Held by the one `collect` reading mail for this folder."""
        return self.root / ".collect.lock"

    @property
    def outbox(self) -> Path:
        """Mail waiting to be sent, one .eml each; outbox/sent/ once the server took it."""
        return self.root / "outbox"


def order_page_name(civ: str) -> str:
    """A player's order page's file name, in private/<phase>/ and as his report mail's attachment."""
    return f"{civ}-orders.html"


@dataclass(frozen=True, slots=True)
class GameDirectory(Folder):
    """Where each file of one game lives."""

    @property
    def game_file(self) -> Path:
        return self.root / "game.toml"

    @property
    def state_file(self) -> Path:
        return self.root / "state.toml"

    @property
    def secrets_file(self) -> Path:
        return self.root / "secrets.toml"

    @property
    def deadline_file(self) -> Path:
        return self.root / "deadline.toml"

    @property
    def pause_file(self) -> Path:
        """hosting.toml: whether `run` leaves the game alone, and since when (game/pause.py)."""
        return self.root / "hosting.toml"

    @property
    def absences_file(self) -> Path:
        return self.root / "absences.toml"

    @property
    def lock_file(self) -> Path:
        return self.root / ".lock"

    @property
    def rolled_back(self) -> Path:
        """Where a rollback moves later phases aside, one folder per rollback."""
        return self.root / "rolled-back"

    @property
    def history(self) -> Path:
        return self.root / "history"

    @property
    def orders(self) -> Path:
        return self.root / "orders"

    @property
    def inbox(self) -> Path:
        return self.root / "inbox"

    @property
    def reports(self) -> Path:
        """The public reports, one folder per phase: the folder to publish (`map_url`)."""
        return self.root / "reports"

    @property
    def private(self) -> Path:
        """The private reports (each player's hand and orders), one folder per phase; never
        published, so it sits beside reports/, not in it."""
        return self.root / "private"

    @property
    def phase_folders(self) -> tuple[Path, ...]:
        """The folders that hold one file or folder per phase (`NNN-…`), which a rollback moves aside."""
        return (self.history, self.orders, self.reports, self.private)

    def history_file(self, phase_slug: str) -> Path:
        return self.history / f"{phase_slug}.toml"

    def orders_folder(self, phase_slug: str) -> Path:
        return self.orders / phase_slug

    def reports_folder(self, phase_slug: str) -> Path:
        return self.reports / phase_slug

    def private_folder(self, phase_slug: str) -> Path:
        return self.private / phase_slug

    def late_folder(self, phase_slug: str) -> Path:
        """orders/<phase>/late/: orders that came after the deadline, kept for the moderator."""
        return self.orders_folder(phase_slug) / "late"

    def superseded_folder(self, phase_slug: str) -> Path:
        """orders/<phase>/superseded/: a player's earlier orders of the phase, replaced by later ones."""
        return self.orders_folder(phase_slug) / "superseded"

    def receipts_file(self, phase_slug: str) -> Path:
        """orders/<phase>/receipts.toml: what adjudication made of each player's lines."""
        return self.orders_folder(phase_slug) / "receipts.toml"

    def order_page(self, phase_slug: str, civ: str) -> Path:
        """private/<phase>/<Civ>-orders.html: the player's order page for the phase after that one."""
        return self.private_folder(phase_slug) / order_page_name(civ)

    def private_report(self, phase_slug: str, civ: str) -> Path:
        """private/<phase>/<Civ>.txt: the player's report of that phase."""
        return self.private_folder(phase_slug) / f"{civ}.txt"

    def page_file(self, phase_slug: str, name: str) -> Path:
        """Where a page of a phase's reports is written: a public one in reports/, a player's in private/."""
        return (self.reports_folder(phase_slug) if is_public_page(name) else self.private_folder(phase_slug)) / name

    def make(self) -> None:
        for folder in (self.root, self.history, self.inbox, self.reports):
            folder.mkdir(parents=True, exist_ok=True)
        for folder in (self.orders, self.private):  # the players' orders and hands: the moderator's only
            folder.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)

    def make_private_folder(self, phase_slug: str) -> Path:
        """private/<phase>/, made the moderator's only if it is new (an older game has no private/)."""
        self.private.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
        folder = self.private_folder(phase_slug)
        folder.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
        return folder

    def apply_private_layout(self) -> None:
        """Move the private reports that an earlier version wrote into reports/<phase>/ to
        private/<phase>/ (mode 600, in folders of mode 700), so that reports/ holds public
        pages only and is safe to publish.

        `Game.load` calls it, so an older game is put right by the first command run on it
        after the upgrade. It moves under the game's lock, and only when the lock is free at
        once: a busy game is put right by a later command. A report already in private/
        wins over its older copy. A copy of reports/ published before then still holds them."""
        if not _private_pages(self.reports):
            return
        with file_lock(self.lock_file) as mine:
            if not mine:
                return
            touched: set[Path] = set()
            for page in _private_pages(self.reports):
                target = self.make_private_folder(page.parent.name) / page.name
                try:
                    if target.exists():
                        page.unlink()
                    else:
                        os.chmod(page, PRIVATE)
                        os.replace(page, target)
                except FileNotFoundError:  # moved a moment ago by another command, before it held the lock
                    continue
                touched |= {page.parent, target.parent}
            for folder in sorted(touched):
                fsync_directory(folder)

    def require(self) -> None:
        if not self.game_file.is_file():
            raise UsageError(
                f"{self.root} is not a game directory (no game.toml); create one with "
                "'adjudicator new DIR --player CIV:EMAIL …'"
            )


def _private_pages(reports: Path) -> list[Path]:
    """The players' pages in the folders of reports/, where an earlier version wrote them (a
    hidden file is a write under way: left alone). Every command looks, so it is cheap:
    one `scandir` per phase, no stat of a file."""
    found: list[Path] = []
    try:
        with os.scandir(reports) as entries:
            phases = [entry.path for entry in entries if entry.is_dir()]
    except FileNotFoundError:
        return found
    for phase in phases:
        try:
            with os.scandir(phase) as pages:
                found += [Path(p.path) for p in pages if not p.name.startswith(".") and not is_public_page(p.name)]
        except FileNotFoundError:  # rolled back a moment ago
            continue
    return sorted(found)


@contextmanager
def game_lock(directory: GameDirectory, wait_seconds: float = 10.0) -> Iterator[None]:
    """Hold the game's lock; a second process waits up to `wait_seconds`, then gives up."""
    with file_lock(directory.lock_file, wait_seconds) as mine:
        if not mine:
            raise GameLockedError(
                f"another adjudicator process is working on {directory.root}; "
                "wait for it to finish and run the command again"
            )
        yield


def game_folders(root: Path) -> list[Path]:
    """The game at `root`, or the games in the folders under it."""
    if GameDirectory(root).game_file.exists():
        return [root]
    folders = sorted(p for p in root.iterdir() if GameDirectory(p).game_file.exists()) if root.is_dir() else []
    if not folders:
        raise UsageError(f"{root} holds no game (no game.toml in it or in the folders under it)")
    return folders
