"""Empires setup (E2) and production (E4), rule by rule, on the shipped (reconstructed) board."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.core.errors import UsageError
from adjudicator.rulesets.empires.board import Board, CityKind, TileKind, Title
from adjudicator.rulesets.empires.model import Phase, Position, ProvinceState
from adjudicator.rulesets.empires.production import LEGENDARY_CHOICE, produce
from adjudicator.rulesets.empires.setup import new_position
from adjudicator.rulesets.kit.payment import TAX
from tests.empires_support import FIVE, empires_board, opening_position


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


def dice(*values: int) -> ScriptedDice:
    return ScriptedDice(list(values) or [1] * 60)


def opening(board: Board, empires: tuple[str, ...] = FIVE) -> Position:
    return opening_position(empires)


# ---- E2 setup -------------------------------------------------------------------------------


def test_e2_1_four_players_leave_babylon_out(board: Board) -> None:
    with pytest.raises(UsageError, match=r"with 4 players the empires are Rome, Carthage, Greece, Egypt \(E2.1\)"):
        new_position(board, ("Rome", "Greece", "Babylon", "Egypt"), dice())
    assert opening(board, ("Rome", "Greece", "Carthage")).playing == ("Rome", "Greece", "Carthage")


def test_e2_1_no_neutrals_the_absent_empires_hold_nothing(board: Board) -> None:
    position = opening(board, ("Rome", "Greece", "Carthage"))
    owners = {p.influence for p in position.provinces.values()} - {None}
    assert owners == {"Rome", "Greece", "Carthage"}
    assert not any(p.units() - {"Rome", "Greece", "Carthage"} for p in position.provinces.values())


def test_e2_2_each_screen_is_placed_with_its_nine_resources(board: Board) -> None:
    position = opening(board)
    for name in FIVE:
        empire = board.empires[name]
        assert dict(position.players[name].resources) == {k: n for k, n in empire.start.resources.items() if n}
        assert sum(position.players[name].resources.values()) == 9
        assert {pid for pid, p in position.provinces.items() if p.influence == name} == set(empire.provinces)
        assert position.provinces[empire.capital].city, "the capital stands from the start"
        assert position.players[name].tiles == (empire.hero,), "E2.4: the starting hero"
    assert (position.round, position.phase) == (1, Phase.TRADE), "E3.1: round 1 skips Production"


def test_e2_2_the_nine_resources_are_round_one_s_production(board: Board) -> None:
    """The screens hold round 1's production (seed l. 80, 93): producing on the opening position
    gives every empire exactly its screen's tokens."""
    position = opening(board)
    emptied = replace(
        position,
        players={n: replace(p, resources=MappingProxyType({})) for n, p in position.players.items()},
    )
    produced, _ = produce(board, emptied, dice())
    for name in FIVE:
        assert dict(produced.players[name].resources) == dict(position.players[name].resources), name


def test_e2_3_first_titles_where_their_holders_play(board: Board) -> None:
    assert dict(opening(board).titles) == {
        Title.COMMERCE: "Carthage",
        Title.POLITICAL: "Egypt",
        Title.MILITARY: "Rome",
    }


def test_e2_3_ed2_a_title_whose_holder_is_out_goes_to_the_highest_level(board: Board) -> None:
    position, events = new_position(board, ("Rome", "Greece", "Carthage"), dice())
    levels = {e: position.levels(board, e)[Title.POLITICAL] for e in position.playing}
    assert position.titles[Title.POLITICAL] == max(levels, key=lambda e: levels[e]) == "Greece"
    assert any(e.kind == "first_title" and e.data["player"] == "Greece" for e in events)


def test_e2_4_five_tiles_face_up_drawn_by_the_dice(board: Board) -> None:
    first = opening(board)
    track_tiles = {t.name for t in board.tiles.values() if t.start is None and t.kind is not TileKind.PYRAMIDS}
    assert len(first.track) == 5 and len(set(first.track)) == 5
    assert set(first.track) | set(first.hidden) == track_tiles and not set(first.track) & set(first.hidden)
    other, _ = new_position(board, FIVE, dice(*([5, 2] * 30)))
    assert other.track != first.track, "other dice, other tiles"


def test_e1_3_the_legendary_pile_holds_one_of_each_good(board: Board) -> None:
    assert dict(opening(board).legendary_pile) == dict.fromkeys(board.commodities, 1)


# ---- E4 production --------------------------------------------------------------------------


def _with(position: Position, pid: str, **changes: object) -> Position:
    provinces = dict(position.provinces)
    provinces[pid] = replace(provinces[pid], **changes)  # type: ignore[arg-type]
    return replace(position, provinces=provinces)


def _gained(board: Board, position: Position, empire: str, roll: int = 1) -> dict[str, int]:
    emptied = replace(
        position,
        players={n: replace(p, resources=MappingProxyType({})) for n, p in position.players.items()},
    )
    after, _ = produce(board, emptied, dice(*([roll] * 40)))
    gained = dict(after.players[empire].resources)
    for good, n in after.players[empire].legendary.items():
        gained[f"legendary {good}"] = n
    return gained


def _caravan_province(board: Board, position: Position, empire: str) -> str:
    return next(pid for pid, p in position.provinces.items() if p.influence == empire and p.caravans and p.market)


def test_e4_2_a_market_doubles_its_controller_s_caravans(board: Board) -> None:
    position = opening(board)
    pid = _caravan_province(board, position, "Rome")
    with_market = _gained(board, position, "Rome")
    without = _gained(board, _with(position, pid, market=False), "Rome")
    good = position.provinces[pid].caravans[0]
    assert with_market[good] - without[good] == position.provinces[pid].caravans.count(good)


def test_e4_4_an_occupied_caravan_produces_for_the_occupier_undoubled(board: Board) -> None:
    position = opening(board)
    pid = _caravan_province(board, position, "Rome")
    good = position.provinces[pid].caravans[0]
    occupied = _with(position, pid, occupied=MappingProxyType({f"caravan:{good}": "Greece"}))
    greece_before, greece_after = _gained(board, position, "Greece"), _gained(board, occupied, "Greece")
    assert greece_after.get(good, 0) - greece_before.get(good, 0) == 1, "E4.4: the market stays Rome's: no double"
    both = _with(occupied, pid, occupied=MappingProxyType({f"caravan:{good}": "Greece", "market": "Greece"}))
    assert _gained(board, both, "Greece").get(good, 0) - greece_before.get(good, 0) == 2, "with the market: doubled"


def _legendary(board: Board, position: Position, owner: str, temple: bool) -> tuple[str, Position]:
    pid = next(p for p, prov in board.provinces.items() if prov.city is CityKind.LEGENDARY)
    return pid, _with(position, pid, influence=owner, city=True, temple=temple, caravans=())


def test_e4_3_a_legendary_city_pays_tax_and_a_legendary_good(board: Board) -> None:
    position = opening(board)
    base = _gained(board, position, "Rome")
    _, legendary = _legendary(board, position, "Rome", temple=False)
    gained = _gained(board, legendary, "Rome")
    assert gained.get(TAX, 0) - base.get(TAX, 0) == 1
    assert sum(n for k, n in gained.items() if k.startswith("legendary ")) == 1


@pytest.mark.parametrize(("choice", "tax", "goods"), [(None, 2, 1), ("tax", 2, 1), ("good", 1, 2)])
def test_e4_3_with_a_temple_one_more_of_either_default_tax(
    board: Board, choice: str | None, tax: int, goods: int
) -> None:
    position = opening(board)
    base = _gained(board, position, "Rome")
    pid, legendary = _legendary(board, position, "Rome", temple=True)
    if choice:
        legendary = replace(legendary, standing={"Rome": {f"{LEGENDARY_CHOICE}:{pid}": choice}})
    gained = _gained(board, legendary, "Rome")
    assert gained.get(TAX, 0) - base.get(TAX, 0) == tax
    assert sum(n for k, n in gained.items() if k.startswith("legendary ")) == goods


def test_ed8_an_empty_legendary_pile_pays_only_the_tax(board: Board) -> None:
    position = opening(board)
    _, legendary = _legendary(board, position, "Rome", temple=False)
    empty = replace(legendary, legendary_pile=MappingProxyType({}))
    gained = _gained(board, empty, "Rome")
    assert not any(k.startswith("legendary ") for k in gained)


def _owning(position: Position, empire: str, tile: str) -> Position:
    player = position.players[empire]
    return replace(position, players={**position.players, empire: replace(player, tiles=(*player.tiles, tile))})


def test_e11_free_tax_adds_a_tax_token_each_production(board: Board) -> None:
    position = opening(board)
    artemis = _owning(position, "Rome", "Temple of Artemis")
    assert _gained(board, artemis, "Rome")[TAX] - _gained(board, position, "Rome")[TAX] == 1


def test_e11_take_good_takes_a_good_he_lacks_from_whoever_holds_most(board: Board) -> None:
    position = opening(board)
    colossus = _owning(position, "Rome", "Colossus")
    after, events = produce(board, colossus, dice(*([1] * 40)))
    (taken,) = [e for e in events if e.kind == "take_good"]
    good, source = str(taken.data["good"]), str(taken.data["source"])
    assert not position.players["Rome"].goods(good), "a good Rome held none of"
    assert after.players[source].goods(good) < max(p.goods(good) for p in after.players.values()) + 1
    assert after.players["Rome"].goods(good) == 1


def test_province_state_defaults_are_empty() -> None:
    assert ProvinceState().buildings() == [] and not ProvinceState().at_war
