"""The Empires phase machine over whole games: phases in order, stepwise turns, and the
invariants every position keeps while random orders are played."""

from __future__ import annotations

import random

import pytest

from adjudicator.core.dice import ChainDice, ScriptedDice
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.engine import resolve_phase
from adjudicator.rulesets.empires.model import Phase, Position
from adjudicator.rulesets.empires.orders import Build, Buy, Move, Offer, Order, Sail, Take, TradeSide
from adjudicator.rulesets.empires.phases import due
from adjudicator.rulesets.empires.setup import new_position
from adjudicator.rulesets.kit.payment import TAX
from tests.empires_support import FIVE, empires_board
from tests.soak_invariants import empires_position_problems


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


def random_orders(rng: random.Random, board: Board, position: Position, empire: str) -> list[Order]:
    mine = [pid for pid, p in position.provinces.items() if p.influence == empire]
    orders: list[Order] = []
    if position.phase is Phase.TRADE:
        goods = sorted(position.players[empire].resources)
        orders += [TradeSide(rng.randint(0, 5)), Offer(tuple(rng.sample(goods, min(len(goods), 3))))]
        orders += [Take(rng.choice(["any", "good", TAX, *board.commodities]))]
    elif position.phase is Phase.PURCHASE:
        for _ in range(rng.randint(0, 4)):
            place = rng.choice(mine) if mine else "latium"
            piece = rng.choice(["legion", "legion", "influence", "fortress", "caravan", "market", "city", "temple"])
            if piece == "influence":
                place = rng.choice(board.provinces[place].land or (place,))
            good = (
                rng.choice(board.provinces[place].caravans)
                if piece == "caravan" and board.provinces[place].caravans
                else None
            )
            orders.append(Build(piece, place, good=good))
        if position.track and rng.random() < 0.2:
            orders.append(Buy(rng.choice(position.track)))
        if rng.random() < 0.3:
            coast = [s for pid in mine for s in board.provinces[pid].seas]
            if coast:
                orders.append(Build("trireme", rng.choice(coast)))
    else:
        for pid in mine + [p for p, prov in position.provinces.items() if prov.legions.get(empire)]:
            legions = position.provinces[pid].legions.get(empire, 0)
            if legions and board.provinces[pid].land and rng.random() < 0.6:
                orders.append(Move(rng.randint(1, legions), pid, rng.choice(board.provinces[pid].land)))
        for sid, sea in position.seas.items():
            if sea.triremes.get(empire) and rng.random() < 0.4:
                orders.append(Sail(1, sid, rng.choice(board.seas[sid].seas)))
    return orders


@pytest.mark.parametrize("stepwise", [False, True], ids=["batch", "stepwise"])
def test_a_round_goes_trade_purchase_military_then_the_next_round(board: Board, stepwise: bool) -> None:
    position, _ = new_position(board, FIVE, ScriptedDice([1] * 60))
    seen = []
    for number in range(1, 40):
        seen.append((position.round, str(position.phase), position.step))
        if position.round == 3:
            break
        assert due(position, stepwise), "somebody's orders are always awaited"
        position, _ = resolve_phase(board, position, {}, ChainDice("engine", number, bytes([number])), stepwise)
    phases = list(dict.fromkeys((r, phase) for r, phase, _ in seen))
    assert phases[:4] == [(1, "trade"), (1, "purchase"), (1, "military"), (2, "trade")]
    if stepwise:
        steps = [step for r, phase, step in seen if r == 1 and phase == "purchase" and step]
        assert sorted(steps) == sorted(FIVE), "one purchase step per player"
    assert position.round == 3 and position.phase is Phase.TRADE


def test_stepwise_waits_for_the_leader_then_the_player_to_move(board: Board) -> None:
    position, _ = new_position(board, FIVE, ScriptedDice([1] * 60))
    assert set(due(position, True)) == set(FIVE), "trade orders are due from everyone"
    position, _ = resolve_phase(board, position, {}, ChainDice("s", 1, b"\1"), True)
    assert position.phase is Phase.PURCHASE and due(position, True) == ("Egypt",), "the Political Leader first"
    position, _ = resolve_phase(board, position, {}, ChainDice("s", 2, b"\2"), True)
    assert due(position, True) == (position.sequence[0],)


@pytest.mark.parametrize("seed", range(1, 7))
def test_random_games_keep_every_invariant(board: Board, seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice([FIVE, ("Rome", "Greece", "Carthage", "Egypt"), ("Rome", "Greece", "Carthage")])
    position, _ = new_position(board, players, ScriptedDice([rng.randint(1, 6) for _ in range(80)]))
    stepwise = seed % 2 == 0
    for number in range(1, 120):
        if position.winner or position.round > 8:
            break
        orders = {e: random_orders(rng, board, position, e) for e in due(position, stepwise)}
        position, events = resolve_phase(
            board, position, orders, ChainDice("soak", number, rng.randbytes(32)), stepwise
        )
        assert empires_position_problems(board, position) == [], f"phase {number}: {[e.kind for e in events][:20]}"
    assert position.round > 1


@pytest.mark.parametrize("seed", range(1, 5))
def test_every_position_of_a_random_game_reads_back_as_written(board: Board, seed: int) -> None:
    """The file shape round-trips (state.toml, history): written, read, written again, the same."""
    from adjudicator.rulesets.empires.position import position_from_data, position_to_data

    rng = random.Random(seed)
    position, _ = new_position(board, FIVE, ScriptedDice([rng.randint(1, 6) for _ in range(80)]))
    for number in range(1, 40):
        data = position_to_data(position)
        again = position_from_data(board, data)
        assert again == position and position_to_data(again) == data, f"phase {number}"
        if position.winner:
            break
        orders = {e: random_orders(rng, board, position, e) for e in due(position, False)}
        position, _ = resolve_phase(board, position, orders, ChainDice("io", number, rng.randbytes(32)), False)
