"""Players read in their own language (issue 18): every message marked for translation has one
in every language, a player's language is set at `new` or later, and what goes out to him (a
receipt by mail, its subject) is in his language, plural forms included."""

from __future__ import annotations

import email
import email.policy
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.errors import UsageError
from adjudicator.i18n import LANGUAGES, Msg, check_language, tn
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
    inner = Msg("Answer")
    assert Msg("Not accepted: %(about)s", {"about": inner}).render("fr") == "Refusé : Réponse"
    assert str(Msg("Not accepted: %(about)s", {"about": inner})) == "Not accepted: Answer"


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
    assert "Rozkazy gracza Rome do gry g, T1 trade" in text
    assert "2 rozkazy przyjęte, 1 wiersz z błędami." in text
    assert "czy chodziło o 'wine'?" in text, "a misspelt name is answered in Polish, did-you-mean included"


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
    assert "Partida g: T1 trade." in text and "Órdenes pendientes:" in text


def test_a_private_report_and_its_form_are_in_the_player_s_language(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    args = ["new", str(folder), "--player-lang", "Carthage=pl", *(a for p in PLAYERS for a in ("--player", p))]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, ["adjudicate", str(folder), "--force"]).exit_code == 0
    polish = runner.invoke(app, ["report", str(folder), "--power", "Carthage"]).output
    assert "raport prywatny dla Carthage" in polish and "Twoje rozkazy w tej fazie" in polish
    assert "Usuń # przed rozkazami" in polish and "\npower Carthage\n" in polish, "headers paste back as they are"
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
    from adjudicator.orders import OrderParser, Piece
    from adjudicator.rulesets import find_ruleset

    rules = find_ruleset(ruleset)
    parser = OrderParser(rules.grammar, rules.transformer())
    assert parser.parse_line(Piece(1, foreign)) == parser.parse_line(Piece(1, english))


def test_a_name_holding_a_foreign_keyword_is_left_as_written() -> None:
    """Only a line that is not English as it stands is read with its keywords in English."""
    from adjudicator.orders import OrderParser, Piece
    from adjudicator.rulesets import find_ruleset

    rules = find_ruleset("mare-nostrum")
    parser = OrderParser(rules.grammar, rules.transformer())
    taken = parser.parse_line(Piece(1, "take Swiatynia Artemidy"))
    assert getattr(taken, "choice", None) == "Swiatynia Artemidy"


def test_every_language_s_password_words_are_masked() -> None:
    """A password header in another language ("Hasło: …") is masked in what is stored and
    echoed, like the English one: the masking knows every word of keywords.toml for it."""
    from adjudicator.names import normalise
    from adjudicator.orders import PASSWORD_WORDS, redact_passwords
    from adjudicator.resources import shipped_folder

    with (shipped_folder("grammar") / "keywords.toml").open("rb") as handle:
        table = tomllib.load(handle)
    words = {w for key in ("password", "pass", "secret") for ws in table[key].values() for w in ws}
    assert words | {normalise(w) for w in words} <= set(PASSWORD_WORDS)
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
    assert "Partie: demo" in written and "offre " in written and "prendre " in written, written
    assert "rome-secret" not in written
    last = sorted((tmp_path / "fr" / "reports").iterdir())[-1]
    assert "Ordres pour" in (last / "Rome.txt").read_text(encoding="utf-8")


def test_a_password_s_secret_is_never_read_as_keywords() -> None:
    """ "hasło rome-sekret" is the secret rome-sekret: were its words mapped like an order's, a
    wrong secret holding a translated keyword would pass for the right one."""
    from adjudicator.orders import Piece, in_english, in_keywords, keywords_of

    keywords = keywords_of("mare_nostrum")
    assert in_english("hasło rome-sekret", keywords) == "password rome-sekret"
    assert in_english("Jelszó: kup-legion", keywords) == "password: kup-legion"
    assert in_keywords("password rome-secret", {"password": "hasło", "secret": "sekret"}) == "hasło rome-secret"
    from adjudicator.orders import OrderParser
    from tests.random_play import RULESET

    parser: OrderParser[object] = OrderParser(RULESET.grammar, RULESET.transformer())
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

    from adjudicator.resources import shipped_folder

    english = (shipped_folder("docs") / f"{page}.md").read_text(encoding="utf-8")
    translated = (shipped_folder("docs") / f"{page}.{lang}.md").read_text(encoding="utf-8")
    assert re.findall(CLAUSE, translated) == re.findall(CLAUSE, english)
    assert len(translated.split()) > len(english.split()) * 0.8, "the whole page, not a beginning"


def test_a_rules_request_is_answered_in_the_player_s_language() -> None:
    from adjudicator.rulebook import rules_text
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
    from adjudicator.orders import OrderParser, PasswordHeader, Piece
    from adjudicator.problems import OrderSyntaxError
    from tests.random_play import RULESET

    parser: OrderParser[object] = OrderParser(RULESET.grammar, RULESET.transformer())
    broken = parser.parse_line(Piece(1, "oferuj wino,, metal"))
    assert isinstance(broken, OrderSyntaxError)
    assert broken.message.startswith("this 'oferuj' order is not understood; write it as: offer CARD")
    assert isinstance(broken.message, Msg) and "nie" in broken.message.render("pl")
    unknown = parser.parse_line(Piece(1, "fooo bar"))
    assert isinstance(unknown, OrderSyntaxError) and unknown.message.render("fr") != str(unknown.message)
    assert parser.parse_line(Piece(2, "Mot de passe : secret2")) == PasswordHeader("secret2")
