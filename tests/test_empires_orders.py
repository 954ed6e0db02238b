"""The Empires order language (grammar/empires.lark): every form of docs/rules-empires.md's
"Orders by mail" parses, resolves against the board, and its canonical text parses back to the
same order; wrong lines get one clear sentence."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from adjudicator.core.dice import ScriptedDice
from adjudicator.language.parser import OrderParser
from adjudicator.language.submission import OrderLine, parse_submission
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.empires.board import Board
from adjudicator.rulesets.empires.candidates import form_candidates
from adjudicator.rulesets.empires.model import Phase, Position, SeaState
from adjudicator.rulesets.empires.orders import Order
from adjudicator.rulesets.empires.setup import new_position
from adjudicator.rulesets.empires.validate import validate_orders
from tests.empires_support import empires_board, opening_position


@pytest.fixture(scope="module")
def board() -> Board:
    return empires_board()


@pytest.fixture(scope="module")
def parser() -> OrderParser[Order]:
    return find_ruleset("empires").parser()


@pytest.fixture(scope="module")
def opening() -> Position:
    return opening_position()


def checked(
    parser: OrderParser[Order], board: Board, position: Position, empire: str, text: str
) -> list[OrderLine[Order]]:
    submission = parse_submission(text, parser)
    return validate_orders(board, position, empire, list(submission.lines))


def with_tiles(position: Position, empire: str, *tiles: str) -> Position:
    player = position.players[empire]
    return replace(position, players={**position.players, empire: replace(player, tiles=(*player.tiles, *tiles))})


LINES = {
    Phase.TRADE: (
        "Carthage",
        [
            "trade 4",
            "trade side 2",
            "offer wine, 2 tax, gold x2",
            "offer vino, oro",  # Spanish aliases from the data file
            "take gold from Rome",
            "take good",
            "take any",
            "give wine, tax",
        ],
    ),
    Phase.PURCHASE: (
        "Egypt",
        [
            "sequence Rome, Greece and Egypt",
            "build influence in Dacia",
            "build 2 legions in Aegyptus with 6 tax",
            "build trireme in Mare Aegyptium",
            "build caravan on grain in Aethiopia",
            "build caravan in Aethiopia on grain",
            "build legendary city in Judaea",
            "build capital in Aegyptus",
            "build city in Cyrenaica with papyrus, gold, grain",
            "build fortress in Cyrenaica",
            "build market in Aethiopia",
            "build temple in Aegyptus",
            "buy Hercules",
            "buy Pyramids with 12 tax",
        ],
    ),
    Phase.MILITARY: (
        "Rome",
        [
            "sequence Egypt, Rome",
            "sail 2 triremes from Mare Ionium to Mare Aegaeum",
            "sail trireme from Mare Tyrrhenum to Mare Ionium",
            "attack Carthage in Mare Ionium",
            "move 2 legions from Latium to Gallia",
            "move legion from Italia to Sicilia via Mare Ionium then sack city",
            "move 3 legions from Gallia to Dalmatia then occupy caravan on wine, market",
            "sack caravan on wine in Dacia",
            "sack legendary city in Judaea for good",
            "occupy city, market in Thracia",
            "convert Dacia",
            "title military to Greece",
            "title commerce to Greece, Rome",
            "legendary Asia good",
        ],
    ),
}


def with_free_sites(position: Position) -> Position:
    """The opening with what each line of LINES needs to be carried out, alone: a line the
    position already makes impossible is refused on arrival (issue 28). Egypt holds Thracia and
    Judaea and tokens for every purchase line, the sites they name unbuilt, Hercules face up;
    Rome has the legions and triremes its moves and sails name, and Carthage a trireme to fight."""
    provinces = dict(position.provinces)
    provinces["aegyptus"] = replace(provinces["aegyptus"], city=False, temple=False)
    provinces["cyrenaica"] = replace(provinces["cyrenaica"], city=False)
    for pid in ("thracia", "judaea"):
        provinces[pid] = replace(provinces[pid], influence="Egypt")
    for pid, count in (("latium", 2), ("italia", 1), ("gallia", 3)):
        provinces[pid] = replace(provinces[pid], legions=MappingProxyType({"Rome": count}))
    seas = dict(position.seas)
    seas["mare-ionium"] = SeaState(MappingProxyType({"Rome": 2, "Carthage": 1}))
    tokens = {"tax": 12, "papyrus": 2, "grain": 2, "gold": 2, "wine": 1, "oil": 1, "metal": 1, "sheep": 1}
    egypt = replace(position.players["Egypt"], resources=MappingProxyType(tokens))
    players = {**position.players, "Egypt": egypt}
    return replace(position, provinces=provinces, seas=seas, players=players, track=(*position.track, "Hercules"))


@pytest.mark.parametrize("phase", list(LINES), ids=[str(p) for p in LINES])
def test_every_order_form_parses_resolves_and_reads_back(
    parser: OrderParser[Order], board: Board, opening: Position, phase: Phase
) -> None:
    empire, lines = LINES[phase]
    position = replace(with_free_sites(opening), phase=phase)
    for text in lines:
        (line,) = checked(parser, board, position, empire, text)
        assert line.ok and line.order is not None, f"{text}: {line.problem}"
        canonical = line.order.to_text()
        (again,) = checked(parser, board, position, empire, canonical)
        assert again.order == replace(line.order, line=again.number), f"{text} -> {canonical}"


def test_names_resolve_to_the_board_s_ids(parser: OrderParser[Order], board: Board, opening: Position) -> None:
    position = replace(opening, phase=Phase.MILITARY)
    (line,) = checked(parser, board, position, "Rome", "move 2 legions from latium to GAUL")
    assert line.order is not None and line.order.to_text() == "move 2 legions from latium to gallia"


@pytest.mark.parametrize(
    ("empire", "phase", "text", "message"),
    [
        ("Rome", Phase.TRADE, "trade 3", "E5.1: only the Master of Commerce (Carthage) may give this order"),
        ("Rome", Phase.PURCHASE, "sequence Rome", "E3.3: only the Political Leader (Egypt) may give this order"),
        ("Rome", Phase.TRADE, "build legion in Latium", "E3.1: 'build' is a purchase-phase order; it is round 1"),
        ("Rome", Phase.PURCHASE, "build legion in Latuim", "unknown province 'Latuim'; did you mean 'Latium'?"),
        ("Rome", Phase.PURCHASE, "build legion in Mare Ionium", "E7.3: Mare Ionium is a sea; name a province"),
        ("Rome", Phase.MILITARY, "attack Rome in Mare Ionium", "E7.2: you cannot name yourself here"),
        ("Rome", Phase.MILITARY, "peace Greece", "E11.1: this order needs the Statue of Zeus, which you do not own"),
        ("Rome", Phase.MILITARY, "legendary Latium good", "E4.3: Latium has no legendary city site"),
        (
            "Rome",
            Phase.MILITARY,
            "sack city in Dacia for good",
            "E8.6: only a sacked legendary city pays a legendary good",
        ),
        ("Rome", Phase.PURCHASE, "build caravan on tax in Gallia", "E6.6: a caravan stands on a good, not on tax"),
    ],
)
def test_a_wrong_line_gets_one_clear_sentence(
    parser: OrderParser[Order], board: Board, opening: Position, empire: str, phase: Phase, text: str, message: str
) -> None:
    (line,) = checked(parser, board, replace(opening, phase=phase), empire, text)
    assert line.problem is not None and line.problem.message.startswith(message), line.problem


def test_three_players_cannot_name_an_absent_empire(parser: OrderParser[Order], board: Board) -> None:
    three, _ = new_position(board, ("Rome", "Greece", "Carthage"), ScriptedDice([1] * 60))
    (line,) = checked(parser, board, replace(three, phase=Phase.MILITARY), "Rome", "attack Egypt in Mare Ionium")
    assert line.problem is not None and line.problem.message == "E2.1: Egypt does not play in this game"


def test_a_syntax_error_shows_the_order_s_form(parser: OrderParser[Order], board: Board, opening: Position) -> None:
    (line,) = checked(
        parser, board, replace(opening, phase=Phase.MILITARY), "Rome", "move legions 3 from Latium to Gallia"
    )
    assert line.problem is not None
    assert line.problem.message.startswith("the number goes before the unit, as in 'move 3 legions'; write it as: move")


def test_the_colossus_choice_needs_the_colossus(parser: OrderParser[Order], board: Board, opening: Position) -> None:
    position = with_tiles(replace(opening, phase=Phase.MILITARY), "Rome", "Colossus")
    (line,) = checked(parser, board, position, "Rome", "colossus vino")
    assert line.ok and line.order is not None and line.order.to_text() == "colossus wine"


@pytest.mark.parametrize(
    "text",
    ["build 2 cities in Thracia", "build 3 influence in Dacia", "build 2 legendary cities in Judaea",
     "build 2 fortresses in Achaea", "build 2 caravans on wine in Dacia", "build 4 legions in Latium"],
)  # fmt: skip
def test_a_counted_build_reads_back(parser: OrderParser[Order], board: Board, opening: Position, text: str) -> None:
    """The soak found `build 2 citys` written to history, which replay could not read."""
    position = replace(opening, phase=Phase.PURCHASE)
    (line,) = checked(parser, board, position, "Egypt", text)
    assert line.order is not None, line.problem
    (again,) = checked(parser, board, position, "Egypt", line.order.to_text())
    assert again.order == replace(line.order, line=again.number)


@pytest.mark.parametrize(
    ("phase", "text", "message"),
    [
        (Phase.TRADE, "offer 1000000000000 tax", "E1.3: a line names at most 99 tokens"),
        (Phase.TRADE, "offer tax x" + "9" * 40, "E1.3: a line names at most 99 tokens"),
        (Phase.PURCHASE, "build 1000000000000 legions in Latium", "E1.2: an empire has at most 12 of any piece"),
    ],
)
def test_absurd_counts_get_one_sentence_at_once(
    parser: OrderParser[Order], board: Board, opening: Position, phase: Phase, text: str, message: str
) -> None:
    """The soak's 10^40 tokens crashed the parser (MemoryError, OverflowError)."""
    (line,) = checked(parser, board, replace(opening, phase=phase), "Rome", text)
    assert line.problem is not None and line.problem.message.startswith(message)


def test_a_copied_tile_s_order_is_accepted(parser: OrderParser[Order], board: Board, opening: Position) -> None:
    """Castor and Pollux copying Greece's Statue of Zeus may impose peace (E11.1)."""
    position = with_tiles(with_tiles(replace(opening, phase=Phase.MILITARY), "Rome", "Castor and Pollux"),
                          "Greece", "Statue of Zeus")  # fmt: skip
    (refused,) = checked(parser, board, position, "Rome", "peace Carthage")
    assert refused.problem is not None
    copying = replace(position, standing={"Rome": {"copy": "Statue of Zeus"}})
    (line,) = checked(parser, board, copying, "Rome", "peace Carthage")
    assert line.ok, line.problem


def test_a_trade_side_on_a_used_token_is_accepted_with_a_note(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    """Issue 28: the receipt says which side is played instead (the one `side_played` gives the engine)."""
    position = replace(opening, tokens_used=(2,))
    (used,) = checked(parser, board, position, "Carthage", "trade 2")
    assert (
        used.ok
        and used.note == "E5.7: 2 is on no trade token you still hold; 4 (the 1/4 token) is played instead (ED4)"
    )
    (free,) = checked(parser, board, position, "Carthage", "trade 5")
    assert free.ok and not free.note


def test_a_conquest_choice_another_line_overrides_is_noted_on_its_line(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    """Issue 28: of two choices for one province, the one given way says which line wins."""
    macedonia = replace(opening.provinces["macedonia"], legions=MappingProxyType({"Rome": 1}))
    position = replace(opening, phase=Phase.MILITARY, provinces={**opening.provinces, "macedonia": macedonia})
    text = "\n".join(
        [
            "move legion from Macedonia to Thracia then sack city",
            "sack temple in Thracia",
            "move legion from Latium to Gallia",
        ]
    )
    moved, sacked, other = checked(parser, board, position, "Rome", text)
    assert moved.ok and moved.note == (
        "E8.5: one choice per conquered province: line 2's choice for Thracia is carried out, not 'sack city' here"
    )
    assert sacked.ok and not sacked.note and other.ok and not other.note


@pytest.mark.parametrize(
    ("phase", "text", "message"),
    [
        (
            Phase.MILITARY,
            "sail trireme from Mare Ionium to Mare Aegyptium",
            "E7.2: Mare Aegyptium does not border Mare Ionium",
        ),
        (Phase.PURCHASE, "build city in Numidia", "E6.6: Numidia prints no city site"),
        (Phase.PURCHASE, "buy Hercules", "E6.7: Hercules is not face up on the track"),
    ],
)
def test_a_line_the_position_makes_impossible_is_refused_on_arrival(
    parser: OrderParser[Order], board: Board, opening: Position, phase: Phase, text: str, message: str
) -> None:
    """Issue 28: refused with the engine's own reason, not accepted to be skipped later."""
    (line,) = checked(parser, board, replace(opening, phase=phase), "Rome", text)
    assert line.problem is not None and line.problem.message.startswith(message), line


# ---- issue 28: the receipt follows the player's own lines, as the engine will carry them out ----


def with_units(position: Position, **places: dict[str, int]) -> Position:
    """The position with these units in these provinces and seas (legions, or triremes)."""
    provinces, seas = dict(position.provinces), dict(position.seas)
    for place, units in places.items():
        pid = place.replace("_", "-")
        if pid in seas:
            seas[pid] = SeaState(MappingProxyType(units))
        else:
            provinces[pid] = replace(provinces[pid], legions=MappingProxyType(units))
    return replace(position, provinces=provinces, seas=seas)


def holding(position: Position, empire: str, **tokens: int) -> Position:
    player = replace(position.players[empire], resources=MappingProxyType(tokens), legendary=MappingProxyType({}))
    return replace(position, players={**position.players, empire: player})


def test_a_naval_battle_an_enemy_one_sail_away_may_come_to_is_accepted_with_a_note(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    """Carthage's trireme in Mare Sardum may sail into Mare Tyrrhenum in a turn before Rome's;
    Greece's in Mare Aegaeum cannot, and once the turns before Rome's are played (stepwise) neither."""
    position = replace(opening, phase=Phase.MILITARY)
    carthage, greece = checked(
        parser, board, position, "Rome", "attack Carthage in Mare Tyrrhenum\nattack Greece in Mare Tyrrhenum"
    )
    assert carthage.ok and carthage.note == (
        "skipped unless another player's turn before yours changes this: "
        "E7.2: a naval battle needs your triremes and Carthage's in Mare Tyrrhenum"
    )
    assert greece.problem is not None
    assert greece.problem.message == "E7.2: a naval battle needs your triremes and Greece's in Mare Tyrrhenum"
    (late,) = checked(parser, board, replace(position, step="Rome"), "Rome", "attack Carthage in Mare Tyrrhenum")
    assert late.problem is not None and late.problem.message.startswith("E7.2: a naval battle needs")


def test_a_sea_move_through_a_sea_of_his_naval_battle_says_it_depends_on_the_battle(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    position = with_units(
        replace(opening, phase=Phase.MILITARY), mare_tyrrhenum={"Rome": 1, "Carthage": 1}, italia={"Rome": 1}
    )
    move, attack = checked(
        parser, board, position, "Rome", "move legion from Italia to Sicilia\nattack Carthage in Mare Tyrrhenum"
    )
    assert attack.ok and not attack.note
    assert move.ok and move.note == (
        "depends on your triremes in Mare Tyrrhenum coming through your naval battle there (E7.2)"
    )


def test_a_move_out_of_a_war_says_another_player_s_battle_may_come_first(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    """E8.4: Greece's turn, if it comes first, fights on in Gallia without an order."""
    position = with_units(replace(opening, phase=Phase.MILITARY), gallia={"Rome": 1, "Greece": 1})
    (line,) = checked(parser, board, position, "Rome", "move legion from Gallia to Latium")
    assert line.ok and line.note == (
        "depends on your legions in Gallia coming through the battle of the war there in "
        "another player's turn before yours (E8.4)"
    )
    (calm,) = checked(parser, board, replace(position, step="Rome"), "Rome", "move legion from Gallia to Latium")
    assert calm.ok and not calm.note
    form = dict(form_candidates(board, position, "Rome"))
    assert form["move 1 legion from Gallia to Latium"] == line.note, "the form says it too"


def test_a_purchase_a_later_line_s_named_set_leaves_unpaid_is_noted(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    """E6.3: the engine keeps a set a later line names for it; the earlier line is told so."""
    position = holding(replace(opening, phase=Phase.PURCHASE), "Rome", tax=3)
    legion, fortress = checked(
        parser, board, position, "Rome", "build legion in Latium\nbuild fortress in Latium with 3 tax"
    )
    assert legion.ok and legion.note == (
        "skipped once your later lines are counted: E6.3: your tokens make no set worth 3 (legion in Latium)"
    )
    assert fortress.ok and not fortress.note


def test_a_counted_build_the_tokens_pay_in_part_is_noted(
    parser: OrderParser[Order], board: Board, opening: Position
) -> None:
    position = holding(replace(opening, phase=Phase.PURCHASE), "Rome", tax=3)
    (line,) = checked(parser, board, position, "Rome", "build 2 legions in Latium")
    assert line.ok and line.note == (
        "only part of this line is carried out: E6.3: your tokens make no set worth 3 (legion in Latium)"
    )


def test_a_purchase_after_the_winning_one_is_noted(parser: OrderParser[Order], board: Board, opening: Position) -> None:
    """E10.1: the Pyramids win at once; nothing after them is bought."""
    position = holding(replace(opening, phase=Phase.PURCHASE), "Rome", tax=15)
    pyramids, legion = checked(parser, board, position, "Rome", "buy Pyramids with 12 tax\nbuild legion in Latium")
    assert pyramids.ok and not pyramids.note
    assert legion.ok and legion.note == "not carried out: your purchases win the game before it (E10)"


def test_the_form_quotes_a_piece_at_the_price_the_engine_charges(board: Board, opening: Position) -> None:
    """E11.1: with Spartacus a legion costs 1 (gladiators or tax), as `piece_cost` tells both."""
    position = with_tiles(holding(replace(opening, phase=Phase.PURCHASE), "Rome", tax=3), "Rome", "Spartacus")
    notes = dict(form_candidates(board, position, "Rome"))
    assert notes["build legion in Latium"] == "costs 1 (E6.2)"
    assert notes["build fortress in Latium"] == "costs 3 (E6.2)"
