"""The hero and wonder effects of E11.1 not covered elsewhere, one case each: battle bonus, extra
die, auto convert, legion as caravan, trade choice, first when winning."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.military import resolve_military
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import Conquest, Move, Offer, TradeSide, TurnOrder
from adjudicator.rulesets.empires.production import produce
from adjudicator.rulesets.empires.purchase import purchase_order
from adjudicator.rulesets.empires.trade import resolve_trade
from adjudicator.rulesets.kit.payment import TAX
from tests.empires_support import empires_board, opening_position


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


def tiles(position: Position, empire: str, *names: str) -> Position:
    """The empire owns exactly these tiles (the others keep none: heroes aside)."""
    players = {e: replace(p, tiles=names if e == empire else ()) for e, p in position.players.items()}
    return replace(position, players=players)


def legions(position: Position, pid: str, **counts: int) -> Position:
    province = replace(position.provinces[pid], legions=MappingProxyType(counts), fortress=None)
    return replace(position, provinces={**position.provinces, pid: province})


def battle_totals(board: Board, position: Position) -> tuple[int, int, int]:
    _, events = resolve_military(board, position, {"Rome": [Move(1, "dalmatia", "macedonia")]}, ScriptedDice([4] * 8))
    battle = next(e for e in events if e.kind == "battle")  # Rome's attack (Greece may strike back, ED14)
    return int(battle.data["attacker_total"]), int(battle.data["defender_total"]), len(battle.data["defender_dice"])  # type: ignore[arg-type]


def test_battle_bonus_adds_to_the_total_in_his_own_province(board: Board) -> None:
    """Nebuchadnezzar: +5 in a battle in his own province, with a legion there."""
    position = legions(legions(opening_position(), "macedonia", Greece=1), "dalmatia", Rome=1)
    plain = battle_totals(board, tiles(position, "Greece"))
    bonus = battle_totals(board, tiles(position, "Greece", "Nebuchadnezzar"))
    assert bonus[1] == plain[1] + 5


def test_extra_die_rolls_one_more_die(board: Board) -> None:
    """Ramesses II: one extra die in his battles."""
    position = legions(legions(opening_position(), "macedonia", Greece=1), "dalmatia", Rome=1)
    assert battle_totals(board, tiles(position, "Greece", "Ramesses II"))[2] == 2
    assert battle_totals(board, tiles(position, "Greece"))[2] == 1


def test_auto_convert_changes_the_marker_at_once(board: Board) -> None:
    """Queen of Sheba: the conversion needs no waiting (E8.8)."""
    position = tiles(legions(legions(opening_position(), "macedonia"), "dalmatia", Rome=1), "Rome", "Queen of Sheba")
    orders = {"Rome": [Move(1, "dalmatia", "macedonia"), Conquest("convert", "macedonia")]}
    rome_land = replace(position.provinces["dalmatia"], influence="Rome")
    position = replace(position, provinces={**position.provinces, "dalmatia": rome_land})
    after, events = resolve_military(board, position, orders, ScriptedDice([1] * 8))
    assert after.provinces["macedonia"].influence == "Rome"
    assert [e.data["rule"] for e in events if e.kind == "converted"] == ["E11.1"]


def test_legion_as_caravan_yields_the_good_of_an_unbuilt_site(board: Board) -> None:
    """Circe: Rome's legion in Gallia, where every caravan site is built, yields nothing more;
    in Italia, with an unbuilt metal site, it yields one metal."""
    position = tiles(opening_position(), "Rome", "Circe")
    position = legions(position, "italia", Rome=1)
    empty = replace(
        position, players={e: replace(p, resources=MappingProxyType({})) for e, p in position.players.items()}
    )
    without, _ = produce(board, tiles(empty, "Rome"), ScriptedDice([1] * 20))
    with_circe, _ = produce(board, empty, ScriptedDice([1] * 20))
    free = [g for g in board.provinces["italia"].caravans if g not in position.provinces["italia"].caravans]
    assert free, "Italia has an unbuilt caravan site on the reconstructed board"
    assert with_circe.players["Rome"].resources.get(free[0], 0) == without.players["Rome"].resources.get(free[0], 0) + 1


def test_trade_choice_puts_up_only_what_he_lists(board: Board) -> None:
    """Antigone: Rome offers one token where the side says three, and stays in the chain."""
    position = tiles(opening_position(), "Rome", "Antigone")
    orders = {"Carthage": [TradeSide(3)], "Rome": [Offer((TAX,))]}
    _, events = resolve_trade(board, position, orders, ScriptedDice([3, 4, 2, 5] * 20))
    (offers,) = [e for e in events if e.kind == "offers"]
    assert offers.data["offers"]["Rome"] == [TAX]  # type: ignore[index]
    assert not [e for e in events if e.kind == "offer_by_dice" and e.data["player"] == "Rome"]


def test_first_when_winning_buys_first_when_his_tokens_could_win(board: Board) -> None:
    """Perseus: Carthage, able to pay the Pyramids, buys before the Political Leader's order."""
    position = tiles(replace(opening_position(), phase=Phase.PURCHASE), "Carthage", "Perseus")
    rich = replace(position.players["Carthage"], resources=MappingProxyType({TAX: 12}))
    position = replace(position, players={**position.players, "Carthage": rich})
    leader = position.titles[Title.POLITICAL]
    order = purchase_order(position, {leader or "": [TurnOrder(("Rome",))]}, board)
    assert order[0] == "Carthage"
    poor = replace(rich, resources=MappingProxyType({TAX: 2}))
    assert purchase_order(replace(position, players={**position.players, "Carthage": poor}), {}, board)[0] != "Carthage"
