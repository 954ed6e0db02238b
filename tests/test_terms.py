"""The game's own words in the players' languages (issue 18): the cards, goods, `take` choices and
phases that reports and order forms name through `i18n.term`. Every form of every word the
catalogs give (Polish "wino", "wina", "win") must be one that orders accept as that very thing,
or a form written in the player's language would not paste back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core.i18n import LANGUAGES, SOURCE, counted, term, translations
from adjudicator.core.names import normalise
from adjudicator.game.game import default_board_path, load_board
from adjudicator.language.cleaning import Piece
from adjudicator.language.headers import PhaseHeader
from adjudicator.language.translation import canonical_keywords
from adjudicator.rulesets import REGISTRY, PhaseInfo
from adjudicator.rulesets.empires import validate as empires_validate
from adjudicator.rulesets.mare_nostrum.checks import card_index, take_index
from adjudicator.rulesets.mediterraneum import validate as mediterraneum_validate

FOREIGN = [lang for lang in LANGUAGES if lang != SOURCE]


def _forms(kind: str, name: str, lang: str) -> set[str]:
    """Every plural form the language's catalog gives the word (one, few, many…)."""
    catalog = translations(lang)
    return {catalog.npgettext(kind, name, name, n) for n in (1, 2, 3, 5, 11, 22, 25)}


def _mare_nostrum(board: Any, kind: str, word: str) -> str | None:
    match = take_index().find(word) if kind == "choice" else card_index().find(word)
    return next(iter(match.keys)) if len(match.keys) == 1 else None


def _empires(board: Any, kind: str, word: str) -> str | None:
    if kind == "choice":
        return empires_validate.take_class(word)
    if kind == "title":
        title = empires_validate.title_named(word)
        return None if title is None else str(title)
    return empires_validate.good_named(board, word)


def _mediterraneum(board: Any, kind: str, word: str) -> str | None:
    if kind == "building" and normalise(word) in mediterraneum_validate.WAREHOUSE_NAMES:
        return "warehouse"
    index, table = (board.building_names, board.buildings) if kind == "building" else (board.good_names, board.goods)
    match = index.find(word)
    return table[next(iter(match.keys))].name if len(match.keys) == 1 else None


LOOKUPS: dict[str, Callable[[Any, str, str], str | None]] = {
    "mare-nostrum": _mare_nostrum,
    "empires": _empires,
    "mediterraneum": _mediterraneum,
}
CHOICES = {"mare-nostrum": {"commodity": "commodity", "any": "any"}, "empires": {"good": "good", "any": "any"}}


@pytest.mark.parametrize("ruleset", list(REGISTRY))
def test_every_form_of_every_card_choice_building_and_title_is_read_back_as_that_thing(ruleset: str) -> None:
    rules = REGISTRY[ruleset]
    board = load_board(rules, default_board_path(rules))
    terms = rules.terms(board)
    assert terms["card"], "a ruleset names its cards"
    wrong = []
    for kind in ("card", "choice", "building", "title"):
        for name in terms.get(kind, ()):
            meant = CHOICES[ruleset][name] if kind == "choice" else name
            for lang in FOREIGN:
                for word in sorted(_forms(kind, name, lang)):
                    found = LOOKUPS[ruleset](board, kind, word)
                    if found != meant:
                        wrong.append(f"{lang} {kind} {name!r}: {word!r} reads as {found!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("ruleset", list(REGISTRY))
def test_a_phase_header_in_any_language_names_the_phase(ruleset: str) -> None:
    rules = REGISTRY[ruleset]
    board = load_board(rules, default_board_path(rules))
    for phase in rules.terms(board)["phase"]:
        info = PhaseInfo(3, phase, None, None, rules.turn_prefix)
        for lang in LANGUAGES:
            written = term("phase", phase).render(lang)
            assert info.is_named(3, written.upper()), (lang, phase, written)
            assert not info.is_named(4, written)
        assert info.label == f"{rules.turn_prefix}3 {phase}", "English text stays as files and logs know it"


def test_a_count_of_cards_takes_the_language_s_plural_forms() -> None:
    assert [counted("card", "wine", n).render("pl") for n in (1, 2, 5, 22)] == ["wino", "2 wina", "5 win", "22 wina"]
    assert counted("card", "tax", 3).render("fr") == "3 impôts"
    assert counted("card", "tax", 3).render("hu") == "3 adó"
    assert str(counted("card", "tax", 3)) == "3 tax" and str(term("card", "wine")) == "wine"
    assert term("card", "a card of a moderator's own board").render("pl") == "a card of a moderator's own board"


@pytest.mark.parametrize("ruleset", list(REGISTRY))
def test_a_phase_header_keeps_the_phase_as_written_though_it_is_a_keyword_elsewhere(ruleset: str) -> None:
    """Spanish "compra" (the Empires purchase phase) is also the Spanish word for `buy`: a
    `phase` header reads its phase as the player wrote it, never as a keyword put into English."""
    rules = REGISTRY[ruleset]
    parser = rules.parser()
    board = load_board(rules, default_board_path(rules))
    for phase in rules.terms(board)["phase"]:
        info = PhaseInfo(1, phase, None, None, rules.turn_prefix)
        for lang in FOREIGN:
            header = f"{_keyword(rules.grammar, 'phase', lang)} {info.label.render(lang)}"
            parsed = parser.parse_line(Piece(1, header))
            assert isinstance(parsed, PhaseHeader) and info.is_named(parsed.turn, parsed.phase), (header, parsed)


def _keyword(grammar: str, keyword: str, lang: str) -> str:
    return canonical_keywords(grammar, lang).get(keyword, keyword)


def test_an_empires_form_in_polish_names_cards_choices_and_titles_in_polish(tmp_path: Path) -> None:
    """The names are put in the player's words before the keywords: French `commerce` is also the
    French `trade`, which must not stop a Polish title line from reading `tytuł handlowy`."""
    result = CliRunner().invoke(app, ["demo", str(tmp_path / "g"), "--lang", "pl", "--ruleset", "empires"])
    assert result.exit_code == 0, result.output
    forms = "\n".join(p.read_text(encoding="utf-8") for p in (tmp_path / "g" / "private").glob("*/*.txt"))
    assert "# tytuł handlowy do " in forms and "# tytuł wojskowy do " in forms
    assert "# weź towar" in forms and "# weź cokolwiek" in forms
    assert "# title " not in forms and " commodity" not in forms
