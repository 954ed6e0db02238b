"""Empires military phase (E7, E8), rule by rule, with orders as values; E8.2's worked example is
a case of its own."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.events import Event
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.military import military_order, resolve_military
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.empires.orders import Conquest, Move, NavalAttack, Order, Sail, Standing, TurnOrder
from adjudicator.rulesets.kit.payment import TAX
from tests.empires_support import empires_board, opening_position

Orders = dict[str, list[Order]]


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


@pytest.fixture
def opening() -> Position:
    return opening_position()


def heroless(position: Position) -> Position:
    """Heroes aside, as E8.2's example says."""
    return replace(position, players={e: replace(p, tiles=()) for e, p in position.players.items()})


def units(position: Position, pid: str, **legions: int) -> Position:
    province = replace(position.provinces[pid], legions=MappingProxyType({e: n for e, n in legions.items() if n}))
    return replace(position, provinces={**position.provinces, pid: province})


def fleet(position: Position, sid: str, **triremes: int) -> Position:
    sea = replace(position.seas[sid], triremes=MappingProxyType({e: n for e, n in triremes.items() if n}))
    return replace(position, seas={**position.seas, sid: sea})


def fight(board: Board, position: Position, orders: Orders, rolls: list[int]) -> tuple[Position, list[Event]]:
    return resolve_military(board, position, orders, ScriptedDice(rolls))


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def test_e7_1_the_military_leader_orders_the_turns(opening: Position) -> None:
    assert military_order(opening, {"Rome": [TurnOrder(("Egypt",))]}) == [
        "Egypt",
        "Rome",
        "Greece",
        "Babylon",
        "Carthage",
    ]


def test_e8_2_worked_example_three_legions_against_one_and_a_fortress(board: Board, opening: Position) -> None:
    """Three Roman legions roll 4, 5 and 2 (11: two hits) against a Greek legion rolling 3 with a
    fortress (8: one hit); the fortress cancels one Roman hit; each side loses a legion, and the
    province is at war. Land dice show 0-5 (ED5): rolls 5, 6, 3 give 4, 5, 2; a 4 gives 3."""
    position = units(heroless(opening), "macedonia", Greece=1)
    macedonia = replace(position.provinces["macedonia"], fortress="Greece")
    position = replace(position, provinces={**position.provinces, "macedonia": macedonia})
    position = units(position, "dalmatia", Rome=3)
    after, events = fight(board, position, {"Rome": [Move(3, "dalmatia", "macedonia")]}, [5, 6, 3, 4])
    (battle,) = of(events, "battle")
    assert (battle.data["attacker_total"], battle.data["defender_total"]) == (11, 8)
    assert (battle.data["attacker_hits"], battle.data["defender_hits"]) == (1, 1), "the fortress cancels one hit"
    assert dict(after.provinces["macedonia"].legions) == {"Rome": 2}, "each side loses a legion"
    assert after.provinces["macedonia"].fortress == "Greece" and after.provinces["macedonia"].at_war, "E8.4"


def test_e8_1_caesar_adds_one_to_each_attacking_die(board: Board, opening: Position) -> None:
    position = units(units(opening, "dalmatia", Rome=2), "macedonia", Greece=0)
    greek = replace(position.provinces["macedonia"], legions=MappingProxyType({"Greece": 1}), fortress=None)
    position = replace(position, provinces={**position.provinces, "macedonia": greek})
    _, events = fight(board, position, {"Rome": [Move(2, "dalmatia", "macedonia")]}, [3, 3, 1])
    (battle,) = of(events, "battle")
    assert battle.data["attacker_total"] == 2 + 2 + 2 and "+1 a die" in str(battle.data["attacker_notes"])
    assert battle.data["defender_total"] == 0 + 2, "Pericles: +2 a legion die defending"


def test_e8_5_ed14_walking_into_an_empty_enemy_province_conquers_it_and_occupies(
    board: Board, opening: Position
) -> None:
    position = units(units(heroless(opening), "macedonia"), "dalmatia", Rome=2)
    macedonia = replace(position.provinces["macedonia"], fortress=None)
    position = replace(position, provinces={**position.provinces, "macedonia": macedonia})
    after, events = fight(board, position, {"Rome": [Move(2, "dalmatia", "macedonia")]}, [1] * 10)
    assert not of(events, "battle") and of(events, "conquest")
    province = after.provinces["macedonia"]
    assert province.conqueror == "Rome" and province.influence == "Greece"
    assert len([b for b, who in province.occupied.items() if who == "Rome"]) == 2, "ED14: default occupy"


def test_e8_6_sacking_a_caravan_gains_its_good(board: Board, opening: Position) -> None:
    position = units(units(heroless(opening), "macedonia"), "dalmatia", Rome=1)
    macedonia = replace(position.provinces["macedonia"], fortress=None)
    position = replace(position, provinces={**position.provinces, "macedonia": macedonia})
    good = position.provinces["macedonia"].caravans[0]
    orders: Orders = {"Rome": [Move(1, "dalmatia", "macedonia"), Conquest("sack", "macedonia", (f"caravan:{good}",))]}
    after, events = fight(board, position, orders, [1] * 10)
    assert of(events, "sack")[0].data["gained"] == {good: 1}
    assert after.players["Rome"].resources.get(good, 0) == opening.players["Rome"].resources.get(good, 0) + 1
    assert (
        list(after.provinces["macedonia"].caravans).count(good)
        == list(position.provinces["macedonia"].caravans).count(good) - 1
    )


def test_e8_8_ed15_a_conversion_takes_effect_at_his_next_military_turn(board: Board, opening: Position) -> None:
    position = units(units(heroless(opening), "macedonia"), "dalmatia", Rome=1)
    macedonia = replace(position.provinces["macedonia"], fortress=None)
    position = replace(position, provinces={**position.provinces, "macedonia": macedonia})
    orders: Orders = {"Rome": [Move(1, "dalmatia", "macedonia"), Conquest("convert", "macedonia")]}
    after, _ = fight(board, position, orders, [1] * 10)
    assert after.provinces["macedonia"].converting == "Rome" and after.provinces["macedonia"].influence == "Greece"
    rome_land = replace(after.provinces["dalmatia"], influence="Rome")
    next_round = replace(after, round=after.round + 1, provinces={**after.provinces, "dalmatia": rome_land})
    later, events = fight(board, next_round, {}, [1] * 10)
    assert later.provinces["macedonia"].influence == "Rome" and of(events, "converted")


def test_e8_5_an_enemy_arriving_ends_the_conquest(board: Board, opening: Position) -> None:
    conquered = replace(
        opening.provinces["dacia"], influence="Greece", legions=MappingProxyType({"Rome": 1}), conqueror="Rome"
    )
    position = units(
        replace(heroless(opening), provinces={**opening.provinces, "dacia": conquered}), "thracia", Greece=1
    )
    after, _ = fight(board, position, {"Greece": [Move(1, "thracia", "dacia")]}, [1, 1, 1, 1])
    assert after.provinces["dacia"].conqueror is None and after.provinces["dacia"].at_war


def test_e7_2_triremes_sail_one_sea_then_a_named_naval_battle(board: Board, opening: Position) -> None:
    position = fleet(fleet(heroless(opening), "mare-ionium", Greece=1), "mare-tyrrhenum", Rome=2)
    orders: Orders = {
        "Rome": [
            Sail(2, "mare-tyrrhenum", "mare-ionium", line=1),
            Sail(1, "mare-ionium", "mare-aegaeum", line=2),
            NavalAttack("Greece", "mare-ionium", line=3),
        ]
    }
    after, events = fight(board, position, orders, [6, 6, 1])
    assert [e.data["reason"] for e in of(events, "order_skipped")] == [
        "E7.2: only 0 of your triremes in Mare Ionium can still move"
    ], "each trireme moves once"
    (battle,) = of(events, "battle")
    assert battle.data["at"] == "sea" and battle.data["attacker_total"] == 5 + 5
    assert "Greece" not in after.seas["mare-ionium"].triremes and after.seas["mare-ionium"].triremes["Rome"] == 2


def test_e8_4_a_naval_draw_changes_nothing(board: Board, opening: Position) -> None:
    position = fleet(heroless(opening), "mare-ionium", Greece=1, Rome=1)
    after, events = fight(board, position, {"Rome": [NavalAttack("Greece", "mare-ionium")]}, [2, 2])
    assert dict(after.seas["mare-ionium"].triremes) == {"Greece": 1, "Rome": 1} and of(events, "battle")


def test_e7_3_legions_cross_the_sea_along_their_own_triremes(board: Board, opening: Position) -> None:
    position = fleet(units(heroless(opening), "italia", Rome=1), "mare-tyrrhenum")  # Rome's start trireme gone
    _, events = fight(board, position, {"Rome": [Move(1, "italia", "sicilia")]}, [1] * 6)
    assert of(events, "order_skipped")[0].data["reason"].startswith("E7.3: Sicilia is neither next to Italia")
    chained = fleet(position, "mare-ionium", Rome=1)
    after, events = fight(board, chained, {"Rome": [Move(1, "italia", "sicilia")]}, [1] * 6)
    assert after.provinces["sicilia"].legions == {"Rome": 1} and of(events, "move")[0].data["by"] == "sea"


def test_e11_impose_peace_keeps_two_players_apart(board: Board, opening: Position) -> None:
    position = units(units(heroless(opening), "dalmatia", Rome=1), "macedonia", Greece=1)
    greece = replace(position.players["Greece"], tiles=("Statue of Zeus",))
    position = replace(position, players={**position.players, "Greece": greece})
    orders: Orders = {"Greece": [Standing("peace", "Rome")], "Rome": [Move(1, "dalmatia", "macedonia")]}
    after, events = fight(board, position, orders, [1] * 6)
    assert of(events, "order_skipped")[0].data["reason"].startswith("E11.1: peace is imposed")
    assert after.provinces["dalmatia"].legions == {"Rome": 1}


def test_ed16_choices_for_claims_and_production_are_kept(board: Board, opening: Position) -> None:
    orders: Orders = {"Rome": [Standing("title:military", "Greece"), Standing("legendary", "good", place="asia")]}
    after, _ = fight(board, opening, orders, [1])
    assert after.standing["Rome"] == {"title:military": "Greece", "legendary:asia": "good"}
    assert TAX in after.players["Rome"].resources
