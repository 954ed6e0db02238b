"""Empires trade (E5), rule by rule, with orders as values (the grammar comes later)."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.events import Event
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.empires.orders import Give, Offer, Order, Take, TradeSide
from adjudicator.rulesets.empires.setup import new_position
from adjudicator.rulesets.empires.trade import resolve_trade
from adjudicator.rulesets.kit.payment import TAX
from tests.empires_support import FIVE, empires_board, opening_position


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


@pytest.fixture
def opening() -> Position:
    return opening_position()


def trade(
    board: Board, position: Position, orders: dict[str, list[Order]] | None = None
) -> tuple[Position, list[Event]]:
    return resolve_trade(board, position, orders or {}, ScriptedDice([3, 4, 2, 5, 1, 6] * 30))


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def total(position: Position, empire: str) -> int:
    return position.players[empire].holding


@pytest.mark.parametrize(
    ("used", "expected"), [((), 3), ((2,), 4), ((2, 1), 5), ((2, 1, 0), 3)], ids=["fresh", "one", "two", "all-free"]
)
def test_ed4_e5_7_without_an_order_the_free_side_nearest_three(
    board: Board, opening: Position, used: tuple[int, ...], expected: int
) -> None:
    after, events = trade(board, replace(opening, tokens_used=used))
    assert after.trade_size == expected == kinds(events, "trade_side")[0].data["size"]
    assert len(after.tokens_used) == (1 if len(used) == 3 else len(used) + 1), "E5.7: all three free again"


def test_e5_1_the_master_chooses_a_side_of_a_token_he_holds(board: Board, opening: Position) -> None:
    after, events = trade(board, opening, {"Carthage": [TradeSide(1)]})
    assert after.trade_size == 1 and kinds(events, "trade_side")[0].data["why"] == "his order"
    again, events = trade(board, replace(after, trade_size=None), {"Carthage": [TradeSide(4)]})
    assert again.trade_size != 4 and "4 is on no token he still holds" in str(kinds(events, "trade_side")[0].data)


def test_e5_2_a_player_short_of_the_size_sits_out(board: Board, opening: Position) -> None:
    poor = replace(opening.players["Greece"], resources=MappingProxyType({TAX: 2}))
    position = replace(opening, players={**opening.players, "Greece": poor})
    after, events = trade(board, position, {"Carthage": [TradeSide(5)]})
    assert [e.data["player"] for e in kinds(events, "trade_sits_out")] == ["Greece"]
    assert dict(after.players["Greece"].resources) == {TAX: 2}


def test_e5_3_ranked_offers_then_the_dice(board: Board, opening: Position) -> None:
    rome = opening.players["Rome"]
    first = sorted(rome.resources)[0]
    _, events = trade(board, opening, {"Carthage": [TradeSide(2)], "Rome": [Offer(("gold", first))]})
    offered = kinds(events, "offers")[0].data["offers"]
    assert isinstance(offered, dict) and offered["Rome"][0] == first, "gold is not Rome's: the next ranked token"
    assert len(offered["Rome"]) == 2 and any(e.data["player"] == "Rome" for e in kinds(events, "offer_by_dice"))


def test_e5_4_e5_5_everyone_ends_with_as_many_tokens(board: Board, opening: Position) -> None:
    after, events = trade(board, opening, {"Carthage": [TradeSide(3)]})
    assert {e: total(after, e) for e in FIVE} == {e: total(opening, e) for e in FIVE}
    picks = kinds(events, "pick")
    assert picks[0].data["player"] == "Carthage", "E5.4: the Master takes first"
    for before, after_pick in itertools.pairwise(picks):
        assert after_pick.data["player"] == before.data["source"], "the player taken from picks next"
    assert len(kinds(events, "evening_out")) == 1


def test_e5_4_e5_6_two_players_make_one_round_trip_and_keep_the_rest(board: Board) -> None:
    two, _ = new_position(board, ("Rome", "Greece", "Carthage"), ScriptedDice([1] * 60))
    poor = replace(two.players["Greece"], resources=MappingProxyType({TAX: 1}))
    position = replace(two, players={**two.players, "Greece": poor}, titles={**two.titles, Title.COMMERCE: "Rome"})
    after, events = trade(board, position, {"Rome": [TradeSide(3)]})
    picks = [(e.data["player"], e.data["source"]) for e in kinds(events, "pick")]
    assert picks == [("Rome", "Carthage"), ("Carthage", "Rome")]
    assert kinds(events, "trade_end")[0].data["rule"] == "E5.6"
    assert {e.data["player"] for e in kinds(events, "trade_return")} == {"Rome", "Carthage"}
    assert total(after, "Rome") == total(position, "Rome") and total(after, "Carthage") == total(position, "Carthage")


def test_ed18_the_default_pick_is_a_good_he_lacks(board: Board, opening: Position) -> None:
    _, events = trade(board, opening, {"Carthage": [TradeSide(3)]})
    first = kinds(events, "pick")[0]
    assert first.data["why"] == "default (ED18)"
    assert not opening.players["Carthage"].goods(str(first.data["token"]))


def test_e5_4_a_take_line_is_used_once(board: Board, opening: Position) -> None:
    rome_goods = [g for g in opening.players["Rome"].resources if g != TAX]
    orders: dict[str, list[Order]] = {
        "Carthage": [TradeSide(3), Take(rome_goods[0], "Rome", line=2)],
        "Rome": [Offer(tuple(rome_goods[:3]))],
    }
    _, events = trade(board, opening, orders)
    first = kinds(events, "pick")[0]
    assert (first.data["source"], first.data["token"], first.data["why"]) == ("Rome", rome_goods[0], "line 2")


def test_ed8_a_legendary_good_trades_as_its_kind_and_stays_legendary(board: Board, opening: Position) -> None:
    rome = opening.players["Rome"]
    rich = replace(rome, resources=MappingProxyType({TAX: 1}), legendary=MappingProxyType({"gold": 2}))
    position = replace(opening, players={**opening.players, "Rome": rich})
    after, events = trade(board, position, {"Carthage": [TradeSide(2)], "Rome": [Offer(("gold", "gold"))]})
    offered = kinds(events, "offers")[0].data["offers"]
    assert isinstance(offered, dict) and offered["Rome"] == ["legendary gold", "legendary gold"]
    legendary_total = sum(sum(p.legendary.values()) for p in after.players.values())
    assert legendary_total == 2


def test_e5_5_the_master_gives_by_his_give_line(board: Board, opening: Position) -> None:
    ranked = (*board.commodities, TAX)  # he holds one of these after the chain, whatever it took
    _, events = trade(board, opening, {"Carthage": [TradeSide(3), Give(ranked)]})
    (gift,) = kinds(events, "evening_out")
    assert gift.data["why"] == "his give line" and gift.data["token"] in ranked
    assert Counter(e.kind for e in events)["pick"] >= 4
