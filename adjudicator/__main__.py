"""The `adjudicator` command. It notes the moment it was run before anything else is
imported, so that a command can tell what changed in a game after the moderator ran it."""

from __future__ import annotations

import time


def main() -> None:
    started = time.time()
    from adjudicator.cli import app

    app(obj={"started": started})


if __name__ == "__main__":
    main()
