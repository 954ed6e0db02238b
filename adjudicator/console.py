"""What the moderator sees of a command: its text, one line for an error, and its exit code.

Both ways into a command, Typer's (adjudicator/cli.py) and the quick one (adjudicator/dispatch.py),
finish a command here, so that the two print the same and exit with the same code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from adjudicator.outcome import Outcome

INTERNAL_ERROR_EXIT = 3  # a bug, as opposed to 1: the moderator asked for something that cannot be done


def finish(command: Callable[[], Outcome], directory: object = None) -> int:
    """Runs a command and prints its outcome; our errors become one line on stderr and exit code
    1, any other error (a bug) one line naming a log file with the details, and exit code 3.
    `directory` is the game (or folder of games) the command named, where the log goes."""
    from adjudicator.core.errors import AdjudicatorError

    try:
        outcome = command()
    except AdjudicatorError as error:
        print_error(f"error: {error}")
        return 1
    except Exception as error:
        from adjudicator.core.crashlog import one_line, write_crash_log

        log = write_crash_log(directory if isinstance(directory, Path) else None, error)
        print_error(f"internal error: {one_line(error)}; details in {log}")
        return INTERNAL_ERROR_EXIT
    if outcome.text:
        print_text(outcome.text.rstrip("\n"))
    return 0 if outcome.ok else 1


def print_text(text: str) -> None:
    """A line or more for the moderator's terminal, which no player's text (an order line, a
    mail's subject, a name) may give an escape code, a bell or a carriage return."""
    from adjudicator.core.controls import without_controls

    _write(sys.stdout, without_controls(text) + "\n")


def print_error(text: str) -> None:
    from adjudicator.core.controls import without_controls

    _write(sys.stderr, without_controls(text) + "\n")


def _write(stream: object, text: str) -> None:
    """Writes as `typer.echo` does: a terminal that cannot show a character gets a replacement
    for it, not a UnicodeEncodeError; a closed pipe (`| head`) ends the output quietly."""
    write = getattr(stream, "write", None)
    if write is None:
        return
    try:
        write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        write(text.encode(encoding, "replace").decode(encoding))
    except BrokenPipeError:
        return
    flush = getattr(stream, "flush", None)
    if flush is not None:
        try:
            flush()
        except BrokenPipeError:
            return
