"""Exceptions for broken files and caller mistakes.

Problems with a single order line are not exceptions: they are values kept next to their
line (see `adjudicator.language.problems`), so one bad line never hides the others.
"""

from __future__ import annotations

from pathlib import Path


class AdjudicatorError(Exception):
    """Base of every error the CLI prints as one line instead of a traceback."""


def message_of(error: Exception) -> str:
    """An error's sentence as raised: a message (adjudicator.core.i18n.Msg) keeps its translations,
    which str(error) would drop."""
    said = error.args[0] if error.args else None
    return said if isinstance(said, str) else str(error)


class DataError(AdjudicatorError):
    """A value in a TOML or JSON document is missing or wrong; `key` is its dotted path."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.message = message


class GameFileError(AdjudicatorError):
    """A file of a game directory (or a board or position file) cannot be used as it is."""

    def __init__(self, path: Path | str, message: str, key: str = "") -> None:
        where = f"{path} [{key}]" if key else str(path)
        super().__init__(f"{where}: {message}")
        self.path = Path(path)
        self.key = key
        self.message = message

    @classmethod
    def from_data_error(cls, path: Path | str, error: DataError) -> GameFileError:
        return cls(path, error.message, error.key)


class BoardError(AdjudicatorError):
    """A board file breaks one of the board's consistency rules."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"the board has {len(problems)} problem(s): " + "; ".join(problems))
        self.problems = problems


class UsageError(AdjudicatorError):
    """The moderator asked for something that cannot be done; the message says the fix."""


class GameLockedError(AdjudicatorError):
    """Another adjudicator process holds the game's lock."""


class DiceError(AdjudicatorError):
    """Dice cannot be rolled as asked (too few scripted rolls, exhausted chain)."""
