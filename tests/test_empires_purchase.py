"""Empires purchase and placement (E6), rule by rule, with orders as values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.events import Event
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.model import Position
from adjudicator.rulesets.empires.orders import Build, Buy, Order, TurnOrder
from adjudicator.rulesets.empires.purchase import resolve_purchase
from adjudicator.rulesets.kit.payment import TAX
from tests.empires_support import empires_board, opening_position

Orders = dict[str, list[Order]]


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


@pytest.fixture
def opening() -> Position:
    return opening_position()


def holding(position: Position, empire: str, tokens: Mapping[str, int], tiles: tuple[str, ...] = ()) -> Position:
    player = position.players[empire]
    changed = replace(player, resources=MappingProxyType(dict(tokens)), tiles=(*player.tiles, *tiles))
    return replace(position, players={**position.players, empire: changed})


def buy(board: Board, position: Position, orders: Orders) -> tuple[Position, list[Event]]:
    return resolve_purchase(board, position, orders, ScriptedDice([2, 5, 3, 1, 4, 6] * 20))


def skipped(events: list[Event], empire: str) -> list[str]:
    return [str(e.data["reason"]) for e in events if e.kind == "purchase_skipped" and e.data["player"] == empire]


def bought(events: list[Event], empire: str) -> list[str]:
    return [str(e.data["item"]) for e in events if e.kind == "purchase" and e.data["player"] == empire]


def test_e6_1_the_political_leader_orders_the_turns(board: Board, opening: Position) -> None:
    _, events = buy(board, opening, {"Egypt": [TurnOrder(("Greece", "Rome"))]})
    (order,) = [e for e in events if e.kind == "purchase_order"]
    assert order.data["order"] == ["Greece", "Rome", "Egypt", "Carthage", "Babylon"], "ED16: then the leader, on"


def test_e6_3_three_different_goods_or_three_tax_pay_a_legion(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {"wine": 1, "metal": 1, "grain": 1, TAX: 3})
    after, events = buy(board, position, {"Rome": [Build("legion", "latium", count=2)]})
    assert bought(events, "Rome") == ["legion in Latium", "legion in Latium"]
    paid = [e.data["paid"] for e in events if e.kind == "purchase"]
    assert paid == [{"grain": 1, "metal": 1, "wine": 1}, {TAX: 3}] or paid == [
        {TAX: 3},
        {"grain": 1, "metal": 1, "wine": 1},
    ]
    assert after.provinces["latium"].legions["Rome"] == opening.provinces["latium"].legions.get("Rome", 0) + 2


def test_e6_3_tax_and_goods_do_not_mix(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {"wine": 1, "metal": 1, TAX: 1})
    _, events = buy(board, position, {"Rome": [Build("legion", "latium", pay=("wine", "metal", TAX))]})
    assert skipped(events, "Rome") == [
        "E6.3: a set is tax tokens only or different goods only; tax and goods do not mix"
    ]


def test_e11_cleopatra_may_mix_one_tax_token_into_a_goods_set(board: Board, opening: Position) -> None:
    position = holding(opening, "Egypt", {"papyrus": 1, "grain": 1, TAX: 1})
    _, events = buy(board, position, {"Egypt": [Build("legion", "aegyptus")]})
    assert bought(events, "Egypt") == ["legion in Aegyptus"], "E11.2 Cleopatra: one tax token among goods"


def test_e11_hannibal_may_pay_with_two_identical_goods(board: Board, opening: Position) -> None:
    position = holding(opening, "Carthage", {"sheep": 2, "gold": 1})
    _, events = buy(board, position, {"Carthage": [Build("legion", "africa")]})
    assert bought(events, "Carthage") == ["legion in Africa"]
    roman = holding(opening, "Rome", {"sheep": 2, "gold": 1})
    _, events = buy(board, roman, {"Rome": [Build("legion", "latium")]})
    assert skipped(events, "Rome") == ["E6.3: your tokens make no set worth 3 (legion in Latium)"]


def test_e6_4_influence_needs_a_bordering_unmarked_province(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {TAX: 9})
    orders: Orders = {
        "Rome": [
            Build("influence", "dalmatia", line=1),
            Build("influence", "achaea", line=2),
            Build("influence", "numidia", line=3),
        ]
    }
    after, events = buy(board, position, orders)
    assert after.provinces["dalmatia"].influence == "Rome"
    assert skipped(events, "Rome") == [
        "E6.4: Achaea already has an influence marker",
        "E6.4: Numidia already has an influence marker",
    ]


def test_ed11_a_trireme_chain_makes_a_far_coast_border(board: Board, opening: Position) -> None:
    """Sicilia borders none of Rome's provinces by land; Rome's trireme in Mare Ionium joins it
    to Italia (E7.3), and without Rome's triremes it is out of reach."""
    position = holding(opening, "Rome", {TAX: 9})
    no_fleet = replace(
        position, seas={s: replace(sea, triremes=MappingProxyType({})) for s, sea in position.seas.items()}
    )
    _, events = buy(board, no_fleet, {"Rome": [Build("influence", "sicilia")]})
    assert skipped(events, "Rome") == [
        "E6.4: Sicilia does not border your provinces, by land or along your triremes (ED11)"
    ]
    fleet = dict(no_fleet.seas)
    fleet["mare-ionium"] = replace(fleet["mare-ionium"], triremes=MappingProxyType({"Rome": 1}))
    _, events = buy(board, replace(no_fleet, seas=fleet), {"Rome": [Build("influence", "sicilia")]})
    assert bought(events, "Rome") == ["influence in Sicilia"]


def test_e8_4_nobody_builds_in_a_province_at_war_but_in_his_capital(board: Board, opening: Position) -> None:
    provinces = dict(opening.provinces)
    for pid in ("gallia", "latium"):
        provinces[pid] = replace(provinces[pid], legions=MappingProxyType({"Rome": 1, "Greece": 1}))
    position = holding(replace(opening, provinces=provinces), "Rome", {TAX: 6})
    _, events = buy(board, position, {"Rome": [Build("legion", "gallia"), Build("legion", "latium")]})
    assert bought(events, "Rome") == ["legion in Latium"]
    assert skipped(events, "Rome") == ["E8.4: Gallia is at war: nobody builds or places units there but in his capital"]


def test_e6_5_one_fortress_a_province_and_triremes_next_to_your_land(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {TAX: 12})
    orders: Orders = {
        "Rome": [
            Build("fortress", "latium"),
            Build("fortress", "latium"),
            Build("trireme", "mare-ionium"),
            Build("trireme", "mare-aegyptium"),
        ]
    }
    after, events = buy(board, position, orders)
    assert bought(events, "Rome") == ["fortress in Latium", "trireme in Mare Ionium"]
    assert skipped(events, "Rome") == [
        "E6.5: Latium already has a fortress",
        "E6.5: Mare Aegyptium touches none of your provinces",
    ]
    assert after.provinces["latium"].fortress == "Rome"


def test_e6_6_buildings_only_on_the_board_s_icons(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {TAX: 24})
    orders: Orders = {
        "Rome": [
            Build("caravan", "gallia", good="gold"),
            Build("caravan", "gallia"),
            Build("temple", "gallia"),
            Build("city", "latium"),
            Build("caravan", "italia", good="metal"),
        ]
    }
    _, events = buy(board, position, orders)
    reasons = skipped(events, "Rome")
    assert reasons[0].startswith("E6.6: Gallia has no free gold caravan site")
    assert reasons[1].startswith("E6.6: say which good the caravan stands on")
    assert reasons[2] == "E6.6: Gallia prints no temple"
    assert reasons[3] == "E6.6: Latium's site is for a capital, not a city"
    metal_built = "metal" in opening.provinces["italia"].caravans
    assert (bought(events, "Rome") == ["caravan on metal in Italia"]) != metal_built


def test_e6_7_a_face_up_tile_at_the_round_s_price_then_the_track_refills(board: Board, opening: Position) -> None:
    tile = opening.track[0]
    price = board.tiles[tile].price(1)
    position = holding(opening, "Rome", {TAX: price})
    after, events = buy(board, position, {"Rome": [Buy(tile)]})
    assert bought(events, "Rome") == [tile] and tile in after.players["Rome"].tiles
    assert len(after.track) == 5 and tile not in after.track, "E6.7: refilled from the face-down tiles"
    hidden_tile = opening.hidden[0]
    _, events = buy(board, holding(opening, "Rome", {TAX: 12}), {"Rome": [Buy(hidden_tile)]})
    assert skipped(events, "Rome")[0].startswith(f"E6.7: {hidden_tile} is not face up on the track")


def test_e6_8_e10_1_the_pyramids_win_at_once(board: Board, opening: Position) -> None:
    position = holding(opening, "Greece", {TAX: 15})
    after, events = buy(board, position, {"Greece": [Buy("Pyramids"), Build("legion", "achaea")]})
    assert after.winner == "Greece"
    assert [e.data["rule"] for e in events if e.kind == "victory"] == ["E10.1"]
    assert bought(events, "Greece") == ["Pyramids"], "nothing after the winning purchase"


def test_e10_1_the_fifth_hero_or_wonder_wins(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {TAX: 7}, tiles=opening.hidden[:3])
    after, _ = buy(board, position, {"Rome": [Buy(opening.track[0])]})
    assert after.winner == "Rome"


def test_e6_9_goods_go_back_and_two_tax_tokens_are_kept(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {"wine": 2, "gold": 1, TAX: 5})
    after, _ = buy(board, position, {})
    assert dict(after.players["Rome"].resources) == {TAX: 2}


def test_e11_hanging_gardens_keep_two_different_goods(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {"wine": 2, "gold": 1, "grain": 1, TAX: 1}, tiles=("Hanging Gardens",))
    after, _ = buy(board, position, {})
    kept = dict(after.players["Rome"].resources)
    assert kept[TAX] == 1 and sum(n for k, n in kept.items() if k != TAX) == 2 and kept.get("wine") == 1


def test_e11_hammurabi_places_one_influence_free_each_round(board: Board, opening: Position) -> None:
    position = holding(opening, "Babylon", {})
    targets = [
        p
        for p in board.provinces["babylonia"].land + board.provinces["syria"].land
        if opening.provinces[p].influence is None
    ]
    after, events = buy(board, position, {"Babylon": [Build("influence", targets[0]), Build("influence", targets[1])]})
    assert after.provinces[targets[0]].influence == "Babylon"
    assert [e.data["free"] for e in events if e.kind == "purchase"] == ["Hammurabi:free"]
    assert skipped(events, "Babylon")[0].startswith("E6.3: your tokens make no set worth 3")


def test_e11_spartacus_makes_a_legion_cost_one_gladiators_or_tax(board: Board, opening: Position) -> None:
    position = holding(opening, "Carthage", {"gladiators": 1, TAX: 1}, tiles=("Spartacus",))
    _, events = buy(board, position, {"Carthage": [Build("legion", "africa", count=2)]})
    assert [e.data["paid"] for e in events if e.kind == "purchase"] == [{"gladiators": 1}, {TAX: 1}]


def test_e1_2_no_piece_left_in_the_stock(board: Board, opening: Position) -> None:
    position = holding(opening, "Rome", {TAX: 60})
    _, events = buy(
        board,
        position,
        {
            "Rome": [Build("fortress", p) for p in ("latium", "gallia", "italia")]
            + [Build("trireme", "mare-tyrrhenum", count=6)]
        },
    )
    assert "E1.2: no trireme left in your stock" in skipped(events, "Rome")


def test_the_political_title_is_read_from_the_position(opening: Position) -> None:
    assert opening.titles[Title.POLITICAL] == "Egypt"


def test_e6_3_the_planner_leaves_the_sets_later_lines_name(board: Board, opening: Position) -> None:
    """Carthage's fortress and first legion are paid by the planner; it must not spend the
    wine the third line names (found by the demo: the third line was skipped)."""
    tokens = {"gladiators": 1, "gold": 1, "grain": 1, "metal": 1, "oil": 2, "perfume": 1, "sheep": 1, "wine": 2, TAX: 1}
    position = holding(opening, "Carthage", tokens)
    orders: Orders = {
        "Carthage": [
            Build("fortress", "libya"),
            Build("legion", "libya"),
            Build("legion", "africa", pay=("sheep", "wine", "wine")),
        ]
    }
    _, events = buy(board, with_tiles(position, "Carthage"), orders)
    assert skipped(events, "Carthage") == [] and len(bought(events, "Carthage")) == 3


def test_ed19_a_set_named_on_a_counted_line_is_dealt_out(board: Board, opening: Position) -> None:
    position = holding(opening, "Greece", {TAX: 12})
    after, events = buy(board, position, {"Greece": [Build("legion", "achaea", count=2, pay=(TAX,) * 6)]})
    assert [e.data["paid"] for e in events if e.kind == "purchase"] == [{TAX: 3}, {TAX: 3}]
    assert after.players["Greece"].resources[TAX] == 2, "6 spent, 2 of the other 6 kept (E6.9)"


def test_e6_3_a_named_set_the_player_lacks_says_what_he_holds(board: Board, opening: Position) -> None:
    position = holding(opening, "Greece", {TAX: 5})
    _, events = buy(board, position, {"Greece": [Build("market", "thracia", pay=(TAX,) * 6)]})
    assert skipped(events, "Greece") == ["E6.3: you hold 5 tax, not 6"]


def with_tiles(position: Position, empire: str, *tiles: str) -> Position:
    player = position.players[empire]
    return replace(position, players={**position.players, empire: replace(player, tiles=(*player.tiles, *tiles))})


def test_e2_1_ed20_the_absent_empires_lands_are_out_of_play(board: Board) -> None:
    from tests.empires_support import opening_position

    three = opening_position(("Rome", "Greece", "Carthage"))
    position = holding(three, "Carthage", {TAX: 9})
    _, events = buy(board, position, {"Carthage": [Build("influence", "cyrenaica"), Build("influence", "phasania")]})
    assert skipped(events, "Carthage") == ["E2.1: Cyrenaica is covered with this many players and out of play (ED20)"]
    assert bought(events, "Carthage") == ["influence in Phasania"]


def test_e11_castor_and_pollux_copy_another_player_s_tile(board: Board, opening: Position) -> None:
    """Rome copies Carthage's Spartacus: its legions cost one gladiators or one tax this turn."""
    from adjudicator.rulesets.empires.orders import Copy

    position = holding(opening, "Rome", {TAX: 2}, tiles=("Castor and Pollux",))
    position = with_tiles(position, "Carthage", "Spartacus")
    orders: Orders = {"Rome": [Copy("Spartacus"), Build("legion", "latium", count=2)]}
    after, events = buy(board, position, orders)
    assert [e.data["paid"] for e in events if e.kind == "purchase" and e.data["player"] == "Rome"] == [
        {TAX: 1},
        {TAX: 1},
    ]
    assert after.standing["Rome"]["copy"] == "Spartacus"
    again, events = buy(board, holding(after, "Rome", {TAX: 2}), {"Rome": [Build("legion", "latium")]})
    assert "copy" not in again.standing.get("Rome", {}), "a purchase turn without a copy line ends it"
    assert skipped(events, "Rome") == ["E6.3: your tokens make no set worth 3 (legion in Latium)"]
