"""What would happen: a player's orders tried alone against the position now (`preview`, by mail
or `adjudicator preview`), and the whole phase tried without saving it (`adjudicate --dry-run`).

Nothing is written. A preview never draws on the game's dice chain: each trial rolls fresh private
dice (and shuffles its face-down decks with them), so a preview reveals neither the phase's rolls
nor the order of a deck. The other players are taken to send no orders (their defaults), so a
preview shows nothing of what they sent. Where the dice matter, the phase is tried PREVIEW_TRIALS
times and the outcomes are told apart by his side of the position they lead to (`his_side`), the
likeliest first, each with its share of the trials: the dice shown as odds, not as one lucky roll.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.core.dice import ChainDice, Dice
from adjudicator.core.events import Event
from adjudicator.core.limits import PREVIEW_SECONDS, PREVIEW_TRIALS
from adjudicator.game.game import Game
from adjudicator.game.submissions import CheckedSubmission
from adjudicator.reports.phase import PhaseReports, unsaved_record
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import Order

SHOWN = 3  # outcomes told in full, the likeliest first; the rest are counted


@dataclass(frozen=True, slots=True)
class Trial:
    """One way the phase can go: the position it leads to and what happened on the way."""

    after: Any
    events: tuple[Event, ...]
    rolls: int  # dice rolled on the way: none means the outcome is certain


@dataclass(frozen=True, slots=True)
class Outcome:
    """The trials that led to one position: how many, and one of them, to tell."""

    count: int
    trial: Trial


def private_dice(game: Game) -> ChainDice:
    """Dice of a fresh secret seed and root: the same kind of rolls as the game's, none of its."""
    return ChainDice(game.settings.id, game.phase_number, secrets.token_bytes(32), root=secrets.token_bytes(32))


def try_phase(game: Game, orders: Mapping[str, Sequence[Order]], dice: Dice, civ: str | None = None) -> Trial:
    """The phase resolved on `orders`. With `civ`, in stepwise mode, the steps before his are
    resolved first on nobody's orders (each player to move plays his defaults), then his."""
    position = game.position
    events: list[Event] = []
    stepwise = game.settings.stepwise
    for _ in range(len(game.ruleset.playing(position)) + 1):
        waiting = game.due(position)
        mine = civ is None or not stepwise or civ in waiting or not waiting
        given = orders if mine else {}
        position, happened = game.ruleset.resolve(game.board, position, given, dice, stepwise, game.settings.options)
        events += happened
        still = game.ruleset.phase_info(position)
        if mine or still.winner or (still.turn, still.phase) != (game.phase_info.turn, game.phase_info.phase):
            break
    return Trial(position, tuple(events), dice.used)


def outcomes(game: Game, civ: str, orders: Sequence[Order], trials: int = PREVIEW_TRIALS) -> tuple[list[Outcome], int]:
    """The ways his orders alone can go, the likeliest first, and how many trials were run: one
    when no die was rolled (the outcome is certain), else `trials`, or fewer if PREVIEW_SECONDS
    runs out first."""
    given = {civ: list(orders)}
    first = try_phase(game, given, private_dice(game), civ)
    if first.rolls == 0:
        return [Outcome(1, first)], 1
    found: dict[str, Outcome] = {}
    run = 0
    until = time.process_time() + PREVIEW_SECONDS
    while run < trials and (run == 0 or time.process_time() < until):
        trial = first if run == 0 else try_phase(game, given, private_dice(game), civ)
        run += 1
        key = json.dumps(his_side(game.ruleset.position_to_data(trial.after), civ), sort_keys=True, default=str)
        seen = found.get(key)
        found[key] = Outcome(seen.count + 1, seen.trial) if seen else Outcome(1, trial)
    return sorted(found.values(), key=lambda o: -o.count), run


def his_side(data: Mapping[str, Any], civ: str) -> dict[str, Any]:
    """The parts of a stored position that concern a player: in each table of records (players,
    provinces, seas, cities) the records under his name or that name him anywhere (a sea where
    his trireme fights another keeps both counts), in each list the items that name him, and
    each value that is his name (a role he holds). Two trials whose outcomes differ only in what
    others did by their defaults' dice (the tokens a default picks) are one outcome to him."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        kept: Any
        if isinstance(value, Mapping):
            kept = {k: v for k, v in value.items() if k == civ or _names(v, civ)}
        elif isinstance(value, list):
            kept = [item for item in value if _names(item, civ)]
        else:
            kept = value if value == civ else None
        if kept:
            out[key] = kept
    return out


def _names(value: Any, civ: str) -> bool:
    if isinstance(value, Mapping):
        return any(k == civ or _names(v, civ) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_names(v, civ) for v in value)
    return bool(value == civ)


def preview_text(game: Game, checked: CheckedSubmission, trials: int = PREVIEW_TRIALS) -> str:
    """The answer to a preview: his lines as a receipt would take them, then what they would do
    alone, as his private report would tell it, with each outcome's share of the trials."""
    civ = checked.power
    orders = [line.order for line in checked.lines if line.ok and line.order is not None]
    found, run = outcomes(game, civ, orders, trials)
    lang = game.settings.language_of(civ)
    counts = [dict(_standing(game, o.trial.after, civ)) for o in found]
    spread = [
        {"measure": measure, "low": min(c[measure] for c in counts), "high": max(c[measure] for c in counts)}
        for measure in counts[0]
    ]
    contexts = [_context(game, outcome.trial) for outcome in found[:SHOWN]]
    shown = [{"count": o.count, "events": c["events"]} for o, c in zip(found[:SHOWN], contexts, strict=True)]
    return Renderer(game.ruleset.name, lang).render(
        "preview.txt.j2",
        **contexts[0],
        civ=civ,
        receipt=checked.echo,
        outcomes=shown,
        trials=run,
        spread=spread,
        others=len(found) - len(shown),
        other_count=sum(o.count for o in found[SHOWN:]),
        label=game.phase_info.label,
    )


def _standing(game: Game, position: Any, civ: str) -> Mapping[str, int]:
    """His counts in the ruleset's standings (provinces, cities, …), as the site charts them."""
    return next((s.counts for s in game.ruleset.standings(game.board, position) if s.civ == civ), {})


def _context(game: Game, trial: Trial) -> dict[str, Any]:
    """What the report templates need to tell this trial's events (the names, the phase)."""
    return PhaseReports(game, unsaved_record(game, trial.after, trial.events)).context
