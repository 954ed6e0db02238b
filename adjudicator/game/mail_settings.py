"""The mail settings of a game ([intake.imap], [delivery.smtp]): game.toml's keys over the
intake.toml of the folder the game sits in, or a folder of games' own intake.toml. Read as
plain tables here; intake/ and delivery/ make them into mailbox and SMTP settings."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from adjudicator.core.errors import AdjudicatorError, DataError, GameFileError
from adjudicator.core.fields import Fields
from adjudicator.game.destinations import Destination, game_destinations
from adjudicator.game.directory import ROOT_SETTINGS, Folder, GameDirectory
from adjudicator.game.game import Game
from adjudicator.game.settings_check import check_intake_file
from adjudicator.game.storage import read_toml

T = TypeVar("T")


def table_of(path: Path, table: str) -> dict[str, object] | None:
    """A settings table of a game.toml or intake.toml, or None without one. A `run` pass asks
    this of every game several times and of the shared intake.toml for each game, so each file
    is read and checked once while it stays as it was (issue 31)."""
    try:
        document = _settings_document(path, *_stamp(path))
    except FileNotFoundError:
        return None
    section, _, name = table.partition(".")
    data = document.get(section, {}).get(name)
    return dict(data) if isinstance(data, dict) else None


@functools.lru_cache(maxsize=256)
def _settings_document(path: Path, _mtime: int, _size: int, _inode: int) -> dict[str, Any]:
    document = read_toml(path)
    if path.name == ROOT_SETTINGS:
        check_intake_file(path, document)
    return document


def folder_settings(root: Path, table: str, games: dict[str, Game]) -> Fields | None:
    """[intake.imap] or [delivery.smtp] for a collect of `root`: one game's (with what its
    folder's intake.toml gives), or ROOT/intake.toml's for a folder of games."""
    if len(games) == 1 and GameDirectory(root).game_file.exists():
        return game_settings(next(iter(games.values())), table)
    data = table_of(Folder(root).settings_file, table)
    return Fields(data, table) if data is not None else None


def settings_file(game: Game, table: str) -> Path:
    """Where a game's settings table comes from: game.toml, else the games folder's intake.toml."""
    shared = Folder(game.directory.root.parent).settings_file
    if table_of(game.directory.game_file, table) is None and table_of(shared, table) is not None:
        return shared
    return game.directory.game_file


def game_settings(game: Game, table: str) -> Fields | None:
    """A settings table of one game ([intake.imap], [delivery.smtp]): the intake.toml of the
    folder the game is in applies to it, and each key game.toml gives overrides it."""
    shared = table_of(Folder(game.directory.root.parent).settings_file, table)
    own = table_of(game.directory.game_file, table)
    if shared is None and own is None:
        return None
    return Fields({**(shared or {}), **(own or {})}, table)


def judge_address(game: Game) -> str | None:
    """The address the game's mail comes from and players write to ([delivery.smtp] from), or
    None while no [delivery.smtp] says one (the game's mail then waits in outbox/)."""
    fields = game_settings(game, "delivery.smtp")
    address = fields.text("from", "") if fields is not None else ""
    return address or None


def destinations_of(game: Game) -> tuple[Destination, ...]:
    """The game's [[notify]] destinations and those of the intake.toml of its games folder."""
    shared = Folder(game.directory.root.parent).settings_file
    document = _settings_document(shared, *_stamp(shared)) if shared.is_file() else {}
    return game_destinations(game.settings.notify, document)


def secrets_files(game: Game) -> tuple[Path, ...]:
    """Where a destination's address may be kept: the game's secrets.toml, then its folder's."""
    return (game.directory.secrets_file, game.directory.root.parent / game.directory.secrets_file.name)


def _stamp(path: Path) -> tuple[int, int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size, stat.st_ino


def has_own_mailbox(game: Game) -> bool:
    """Whether the game's game.toml names a mailbox of its own ([intake.imap])."""
    return table_of(game.directory.game_file, "intake.imap") is not None


def declared_id(folder: Path) -> str:
    """A game folder's id as its game.toml says, read raw (the game itself may not load, and
    its mail is still known by that id); the folder's name when even that cannot be read."""
    try:
        return str(read_toml(GameDirectory(folder).game_file)["game"]["id"])
    except (AdjudicatorError, KeyError, TypeError):
        return folder.name


def settings_from(path: Path, fields: Fields | None, read: Callable[[Fields], T]) -> T | None:
    """A settings table read into its typed value (SMTP, IMAP), a mistake naming `path`, the
    file the table came from, and the key."""
    try:
        return read(fields) if fields is not None else None
    except DataError as error:
        raise GameFileError.from_data_error(path, error) from None
