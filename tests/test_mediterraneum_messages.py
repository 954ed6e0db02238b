"""What Mare Mediterraneum's reports and refusals say (issue 28): the real reason, the board's
names, the rule that applies, and one sentence for a position `new` cannot start from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core.dice import ScriptedDice
from adjudicator.core.errors import DataError
from adjudicator.game.storage import without_none
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mediterraneum.engine import resolve_phase
from adjudicator.rulesets.mediterraneum.geography import ship_neighbours, space_name
from adjudicator.rulesets.mediterraneum.model import Options
from adjudicator.rulesets.mediterraneum.orders import Order
from tests.mediterraneum_support import THREE, board, opening, orders
from tests.rules.runner import load_cases, run_case
from tests.test_report_sentences import _report_context

RULESET = find_ruleset("mediterraneum")


def sentences(case_id: str, kind: str) -> list[str]:
    """Each event of a kind that a rule case emits, as the plain-text report words it."""
    case = next(c for c in load_cases() if c["id"] == case_id)
    template = Renderer(RULESET.name).environment.get_template(f"{RULESET.name}/events.txt.j2")
    module: Any = template.make_module({**_report_context(RULESET, board()), "phase_number": 7})
    return [str(module.sentence(e, None)) for e in run_case(case).events if e["kind"] == kind]


def test_a_want_for_a_good_of_his_capital_s_land_says_so_not_that_he_has_no_capital() -> None:
    (text,) = sentences("MM-11.2-02", "want_home")
    assert "has no capital" not in text, text
    assert "Red's capital produces metal goods itself" in text and "is discarded (M11.2)" in text, text


def test_art_destruction_names_a_two_part_work_by_its_halves() -> None:
    texts = sentences("MM-11.7-01", "loss_roll")
    assert not [t for t in texts if "laocoon," in t or " laocoon " in t], texts
    assert any("Laocoon (left) and Laocoon (right)" in t for t in texts), texts


def test_the_rolls_of_art_destruction_name_the_card_and_the_pieces() -> None:
    """The dice list of the report shows each roll's purpose: names, never ids."""
    case = next(c for c in load_cases() if c["id"] == "MM-11.7-01")
    position = RULESET.position_from_data(board(), case["position"], ["Red", "Blue", "Green"])
    dice = ScriptedDice(case["dice"])
    given: dict[str, list[Order]] = {c: orders(position, c, text) for c, text in case.get("orders", {}).items()}
    resolve_phase(board(), position, given, dice, Options())
    purposes = [str(r.purpose) for r in dice.rolls if "M11.7" in str(r.purpose)]
    assert purposes and all("art-destruction" not in p and "laocoon," not in p for p in purposes), purposes
    assert any("Laocoon (left) and Laocoon (right)" in p for p in purposes), purposes


def test_a_city_attack_straight_from_a_ship_cites_t91_cities_are_taken_by_land() -> None:
    position, _ = opening(THREE)
    data = RULESET.position_to_data(position)
    mover = position.step
    city = next(c for c, s in position.cities.items() if s.owner is None)
    ship_at = f"harbour:{city}"
    data["ships"] = [{"owner": mover, "number": 1, "at": ship_at}]
    data["armies"] = [{"owner": mover, "number": 1, "at": "ship:1", "since": 0}]
    position = RULESET.position_from_data(board(), data, list(position.order))
    name = board().cities[city].name
    (line,) = RULESET.validate(board(), position, mover, _lines(f"army 1 attack {name}"), {})
    assert line.problem is not None, "refused on the receipt: an army aboard never attacks a city"
    message = str(line.problem.message)
    assert "T:91" in message and "taken by land" in message and "T:77" not in message, message


def test_the_receipt_reads_an_empty_ship_s_second_space_by_the_game_s_options() -> None:
    """The receipt knows the game's options (the seam passes them): with fast_empty_ships an
    empty ship's two spaces are simply OK; without it the second is refused, as the engine does."""
    position, _ = opening(THREE)
    data = RULESET.position_to_data(position)
    mover = position.step
    city = next(c for c, s in position.cities.items() if s.owner == mover)
    data["ships"] = [{"owner": mover, "number": 1, "at": f"harbour:{city}"}]
    position = RULESET.position_from_data(board(), data, list(position.order))
    start = f"harbour:{city}"
    first = sorted(ship_neighbours(board(), start))[0]
    second = next(n for n in sorted(ship_neighbours(board(), first)) if n != start)
    text = f"ship 1 to {space_name(board(), first)}, {space_name(board(), second)}"
    fast = RULESET.check_options({"fast_empty_ships": "true"})
    (line,) = RULESET.validate(board(), position, mover, _lines(text), fast)
    assert line.ok and not line.note, (start, line)
    (line,) = RULESET.validate(board(), position, mover, _lines(text), RULESET.check_options({}))
    assert line.ok and "second space is refused" in str(line.note), line


def _lines(text: str) -> Any:
    from adjudicator.language.submission import parse_submission
    from tests.mediterraneum_support import parser

    return parse_submission(text, parser()).lines


def test_new_refuses_a_position_whose_decks_are_all_empty_in_one_sentence_naming_the_key(tmp_path: Path) -> None:
    """A state file leaves an empty table out, so such a game could not be read back: every later
    command failed on `state.toml [decks]`. `new` refuses the position instead."""
    position, _ = opening(THREE)
    data = without_none(RULESET.position_to_data(position))
    data["decks"] = {}
    path = tmp_path / "empty-decks.toml"
    path.write_text(tomli_w.dumps(data))
    players = [a for c in position.order for a in ("--player", f"{c}:{c.lower()}@example.org:{c.lower()}-secret")]
    result = CliRunner().invoke(
        app, ["new", str(tmp_path / "g"), "--ruleset", "mediterraneum", "--position", str(path), *players]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "empty-decks.toml [decks]: every deck is empty" in result.output, result.output
    assert not (tmp_path / "g" / "state.toml").exists()
    with pytest.raises(DataError) as refused:
        RULESET.position_from_data(board(), data, list(position.order))
    assert refused.value.key == "decks"


@pytest.mark.parametrize("pile", ["trade", "states", "patronage"])
def test_a_position_with_one_deck_holding_cards_starts_a_game(pile: str) -> None:
    position, _ = opening(THREE)
    data = RULESET.position_to_data(position)
    data["decks"] = {pile: data["decks"][pile][:1]}
    assert RULESET.position_from_data(board(), data, list(position.order)).order == position.order
