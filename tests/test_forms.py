"""Order forms paste back: in every private report of the demo game, the form sent back as it
stands holds no line in error, and each of its orders, uncommented, is accepted by `check`."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

import adjudicator
from adjudicator.commands import submit_orders
from adjudicator.core.i18n import t, term
from adjudicator.core.resources import shipped_folder
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.game.storage import read_toml
from adjudicator.game.submissions import SubmissionError, check_submission
from adjudicator.hosting.adjudication import adjudicate
from adjudicator.language.cleaning import Piece
from adjudicator.language.submission import OrderLine
from adjudicator.reports.order_form import order_form

DEMO = shipped_folder("games") / "demo"
ORDER_LINE = re.compile(r"^# (?P<order>[a-z][^#]*?)\s*(#.*)?$")  # '# build legion in Roma   # costs 3'


def form_of(report: str) -> str:
    return report[report.index("# Orders for") : report.index("\nend\n") + len("\nend\n")]


VERBS = {"offer", "take", "trade", "give", "ulysses", "sequence", "build", "buy", "exchange", "keep", "sail"}
VERBS |= {"attack", "move", "casualties", "helen", "role", "artemis"}


def order_lines(form: str) -> list[str]:
    """The lines of a form that are orders once their '#' goes: '# VERB …' (not the notes,
    which are indented, nor the header comments)."""
    return [line for line in form.splitlines() if ORDER_LINE.match(line) and line[2:].split()[0] in VERBS]


def test_every_form_of_the_demo_game_pastes_back(tmp_path: Path) -> None:
    spec = read_toml(DEMO / "demo.toml")["game"]
    root = hashlib.sha256(spec["dice_seed"].encode()).digest()
    Game.create(tmp_path / "demo", [parse_player_spec(p) for p in spec["players"]], game_id="demo", dice_root=root)
    checked = 0
    for phase in sorted(p for p in (DEMO / "phases").iterdir() if p.is_dir()):
        for orders in sorted(phase.glob("*.txt")):
            submit_orders(tmp_path / "demo", str(orders), None)
        result = adjudicate(Game.load(tmp_path / "demo"), force=True)
        game = Game.load(tmp_path / "demo")
        for civ in game.playing():
            form = form_of(game.directory.private_report(result.slug, civ).read_text())
            unchanged = check_submission(game, "no orders\n" + form)  # headers and comments only
            assert unchanged.errors == 0, (civ, result.slug, [e for e in unchanged.echo if e.status == "ERROR"])
            lines = order_lines(form)
            assert lines, (civ, result.slug, form)
            for line in lines:
                text = form.replace(line + "\n", line[2:] + "\n")
                try:
                    single = check_submission(game, text)
                except SubmissionError as error:
                    raise AssertionError(f"{civ} {result.slug}: {line!r}: {error}") from None
                bad = [e for e in single.echo if e.status == "ERROR"]
                assert not bad and single.accepted == 1, (civ, result.slug, line, bad)
                checked += 1
    assert checked > 200


def test_the_welcome_mail_brings_a_first_form_that_pastes_back(tmp_path: Path) -> None:
    import email
    import email.policy

    from adjudicator.commands import create_game

    players = [
        "Rome:rome@example.org:rome-secret",
        "Greece:gr@example.org:greece-secret",
        "Egypt:eg@example.org:e-secret",
    ]
    for setup in ("basic", "advanced"):
        folder = tmp_path / setup
        said = create_game(folder, players, position=None, mode="batch", board=None, game_id=None,
                           ruleset="mare-nostrum", options=[f"setup={setup}"]).text  # fmt: skip
        assert "Welcome mails (each player's secret and first order form): 3 mail(s) wait in" in said
        game = Game.load(folder)
        for path in sorted((folder / "outbox").glob("*.welcome.*.eml")):
            mail = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            body = str(mail.get_content())
            assert "Your secret is:" in body and str(mail["Subject"]).startswith(f"[{setup}] Welcome: you play")
            form = form_of(body)
            lines = order_lines(form)
            assert lines, (setup, form)
            for line in lines:
                single = check_submission(game, form.replace(line + "\n", line[2:] + "\n"))
                assert single.errors == 0 and single.accepted == 1, (setup, line, single.echo)


@pytest.mark.parametrize("lang", ["pl", "hu", "fr", "es"])
def test_forms_in_each_language_paste_back_meaning_what_the_english_ones_mean(tmp_path: Path, lang: str) -> None:
    """Issue 18: a player who reads another language gets his form with that language's
    keywords, and each line, uncommented and sent back, is the same order as the English one."""
    spec = read_toml(DEMO / "demo.toml")["game"]
    root = hashlib.sha256(spec["dice_seed"].encode()).digest()
    folder = tmp_path / "demo"
    players = [parse_player_spec(p) for p in spec["players"]]
    Game.create(folder, players, game_id="demo", dice_root=root, lang=lang)
    translated = cards = 0
    for phase in sorted(p for p in (DEMO / "phases").iterdir() if p.is_dir())[:6]:
        for orders in sorted(phase.glob("*.txt")):
            submit_orders(folder, str(orders), None)
        result = adjudicate(Game.load(folder), force=True)
        game = Game.load(folder)
        for civ in game.playing():
            english, foreign = order_form(game, game.position, civ), order_form(game, game.position, civ, lang)
            assert [line.note for line in english] == [line.note for line in foreign]
            for number, (ours, theirs) in enumerate(zip(english, foreign, strict=True), start=1):
                assert _meaning(game, civ, number, theirs.order) == _meaning(game, civ, number, ours.order), (
                    lang,
                    ours.order,
                    theirs.order,
                )
                translated += theirs.order != ours.order
                cards += any(term("card", card).render(lang) in theirs.order for card in ("wine", "tax", "grain"))
            report = game.directory.private_report(result.slug, civ).read_text(encoding="utf-8")
            for line in foreign:
                assert f"# {line.order}" in report, (lang, civ, line.order)
    assert translated > 200  # every order of the demo has a keyword the language has a word for
    assert cards > 20  # and the cards are named in the language: "oferuj wino, podatek"
    head = order_form(game, game.position, "Rome", lang).head
    sent = check_submission(game, "\n".join(head).replace(t("YOUR-SECRET").render(lang), "x") + "\nno orders\n")
    assert sent.power == "Rome" and sent.errors == 0 and sent.submission.phase is not None, head
    assert not any(line.split()[0] in ("game", "power", "password") for line in head), head


def _meaning(game: Game, civ: str, number: int, text: str) -> object:
    """What a line means once its names are resolved (a card named in any language, the same card)."""
    line = OrderLine(number, text, order=game.parser.parse_line(Piece(number, text)))
    checked = game.ruleset.validate(game.board, game.position, civ, [line], game.settings.options)[0]
    assert checked.ok, (text, checked.problem)
    return checked.order


def test_no_board_name_holds_a_short_keyword_as_a_word() -> None:
    """The prepositions of one or two letters in grammar/keywords.toml (pl w, z, do; fr, es en)
    are safe only while no board name or alias has them as a word: a line naming such a place
    would have that word read as the keyword."""
    table = read_toml(shipped_folder("grammar") / "keywords.toml")
    short = {word for languages in table.values() for words in languages.values() for word in words if len(word) <= 2}
    assert {"w", "z", "do", "en"} <= short
    boards = Path(adjudicator.__file__).parent.glob("rulesets/*/boards/*.toml")
    for board in sorted(b for b in boards if not b.name.endswith(".bake.toml")):  # the baker's, not names
        text = board.read_text(encoding="utf-8")
        names = re.findall(r"^\s*(?:name|aliases)\s*=\s*(.+)$", text, re.MULTILINE)
        words = {w for line in names for w in re.findall(r"[^\W\d_]+", line.lower())}
        assert not short & words, (board.name, short & words)
