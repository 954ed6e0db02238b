"""Empires claims (E9) and the victory conditions of capitals (E10.2, ED17) and titles (E10.3)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.rulesets.empires import EMPIRES
from adjudicator.rulesets.empires.board import Board, CityKind, Title
from adjudicator.rulesets.empires.claims import capital_winner, capitals_held, claim_titles, titles_winner
from adjudicator.rulesets.empires.model import Position
from tests.empires_support import FIVE, empires_board, opening_position


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


@pytest.fixture
def opening() -> Position:
    return opening_position()


def with_legions(position: Position, pid: str, empire: str, count: int) -> Position:
    provinces = dict(position.provinces)
    provinces[pid] = replace(provinces[pid], legions=MappingProxyType({empire: count}))
    return replace(position, provinces=provinces)


def test_e9_1_the_highest_level_takes_the_title(board: Board, opening: Position) -> None:
    rome_land = board.empires["Greece"].provinces[0]
    stronger = with_legions(opening, rome_land, "Greece", 8)
    after, events = claim_titles(board, stronger)
    assert after.titles[Title.MILITARY] == "Greece"
    assert [e.data["player"] for e in events if e.data["title"] == "military"] == ["Greece"]


def test_e9_2_a_tied_holder_keeps_his_title(board: Board, opening: Position) -> None:
    levels = {e: opening.levels(board, e)[Title.MILITARY] for e in FIVE}
    top = max(levels.values())
    assert levels["Rome"] == top and list(levels.values()).count(top) > 1, "the reconstructed start ties Rome"
    after, events = claim_titles(board, opening)
    assert after.titles[Title.MILITARY] == "Rome" and not [e for e in events if e.data["title"] == "military"]


def test_e9_2_the_tied_holder_may_hand_it_on(board: Board, opening: Position) -> None:
    levels = {e: opening.levels(board, e)[Title.MILITARY] for e in FIVE}
    other = next(e for e in FIVE if e != "Rome" and levels[e] == levels["Rome"])
    chosen = replace(opening, standing={"Rome": {"title:military": f"{other}, Rome"}})
    assert claim_titles(board, chosen)[0].titles[Title.MILITARY] == other


def test_e9_2_ed16_a_holder_out_of_the_tie_leaves_it_to_the_earliest_in_the_military_order(
    board: Board, opening: Position
) -> None:
    position = replace(opening, titles={**opening.titles, Title.COMMERCE: "Babylon"})
    levels = {e: position.levels(board, e)[Title.COMMERCE] for e in FIVE}
    tied = [e for e in FIVE if levels[e] == max(levels.values())]
    assert len(tied) > 1 and "Babylon" not in tied
    ordered = replace(position, sequence=tuple(reversed(FIVE)))
    expected = min(tied, key=list(reversed(FIVE)).index)
    after, _ = claim_titles(board, ordered)
    assert after.titles[Title.COMMERCE] == expected
    assert after.tokens_used == (), "E5.7: a new Master takes all three trade tokens back"


def test_e10_2_four_capitals_or_legendary_cities_win(board: Board, opening: Position) -> None:
    sites = [pid for pid, p in board.provinces.items() if p.city in (CityKind.CAPITAL, CityKind.LEGENDARY)]
    provinces = dict(opening.provinces)
    for pid in sites[:3]:
        provinces[pid] = replace(provinces[pid], influence="Rome", city=True)
    three = replace(opening, provinces=provinces)
    assert capitals_held(board, three, "Rome") == 3 and capital_winner(board, three)[0] is None
    fourth = sites[3]
    provinces[fourth] = replace(provinces[fourth], city=True, occupied=MappingProxyType({"city": "Rome"}))
    four = replace(opening, provinces=provinces)
    winner, events = capital_winner(board, four)
    assert winner == "Rome" and events[0].data["rule"] == "E10.2", "an occupied capital counts (E4.1)"


def test_e10_3_all_three_titles_win(opening: Position) -> None:
    assert titles_winner(opening)[0] is None
    all_rome = replace(opening, titles={t: "Rome" for t in Title})
    assert titles_winner(all_rome)[0] == "Rome"


def test_standings_count_what_the_victory_conditions_count(board: Board, opening: Position) -> None:
    from adjudicator.rulesets.empires.standings import standings

    rows = {s.civ: s for s in standings(board, opening)}
    assert set(rows) == set(FIVE)
    assert rows["Rome"].counts["Provinces"] == 3 and rows["Rome"].counts["Capitals and legendary cities"] == 1
    assert rows["Carthage"].counts["Titles"] == 1
    assert EMPIRES.colours(board, "classic")["Carthage"] == "#333333"  # black, as the site draws it
    assert rows["Greece"].counts["Heroes and wonders"] == 1
