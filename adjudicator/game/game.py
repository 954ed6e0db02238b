"""A game on disk: settings, current position, history, and the phase bookkeeping.

`Game` is the one place where storage, the ruleset and the dice meet; the CLI calls it and
nothing else. It knows no rules: those come through the `Ruleset` protocol.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.core import dice as dice_chain
from adjudicator.core.controls import control_character
from adjudicator.core.dice import ChainDice, DiceRecord, DiceSource
from adjudicator.core.errors import DataError, GameFileError, UsageError
from adjudicator.core.events import Event
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import SOURCE, check_language, t
from adjudicator.core.resources import package_file
from adjudicator.game import absences
from adjudicator.game.dice_records import dice_record_from_data, dice_record_to_data
from adjudicator.game.directory import GameDirectory, game_lock
from adjudicator.game.players import Player, PlayerSpec, hash_secret, new_secret
from adjudicator.game.settings import Mode, Settings
from adjudicator.game.storage import (
    PRIVATE,
    check_game_id,
    compact,
    phase_slug,
    read_board_document,
    read_document,
    read_toml,
    write_toml_atomic,
)
from adjudicator.language.problems import either
from adjudicator.rulesets import PhaseInfo, Ruleset, find_ruleset

if TYPE_CHECKING:
    from adjudicator.language.parser import OrderParser

STATE_HEADER = (
    "# The current position (DESIGN.md shape). Stocks, bank and supply are derived from the\n"
    "# pieces and hands: after a hand edit of those, delete them and they are recomputed.\n"
)


class Game:
    """A loaded game directory."""

    def __init__(
        self, directory: GameDirectory, settings: Settings, board: Any, position: Any, phase_number: int
    ) -> None:
        self.directory = directory
        self.settings = settings
        self.ruleset: Ruleset[Any, Any, Any] = find_ruleset(settings.ruleset)
        self.board = board
        self.position = position
        self.phase_number = phase_number
        self._parser: OrderParser[Any] | None = None

    # ---- loading --------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path) -> Game:
        """The game in `path`. A game begun with an earlier version has the private reports
        it kept in reports/ moved to private/ here (`GameDirectory.apply_private_layout`)."""
        directory = GameDirectory(path)
        directory.require()
        settings = _parse(directory.game_file, Settings.from_data)
        ruleset = find_ruleset(settings.ruleset)
        board = load_board(ruleset, _board_path(directory, settings.board, ruleset))
        state = read_toml(directory.state_file)
        position = _parse(directory.state_file, lambda data: ruleset.position_from_data(board, data), state)
        dice = Fields(state).table("dice", {})
        phase_number = _parse(directory.state_file, lambda _: dice.integer("phase_number", 1, minimum=0), state)
        try:
            settings = settings.with_players_of(ruleset, board, position)
        except DataError as error:
            raise GameFileError.from_data_error(directory.game_file, error) from None
        directory.apply_private_layout()
        return cls(directory, settings, board, position, phase_number)

    # ---- creating -------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path,
        specs: Sequence[PlayerSpec],
        *,
        ruleset_name: str | None = None,
        board_file: Path | None = None,
        position_file: Path | None = None,
        mode: str = "batch",
        game_id: str | None = None,
        dice_root: bytes | None = None,
        options: Mapping[str, Any] | None = None,
        map_url: str = "",
        site: str = "",
        lang: str = SOURCE,
    ) -> tuple[Game, dict[str, str]]:
        """A new game directory; returns the game and each player's secret (shown once).

        `dice_root` fixes the dice chain; only the shipped demo and tests use it, because a
        root anyone knows lets anyone foresee every roll."""
        directory = GameDirectory(path)
        if directory.game_file.exists():
            raise UsageError(f"{path} already holds a game; choose a new directory")
        if mode not in tuple(Mode):
            raise UsageError(f"'{mode}' is not a mode; use batch or stepwise")
        if found := control_character(map_url):
            raise UsageError(f"the map URL holds {found}; give it as one line of plain text")
        game_id = check_game_id(game_id or path.resolve().name.lower())
        ruleset = find_ruleset(ruleset_name)
        try:
            checked_options = ruleset.check_options(options or {})
        except DataError as error:
            raise UsageError(f"option {error.key.removeprefix('options.')}: {error.message}") from None
        board_path = board_file.resolve() if board_file else None
        board = load_board(ruleset, board_path or default_board_path(ruleset))
        civs = _player_civs(ruleset, board, specs)
        root = dice_root if dice_root is not None else dice_chain.new_root()
        commitment = dice_chain.commitment_for(root)
        setup_dice = ChainDice(game_id, 0, dice_chain.seed_for(root, 0), root=root)
        if position_file is not None:
            data = read_document(position_file)
            position = _parse(position_file, lambda d: ruleset.position_from_data(board, d, civs), data)
            phase_number = _parse(
                position_file,
                lambda d: Fields(d).table("dice", {}).integer("phase_number", 1, minimum=1),
                data,
            )
            events = [Event("position_imported", {"file": position_file.name})]
        else:
            position, events = ruleset.new_position(board, civs, setup_dice, checked_options)
            phase_number = 1
        secrets_by_civ = {civ: spec.secret or new_secret() for civ, spec in zip(civs, specs, strict=True)}
        players = tuple(
            Player(civ, spec.email, hash_secret(secrets_by_civ[civ]), spec.name, lang=spec.lang)
            for civ, spec in zip(civs, specs, strict=True)
        )
        settings = Settings(
            game_id,
            ruleset.name,
            str(board_path) if board_path else None,
            Mode(mode),
            commitment,
            players,
            datetime.now(UTC).replace(microsecond=0),
            options=checked_options,
            map_url=map_url,
            site=site,
            lang=check_language(lang),
        )
        game = cls(directory, settings, board, position, phase_number)
        with game_lock(directory):
            directory.make()
            write_toml_atomic(
                directory.secrets_file, {"dice": {"root": root.hex()}, "players": secrets_by_civ}, mode=0o600
            )
            write_toml_atomic(directory.game_file, settings.to_data(), mode=PRIVATE)
            setup_record = DiceRecord(0, DiceSource.CHAIN, setup_dice.seed.hex(), tuple(setup_dice.rolls))
            info = game.phase_info
            game._write_history(phase_slug(0, info.turn, "setup", info.prefix), events, setup_record)
            game._open_phase()
        return game, secrets_by_civ

    # ---- the position ---------------------------------------------------------------

    @property
    def phase_info(self) -> PhaseInfo:
        return self.ruleset.phase_info(self.position)

    @property
    def slug(self) -> str:
        info = self.phase_info
        return phase_slug(self.phase_number, info.turn, info.phase, info.prefix)

    def state_data(self) -> dict[str, Any]:
        """The position in the stable `state --json` shape (DESIGN.md)."""
        return {
            "game": self.settings.id,
            "ruleset": self.settings.ruleset,
            **self.ruleset.position_to_data(self.position),
            "dice": {"commitment": self.settings.commitment, "phase_number": self.phase_number},
        }

    def playing(self) -> tuple[str, ...]:
        return self.ruleset.playing(self.position)

    def due(self, position: Any = None) -> tuple[str, ...]:
        """Whose orders the next adjudication of `position` (the current one by default) needs,
        in this game's mode: an open seat's are not waited for (it plays default orders)."""
        due = self.ruleset.due(self.position if position is None else position, self.settings.stepwise)
        vacant = self.settings.open_seats()
        return tuple(civ for civ in due if civ not in vacant) if vacant else due

    def opened(self) -> datetime | None:
        """When the current phase opened: the time its history file was written (None without one)."""
        path = self.directory.history_file(self.slug)
        return datetime.fromtimestamp(path.stat().st_mtime, UTC) if path.exists() else None

    def deadline(self) -> datetime | None:
        """The current phase's deadline, moved past the players' absences it falls in: the one
        set for this phase (deadline.toml), else game.toml's fixed one if the phase opened
        before it (a phase that opens after it has passed is not overdue from the start). A
        deadline on [schedule] at/days that an absence moves goes on to their next time."""
        deadline = self.settings.schedule.deadline
        if deadline is not None and (opened := self.opened()) is not None and opened > deadline:
            deadline = None
        if self.directory.deadline_file.exists():
            data = read_toml(self.directory.deadline_file)
            if data.get("phase") == self.slug and isinstance(data.get("deadline"), datetime):
                deadline = data["deadline"]
        if deadline is None:
            return None
        declared = [a for a in absences.load(self.directory.root) if a.civ in self.playing()]
        schedule = self.settings.schedule
        snaps = schedule.on_schedule(deadline)  # on [schedule] at/days, as every derived deadline is
        moved = absences.moved_deadline(deadline, declared)
        while snaps and moved != deadline:  # an absence moved it: on to the next time at/days allow
            deadline = schedule.snapped(moved)
            moved = absences.moved_deadline(deadline, declared)
        return moved

    def set_deadline(self, moment: datetime) -> None:
        write_toml_atomic(self.directory.deadline_file, {"phase": self.slug, "deadline": moment})

    def dice_root(self) -> bytes:
        """The chain's secret root (secrets.toml): every seed, and the sealed rolls (a deck's order)."""
        return bytes.fromhex(read_toml(self.directory.secrets_file)["dice"]["root"])

    @property
    def parser(self) -> OrderParser[Any]:
        if self._parser is None:
            self._parser = _parser_of(self.settings.ruleset)
        return self._parser

    def find_player_civ(self, text: str) -> str:
        match = self.ruleset.find_civ(self.board, text)
        if len(match.keys) != 1:
            unknown = t("'%(text)s' is not a %(word)s of this game", text=text, word=self.ruleset.player_word)
            if match.suggestions:
                unknown = t("%(problem)s; did you mean %(names)s?", problem=unknown, names=either(match.suggestions))
            raise UsageError(unknown)
        civ = match.keys[0]
        if civ not in self.playing():
            if (rule := self.ruleset.neutrals_rule) is not None:
                raise UsageError(
                    t("%(civ)s is neutral in this game (%(rule)s) and gives no orders", civ=civ, rule=rule)
                )
            raise UsageError(t("%(civ)s does not play in this game and gives no orders", civ=civ))
        return civ

    # ---- history and dice -----------------------------------------------------------

    def _open_phase(self, opened: datetime | None = None) -> None:
        """Save the position as the phase opens: its history snapshot, then the state file."""
        self.write_snapshot(opened)
        self.write_state()

    def write_snapshot(self, opened: datetime | None = None) -> None:
        """history/NNN-…toml: the position as phase NNN opens, and when it opened (each player's
        time to his orders is counted from it: game/records.py)."""
        data: dict[str, Any] = {"phase_number": self.phase_number, "label": self.phase_info.label}
        if opened is not None:
            data["opened"] = opened
        write_toml_atomic(
            self.directory.history_file(self.slug), {**data, "position": compact(self.state_data())}, mode=PRIVATE
        )

    def write_state(self) -> None:
        """state.toml, the commit point of every change to the position."""
        write_toml_atomic(self.directory.state_file, compact(self.state_data()), PRIVATE, header=STATE_HEADER)

    def _write_history(self, slug: str, events: Sequence[Event], record: DiceRecord) -> None:
        write_toml_atomic(
            self.directory.history_file(slug),
            {
                "phase_number": record.phase_number,
                "dice": dice_record_to_data(record),
                "events": [e.to_data() for e in events],
            },
            mode=PRIVATE,
        )

    def dice_records(self) -> list[DiceRecord]:
        """Every published dice record in history, oldest first."""
        records = []
        for path in sorted(self.directory.history.glob("*.toml")):
            data = read_toml(path)
            if "dice" in data:
                records.append(_parse(path, dice_record_from_data, data))
        return records

    def verify_dice(self) -> tuple[int, list[str]]:
        """(rolls checked, problems): recompute every revealed roll from its seed."""
        records = self.dice_records()
        problems = dice_chain.verify_records(self.settings.id, self.settings.commitment, records)
        return sum(len(r.rolls) for r in records if r.source is DiceSource.CHAIN), problems


def load_board(ruleset: Ruleset[Any, Any, Any], path: Path) -> Any:
    """The board a file holds, read once per process while the file stays as it was (a board is
    a frozen value; each command used to read and check it again, 80 ms each time)."""
    try:
        stat = path.stat()
    except OSError:
        return _parse(path, ruleset.parse_board, read_board_document(path))  # the reader says what is wrong
    return _board(ruleset.name, path.resolve(), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _board(ruleset: str, path: Path, _mtime: int, _size: int) -> Any:
    reader = find_ruleset(ruleset)
    return _parse(path, reader.parse_board, read_board_document(path))


@functools.cache
def _parser_of(ruleset: str) -> OrderParser[Any]:
    """One parser per ruleset and process: its grammar never changes, and building it costs 55 ms."""
    reader = find_ruleset(ruleset)
    return reader.parser()


def default_board_path(ruleset: Ruleset[Any, Any, Any]) -> Path:
    return package_file(ruleset.board.package, ruleset.board.path)


def _board_path(directory: GameDirectory, board: str | None, ruleset: Ruleset[Any, Any, Any]) -> Path:
    """game.toml's `board`: a path (relative to the game directory), or the shipped board."""
    if board is None:
        return default_board_path(ruleset)
    path = Path(board)
    return path if path.is_absolute() else directory.root / path


def _player_civs(ruleset: Ruleset[Any, Any, Any], board: Any, specs: Sequence[PlayerSpec]) -> list[str]:
    if len(specs) not in ruleset.player_counts:
        counts = f"{min(ruleset.player_counts)} to {max(ruleset.player_counts)}"
        raise UsageError(
            f"{ruleset.title} takes {counts} players, {len(specs)} {'was' if len(specs) == 1 else 'were'} given "
            f"({ruleset.players_rule}); add or remove --player"
        )
    civs: list[str] = []
    for spec in specs:
        match = ruleset.find_civ(board, spec.civ)
        if len(match.keys) != 1:
            hint = f"; did you mean {' or '.join(match.suggestions)}?" if match.suggestions else ""
            names = ", ".join(ruleset.civilizations(board))
            raise UsageError(f"'{spec.civ}' is not a {ruleset.player_word} ({names}){hint}")
        if match.keys[0] in civs:
            raise UsageError(f"{match.keys[0]} is given twice; each {ruleset.player_word} has one player")
        civs.append(match.keys[0])
    return civs


def _parse(path: Path, read: Any, data: Any = None) -> Any:
    """Run a reader over a file's data, naming the file and key when the data is wrong."""
    try:
        return read(read_toml(path) if data is None else data)
    except DataError as error:
        raise GameFileError.from_data_error(path, error) from None
