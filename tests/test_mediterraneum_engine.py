"""Mare Mediterraneum: the board file, the opening and the first turns, played from order text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.rulesets.mediterraneum.board import CITIES, RESIDENCES, check_board, placements_possible
from adjudicator.rulesets.mediterraneum.model import Phase, Ship, Status
from adjudicator.rulesets.mediterraneum.position import position_from_data, position_to_data
from tests.mediterraneum_support import THREE, board, kinds, opening, orders, parser, play


def test_the_shipped_board_is_sound() -> None:
    b = board()
    assert check_board(b) == []
    assert len(b.cities) == CITIES and sum(c.residence for c in b.cities.values()) == RESIDENCES
    assert placements_possible(b)
    assert all(entry.source for table in (b.goods, b.seas, b.lands, b.cities) for entry in table.values())


def test_the_opening_deals_two_residences_each_and_a_want_disk_a_city() -> None:
    position, events = opening()
    b = board()
    for colour in THREE:
        mine = position.provinces(colour)
        assert len(mine) == 2 and all(b.cities[c].residence for c in mine)
    assert all(len(s.want) == 1 for s in position.cities.values())
    assert all(s.want[0] not in b.produces(c) for c, s in position.cities.items())
    assert position.phase is Phase.TURN and position.step == position.order[0]
    assert "first_player" in kinds(events)
    assert position.due == 2  # T:31: I a province, the want disks notwithstanding


def test_a_first_turn_buys_a_ship_and_the_next_player_is_taxed() -> None:
    position, _ = opening()
    mover = position.step
    city = position.provinces(mover)[0]
    after, events = play(position, f"buy ship at {board().cities[city].name}")
    ship = after.ship(mover, 1)
    assert ship is not None and ship.at == f"coast:{city}"
    assert after.players[mover].money == 0
    assert after.step == position.order[1] and after.due == 2
    assert "ship_built" in kinds(events) and "tax_due" in kinds(events)


def test_loading_sailing_and_selling_by_the_black_die() -> None:
    position, _ = opening()
    b = board()
    mover = position.step
    city = next(c for c in position.provinces(mover) if b.produces(c))
    good = b.produces(city)[0]
    buyer = next(c for c in b.on_sea[b.cities[city].sea] if position.cities[c].owner is None)
    position = position.with_city(buyer, want=(good,))
    position = replace(position, ships=(Ship(mover, 1, f"harbour:{city}"),)).with_player(mover, money=3)
    text = f"ship 1 load {good}\nship 1 to {b.seas[b.cities[city].sea].name}"
    position, events = play(replace(position, due=0), text)
    assert position.ship(mover, 1) is not None and position.ship(mover, 1).cargo == good  # type: ignore[union-attr]
    while position.step != mover:
        position, _ = play(position)
    faces = board().black_die
    dice = ScriptedDice([faces.index(3) + 1] + [1] * 40)
    position = replace(position, due=0)
    position, events = play(position, f"ship 1 to {b.cities[buyer].name}\nship 1 sell at least II", dice=dice)
    assert "sold" in kinds(events), kinds(events)
    assert good not in position.cities[buyer].want
    assert position.players[mover].money == 3 - 1 + 3  # I for the good, III for the sale


def test_founding_places_the_stone_and_forfeits_the_turns_tax() -> None:
    position, _ = opening()
    mover = position.step
    city = position.provinces(mover)[0]
    position = position.with_player(mover, money=10)
    after, events = play(position, f"found empire at {board().cities[city].name}")
    assert after.cities[city].status is Status.CAPITAL
    assert after.players[mover].state is not None
    assert after.stone == 0 and after.stone_owner == mover
    assert after.players[mover].money == 0  # X paid, the II due forfeit (T:45)
    assert "tax_forfeit" in kinds(events) and "no_tax" in kinds(events)  # the next player: stone on R


def test_the_stone_moves_at_its_owners_turns_and_taxes_on_odd_spaces() -> None:
    position, _ = opening()
    mover = position.step
    city = position.provinces(mover)[0]
    position, _ = play(position.with_player(mover, money=10), f"found empire at {board().cities[city].name}")
    events: list = []
    while position.step != mover:
        position, events = play(position)
    assert board().tax_chart[position.stone or 0] == "I"
    assert "stone" in kinds(events) and "tax_roll" in kinds(events)  # T:44-47: his dice on I


@pytest.mark.parametrize(
    "line",
    [
        "found empire at Roma", "buy ship at Carthago", "ship 1 load wine", "ship 2 to Mare Tyrrhenum",
        "ship 1 sell at least III", "ship 1 dump", "ship 1 store", "army 1 and 2 attack Roma",
        "build warehouse", "raise army", "patron", "dismiss artist", "pay II to Blue",
        "buy wine at Roma for up to III", "cancel buy wine at Roma", "pass",
    ],
)  # fmt: skip
def test_orders_print_back_to_the_same_order(line: str) -> None:
    from adjudicator.language.cleaning import Piece

    order = parser().parse_line(Piece(1, line))
    again = parser().parse_line(Piece(1, order.to_text()))
    assert again == order


def test_a_position_reads_back_as_written() -> None:
    position, _ = opening()
    for _ in range(4):
        position, _ = play(position)
    data = position_to_data(position)
    assert position_from_data(board(), data) == position


def test_orders_out_of_turn_are_refused_with_the_rule() -> None:
    position, _ = opening()
    other = position.order[1]
    with pytest.raises(AssertionError, match=r"M3\.1"):
        orders(position, other, "pass")


def test_a_storm_card_rolls_for_every_ship_in_its_sea() -> None:
    from adjudicator.rulesets.mediterraneum.cards import draw_trade_cards
    from adjudicator.rulesets.mediterraneum.model import Army, Decks

    b = board()
    position, _ = opening()
    card = next(c for c in b.trade_cards.values() if c.kind == "storm")
    ships = (Ship("Red", 1, card.sea, "wine"), Ship("Red", 2, card.sea, "wine"), Ship("Blue", 1, card.sea, "salt"))
    position = replace(position, ships=ships, armies=(Army("Red", 1, "ship:2"),), decks=Decks(trade=(card.id,)))
    events: list = []
    after = draw_trade_cards(b, position, "Red", 1, ScriptedDice([6, 3, 1]), events)
    assert [(s.owner, s.number, s.cargo) for s in after.ships] == [("Red", 1, "wine"), ("Red", 2, "")]
    assert after.armies == position.armies  # its ship kept; Blue's sank, with nothing aboard
    assert [e.data["outcome"] for e in events if e.kind == "storm_roll"] == ["safe", "cargo lost", "sunk"]
    assert after.storm == card.id


def test_the_opening_keeps_its_players_in_play_order_as_a_saved_game_reads_back() -> None:
    """A rollback to the first phase rewrites its file byte for byte only if the opening lists
    the players as position_from_data does: in play order (the soak found it, seed 60)."""
    position, _ = opening(("Red", "Blue", "Green", "Yellow"))
    assert tuple(position.players) == position.order
    data = position_to_data(position)
    assert position_to_data(position_from_data(board(), data)) == data
    assert list(data["players"]) == list(position.order)
