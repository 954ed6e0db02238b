"""The words an order form is written with in Polish, Hungarian, French and Spanish (the first
word of each list in grammar/keywords.toml): each one is read back as its keyword, the forms
of a demo game use the accusatives and imperatives the table chose and still pass `check`, and
the words that are not keywords of a grammar (`end`, and `pass` before a secret) mean what
they mean in English."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from adjudicator.commands import submit_orders
from adjudicator.core.names import normalise
from adjudicator.core.resources import shipped_folder
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.game.storage import read_toml
from adjudicator.game.submissions import check_submission
from adjudicator.hosting.adjudication import adjudicate
from adjudicator.language.cleaning import Piece, split_pieces
from adjudicator.language.headers import PasswordHeader
from adjudicator.language.translation import PREFERRED, _literals, foreign_keywords
from adjudicator.reports.order_form import order_form
from adjudicator.rulesets import find_ruleset

TABLE: Mapping[str, Mapping[str, list[str]]] = read_toml(shipped_folder("grammar") / "keywords.toml")
GRAMMARS = ("mare_nostrum", "empires", "mediterraneum")
FORM_RULE = "\n# " + "-" * 70 + "\n"  # under the form's first line, in every language
FORM_END = re.compile(r"\n(?:end|koniec|vége|fin)\n")


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_every_word_of_a_grammar_s_keywords_is_read_as_that_keyword(grammar: str) -> None:
    """A word two keywords of one grammar claim (in any two languages) is dropped from the
    mapping and so understood nowhere; a word that is another keyword in English means that
    one. Neither may happen: the canonical words are what every form is written with."""
    literals = _literals(grammar)
    mapping = foreign_keywords(TABLE, literals)
    for keyword, languages in TABLE.items():
        if keyword not in literals:
            continue
        for lang, words in languages.items():
            for word in words:
                read = mapping.get(normalise(word))
                assert read == keyword or (read in PREFERRED and keyword == "sequence"), (grammar, lang, word, read)


def test_the_end_words_cut_the_orders_in_every_language() -> None:
    """`end` is not a grammar keyword but the cut-off line (language/cleaning.py): each
    language's word in keywords.toml's [end] ends the orders too, and the signature after it is
    set aside."""
    words = {w for ws in TABLE["end"].values() for w in ws}
    for word in sorted(words | {normalise(w) for w in words}):
        for line in (word, word.capitalize() + ".", word.upper()):
            pieces, aside = split_pieces(f"offer wine\n{line}\nMarcus\n")
            assert [p.text for p in pieces] == ["offer wine"], line
            assert [a.reason for a in aside] == ["end of the orders", "after the end of the orders"], line
    pieces, _ = split_pieces("koniec tury: weź wine\n")  # only a line holding the word alone
    assert pieces, "a line that goes on is not the end"


@pytest.mark.parametrize("word", sorted({w for ws in TABLE["pass"].values() for w in ws} | {"pass"}))
def test_a_pass_word_alone_is_the_mediterraneum_pass_and_before_a_secret_the_password(word: str) -> None:
    """hu "passz" and fr "passe" start with "pass", which Lark matched as the keyword with the
    secret "z" or "e" glued on; a secret now stands after a space or a colon. A pass word
    followed by a secret is the password header, as English `pass SECRET` is (and is masked)."""
    rules = find_ruleset("mediterraneum")
    parser = rules.parser()
    english = parser.parse_line(Piece(1, "pass"))
    assert parser.parse_line(Piece(1, word)) == english
    assert parser.parse_line(Piece(1, f"{word} s3cret")) == PasswordHeader("s3cret")
    assert parser.parse_line(Piece(1, f"{word}: s3cret")) == PasswordHeader("s3cret")
    nostrum = find_ruleset("mare-nostrum")
    without_pass = nostrum.parser()
    assert not isinstance(without_pass.parse_line(Piece(1, word)), PasswordHeader), "a word alone holds no secret"


def _played(folder: Path, demo: str, lang: str, phases: int) -> Iterator[tuple[Game, str, str]]:
    """The demo game played in a language for some phases: after each, every player's game,
    civilization and private report."""
    spec = read_toml(shipped_folder("games") / demo / "demo.toml")["game"]
    root = hashlib.sha256(spec["dice_seed"].encode()).digest()
    players = [parse_player_spec(p) for p in spec["players"]]
    ruleset = spec.get("ruleset", "mare-nostrum")
    Game.create(folder, players, game_id=spec.get("id", "demo"), dice_root=root, lang=lang, ruleset_name=ruleset)
    for phase in sorted(p for p in (shipped_folder("games") / demo / "phases").iterdir() if p.is_dir())[:phases]:
        for orders in sorted(phase.glob("*.txt")):
            submit_orders(folder, str(orders), None)
        result = adjudicate(Game.load(folder), force=True)
        game = Game.load(folder)
        for civ in game.playing():
            yield game, civ, game.directory.private_report(result.slug, civ).read_text(encoding="utf-8")


def _form_lines_pass_check(game: Game, civ: str, report: str, lang: str) -> list[str]:
    """The form's order lines; each, uncommented in the form as the report prints it, is one
    accepted order and no error."""
    rule = report.index(FORM_RULE)
    end = FORM_END.search(report, rule)
    assert end is not None, report
    form = report[report.rindex("\n", 0, rule) + 1 : end.end()]
    lines = [line.order for line in order_form(game, game.position, civ, lang)]
    for order in lines:
        commented = next(line for line in form.splitlines() if line.startswith(f"# {order}"))
        checked = check_submission(game, form.replace(commented + "\n", commented[2:] + "\n", 1))
        bad = [e for e in checked.echo if e.status == "ERROR"]
        assert not bad and checked.accepted == 1, (lang, civ, order, bad)
    return lines


WANTED = {
    "pl": ("buduj tryremę w ", "buduj fortecę w ", "buduj karawanę na ", "buduj wpływy w ", "przesuń ", "wyślij "),
    "hu": ("építs légiót hol: ", "építs triérészt hol: ", "építs karavánt árura: ", "mozgass ", "honnan: ", "hová: "),
}
UNWANTED = {
    "pl": (" tryrema ", " forteca ", " karawana ", " świątynia ", "ruch ", "płyń ", " on ", " dla "),
    "hu": (" hol ", " honnan ", " hova ", "mozgat ", "elvesz ", "felajánl ", " on ", " légiók ", " triérészek "),
}


@pytest.mark.parametrize("lang", ["pl", "hu"])
def test_polish_and_hungarian_forms_read_with_accusatives_and_imperatives(tmp_path: Path, lang: str) -> None:
    """The Mare Nostrum demo's build, military and trade forms in Polish and Hungarian: verbs
    in the imperative, the pieces built or moved in the accusative, Hungarian place words as
    labels (`hol: Ravenna`); and every line of them still passes `check`."""
    written: list[str] = []
    for game, civ, report in _played(tmp_path / "demo", "demo", lang, phases=3):
        written += _form_lines_pass_check(game, civ, report, lang)
    text = "\n".join(f" {line} " for line in written)
    assert all(word in text for word in WANTED[lang]), [w for w in WANTED[lang] if w not in text]
    unwanted = [line for line in written if any(w in f" {line} " for w in UNWANTED[lang])]
    assert not unwanted, unwanted


def test_the_hungarian_mediterraneum_form_offers_passz_and_it_passes(tmp_path: Path) -> None:
    """`passz`, the Hungarian pass, was read as a password header; the form printed the English
    `pass` instead. It is written in Hungarian now, and sent back it is the pass order."""
    offered = []
    for game, civ, report in _played(tmp_path / "med", "demo-mediterraneum", "hu", phases=1):
        if "\n# passz" in report:
            offered += [line for line in _form_lines_pass_check(game, civ, report, "hu") if line == "passz"]
    assert offered, "a player whose turn it is may pass"
