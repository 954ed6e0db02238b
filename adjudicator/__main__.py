"""The `adjudicator` command. It notes the moment it was run before anything else is
imported, so that a command can tell what changed in a game after the moderator ran it, and
tries the quick way in (adjudicator/dispatch.py) before Typer."""

from __future__ import annotations

import sys
import time


def main() -> None:
    started = time.time()
    from adjudicator import dispatch

    quick = dispatch.run(sys.argv[1:])
    if quick is not None:
        sys.exit(quick)
    import typer
    import typer.main

    from adjudicator.cli import CALLS, app

    dispatch.remember(lambda: typer.main.get_command(app), CALLS)
    try:
        code = app(obj={"started": started}, standalone_mode=False)
    except typer.Abort:
        sys.exit(1)
    except Exception as error:
        # A wrong option or argument: click's own error (typer vendors click privately, so it
        # is known by its face). One `error:` line, as every other refusal, not "Error:".
        message = getattr(error, "format_message", None)
        if message is None:
            raise
        context = getattr(error, "ctx", None)
        hint = f" (see '{context.command_path} -h')" if context is not None else ""
        print(f"error: {message()}{hint}", file=sys.stderr)
        sys.exit(getattr(error, "exit_code", 2))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
