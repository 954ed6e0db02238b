"""The public report's lines about seats (issue 32): who keeps missing phases, which seats are
open, and who took a seat since the phase before. Every player reads them, so they name a
newcomer by the name he gave, never by his address.

They come from history alone (each resolved phase keeps whose orders were due, whose did not
come, and who held each seat), so a report made again later says what it said then.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from adjudicator.core.i18n import Msg, t, tn
from adjudicator.game.game import Game
from adjudicator.game.storage import read_toml

RUN_SHOWN = 2  # a run of missed phases is named from its second phase (the first is the event's "no orders")


def seat_lines(
    game: Game, number: int, playing: list[str] | tuple[str, ...], unsaved: dict[str, Any] | None = None
) -> list[Msg]:
    """The lines about seats in the report of phase `number`, for the civilizations `playing` then;
    `unsaved`: that phase's seats (`seats`, `missed`) when history does not hold them yet (a dry run)."""
    read = functools.cache(functools.partial(_seated, game))  # each phase's history read once

    def seated(phase: int) -> dict[str, Any] | None:
        return unsaved if unsaved is not None and phase == number else read(phase)

    this = seated(number)
    if this is None:
        return []
    before = seated(number - 1)
    holders: dict[str, str] = this.get("seats", {})
    lines = [
        t("%(civ)s's seat is open: it plays default orders until a new player takes it.", civ=civ)
        for civ in playing
        if civ not in holders
    ]
    earlier: dict[str, str] | None = before.get("seats", {}) if before else None
    for civ, email in holders.items():
        if earlier is not None and earlier.get(civ) != email:  # another held it, or nobody (an open seat)
            name = _name_of(game, civ, email)
            lines.append(
                t("%(civ)s has a new player, %(name)s.", civ=civ, name=name)
                if name
                else t("%(civ)s has a new player.", civ=civ)
            )
    for civ in this.get("missed", []):
        run = _run(seated, number, civ, holders.get(civ, ""))
        if run >= RUN_SHOWN:
            lines.append(
                tn(
                    "%(civ)s has sent no orders for %(count)s phase in a row.",
                    "%(civ)s has sent no orders for %(count)s phases in a row.",
                    run,
                    civ=civ,
                )
            )
    return lines


def _seated(game: Game, number: int) -> dict[str, Any] | None:
    """What phase `number`'s history says of its seats; None before seats were counted."""
    found = sorted(game.directory.history.glob(f"{number:03d}-*.toml")) if number >= 0 else []
    if not found:
        return None
    data = read_toml(found[0])
    return {"seats": data["seats"], "missed": data.get("missed", [])} if isinstance(data.get("seats"), dict) else None


def _run(seated: Callable[[int], dict[str, Any] | None], number: int, civ: str, email: str) -> int:
    """The phases in a row up to `number` whose orders this holder of `civ` did not send."""
    run = 0
    while (phase := seated(number - run)) is not None and civ in phase.get("missed", []):
        if phase.get("seats", {}).get(civ) != email:
            break
        run += 1
    return run


def _name_of(game: Game, civ: str, email: str) -> str:
    player = game.settings.player(civ)
    if player is not None and player.email == email:
        return player.name
    from adjudicator.game import seats

    return next((t.name for t in seats.load(game.directory).tenures if t.civ == civ and t.email == email), "")
