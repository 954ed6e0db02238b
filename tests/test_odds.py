"""Battle odds on the order forms (issue 35): exact, and the engine's own. Each ruleset's odds are
held to its engine's battle run over every sequence of rolls (a small battle's dice, all 6^n of
them), and the notes say them as each form shows them."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.events import Event
from adjudicator.core.i18n import in_language
from adjudicator.game.game import Game
from adjudicator.rulesets.empires import combat as empires_combat
from adjudicator.rulesets.kit.odds import Odds, dice_sum, odds_note, percent
from adjudicator.rulesets.mare_nostrum import combat as mn_combat
from adjudicator.rulesets.mare_nostrum.components import Civ, ProvinceId, SeaId
from adjudicator.rulesets.mare_nostrum.working import Working
from adjudicator.rulesets.mediterraneum import war
from tests.empires_support import empires_board, opening_position
from tests.random_play import BOARD, RULESET


def shares(counted: Counter[int], total: int) -> Odds[int]:
    return {value: Fraction(n, total) for value, n in counted.items()}


def test_dice_sum_counts_every_face() -> None:
    faces = (0, 1, 1, 2, 2, 3)  # a board's dice table (Empires prints such faces)
    counted = Counter(sum(faces[r - 1] + 1 for r in rolls) + 4 for rolls in itertools.product(range(1, 7), repeat=3))
    assert dice_sum(3, faces, per_die=1, fixed=4) == shares(counted, 6**3)
    assert dice_sum(0, fixed=6) == {6: 1}


def test_a_chance_is_never_shown_as_none_or_certain_unless_it_is() -> None:
    assert [percent(Fraction(n)) for n in (0, 1)] == ["0", "100"]
    assert percent(Fraction(1, 1000)) == "<1" and percent(Fraction(999, 1000)) == ">99"
    assert percent(Fraction(1, 3)) == "33"
    note = odds_note([("Rome", {0: Fraction(1, 2), 1: Fraction(1, 2)}), ("Greece", {1: Fraction(1)})])
    assert in_language(note, "en") == "odds: Rome loses 0/1 (50/50 %), Greece loses 1 (100 %)"


# ---- Mare Nostrum (2003): R8.1-R8.2 ---------------------------------------------------------


def mn_working() -> Working:
    position, _ = RULESET.new_position(BOARD, ["Rome", "Carthage", "Greece", "Babylon", "Egypt"], ScriptedDice([]), {})
    return Working.of(position)


@pytest.mark.parametrize(
    ("rome", "greece", "pericles"), [(1, 1, False), (2, 1, True), (1, 3, False)], ids=["1v1", "2v1-pericles", "1v3"]
)
def test_2003_naval_odds_are_the_engine_s_over_every_roll(rome: int, greece: int, pericles: bool) -> None:
    sid = SeaId(next(iter(BOARD.seas)))
    rome_civ, greece_civ = Civ("Rome"), Civ("Greece")
    counted: dict[Civ, Counter[int]] = {rome_civ: Counter(), greece_civ: Counter()}
    for rolls in itertools.product(range(1, 7), repeat=rome + greece):
        w = mn_working()
        w.seas[sid] = Counter({rome_civ: rome, greece_civ: greece})
        w.players[greece_civ].cards = ["Pericles"] if pericles else []  # Greece begins with him
        events: list[Event] = []
        mn_combat.fight_sea(w, sid, rome_civ, greece_civ, ScriptedDice(list(rolls)), BOARD, events)
        counted[rome_civ][int(events[0].data["attacker_losses"])] += 1  # type: ignore[call-overload]
        counted[greece_civ][int(events[0].data["defender_losses"])] += 1  # type: ignore[call-overload]
    odds = mn_combat.battle_losses(
        rome_civ, greece_civ, {rome_civ: rome, greece_civ: greece}, {rome_civ: 0, greece_civ: 0},
        {rome_civ: 0, greece_civ: int(pericles)},
    )  # fmt: skip
    assert odds == {civ: shares(c, 6 ** (rome + greece)) for civ, c in counted.items()}


def test_2003_land_odds_count_fortresses_and_hannibal_as_the_engine_does() -> None:
    pid = ProvinceId(next(iter(BOARD.provinces)))
    carthage, egypt = Civ("Carthage"), Civ("Egypt")
    counted: dict[Civ, Counter[int]] = {carthage: Counter(), egypt: Counter()}
    for rolls in itertools.product(range(1, 7), repeat=3):
        w = mn_working()
        province = w.provinces[pid]
        province.legions = Counter({carthage: 2, egypt: 1})
        province.fortresses = Counter({egypt: 1})
        w.players[carthage].cards = ["Hannibal"]
        events: list[Event] = []
        mn_combat.fight_land(w, BOARD, pid, carthage, egypt, ScriptedDice(list(rolls)), {}, events, cause="test")
        battle = events[0].data
        counted[carthage][sum(battle["attacker_losses"].values())] += 1  # type: ignore[union-attr]
        counted[egypt][sum(battle["defender_losses"].values())] += 1  # type: ignore[union-attr]
    odds = mn_combat.battle_losses(
        carthage, egypt, {carthage: 2, egypt: 1}, {carthage: 0, egypt: 1}, {carthage: 1, egypt: 0}
    )
    assert odds == {civ: shares(c, 6**3) for civ, c in counted.items()}


# ---- Mare Nostrum: Empires (2016): E8.1-E8.3 ------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (empires_combat.Side("Rome", 2), empires_combat.Side("Greece", 1, fortress=True)),
        (empires_combat.Side("Greece", 1), empires_combat.Side("Rome", 1)),
        (empires_combat.Side("Carthage", 3), empires_combat.Side("Egypt", 0, fortress=True)),
    ],
    ids=["fortress", "one-each", "fortress-alone"],
)
def test_empires_land_odds_are_the_engine_s_over_every_roll(
    attacker: empires_combat.Side, defender: empires_combat.Side
) -> None:
    board, position = empires_board(), opening_position()
    place = next(iter(board.provinces))
    dice = sum(
        empires_combat.side_dice(board, position, side, role, place, "legion").count
        for side, role in ((attacker, "attack"), (defender, "defence"))
    )
    counted: dict[str, Counter[int]] = {attacker.empire: Counter(), defender.empire: Counter()}
    for rolls in itertools.product(range(1, 7), repeat=dice):
        on_attacker, on_defender, _ = empires_combat.fight(
            board, position, attacker, defender, place, ScriptedDice(list(rolls))
        )
        counted[attacker.empire][empires_combat.units_lost(attacker, on_attacker)] += 1
        counted[defender.empire][empires_combat.units_lost(defender, on_defender)] += 1
    odds = empires_combat.battle_losses(board, position, attacker, defender, place)
    assert odds == {empire: shares(c, 6**dice) for empire, c in counted.items()}


def test_empires_naval_odds_count_the_heroes_dice() -> None:
    """Whatever heroes the opening dealt (their extra dice and bonuses), the odds roll what fight rolls."""
    board, position = empires_board(), opening_position()
    sea = next(iter(board.seas))
    attacker, defender = empires_combat.Side("Greece", 1), empires_combat.Side("Rome", 1)
    dice = sum(
        empires_combat.side_dice(board, position, side, role, sea, "trireme").count
        for side, role in ((attacker, "attack"), (defender, "defence"))
    )
    counted: dict[str, Counter[int]] = {"Greece": Counter(), "Rome": Counter()}
    for rolls in itertools.product(range(1, 7), repeat=dice):
        on_attacker, on_defender, _ = empires_combat.fight(
            board, position, attacker, defender, sea, ScriptedDice(list(rolls))
        )
        counted["Greece"][empires_combat.units_lost(attacker, on_attacker)] += 1
        counted["Rome"][empires_combat.units_lost(defender, on_defender)] += 1
    assert empires_combat.battle_losses(board, position, attacker, defender, sea) == {
        empire: shares(c, 6**dice) for empire, c in counted.items()
    }


# ---- Mare Mediterraneum (1989): M8.4, M10.1 --------------------------------------------------


@pytest.mark.parametrize(("attack", "defend"), [(0, 0), (1, 0), (0, 2), (2, 1)])
def test_mediterraneum_field_odds_are_the_duel_s_over_every_roll(attack: int, defend: int) -> None:
    """Every first pair of blue dice; a tie is rolled again (any second pair that is no tie will do:
    the duel's outcome is then that pair's), so the odds are the non-tied pairs' shares."""
    counted: Counter[war.FieldOutcome] = Counter()
    for mine, theirs in itertools.product(range(1, 7), repeat=2):
        rolls = [mine, theirs] if mine + attack != theirs + defend else [mine, theirs, 6, 1]
        margin = war.duel(ScriptedDice(rolls), attack, defend, "test")
        if mine + attack != theirs + defend:
            counted[war.field_outcome(margin)] += 1
    decided = sum(counted.values())
    assert war.field_odds(attack, defend) == {o: Fraction(n, decided) for o, n in counted.items()}


def test_mediterraneum_city_odds_follow_the_need() -> None:
    assert war.city_odds(5) == {
        war.CityOutcome.ARMY_LOST: Fraction(1, 6),
        war.CityOutcome.HELD: Fraction(3, 6),
        war.CityOutcome.TAKEN: Fraction(2, 6),
    }
    assert war.city_odds(2)[war.CityOutcome.TAKEN] == Fraction(5, 6), "a 1 always fails (MD22)"


def test_mediterraneum_capture_odds_fight_each_guard_then_roll() -> None:
    from adjudicator.rulesets.mediterraneum import navy

    alone = navy.capture_odds(0)
    rolled = Counter(navy.capture_result(navy.capture_total(roll, 0)) for roll in range(1, 7))
    assert alone == {o: Fraction(n, 6) for o, n in rolled.items()}
    guarded = navy.capture_odds(1)
    assert sum(guarded.values()) == 1
    assert guarded[navy.CaptureOutcome.CAPTURED] == Fraction(1, 6), "past the guard (10 of 30), then 4+ (1 in 2)"
    assert guarded[navy.CaptureOutcome.SHIP_SUNK] == Fraction(1, 3)
    assert guarded[navy.CaptureOutcome.REPELLED] == Fraction(1, 3)


# ---- the forms ------------------------------------------------------------------------------


def test_the_demo_forms_give_each_battle_its_odds(demo_played: pytest.FixtureRequest) -> None:
    """In the 2003 demo's T3 military phase, each attack line of the form carries its odds, and they
    read in the player's language."""
    from adjudicator.reports.phase import load_record

    game = Game.load(Path(demo_played("mare-nostrum")))  # type: ignore[operator]
    record = load_record(game, "009-T03-military")
    position = game.ruleset.position_from_data(game.board, record.before)
    lines = game.ruleset.form_candidates(game.board, position, "Rome")
    naval = next(note for text, note in lines if text == "attack Greece in Mare Ionium")
    assert in_language(naval, "en") == (
        "a naval battle (R8); odds: Rome loses 0/1 (50/50 %), Greece loses 0/1 (67/33 %)"
    ), "Greece's Pericles adds 1 to its die: it sinks Rome's trireme on 4, 5 or 6"
    assert in_language(naval, "pl").startswith("bitwa morska (R8); szanse: Rome traci 0/1 (50/50%)")
    attacks = [note for text, note in lines if " attack " in f" {text} "]
    assert attacks and all("odds:" in in_language(note, "en") for note in attacks)
