"""Players read in their own language (issue 18): every message marked for translation has one
in every language, a player's language is set at `new` or later, and what goes out to him (a
receipt by mail, its subject) is in his language, plural forms included."""

from __future__ import annotations

import email
import email.policy
import os
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.core import i18n
from adjudicator.core.errors import UsageError
from adjudicator.core.i18n import LANGUAGES, Msg, check_language, tn
from tests.test_mail import mail

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.catalogs import extract, missing

runner = CliRunner()
PLAYERS = ["Rome:rome@example.org:rome-secret", "Carthage:carthage@example.org:carthage-secret",
           "Greece:greece@example.org:greece-secret"]  # fmt: skip


def test_every_marked_message_has_a_translation_in_every_language() -> None:
    assert len(extract()) > 10, "the code and templates mark their messages"
    gaps = missing()
    assert not gaps, "untranslated (python tools/catalogs.py, then translate): " + "; ".join(
        f"{lang}: {messages[:5]}" for lang, messages in gaps.items()
    )


POLISH = {1: "1 rozkaz przyjęty", 3: "3 rozkazy przyjęte", 5: "5 rozkazów przyjętych", 22: "22 rozkazy przyjęte"}


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        (
            "pl",
            {1: "1 rozkaz przyjęty", 3: "3 rozkazy przyjęte", 5: "5 rozkazów przyjętych", 22: "22 rozkazy przyjęte"},
        ),
        ("fr", {0: "0 ordre accepté", 1: "1 ordre accepté", 2: "2 ordres acceptés"}),
        ("hu", {1: "1 parancs elfogadva", 7: "7 parancs elfogadva"}),
        ("es", {1: "1 orden aceptada", 4: "4 órdenes aceptadas"}),
        ("en", {1: "1 order accepted", 4: "4 orders accepted"}),
    ],
)
def test_each_language_counts_with_its_own_plural_forms(lang: str, counts: dict[int, str]) -> None:
    for count, text in counts.items():
        assert tn("%(count)s order accepted", "%(count)s orders accepted", count).render(lang) == text


def test_a_message_in_a_message_is_translated_too() -> None:
    inner = Msg("not understood (fix the errors above first)")
    outer = Msg("Not understood: %(problem)s", {"problem": inner})
    assert outer.render("fr") == "Non compris : incompris (corrigez d'abord les erreurs ci-dessus)"
    assert str(outer) == "Not understood: not understood (fix the errors above first)"


def test_a_language_is_one_of_five_and_a_wrong_one_is_one_sentence() -> None:
    assert check_language(" PL ") == "pl" and set(LANGUAGES) == {"en", "pl", "hu", "fr", "es"}
    with pytest.raises(UsageError, match="'de' is not a language of the adjudicator; use one of en"):
        check_language("de")


def test_languages_are_set_at_new_and_later(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    args = ["new", str(folder), "--lang", "fr", "--player-lang", "rome=PL"]
    result = runner.invoke(app, [*args, *(a for p in PLAYERS for a in ("--player", p))])
    assert result.exit_code == 0, result.output
    settings = tomllib.loads((folder / "game.toml").read_text())
    assert settings["game"]["lang"] == "fr"
    assert {p["civ"]: p.get("lang") for p in settings["player"]} == {"Rome": "pl", "Carthage": None, "Greece": None}
    changed = runner.invoke(app, ["lang", str(folder), "hu", "--power", "greece"])
    assert changed.exit_code == 0 and "Greece's mails and reports are now in magyar (hu)." in changed.output
    wrong = runner.invoke(app, ["lang", str(folder), "klingon"])
    assert wrong.exit_code != 0 and "is not a language" in wrong.output
    settings = tomllib.loads((folder / "game.toml").read_text())
    assert [p.get("lang") for p in settings["player"]] == ["pl", None, "hu"]
    assert settings["game"]["lang"] == "fr"


def test_deadlines_are_shown_in_each_player_s_language_and_time_zone(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    assert runner.invoke(app, ["new", str(folder), *(a for p in PLAYERS for a in ("--player", p))]).exit_code == 0
    changed = runner.invoke(app, ["lang", str(folder), "pl", "--power", "Rome", "--timezone", "Europe/Warsaw"])
    assert changed.exit_code == 0 and "now in polski (pl), with deadlines in Europe/Warsaw." in changed.output
    wrong = runner.invoke(app, ["lang", str(folder), "pl", "--power", "Rome", "--timezone", "Mars/Olympus"])
    assert wrong.exit_code != 0 and "'Mars/Olympus' is not a time zone" in wrong.output
    assert runner.invoke(app, ["deadline", str(folder), "2026-12-24T17:00+00:00"]).exit_code == 0
    assert runner.invoke(app, ["remind", str(folder)]).exit_code == 0
    reminders = {}
    for path in (folder / "outbox").glob("*.reminder*.eml"):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        reminders[str(message["To"])] = str(message.get_content())  # type: ignore[attr-defined]
    rome = next(v for k, v in reminders.items() if "rome@" in k)
    assert "czwartek, 24 grudnia 2026, 18:00 (Europe/Warsaw)" in rome, rome
    carthage = next(v for k, v in reminders.items() if "carthage@" in k)
    assert "2026-12-24 17:00 UTC" in carthage, "the game's zone and the sortable form in English"


def test_a_mailed_receipt_is_in_the_player_s_language(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    args = ["new", str(folder), "--player-lang", "Rome=pl", *(a for p in PLAYERS for a in ("--player", p))]
    assert runner.invoke(app, args).exit_code == 0
    posts = tmp_path / "posts"
    posts.mkdir()
    body = "game g\npower Rome\npassword rome-secret\noffer wine, metal\ntake gold\noffer wyne\n"
    (posts / "rome.eml").write_bytes(bytes(mail(body, sender="rome@example.org")))
    result = runner.invoke(app, ["collect", str(folder), "--from", str(posts)])
    assert result.exit_code == 0, result.output
    replies = sorted((folder / "outbox").glob("*.receipt-*.eml"))
    assert replies, sorted(p.name for p in (folder / "outbox").iterdir())
    reply = email.message_from_bytes(replies[0].read_bytes(), policy=email.policy.default)
    text = str(reply.get_content())  # type: ignore[attr-defined]
    assert reply["Subject"].startswith("[g] Rozkazy otrzymane: Rome")
    assert "Rozkazy gracza Rome do gry g, T1 handel" in text
    assert "2 rozkazy przyjęte, 1 wiersz z błędami." in text
    assert "czy chodziło o 'wino'?" in text, "a misspelt name is answered in Polish, did-you-mean included"


def test_welcome_reminder_and_status_answer_are_in_each_player_s_language(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    langs = ["--player-lang", "Carthage=fr", "--player-lang", "Greece=es", "--lang", "hu"]
    assert (
        runner.invoke(app, ["new", str(folder), *langs, *(a for p in PLAYERS for a in ("--player", p))]).exit_code == 0
    )
    welcomes = {}
    for path in (folder / "outbox").glob("*.welcome.*.eml"):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        welcomes[str(message["To"])] = (str(message["Subject"]), str(message.get_content()))  # type: ignore[attr-defined]
    subject, body = next(v for k, v in welcomes.items() if "carthage@" in k)
    assert "Bienvenue : vous jouez Carthage" in subject and "Votre secret :   carthage-secret" in body
    subject, body = next(v for k, v in welcomes.items() if "greece@" in k)
    assert "Bienvenida: juegas con Greece" in subject and "Tu secreto es:   greece-secret" in body
    subject, body = next(v for k, v in welcomes.items() if "rome@" in k)
    assert "Üdvözlünk: te vagy Rome" in subject, "a player who chose none reads the game's language"
    assert runner.invoke(app, ["remind", str(folder)]).exit_code == 0
    reminders = {}
    for path in (folder / "outbox").glob("*.reminder*.eml"):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        reminders[str(message["To"])] = str(message.get_content())  # type: ignore[attr-defined]
    assert "még nem érkeztek meg" in next(v for k, v in reminders.items() if "rome@" in k)
    assert "ne sont pas encore arrivés" in next(v for k, v in reminders.items() if "carthage@" in k)
    posts = tmp_path / "posts"
    posts.mkdir()
    (posts / "greece.eml").write_bytes(
        bytes(mail("game g\npower Greece\npassword greece-secret\nstatus\n", sender="greece@example.org"))
    )
    assert runner.invoke(app, ["collect", str(folder), "--from", str(posts)]).exit_code == 0
    answers = sorted((folder / "outbox").glob("*.answer-*.eml"))
    assert answers
    text = str(email.message_from_bytes(answers[0].read_bytes(), policy=email.policy.default).get_content())  # type: ignore[attr-defined]
    assert "Partida g: T1 comercio." in text and "Órdenes pendientes:" in text


def test_a_private_report_and_its_form_are_in_the_player_s_language(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    args = ["new", str(folder), "--player-lang", "Carthage=pl", *(a for p in PLAYERS for a in ("--player", p))]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, ["adjudicate", str(folder), "--force", "--all-defaults"]).exit_code == 0
    polish = runner.invoke(app, ["report", str(folder), "--power", "Carthage"]).output
    assert "raport prywatny dla Carthage" in polish and "Twoje rozkazy w tej fazie" in polish
    assert (
        "Usuń # przed rozkazami" in polish and "\nmocarstwo Carthage\nhasło TWOJE-HASŁO\nfaza T1 budowa\n" in polish
    ), "headers in his words"
    english = runner.invoke(app, ["report", str(folder), "--power", "Rome"]).output
    assert "private report for Rome" in english and "Remove the # before the orders you want" in english


@pytest.mark.parametrize(
    ("ruleset", "foreign", "english"),
    [
        ("mare-nostrum", "zbuduj legion dans Latium", "build legion in Latium"),
        ("mare-nostrum", "construire légion dans Latium", "build legion in Latium"),
        ("mare-nostrum", "épít légiót hol Latium", "build legion in Latium"),
        ("mare-nostrum", "oferuj wine, metal", "offer wine, metal"),
        ("empires", "ofrecer wine", "offer wine"),
        ("mediterraneum", "statek 1 zaladuj wine", "ship 1 load wine"),
        ("mediterraneum", "navire 1 vers Mare Tyrrhenum", "ship 1 to Mare Tyrrhenum"),
    ],
)
def test_orders_written_in_another_language_mean_the_english_ones(ruleset: str, foreign: str, english: str) -> None:
    """Keywords of pl, hu, fr and es (grammar/keywords.toml), with or without their accents."""
    from adjudicator.language.cleaning import Piece
    from adjudicator.rulesets import find_ruleset

    rules = find_ruleset(ruleset)
    parser = rules.parser()
    assert parser.parse_line(Piece(1, foreign)) == parser.parse_line(Piece(1, english))


def test_a_name_holding_a_foreign_keyword_is_left_as_written() -> None:
    """Only a line that is not English as it stands is read with its keywords in English."""
    from adjudicator.language.cleaning import Piece
    from adjudicator.rulesets import find_ruleset

    rules = find_ruleset("mare-nostrum")
    parser = rules.parser()
    taken = parser.parse_line(Piece(1, "take Swiatynia Artemidy"))
    assert getattr(taken, "choice", None) == "Swiatynia Artemidy"


def test_every_language_s_password_words_are_masked() -> None:
    """A password header in another language ("Hasło: …") is masked in what is stored and
    echoed, like the English one: the masking knows every word of keywords.toml for it."""
    from adjudicator.core.passwords import redact_passwords
    from adjudicator.core.resources import shipped_folder

    with (shipped_folder("grammar") / "keywords.toml").open("rb") as handle:
        table = tomllib.load(handle)
    words = {w for key in ("password", "pass", "secret") for ws in table[key].values() for w in ws}
    for word in sorted(words):  # each language's own word, as written and capitalised
        for line in (f"{word} rome-secret", f"{word.capitalize()}: rome-secret"):
            assert "rome-secret" not in redact_passwords(line + "\n"), line
    text = "Gra: g\nHasło: rome-secret\njelszo rome-secret ; weź gold\n> Contraseña: rome-secret\n"
    assert "rome-secret" not in redact_passwords(text)


def test_the_demo_plays_in_another_language_to_the_same_end(tmp_path: Path) -> None:
    """`demo --lang fr`: the players' orders are written with French keywords, the reports are
    French, and the game ends where the English one does."""
    english = runner.invoke(app, ["demo", str(tmp_path / "en")])
    french = runner.invoke(app, ["demo", str(tmp_path / "fr"), "--lang", "fr"])
    assert english.exit_code == 0 and french.exit_code == 0, french.output
    assert "read their reports in français (fr)" in french.output
    assert (tmp_path / "en" / "state.toml").read_text() == (tmp_path / "fr" / "state.toml").read_text()
    first = sorted((tmp_path / "fr" / "orders").iterdir())[0]
    written = (first / "Rome.txt").read_text(encoding="utf-8")
    assert "Partie: demo" in written and "offrir " in written and "prendre " in written, written
    assert "rome-secret" not in written
    last = sorted((tmp_path / "fr" / "private").iterdir())[-1]
    assert "Ordres pour" in (last / "Rome.txt").read_text(encoding="utf-8")


def test_a_password_s_secret_is_never_read_as_keywords() -> None:
    """ "hasło rome-sekret" is the secret rome-sekret: were its words mapped like an order's, a
    wrong secret holding a translated keyword would pass for the right one."""
    from adjudicator.language.cleaning import Piece
    from adjudicator.language.translation import in_english, in_keywords, keywords_of

    keywords = keywords_of("mare_nostrum")
    assert in_english("hasło rome-sekret", keywords) == "password rome-sekret"
    assert in_english("Jelszó: kup-legion", keywords) == "password: kup-legion"
    assert in_keywords("password rome-secret", {"password": "hasło", "secret": "sekret"}) == "hasło rome-secret"
    from adjudicator.language.parser import OrderParser
    from tests.random_play import RULESET

    parser: OrderParser[object] = RULESET.parser()
    assert parser.parse_line(Piece(1, "hasło rome-sekret")) != parser.parse_line(Piece(1, "password rome-secret"))


@pytest.mark.parametrize(
    ("written", "card"),
    [("wino", "wine"), ("zboże", "grain"), ("zboze", "grain"), ("céréales", "grain"), ("arany", "gold"),
     ("oro", "gold"), ("podatki", "tax"), ("impôts", "tax"), ("háziállat", "livestock"), ("pescado", "fish")],
)  # fmt: skip
def test_cards_may_be_named_as_each_rulebook_names_them(written: str, card: str) -> None:
    from adjudicator.rulesets.mare_nostrum.checks import card_index

    assert card_index().find(written).keys == (card,)


CLAUSE = r"(?m)^(?:#+ |\*\*)([A-Z]+\d+(?:\.\d+)?)\b"  # a heading's or a bold paragraph's rule number


@pytest.mark.parametrize("lang", ["pl", "hu", "fr", "es"])
@pytest.mark.parametrize("page", ["rules", "rules-empires", "rules-mediterraneum"])
def test_each_rules_page_in_each_language_has_every_clause_of_the_english_one(page: str, lang: str) -> None:
    """A player's `rules R6.4` is answered from his language's page: it must hold the very
    numbers the messages cite, in the same order."""
    import re

    from adjudicator.core.resources import shipped_folder

    english = (shipped_folder("docs") / f"{page}.md").read_text(encoding="utf-8")
    translated = (shipped_folder("docs") / f"{page}.{lang}.md").read_text(encoding="utf-8")
    assert re.findall(CLAUSE, translated) == re.findall(CLAUSE, english)
    assert len(translated.split()) > len(english.split()) * 0.8, "the whole page, not a beginning"


def test_a_rules_request_is_answered_in_the_player_s_language() -> None:
    from adjudicator.reports.rulebook import rules_text
    from adjudicator.rulesets import find_ruleset

    english = rules_text(find_ruleset("mare-nostrum"), "R5.2")
    polish = rules_text(find_ruleset("mare-nostrum"), "R5.2", "pl")
    assert polish.startswith("### R5.2") and english.startswith("### R5.2") and polish != english
    said = runner.invoke(app, ["rules", "E8.3", "--ruleset", "empires", "--lang", "fr"])
    assert said.exit_code == 0 and said.output.startswith("### E8.3"), said.output
    assert said.output != runner.invoke(app, ["rules", "E8.3", "--ruleset", "empires"]).output


def test_a_syntax_error_in_another_language_names_the_order_and_is_translated() -> None:
    """`oferuj wino,, metal` is a broken 'offer' order, not an unknown word: the player gets the
    form to write it as, in his language; `mot de passe` is the French password header."""
    from adjudicator.language.cleaning import Piece
    from adjudicator.language.headers import PasswordHeader
    from adjudicator.language.parser import OrderParser
    from adjudicator.language.problems import OrderSyntaxError
    from tests.random_play import RULESET

    parser: OrderParser[object] = RULESET.parser()
    broken = parser.parse_line(Piece(1, "oferuj wino,, metal"))
    assert isinstance(broken, OrderSyntaxError)
    assert broken.message.startswith("this 'oferuj' order is not understood; write it as: offer CARD")
    assert isinstance(broken.message, Msg) and "nie" in broken.message.render("pl")
    unknown = parser.parse_line(Piece(1, "fooo bar"))
    assert isinstance(unknown, OrderSyntaxError) and unknown.message.render("fr") != str(unknown.message)
    assert parser.parse_line(Piece(2, "Mot de passe : secret2")) == PasswordHeader("secret2")


def _mailed(tmp_path: Path, bodies: dict[str, str], *langs: str) -> dict[str, email.message.EmailMessage]:
    """A new game whose players read `langs` (`Rome=pl`), after a collect of one mail per body
    from Rome's address: the replies by file name (welcomes left out)."""
    folder = tmp_path / "g"
    args = ["new", str(folder), *(a for lang in langs for a in ("--player-lang", lang))]
    assert runner.invoke(app, [*args, *(a for p in PLAYERS for a in ("--player", p))]).exit_code == 0
    posts = tmp_path / "posts"
    posts.mkdir()
    for name, body in bodies.items():
        (posts / f"{name}.eml").write_bytes(bytes(mail(body, sender="rome@example.org")))
    assert runner.invoke(app, ["collect", str(folder), "--from", str(posts)]).exit_code == 0
    return {
        path.name: email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        for path in (folder / "outbox").glob("*.eml")
        if ".welcome." not in path.name
    }


def _text(message: email.message.EmailMessage) -> str:
    return str(message.get_content())  # type: ignore[attr-defined]


def test_a_polish_player_s_rejection_for_a_wrong_phase_arrives_in_polish(tmp_path: Path) -> None:
    body = "game g\npower Rome\npassword rome-secret\nphase T2 build\noffer wine, metal\n"
    replies = _mailed(tmp_path, {"wrong-phase": body}, "Rome=pl")
    (reply,) = replies.values()
    text = _text(reply)
    assert (
        reply["Subject"] == "[g] Nie przyjęto: Rome, T1 handel"
        and reply["From"].addresses[0].display_name == "moderator gry g"
    )
    assert "te rozkazy są na T2 build, a teraz trwa T1" in text and "usuń wiersz 'faza'" in text, text
    assert "Temat: orders" in text and "power TWOJA-CYWILIZACJA\n    password TWOJE-HASŁO" in text


def test_the_help_answer_and_a_syntax_error_show_the_forms_in_the_player_s_language(tmp_path: Path) -> None:
    """Placeholders, explanations and 'or' of grammar/*.toml's forms are messages; the request's
    heading is in the player's keywords, and a mistyped request is answered in his language."""
    asks = "game g\npower Rome\npassword rome-secret\nhelp\nstatsu\n"
    orders = "game g\npower Rome\npassword rome-secret\noffer wine,, metal\ntake gold\n"
    replies = _mailed(tmp_path, {"1-asks": asks, "2-orders": orders}, "Rome=pl")
    answer = _text(next(m for name, m in replies.items() if ".answer-" in name))
    assert "---- pomoc (wiersz 4) ----" in answer
    assert "handel N   (tylko Dyrektor Handlowy)" in answer and "gra ID-GRY" in answer
    assert "nieobecność 2026-12-24   lub   nieobecność anuluj   (mailem: " in answer, answer
    assert "Nie zrozumiano: 'statsu' nie jest rozkazem" in answer
    receipt = _text(next(m for name, m in replies.items() if ".receipt-" in name))
    assert "napisz to tak: offer KARTA, KARTA, …   (liczbę pisz jak w 3 tax albo tax x3)" in receipt, receipt
    rows = [line for line in receipt.splitlines() if line[:4].strip().isdigit()]
    assert [row.split()[1] for row in rows] == ["nagłówek", "nagłówek", "nagłówek", "BŁĄD", "OK"], rows
    columns = {row.index(text) for row, text in zip(rows, ["game", "power", "password", "offer", "take"], strict=True)}
    assert len(columns) == 1, "the texts stay in one column after status words of any length"


def test_a_syntax_error_s_form_keeps_its_translations_through_the_receipts_file() -> None:
    from adjudicator.core.i18n import decode, encode
    from adjudicator.language.cleaning import Piece
    from adjudicator.language.parser import OrderParser
    from adjudicator.language.problems import OrderSyntaxError
    from tests.random_play import RULESET

    parser: OrderParser[object] = RULESET.parser()
    broken = parser.parse_line(Piece(1, "trade three"))
    assert isinstance(broken, OrderSyntaxError)
    stored = decode(tomllib.loads(tomli_w.dumps({"message": encode(broken.message)}))["message"])
    assert str(stored) == str(broken.message) and stored.endswith("trade N   (Commerce Director only)")
    assert stored.render("fr").endswith("trade N   (Maître du commerce seulement)")


def test_a_set_s_problem_is_worded_for_each_game_and_language() -> None:
    from collections import Counter

    from adjudicator.rulesets.kit.payment import TOKEN_SETS, set_problem

    mixed = set_problem(Counter({"tax": 1, "wine": 1}), 2, TOKEN_SETS)
    assert mixed is not None and "tokens" in mixed and "jetons impôt" in mixed.render("fr")
    short = set_problem(Counter({"wine": 1, "oil": 1}), 3)
    assert short is not None and short.render("pl") == "zestaw jest wart 2, a zakup kosztuje 3"


@pytest.fixture
def french_game(tmp_path: Path) -> Path:
    """A French game after one adjudicated phase, whose default orders let the dice offer cards."""
    folder = tmp_path / "g"
    args = ["new", str(folder), "--lang", "fr", *(a for p in PLAYERS for a in ("--player", p))]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, ["adjudicate", str(folder), "--force", "--all-defaults"]).exit_code == 0
    return folder


def test_dice_purposes_are_kept_as_messages_and_read_in_the_report_s_language(french_game: Path) -> None:
    history = tomllib.loads(next((french_game / "history").glob("001-*.toml")).read_text(encoding="utf-8"))
    first = history["dice"]["rolls"][0]["purpose"]
    assert first["msg"] == "R5.2 card offered for %(civ)s" and first["args"]["civ"] in ("Rome", "Carthage", "Greece")
    public = runner.invoke(app, ["report", str(french_game)]).output
    assert (
        f"jet 1/0 = {history['dice']['rolls'][0]['value']} : R5.2 carte proposée pour {first['args']['civ']}" in public
    )


def test_a_game_whose_history_holds_plain_dice_purposes_still_loads_and_reports(french_game: Path) -> None:
    """Games begun before purposes were messages stored them as English text: they stay so."""
    path = next((french_game / "history").glob("001-*.toml"))
    history = tomllib.loads(path.read_text(encoding="utf-8"))
    for roll in history["dice"]["rolls"]:
        roll["purpose"] = f"R5.2 card offered for {roll['purpose']['args']['civ']}"
    path.write_text(tomli_w.dumps(history), encoding="utf-8")
    for page in (french_game / "reports" / path.stem).glob("public.*"):  # made again from history
        page.unlink()
    public = runner.invoke(app, ["report", str(french_game)]).output
    assert " : R5.2 card offered for " in public, public
    verified = runner.invoke(app, ["verify-dice", str(french_game)])
    assert verified.exit_code == 0 and "all match" in verified.output


def test_the_site_s_dice_page_and_dice_json_give_purposes_in_the_game_s_language(
    french_game: Path, tmp_path: Path
) -> None:
    import json

    from adjudicator.core.dice_proof import check_published
    from adjudicator.game.game import Game
    from adjudicator.reports.site import build_site

    out = tmp_path / "site"
    build_site(Game.load(french_game), out)
    assert ": R5.2 carte proposée pour " in (out / "dice.html").read_text(encoding="utf-8")
    published = json.loads((out / "dice.json").read_text(encoding="utf-8"))
    purposes = [r["purpose"] for p in published["phases"] for r in p["rolls"]]
    assert purposes and all(p.startswith("R5.2 carte proposée pour ") for p in purposes), purposes
    assert check_published(published)[1] == [], "the proof does not depend on the words"


def test_each_ruleset_s_word_for_a_player_is_a_placeholder_the_catalogs_translate() -> None:
    """A mail that names no power is told to add 'power CIVILIZATION' (EMPIRE, COLOUR): the
    placeholder of the order forms, which the catalogs gather from grammar/*.toml."""
    from adjudicator.rulesets import REGISTRY

    catalog = extract()
    assert all(catalog.get(ruleset.player_word.upper()) is not None for ruleset in REGISTRY.values())
    assert Msg("CIVILIZATION").render("pl") == "CYWILIZACJA"


def test_a_catalog_is_compiled_once_and_read_from_this_user_s_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n.tempfile, "gettempdir", lambda: str(tmp_path))
    i18n.translations.cache_clear()
    try:
        first = i18n.translations("pl").ngettext("%(count)s order accepted", "%(count)s orders accepted", 5)
        (kept,) = (tmp_path / f"adjudicator-catalogs-{os.getuid()}").glob("pl-*.mo")
        i18n.translations.cache_clear()
        again = i18n.translations("pl").ngettext("%(count)s order accepted", "%(count)s orders accepted", 5)
        assert first == again == "%(count)s rozkazów przyjętych" and kept.stat().st_size > 10_000
        kept.chmod(0o600)
        (tmp_path / f"adjudicator-catalogs-{os.getuid()}").chmod(0o777)  # a folder others may write to
        assert i18n._compiled_cache("pl-x.mo") is None
    finally:
        i18n.translations.cache_clear()
