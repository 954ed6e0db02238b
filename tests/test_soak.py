"""The soak test (issue 11): random whole games through the functions the CLI calls, with every
invariant checked after every phase (tests/soak.py says what is played and checked).

CI plays 12 games on two processes (seeds 1-12, within CI's 15 minutes), 2 of them Mare Nostrum:
Empires games (seeds 5, 11) and 3 Mare Mediterraneum games (seeds 2, 3, 8; 3 from an imported
position); each stop plays a longer soak first (python -m tests.soak --games 40). A seed's language
is LANGS[seed % 6]: two in six games are English, the others pl, hu, fr, es. In two games of three
(seeds not divisible by 3) the players now and then click their orders together from their order
pages.
Environment variables:
- ADJUDICATOR_SOAK_GAMES=500: a long soak (ADJUDICATOR_SOAK_FIRST=N starts at seed N, default 1);
- ADJUDICATOR_SOAK_SEED=N: only the game with seed N, in this process (as a failure message says);
- ADJUDICATOR_SOAK_JOBS=N: processes (default 2, or 1 on a one-processor machine).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests import soak

GAMES = int(os.environ.get("ADJUDICATOR_SOAK_GAMES", "12"))
FIRST = int(os.environ.get("ADJUDICATOR_SOAK_FIRST", "1"))
JOBS = int(os.environ.get("ADJUDICATOR_SOAK_JOBS", str(min(2, os.cpu_count() or 1))))
SEED = os.environ.get("ADJUDICATOR_SOAK_SEED")


def test_random_whole_games_keep_every_invariant(tmp_path: Path) -> None:
    if SEED is not None:  # one game alone: a failure raises SoakFailure with the whole story
        result = soak.play_game(soak.Params.from_seed(int(SEED)), tmp_path)
        assert result.adjudications or result.winner, f"seed {SEED} adjudicated nothing"
        return
    started = time.monotonic()
    results = soak.run_games(soak.seeds(GAMES, FIRST), JOBS)
    report = soak.summary(results, time.monotonic() - started)
    assert not any(r.failure for r in results), report
    assert sum(r.adjudications for r in results) >= GAMES, f"the games hardly ran:\n{report}"


def test_the_ci_slice_plays_empires_games_and_the_same_2003_games_as_before() -> None:
    """The ruleset is drawn after everything else: a 2003 game's parameters are what they were
    before Empires games came into the soak (but those that became Mediterraneum games), and
    seeds 1-20 hold a few Empires and Mediterraneum games, some of these from a mid-game position."""
    params = [soak.Params.from_seed(seed) for seed in soak.seeds(20)]
    assert [p.seed for p in params if p.empires] == [5, 11, 18, 19]
    assert [p.seed for p in params if p.mediterraneum] == [2, 3, 8, 13, 15, 16, 17]
    assert [p.seed for p in params if p.mediterraneum and p.setup == "position"] == [3, 13, 17]
    for p in params:
        if p.mediterraneum:
            assert set(p.civs) <= set(soak.COLOURS) and 2 <= len(p.civs) <= 6 and p.turns >= 5, p
    first = "4 players (Babylon, Egypt, Greece, Carthage), mode batch, setup advanced, roles_each turn, 4 turns"
    assert str(params[0]) == first, "seed 1 plays the game it played before"
    for p in params:
        if p.empires:
            assert set(p.civs) == set(soak.EMPIRES_CIVS[: len(p.civs)]) and p.setup == "basic", p
    assert {p.lang for p in params} == {"en", "pl", "hu", "fr", "es"}, "each language is played (issue 18)"
    assert {p.lang for p in params if p.mediterraneum} >= {"pl", "hu", "fr"}


def test_the_soak_sees_a_building_under_another_players_units() -> None:
    """The R6.3 invariant can fail: a caravan that appears beside an Egyptian legion."""
    import copy

    from adjudicator.core.dice import ScriptedDice
    from tests.random_play import BOARD, RULESET
    from tests.soak_invariants import transition_problems

    position, _ = RULESET.new_position(BOARD, ["Rome", "Carthage", "Greece", "Babylon", "Egypt"], ScriptedDice([]), {})
    before = RULESET.position_to_data(position)
    before["phase"] = "build"
    before["provinces"]["hierosolyma"].update(influence="Babylon", legions={"Egypt": 1})
    after = copy.deepcopy(before)
    after["phase"] = "military"

    def building_problems() -> list[str]:
        return [p for p in transition_problems(before, after) if p.startswith("R6.3")]

    assert building_problems() == []
    after["provinces"]["hierosolyma"]["caravans"] = ["oil"]
    assert building_problems() == ["R6.3: Babylon built in hierosolyma under the units of ['Egypt']"]


def test_the_soak_sees_a_lost_card_and_a_crowded_sea_in_mediterraneum() -> None:
    """The Mediterraneum invariants can fail: a trade card gone from the game, four ships in a
    sea, an army aboard a ship its owner has not."""
    import dataclasses

    from adjudicator.core.dice import ChainDice
    from adjudicator.game.game import default_board_path, load_board
    from adjudicator.rulesets import find_ruleset
    from adjudicator.rulesets.mediterraneum.model import Army, Ship
    from tests.soak_invariants import mediterraneum_position_problems

    ruleset = find_ruleset("mediterraneum")
    board = load_board(ruleset, default_board_path(ruleset))
    dice = ChainDice("soak-test", 0, bytes(32), root=bytes(32))
    opening, _ = ruleset.new_position(board, ["Red", "Blue"], dice, {})
    assert mediterraneum_position_problems(board, opening) == []
    decks = dataclasses.replace(opening.decks, trade=opening.decks.trade[1:])
    lost = opening.decks.trade[0]
    sea = next(iter(board.seas))
    ships = tuple(Ship("Red", n, sea) for n in range(1, 5))
    broken = dataclasses.replace(opening, decks=decks, ships=ships, armies=(Army("Blue", 1, "ship:1"),))
    problems = mediterraneum_position_problems(board, broken)
    assert f"M1.3: 4 ships in {sea}" in problems
    assert any(p.startswith("M11.1: ") and lost in p for p in problems)
    assert "M9.1: Blue's army 1 is aboard ship ship:1, which he has not" in problems
