"""Views that must agree (issue 28): what a player is shown is what happens.

Each test ties two views of one rules question together, over positions random whole games
reach (docs/testing.md lists them):

- **Form = engine**: each line of a player's order form, adjudicated alone from that position
  (the others sending nothing), costs what its note says and is carried out; it may fail only
  for a reason the rules give for dice or for another player's earlier move in the phase.
- **Receipt = engine**: a line the receipt marks OK (with no note saying what it depends on)
  is never refused at adjudication for a reason that was already true when it was checked:
  adjudicated with the player's own accepted lines and nobody else's, it is carried out.

Both run here on a small sample; `python -m tests.test_views_agree --games 40` runs many.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.dice import ChainDice
from adjudicator.core.errors import UsageError
from adjudicator.core.events import Event
from adjudicator.game.game import Game, default_board_path, load_board
from adjudicator.game.players import parse_player_spec
from adjudicator.game.submissions import check_submission
from adjudicator.language.submission import OrderLine
from adjudicator.reports.order_form import order_form
from adjudicator.rulesets import find_ruleset
from tests.random_play import empires_orders, mediterraneum_orders, random_orders
from tests.test_validate import at_phase, combine, game_with, holds, make_opening_state

RULESETS = ("mare-nostrum", "empires", "mediterraneum")
PRICE = re.compile(r"\bcosts (\d+)\b")
FREE = re.compile(r"^free\b")


@dataclass(frozen=True)
class Disagreement:
    """One line two views answer differently, with what it takes to see it again."""

    ruleset: str
    seed: int
    phase: str
    civ: str
    line: str
    shown: str  # what the form or the receipt said
    happened: str  # what the engine did

    def __str__(self) -> str:
        return (
            f"{self.ruleset} seed {self.seed}, {self.phase}, {self.civ}: {self.line!r}\n"
            f"    shown: {self.shown}\n    happened: {self.happened}"
        )


def refusals(events: Sequence[Event], civ: str) -> dict[int | str, str]:
    """The lines of `civ` the engine refused, each with its reason, by line number or (where a
    ruleset's events name the order instead) by the order's text: every ruleset reports a
    refused line as an event whose kind ends in `_skipped`, `_refused` or `_failed`."""
    refused: dict[int | str, str] = {}
    for item in (e.to_data() for e in events):
        kind = str(item.get("kind", ""))
        if not kind.endswith(("_skipped", "_refused", "_failed")):
            continue
        if item.get("player") != civ:
            continue
        where = int(str(item["line"])) if "line" in item else str(item.get("order", ""))
        refused.setdefault(where, str(item.get("reason", kind)))
    return refused


def refused_line(refused: dict[int | str, str], game: Game, line: OrderLine[Any]) -> str | None:
    return refused.get(line.number) or refused.get(line.order.to_text())


def costs(events: Sequence[Event], civ: str, line: int) -> list[int]:
    """What the engine charged for the purchases of one line."""
    return [
        int(str(item["cost"]))
        for item in (e.to_data() for e in events)
        if item.get("player") == civ and item.get("line") == line and "cost" in item
    ]


def resolve_alone(game: Game, civ: str, orders: Sequence[Any]) -> list[Event]:
    """The phase adjudicated with `civ`'s orders and nobody else's, with the game's dice."""
    dice = ChainDice(game.settings.id, game.phase_number, hashlib.sha256(b"views").digest())
    stepwise = game.settings.mode == "stepwise"
    _, events = game.ruleset.resolve(
        game.board, game.position, {civ: list(orders)}, dice, stepwise, game.settings.options
    )
    return events


def positions(ruleset: str, seed: int, phases: int, folder: Path) -> Iterator[Game]:
    """The positions of one random game, in memory after its creation: each player sends a
    random part of what he could (as the soak's players do), and only the lines his receipt
    accepts are adjudicated."""
    rng = random.Random(f"views/{ruleset}/{seed}")
    game = _new_game(ruleset, rng, folder)
    for number in range(phases):
        info = game.phase_info
        if info.winner is not None:
            return
        yield game
        orders: dict[str, list[Any]] = {}
        for civ in game.ruleset.due(game.position, game.settings.mode == "stepwise"):
            lines = _random_lines(rng, game, civ)
            checked = check_submission(game, f"power {civ}\n" + "\n".join(lines) + "\n")
            orders[civ] = [line.order for line in checked.lines if line.ok]
        dice = ChainDice(game.settings.id, game.phase_number, hashlib.sha256(f"{seed}/{number}".encode()).digest())
        position, _ = game.ruleset.resolve(game.board, game.position, orders, dice, False, game.settings.options)
        game = Game(game.directory, game.settings, game.board, position, game.phase_number + 1)


def _new_game(name: str, rng: random.Random, folder: Path) -> Game:
    """A game of a random size; the players a random choice of the civilizations, or, where the
    ruleset fixes who plays at that size (Empires, E2.1), the first ones."""
    ruleset = find_ruleset(name)
    civs = list(ruleset.civilizations(load_board(ruleset, default_board_path(ruleset))))
    count = rng.choice([n for n in ruleset.player_counts if n <= len(civs)])
    root = rng.randbytes(32)
    for chosen in (rng.sample(civs, count), civs[:count]):
        specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in chosen]
        try:
            return Game.create(folder, specs, ruleset_name=name, dice_root=root)[0]
        except UsageError:
            continue
    raise AssertionError(f"no {count}-player game of {name} could be created")


def _random_lines(rng: random.Random, game: Game, civ: str) -> list[str]:
    if game.settings.ruleset == "empires":
        return empires_orders(rng, game, civ)
    if game.settings.ruleset == "mediterraneum":
        return mediterraneum_orders(rng, game, civ)
    return random_orders(rng, game.position, civ).splitlines()


def _misplaced(rng: random.Random, game: Game, line: str) -> str:
    """Now and then the line with one place it names swapped for another anywhere on the board,
    as a player misreads the map: a sail to a sea that does not border, a city where no site is."""
    names = sorted(set(game.ruleset.place_names(game.board).values()), key=len, reverse=True)
    named = [name for name in names if name in line]
    if not named or rng.random() < 0.5:
        return line
    return line.replace(rng.choice(named), rng.choice(names), 1)


def _checked(game: Game, civ: str, lines: Sequence[str]) -> list[OrderLine[Any]]:
    return list(check_submission(game, f"power {civ}\n" + "\n".join(lines) + "\n").lines)


def form_against_engine(game: Game, seed: int) -> list[Disagreement]:
    """Every line of every player's form, adjudicated alone: its price and its fate."""
    found: list[Disagreement] = []
    for civ in game.playing():
        for form_line in order_form(game, game.position, civ):
            (checked,) = _checked(game, civ, [form_line.order])
            assert checked.ok, (civ, form_line, checked.problem)  # the form offers only what check accepts
            events = resolve_alone(game, civ, [checked.order])
            shown = form_line.order + (f"  # {form_line.note}" if form_line.note else "")
            refused = refused_line(refusals(events, civ), game, checked)
            if refused is not None and not checked.note:  # a note says what it depends on, as a receipt's does
                found.append(_disagreement(game, seed, civ, form_line.order, shown, f"refused: {refused}"))
                continue
            price = PRICE.search(form_line.note)
            wanted = 0 if FREE.search(form_line.note) else int(price.group(1)) if price else None
            charged = costs(events, civ, checked.number)
            if wanted is not None and any(cost != wanted for cost in charged):
                found.append(_disagreement(game, seed, civ, form_line.order, shown, f"charged {charged}"))
    return found


def receipt_against_engine(game: Game, seed: int, rng: random.Random) -> list[Disagreement]:
    """A random submission per player: each line its receipt accepts without a note, adjudicated
    with that player's accepted lines and nobody else's, is carried out."""
    found: list[Disagreement] = []
    for civ in game.ruleset.due(game.position, game.settings.mode == "stepwise"):
        checked = _checked(game, civ, [_misplaced(rng, game, line) for line in _random_lines(rng, game, civ)])
        accepted = [line for line in checked if line.ok]
        refused = refusals(resolve_alone(game, civ, [line.order for line in accepted]), civ)
        for line in accepted:
            reason = refused_line(refused, game, line)
            if reason is not None and not line.note:
                found.append(_disagreement(game, seed, civ, line.text, "OK", f"refused: {reason}"))
    return found


# Each ruleset's `take` classes and the cards each takes, by the pick events' names.
TAKE_CLASSES: dict[str, dict[str, Callable[[str], bool]]] = {
    "mare-nostrum": {"any": lambda card: True, "commodity": lambda card: card != "tax"},
}


def picks(events: Sequence[Event], civ: str) -> list[tuple[str, str]]:
    """The cards `civ` took in a trade, in order, each with the player it came from."""
    found = []
    for item in (e.to_data() for e in events):
        if item.get("kind") == "pick" and item.get("player") == civ:
            found.append((str(item.get("source")), str(item.get("card", item.get("token")))))
    return found


def explicit_against_default(game: Game, seed: int) -> list[Disagreement]:
    """Each class a `take` line may name chooses what the default would: `take any` every card
    the default takes, `take commodity` the default's card whenever that is a commodity."""
    found: list[Disagreement] = []
    classes = TAKE_CLASSES.get(game.settings.ruleset, {})
    if not classes or not any(picks(resolve_alone(game, civ, []), civ) for civ in game.playing()):
        return found
    for civ in game.playing():
        default = picks(resolve_alone(game, civ, []), civ)
        for name, member in classes.items():
            (checked,) = _checked(game, civ, [f"take {name}"])
            explicit = picks(resolve_alone(game, civ, [checked.order]), civ)
            if default and member(default[0][1]) and explicit[:1] != default[:1]:
                found.append(_disagreement(game, seed, civ, f"take {name}", f"default {default[0]}", f"{explicit[:1]}"))
    return found


def _disagreement(game: Game, seed: int, civ: str, line: str, shown: str, happened: str) -> Disagreement:
    label = game.phase_info.label
    return Disagreement(game.settings.ruleset, seed, str(label), civ, line, shown, happened)


def survey(ruleset: str, seeds: Sequence[int], phases: int, folder: Path) -> list[Disagreement]:
    found: list[Disagreement] = []
    for seed in seeds:
        rng = random.Random(seed)
        for game in positions(ruleset, seed, phases, folder / f"{ruleset}-{seed}"):
            found += form_against_engine(game, seed)
            found += receipt_against_engine(game, seed, rng)
            found += explicit_against_default(game, seed)
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_forms_and_receipts_say_what_the_engine_does(ruleset: str, tmp_path: Path) -> None:
    found = survey(ruleset, [1, 2], 7, tmp_path)
    assert not found, "\n".join(map(str, found[:20]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--phases", type=int, default=12)
    parser.add_argument("--ruleset", choices=RULESETS, action="append")
    args = parser.parse_args(argv)
    import tempfile

    found: list[Disagreement] = []
    with tempfile.TemporaryDirectory() as folder:
        for ruleset in args.ruleset or RULESETS:
            found += survey(ruleset, range(1, args.games + 1), args.phases, Path(folder))
    for item in found:
        print(item)
    print(f"{len(found)} disagreements")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())


# ---- The 2003 cases the issue found, each alone --------------------------------------


def _form_of(tmp_path: Path, opening: dict[str, Any], civ: str, *tweaks: Any) -> dict[str, str]:
    game = game_with(opening, combine(at_phase("build"), *tweaks), tmp_path)
    return {line.order: line.note for line in order_form(game, game.position, civ)}


@pytest.fixture(scope="module")
def opening(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return make_opening_state(tmp_path_factory)


def test_the_form_prices_a_piece_as_the_engine_charges_it_naming_the_card(
    tmp_path: Path, opening: dict[str, Any]
) -> None:
    """Issue 28: Rome holding Julius Caesar read `costs 3` for a legion and was charged 2."""
    rome = _form_of(tmp_path, opening, "Rome", holds("Rome", tax=3))
    assert rome["build legion in Roma"] == "costs 2 with Julius Caesar (R6.2)"
    assert rome["build fortress in Ravenna"] == "costs 2 with Julius Caesar (R6.2)"
    assert rome["build city in Ravenna at Ravenna"] == "costs 3 (R6.2)"
    greece = _form_of(tmp_path, opening, "Greece", holds("Greece", tax=3))
    assert greece["build trireme in Athenae"] == "costs 2 with Pericles (R6.2)"
    babylon = _form_of(tmp_path, opening, "Babylon", holds("Babylon", tax=3))
    assert next(note for order, note in babylon.items() if order.startswith("build influence")) == (
        "free: Hammurabi's first influence marker of the phase (R6.2)"
    )


def test_the_form_offers_only_what_the_hand_can_pay(tmp_path: Path, opening: dict[str, Any]) -> None:
    """Six cards with a commodity twice make no set of six: no temple, no market (R6.1)."""
    rome = _form_of(tmp_path, opening, "Rome", holds("Rome", tax=3, grain=2, perfume=1))
    assert "build legion in Roma" in rome
    assert not [order for order in rome if order.startswith(("build temple", "build market"))]
    rich = _form_of(tmp_path, opening, "Rome", holds("Rome", tax=6))
    assert rich["build temple in Roma"] == "costs 6 (R6.2)"
