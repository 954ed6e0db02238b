"""What the turn-start position already decides is refused at submit (issue 11, items 8 and 2).

A line that can never work gets its error on the receipt, citing the rule; a line whose fate
hangs on the player's own other lines this turn is accepted with a note saying on what.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adjudicator.game.game import Game, default_board_path, load_board
from adjudicator.game.submissions import check_submission
from adjudicator.language.submission import OrderLine
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import find_ruleset
from tests.rules.runner import run_case
from tests.test_validate import (
    BUILD,
    MILITARY,
    RICH_ROME,
    Tweak,
    combine,
    game_with,
    make_opening_state,
    owns,
    put,
    sea,
)

Check = Callable[[Tweak, str, str], list[OrderLine[Any]]]


@pytest.fixture(scope="module")
def opening(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return make_opening_state(tmp_path_factory)


@pytest.fixture
def check(opening: dict[str, Any], tmp_path: Path) -> Check:
    """The checked lines of `text` sent by `power` at the tweaked opening position."""

    def run(tweak: Tweak, power: str, text: str) -> list[OrderLine[Any]]:
        game = game_with(opening, tweak, tmp_path)
        return list(check_submission(game, f"power {power}\n{text}\n").lines)

    return run


def message(line: OrderLine[Any]) -> str:
    assert line.problem is not None, f"line {line.number} {line.text!r} was accepted"
    return line.problem.message


def accepted(line: OrderLine[Any]) -> OrderLine[Any]:
    assert line.ok, f"line {line.number} {line.text!r} was refused: {message(line)}"
    return line


EGYPT_IN_SINAI = combine(MILITARY, put("sinai", "legions", {"Egypt": 2}))


# ---- Moves (R7.3, D13) -----------------------------------------------------------------


def test_move_to_a_province_no_route_can_reach_is_an_error_at_submit(check: Check) -> None:
    (line,) = check(EGYPT_IN_SINAI, "Egypt", "move legion from Sinai to Cyrenae")
    assert message(line).startswith("R7.3: Cyrenae does not border Sinai by land"), message(line)
    assert "no chain of seas holding your triremes" in message(line)


def test_move_along_triremes_already_at_sea_is_ok_without_a_note(check: Check) -> None:
    tweak = combine(EGYPT_IN_SINAI, sea("mare-aegyptium", {"Egypt": 1}))
    (line,) = check(tweak, "Egypt", "move legion from Sinai to Cyrenae")
    assert accepted(line).note == ""


def test_move_that_needs_this_turns_sails_is_ok_with_a_note_at_submit(check: Check) -> None:
    """R7.1: all sails come before any legion moves, so a sail line written later counts too."""
    tweak = combine(EGYPT_IN_SINAI, put("alexandria", "port", {"Egypt": 1}))
    move, sail = check(
        tweak, "Egypt", "move legion from Sinai to Cyrenae\nsail trireme from Alexandria to Mare Aegyptium"
    )
    accepted(sail)
    assert accepted(move).note == "depends on your triremes reaching Mare Aegyptium first"


def test_move_along_a_sea_held_now_and_one_sailed_into_names_only_the_one_it_waits_for(check: Check) -> None:
    tweak = combine(
        MILITARY,
        put("carthago", "legions", {"Carthage": 1}),
        sea("mare-africum", {"Carthage": 2}),
    )
    text = "sail trireme from Mare Africum to Mare Libycum\nmove legion from Carthago to Cnossus"
    sail, move = check(tweak, "Carthage", text)
    accepted(sail)
    assert accepted(move).note == "depends on your triremes reaching Mare Libycum first"


def test_move_whose_triremes_all_sail_away_is_an_error_at_submit(check: Check) -> None:
    tweak = combine(EGYPT_IN_SINAI, sea("mare-aegyptium", {"Egypt": 1}))
    sail, move = check(
        tweak, "Egypt", "sail trireme from Mare Aegyptium to Mare Syriacum\nmove legion from Sinai to Cyrenae"
    )
    accepted(sail)
    assert message(move).startswith("R7.3: Cyrenae does not border Sinai by land"), message(move)


def test_move_via_seas_that_are_not_next_to_each_other_is_an_error_at_submit(check: Check) -> None:
    tweak = combine(MILITARY, sea("mare-tyrrhenum", {"Rome": 1}), sea("mare-libycum", {"Rome": 1}))
    (line,) = check(tweak, "Rome", "move legion from Roma to Cyrenae via Mare Tyrrhenum, Mare Libycum")
    assert message(line) == (
        "R7.3: Mare Tyrrhenum and Mare Libycum are not next to each other; name an unbroken chain of seas"
    )


def test_move_via_a_sea_without_your_trireme_is_an_error_at_submit(check: Check) -> None:
    tweak = combine(MILITARY, sea("mare-tyrrhenum", {"Rome": 1}))
    (line,) = check(tweak, "Rome", "move legion from Roma to Carthago via Mare Tyrrhenum, Mare Sardoum")
    assert message(line).startswith("R7.3: you will have no trireme in Mare Sardoum"), message(line)


def test_move_via_a_sea_your_sail_reaches_is_ok_with_a_note(check: Check) -> None:
    tweak = combine(MILITARY, sea("mare-tyrrhenum", {"Rome": 2}))
    text = (
        "move legion from Roma to Carthago via Mare Tyrrhenum, Mare Sardoum\n"
        "sail trireme from Mare Tyrrhenum to Mare Sardoum"
    )
    move, sail = check(tweak, "Rome", text)
    accepted(sail)
    assert accepted(move).note == "depends on your triremes reaching Mare Sardoum first"


def test_move_of_more_legions_than_stand_there_is_an_error_at_submit(check: Check) -> None:
    (line,) = check(MILITARY, "Rome", "move 20 legions from Roma to Ravenna")
    assert message(line) == "R7.3: you have 2 legion(s) in Roma that have not moved, not 20"


def test_legions_arriving_this_turn_cannot_move_on_at_submit(check: Check) -> None:
    first, second = check(
        MILITARY, "Rome", "move 2 legions from Roma to Ravenna\nmove legion from Ravenna to Dyrrachium"
    )
    accepted(first)
    assert message(second) == (
        "R7.3: you have 0 legion(s) in Ravenna that have not moved, not 1; "
        "legions arriving this turn do not move again (D13)"
    )


def test_a_move_helen_of_troy_could_make_possible_is_ok_with_a_note(check: Check) -> None:
    tweak = combine(MILITARY, owns("Rome", "Helen of Troy"))
    (line,) = check(tweak, "Rome", "move legion from Ravenna to Roma")
    assert (
        accepted(line).note
        == "depends on Helen of Troy turning an enemy legion entering Ravenna into yours first (R8.9)"
    )


def test_triremes_arriving_this_turn_cannot_sail_on_at_submit(check: Check) -> None:
    tweak = combine(MILITARY, sea("mare-aegaeum", {"Greece": 1}))
    first, second = check(
        tweak, "Greece", "sail trireme from Mare Aegaeum to Mare Ionium\nsail trireme from Mare Ionium to Mare Africum"
    )
    accepted(first)
    assert message(second) == (
        "R7.2: you have 0 trireme(s) in Mare Ionium that have not moved, not 1; "
        "triremes arriving this turn do not move again (D13)"
    )


# ---- Naval attacks (R7.2) --------------------------------------------------------------


def test_naval_attack_without_a_trireme_there_is_an_error_at_submit(check: Check) -> None:
    (line,) = check(MILITARY, "Greece", "attack Rome in Mare Aegaeum")
    assert message(line) == (
        "R7.2: you have no trireme in Mare Aegaeum and none of your sail lines brings one there; sail one there first"
    )


def test_naval_attack_where_your_triremes_sail_away_is_an_error_at_submit(check: Check) -> None:
    tweak = combine(MILITARY, sea("mare-aegaeum", {"Greece": 1, "Rome": 1}))
    sail, attack = check(tweak, "Greece", "sail trireme from Mare Aegaeum to Mare Ionium\nattack Rome in Mare Aegaeum")
    accepted(sail)
    assert message(attack) == (
        "R7.2: your sail lines take all your triremes out of Mare Aegaeum before the naval battles (R7.1)"
    )


def test_naval_attack_after_sailing_there_is_ok_with_a_note(check: Check) -> None:
    tweak = combine(MILITARY, put("athenae", "port", {"Greece": 1}))
    attack, sail = check(tweak, "Greece", "attack Rome in Mare Aegaeum\nsail trireme from Athenae to Mare Aegaeum")
    accepted(sail)
    assert accepted(attack).note == "depends on your triremes reaching Mare Aegaeum first"


def test_naval_attack_with_a_trireme_there_is_ok_without_a_note(check: Check) -> None:
    tweak = combine(MILITARY, sea("mare-aegaeum", {"Greece": 1}))
    (line,) = check(tweak, "Greece", "attack Rome in Mare Aegaeum")
    assert accepted(line).note == ""


# ---- Stock and supply (R1, R1.3) -------------------------------------------------------


def test_build_beyond_the_stock_is_refused_at_submit_citing_R1(check: Check) -> None:
    (line,) = check(BUILD, "Babylon", "build 20 legions in Babylon")
    assert message(line) == "R1: your stock holds 8 legions (8 per player); you cannot build 20"


def test_build_lines_beyond_the_stock_together_are_refused_at_submit(check: Check) -> None:
    tweak = combine(RICH_ROME, put("roma", "legions", {"Rome": 3}))
    lines = check(tweak, "Rome", "build 3 legions in Roma\nbuild legion in Ravenna\nbuild 2 legions in Roma")
    accepted(lines[0])
    accepted(lines[1])
    assert message(lines[2]) == (
        "R1: your stock holds 5 legions (8 per player) and your earlier lines build 4; "
        "only 1 is left for this line, not 2"
    )


def test_two_hundred_build_lines_are_checked_quickly_and_those_beyond_the_stock_refused(check: Check) -> None:
    started = time.perf_counter()
    lines = check(RICH_ROME, "Rome", "build legion in Roma\n" * 200)
    elapsed = time.perf_counter() - started
    assert [line.ok for line in lines] == [True] * 8 + [False] * 192
    assert message(lines[8]) == (
        "R1: your stock holds 8 legions (8 per player) and your earlier lines build 8; none is left for this line"
    )
    assert elapsed < 2, f"200 lines took {elapsed:.2f} s"


def test_triremes_beyond_the_stock_are_refused_at_submit_citing_R1(check: Check) -> None:
    tweak = combine(BUILD, sea("mare-tyrrhenum", {"Rome": 4}))
    first, second = check(tweak, "Rome", "build trireme in Roma\nbuild trireme in Roma")
    accepted(first)
    assert message(second).startswith("R1: your stock holds 1 trireme (5 per player)"), message(second)


def test_build_beyond_the_building_supply_is_refused_at_submit_citing_R1_3(check: Check) -> None:
    temples = [put(p, "temple", True) for p in ("athenae", "carthago", "babylon", "alexandria", "sparta")]
    tweak = combine(RICH_ROME, *temples)
    first, second = check(tweak, "Rome", "build temple in Roma\nbuild temple in Ravenna")
    accepted(first)
    assert message(second) == (
        "R1.3: the building supply holds 1 temple (6 with 5 players) and your earlier lines build 1; "
        "none is left for this line"
    )


def test_influence_a_conversion_may_return_is_ok_with_a_note(check: Check) -> None:
    """R8.7: an influence marker comes back to its owner's stock when another player converts."""
    more = ["corsica", "sardinia", "syracusae", "rhodus", "cnossus", "salamis", "tyrus", "hierosolyma", "trapezus"]
    tweaks = [put(p, "influence", "Egypt") for p in more]  # with Alexandria, Thebae, Cyrenae: all 12
    tweaks += [put("cyrenae", "converting", "Carthage"), put("cyrenae", "legions", {"Carthage": 1})]
    tweak = combine(BUILD, *tweaks)
    (line,) = check(tweak, "Egypt", "build influence in Sinai")
    assert accepted(line).note == (
        "depends on another player converting one of your provinces first, "
        "which returns its marker to your stock (R8.7)"
    )


# ---- One of each per province (R6.5) ----------------------------------------------------


def test_second_city_on_the_only_site_is_refused_at_submit(check: Check) -> None:
    first, second = check(BUILD, "Greece", "build city in Pella\nbuild city in Pella")
    accepted(first)
    assert (
        message(second)
        == "R6.5: Pella has 0 free city site(s) after your earlier lines; one city stands on each printed site"
    )


def test_city_on_a_site_an_earlier_line_builds_on_is_refused_at_submit(check: Check) -> None:
    first, second = check(BUILD, "Rome", "build city in Ravenna\nbuild city in Ravenna at Ravenna")
    accepted(first)
    assert message(second) == "R6.5: your line 2 already builds the city on the site Ravenna"


def test_second_caravan_on_one_icon_is_refused_at_submit(check: Check) -> None:
    first, second = check(BUILD, "Rome", "build caravan in Ravenna\nbuild caravan on wine in Ravenna")
    accepted(first)
    assert message(second) == "R6.5: your line 2 already builds the caravan on the wine icon in Ravenna"


def test_second_temple_in_a_province_is_refused_at_submit(check: Check) -> None:
    first, second = check(RICH_ROME, "Rome", "build temple in Ravenna\nbuild temple in Ravenna")
    accepted(first)
    assert message(second) == "R6.5: your line 2 already builds a temple in Ravenna"


def test_fortress_where_one_stands_is_refused_at_submit(check: Check) -> None:
    (line,) = check(BUILD, "Rome", "build fortress in Roma")
    assert (
        message(line)
        == "R6.5: Roma already has a fortress; one fortress stands in a province (two with the Statue of Zeus)"
    )


def test_second_fortress_with_the_statue_of_zeus_is_ok(check: Check) -> None:
    (line,) = check(combine(BUILD, owns("Rome", "Statue of Zeus")), "Rome", "build fortress in Roma")
    assert accepted(line).note == ""


def test_second_fortress_after_buying_the_statue_of_zeus_is_ok_with_a_note(check: Check) -> None:
    buy, fortress = check(RICH_ROME, "Rome", "buy Statue of Zeus\nbuild fortress in Roma")
    accepted(buy)
    assert accepted(fortress).note == "depends on your buying the Statue of Zeus first"


# ---- Advanced setup (R2.4) ------------------------------------------------------------


def test_setup_build_outside_the_capital_area_or_beyond_the_stock_is_refused_at_submit(
    make_game: Callable[..., Game],
) -> None:
    game = make_game(options={"setup": "advanced"})
    text = "power Greece\nbuild influence in Dyrrachium\nbuild 9 legions in Athenae\nbuild legion in Pella\n"
    lines = check_submission(game, text).lines
    assert [line.problem.message if line.problem else "OK" for line in lines] == [
        "R2.4: Dyrrachium is outside your capital and its neighbours",
        "R1: your stock holds 8 legions (8 per player); you cannot build 9",
        "R2.4: legions and triremes bought in the setup start in your capital, Athenae",
    ]


# ---- Board names as printed, and the receipt's note -----------------------------------


def test_messages_name_places_as_printed(check: Check, opening: dict[str, Any]) -> None:
    tweak = combine(MILITARY, put("sinai", "legions", {"Egypt": 1}))
    text = "\n".join(
        [
            "move legion from Sinai to Cyrenae",
            "move legion from Leptis Magna to Cyrenae",
            "attack Rome in Mare Aegaeum",
            "sail trireme from Mare Aegyptium to Mare Libycum",
            "move legion from Sinai to Cyrenae via Mare Libycum",
            "move legion from Sinai to Salamis via Mare Aegyptium",
        ]
    )
    lines = check(tweak, "Egypt", text)
    ids = [*opening["provinces"], *opening["seas"]]
    for line in lines:
        for place in ids:
            assert place not in message(line), f"{message(line)!r} names {place!r}, not its printed name"


def test_receipt_shows_what_an_accepted_line_depends_on(opening: dict[str, Any], tmp_path: Path) -> None:
    tweak = combine(EGYPT_IN_SINAI, put("alexandria", "port", {"Egypt": 1}))
    game = game_with(opening, tweak, tmp_path)
    text = "power Egypt\nsail trireme from Alexandria to Mare Aegyptium\nmove legion from Sinai to Cyrenae\n"
    receipt = Renderer(game.ruleset.name).render("receipt.txt.j2", checked=check_submission(game, text), stored=None)
    assert (
        "   3  OK      move legion from Sinai to Cyrenae\n"
        "      note: depends on your triremes reaching Mare Aegyptium first\n"
    ) in receipt, receipt
    assert "2 orders accepted, 0 lines with errors." in receipt


# ---- What only other players decide is still checked at resolution ----------------------

SUNK = {
    "dice": [6, 6, 1],
    "orders": {"Rome": "attack Greece in Mare Ionium", "Greece": "move legion from Athenae to Syracusae"},
    "position": {
        "phase": "military",
        "roles": {"commerce": "Carthage", "political": "Egypt", "military": "Rome"},
        "provinces": {"athenae": {"influence": "Greece", "legions": {"Greece": 1}}},
        "seas": {"mare-ionium": {"triremes": {"Rome": 2, "Greece": 1}}},
    },
}


def skipped_sentence(case: dict[str, Any]) -> tuple[dict[str, Any], str]:
    (event,) = [e for e in run_case(case).events if e["kind"] == "order_skipped"]
    ruleset = find_ruleset("mare-nostrum")
    names = ruleset.place_names(load_board(ruleset, default_board_path(ruleset)))
    template = Renderer(ruleset.name).environment.get_template("mare-nostrum/events.txt.j2")
    return event, str(template.make_module({"names": names, "phase_number": 7}).sentence(event, None))


def test_a_move_accepted_at_submit_is_skipped_when_another_player_sinks_its_trireme() -> None:
    """Rome moves first (R3.3) and sinks Greece's only trireme: R7.3 at resolution, not at submit."""
    assert run_case(SUNK).rejected == []
    event, _ = skipped_sentence(SUNK)
    assert event["reason"] == "R7.3: Syracusae is neither next to Athenae nor joined to it by your triremes"


def test_a_skipped_order_is_reported_with_the_places_as_printed() -> None:
    _, sentence = skipped_sentence(SUNK)
    assert 'order "move legion from Athenae to Syracusae"' in sentence, sentence
