"""The order language (DESIGN.md): every canonical form, synonyms, line handling, errors."""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.core.passwords import redact_passwords
from adjudicator.language.cleaning import Piece, plain_text, split_pieces
from adjudicator.language.headers import GameHeader, PasswordHeader, PhaseHeader, PowerHeader
from adjudicator.language.parser import OrderParser
from adjudicator.language.problems import OrderSyntaxError
from adjudicator.language.submission import parse_submission
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.mare_nostrum.components import Piece as Item
from adjudicator.rulesets.mare_nostrum.components import Unit
from adjudicator.rulesets.mare_nostrum.orders import (
    ORDER_PHASES,
    Artemis,
    Build,
    Buy,
    CardCount,
    Casualties,
    Consequence,
    Exchange,
    Give,
    Helen,
    Keep,
    Move,
    NavalAttack,
    Offer,
    RoleChoice,
    Sail,
    Take,
    Then,
    TradeSize,
    TurnSequence,
    UlyssesForce,
)


@pytest.fixture(scope="module")
def parser() -> OrderParser[Any]:
    return find_ruleset("mare-nostrum").parser()


def parse(parser: OrderParser[Any], text: str) -> Any:
    return parser.parse_line(Piece(1, text))


C = CardCount
CANONICAL: list[tuple[str, object]] = [
    # headers
    ("game mn-2026-01", GameHeader("mn-2026-01")),
    ("power Rome", PowerHeader("Rome")),
    ("Power: Rome", PowerHeader("Rome")),
    ("password s3cret-X", PasswordHeader("s3cret-X")),
    ("phase T3 build", PhaseHeader(3, "build")),
    # trade (R5)
    ("trade 3", TradeSize(3)),
    ("offer wine, fish, tax, gold", Offer((C("wine"), C("fish"), C("tax"), C("gold")))),
    ("offer 3 tax", Offer((C("tax", 3),))),
    ("offer tax x3, wine", Offer((C("tax", 3), C("wine")))),
    ("offer tax x 2 and olive oil", Offer((C("tax", 2), C("olive oil")))),
    ("take gold", Take("gold")),
    ("take gold from Rome", Take("gold", "Rome")),
    ("take commodity", Take("commodity")),
    ("take tax", Take("tax")),
    ("pick fish from north of Rome", Take("fish", "north of Rome")),
    ("give fish", Give((C("fish"),))),
    ("ulysses Carthage", UlyssesForce("Carthage")),
    # build (R6)
    (
        "sequence Rome, Egypt, Greece, Babylon, Carthage",
        TurnSequence(("Rome", "Egypt", "Greece", "Babylon", "Carthage")),
    ),
    ("sequence Rome, Egypt and Greece", TurnSequence(("Rome", "Egypt", "Greece"))),
    ("build city in Alexandria", Build(Item.CITY, "Alexandria")),
    ("build city in Alexandria at Memphis", Build(Item.CITY, "Alexandria", site="Memphis")),
    ("build city at Memphis", Build(Item.CITY, None, site="Memphis")),
    ("build caravan on wine in Roma", Build(Item.CARAVAN, "Roma", commodity="wine")),
    ("build caravan in Roma on wine", Build(Item.CARAVAN, "Roma", commodity="wine")),
    ("build caravan in Sinai", Build(Item.CARAVAN, "Sinai")),
    ("build temple in Roma", Build(Item.TEMPLE, "Roma")),
    ("build market in Roma", Build(Item.MARKET, "Roma")),
    ("build fortress in Roma", Build(Item.FORTRESS, "Roma")),
    ("build legion in Roma", Build(Item.LEGION, "Roma")),
    ("build 2 legions in Roma", Build(Item.LEGION, "Roma", 2)),
    ("build trireme in Roma", Build(Item.TRIREME, "Roma")),
    ("build influence in Sinai", Build(Item.INFLUENCE, "Sinai")),
    ("place influence in Sinai", Build(Item.INFLUENCE, "Sinai")),
    ("build legion in Roma with 3 tax", Build(Item.LEGION, "Roma", payment=(C("tax", 3),))),
    (
        "build trireme in Roma with wine, gold, fish",
        Build(Item.TRIREME, "Roma", payment=(C("wine"), C("gold"), C("fish"))),
    ),
    ("buy Archimedes", Buy("Archimedes")),
    ("buy Colossus", Buy("Colossus")),
    ("buy Pyramids with 12 tax", Buy("Pyramids", (C("tax", 12),))),
    ("buy Temple of Artemis", Buy("Temple of Artemis")),
    ("buy Helen of Troy with 9 tax", Buy("Helen of Troy", (C("tax", 9),))),
    ("exchange wine for tax", Exchange("wine", "tax")),
    ("keep 2 tax", Keep((C("tax", 2),))),
    ("keep gems", Keep((C("gems"),))),
    # military (R7, R8)
    ("sequence Rome, Egypt", TurnSequence(("Rome", "Egypt"))),
    ("sail trireme from Athenae to Mare Aegaeum", Sail("Athenae", "Mare Aegaeum")),
    ("sail 2 triremes from Mare Ionium to Mare Adriaticum", Sail("Mare Ionium", "Mare Adriaticum", 2)),
    ("move 2 ships from Athenae to Mare Ionium", Sail("Athenae", "Mare Ionium", 2)),
    ("attack Carthage in Mare Ionium", NavalAttack("Carthage", "Mare Ionium")),
    ("move 3 legions from Roma to Ravenna", Move("Roma", "Ravenna", 3)),
    (
        "move legion from Athenae to Syracusae via Mare Ionium",
        Move("Athenae", "Syracusae", via=("Mare Ionium",)),
    ),
    (
        "move legion from Athenae to Roma via Mare Ionium, Mare Adriaticum",
        Move("Athenae", "Roma", via=("Mare Ionium", "Mare Adriaticum")),
    ),
    (
        "move 2 legions from Roma to Ravenna then occupy",
        Move("Roma", "Ravenna", 2, then=Then(Consequence.OCCUPY)),
    ),
    (
        "move legion from Roma to Ravenna then convert",
        Move("Roma", "Ravenna", then=Then(Consequence.CONVERT)),
    ),
    (
        "move legion from Roma to Ravenna then sack city",
        Move("Roma", "Ravenna", then=Then(Consequence.SACK, "city")),
    ),
    (
        "move legion from Roma to Ravenna then sack caravan on wine",
        Move("Roma", "Ravenna", then=Then(Consequence.SACK, "caravan wine")),
    ),
    (
        "move legion from Roma to Ravenna then sack temple",
        Move("Roma", "Ravenna", then=Then(Consequence.SACK, "temple")),
    ),
    (
        "move legion from Roma to Ravenna then sack market",
        Move("Roma", "Ravenna", then=Then(Consequence.SACK, "market")),
    ),
    (
        "move 3 legions from Babylon to Antiochia attack Babylon, Egypt",
        Move("Babylon", "Antiochia", 3, attack=("Babylon", "Egypt")),
    ),
    ("casualties fortress, legion", Casualties((Unit.FORTRESS, Unit.LEGION))),
    ("helen off", Helen(False)),
    ("helen on", Helen(True)),
    ("helen in Hierosolyma", Helen(True, "Hierosolyma")),
    ("Helen of Troy off", Helen(False)),
    ("role commerce to Egypt", RoleChoice("commerce", "Egypt")),
    ("artemis gold", Artemis("gold")),
]


@pytest.mark.parametrize(("text", "expected"), CANONICAL, ids=[t for t, _ in CANONICAL])
def test_canonical_form_parses_to_its_order(parser: OrderParser[Any], text: str, expected: object) -> None:
    assert parse(parser, text) == expected


@pytest.mark.parametrize(("text", "expected"), CANONICAL, ids=[t for t, _ in CANONICAL])
def test_keywords_are_case_insensitive(parser: OrderParser[Any], text: str, expected: object) -> None:
    shouted = " ".join(w.upper() if w.islower() else w for w in text.split(" "))
    result = parse(parser, shouted)
    assert type(result) is type(expected), f"{shouted!r} parsed to {result!r}"


def test_every_order_kind_has_a_canonical_case() -> None:
    covered = {type(order) for _, order in CANONICAL}
    assert set(ORDER_PHASES) | {TurnSequence} <= covered


@pytest.mark.parametrize(("text", "expected"), [(t, o) for t, o in CANONICAL if hasattr(o, "to_text")])
def test_to_text_parses_back_to_the_same_order(parser: OrderParser[Any], text: str, expected: Any) -> None:
    assert parse(parser, expected.to_text()) == expected


def test_split_sets_aside_quotes_comments_and_signature() -> None:
    text = "power Rome\n> quoted take gold\n# a comment\noffer wine; take gold # why\n\nend\nMarcus\n-- \n"
    pieces, aside = split_pieces(text)
    assert [(p.number, p.text) for p in pieces] == [(1, "power Rome"), (4, "offer wine"), (4, "take gold")]
    assert [(a.number, a.reason) for a in aside] == [
        (2, "quoted text"),
        (3, "comment"),
        (6, "end of the orders"),
        (7, "after the end of the orders"),
        (8, "after the end of the orders"),
    ]


def test_greetings_sign_offs_and_list_markers_are_read_as_people_write(parser: OrderParser[Any]) -> None:
    """Issue 29: a realistic mail, with a greeting, list markers and a sign-off, is all orders
    and notes: no error. A slip of the keyboard in a verb stays an error the player sees."""
    text = (
        "Hi GM,\n\nhere are my orders\npower Rome\n- offer wine\n* take gold\n\u2022 take any\n"
        "1. offer oil\n2) take tax\n**take fish**\nCheers,\nAnna\nThanks!\nbulid legion in Roma\n"
    )
    submission = parse_submission(text, parser)
    assert [(line.number, line.ok) for line in submission.lines] == [(n, True) for n in range(5, 11)] + [(14, False)]
    assert [line.text for line in submission.lines][:6] == [
        "offer wine", "take gold", "take any", "offer oil", "take tax", "take fish",
    ]  # fmt: skip
    prose = [(aside.number, aside.text) for aside in submission.set_aside if aside.reason == "prose"]
    assert prose == [(1, "Hi GM,"), (3, "here are my orders"), (11, "Cheers,"), (12, "Anna"), (13, "Thanks!")]


def test_a_bad_line_never_hides_the_others(parser: OrderParser[Any]) -> None:
    text = "power Rome\noffer wine\nmove legions 3 from Roma to Ravenna\nmvoe the gauls\ntake gold\n"
    submission = parse_submission(text, parser)
    assert [(line.number, line.ok) for line in submission.lines] == [
        (2, True),
        (3, False),
        (4, False),
        (5, True),
    ]
    assert submission.power == "Rome"


def test_unknown_verb_gets_a_suggestion(parser: OrderParser[Any]) -> None:
    error = parse(parser, "ofer wine")
    assert isinstance(error, OrderSyntaxError) and "did you mean 'offer'" in error.message


def test_known_verb_shows_the_expected_form(parser: OrderParser[Any]) -> None:
    error = parse(parser, "move legion to Ravenna")
    assert isinstance(error, OrderSyntaxError)
    assert "move [N] legion(s) from PROVINCE to PROVINCE" in error.message


def test_every_labelled_syntax_example_gets_its_label(parser: OrderParser[Any]) -> None:
    for label, examples in parser.examples.items():
        for example in examples:
            error = parse(parser, example)
            assert isinstance(error, OrderSyntaxError), f"{example!r} should not parse"
            assert error.label == label, f"{example!r}: got {error.label!r}"


def test_password_never_echoes(parser: OrderParser[Any]) -> None:
    submission = parse_submission("password: hunter22\npassword hunter22 extra\n", parser)
    echoed = [line.text for line in submission.lines] + [a.text for a in submission.set_aside]
    assert echoed and not any("hunter22" in text for text in echoed), echoed


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        ("Hasło: hunter22", "Hasło: ********"),  # the player's own word, in his language (issue 18)
        ("jelszó hunter22", "jelszó ********"),
        ("hasło ********", "hasło ********"),  # a stored submission, read again for its receipt
        ("hasło ł", "password ********"),  # a secret the word itself holds: no risk taken
    ],
)
def test_a_password_line_echoes_the_player_s_word_and_never_the_secret(
    parser: OrderParser[Any], text: str, echo: str
) -> None:
    submission = parse_submission(text + "\n", parser)
    assert [a.text for a in submission.set_aside] == [echo]


@pytest.mark.parametrize(
    "text",
    [
        "> password hunter22",
        "> > Password: hunter22",
        ">>pass hunter22",
        "# password hunter22",
        "power Rome; password hunter22",
        "pass\u00adword hunter22",
        "\u200b> password hunter22",
        "password:hunter22",
    ],
)
def test_password_is_masked_quoted_commented_or_hidden(text: str) -> None:
    assert "hunter22" not in redact_passwords(text), redact_passwords(text)


def test_quoted_password_never_echoes(parser: OrderParser[Any]) -> None:
    text = "power Rome\n> > password hunter22\n# password hunter23\n-- \npassword hunter24\n"
    submission = parse_submission(text, parser)
    echoed = " ".join(a.text for a in submission.set_aside)
    assert "********" in echoed and not any(f"hunter2{n}" in echoed for n in (2, 3, 4)), echoed


def test_words_that_start_like_password_are_not_masked() -> None:
    assert redact_passwords("passwords are nice\npass\noffer wine") == "passwords are nice\npass\noffer wine"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("\u200bpower Rome", "power Rome"),
        ("\ufeffgame test-game", "game test-game"),
        ("\u2060offer\u200c tax\u200d", "offer tax"),
        ("off\u00ader tax", "offer tax"),
        ("move legion from Roma to Mare\u2013Ionium", "move legion from Roma to Mare-Ionium"),
        ("take gold from \u201cRome\u201d", "take gold from Rome"),
        ("take gold from \u2018Rome\u2019", "take gold from Rome"),
        ("ulysses Carthage\u2019s", "ulysses Carthage's"),
        ("offer\u2009tax,\u202fwine", "offer tax, wine"),
    ],
)
def test_invisible_characters_dashes_and_quotes_are_read_plain(
    parser: OrderParser[Any], typed: str, meant: str
) -> None:
    (piece,), _ = split_pieces(typed)
    assert piece.text == meant
    assert not isinstance(parse(parser, piece.text), OrderSyntaxError)


def test_phone_em_dash_ends_the_orders() -> None:
    pieces, aside = split_pieces("offer tax\n\u2014 \nSent from my iPhone\n")
    assert [p.text for p in pieces] == ["offer tax"]
    assert [a.reason for a in aside] == ["end of the orders", "after the end of the orders"]


def test_password_keeps_its_quote_marks() -> None:
    (piece,), _ = split_pieces('password "quoted"secret\n')
    assert piece.text == 'password "quoted"secret'


def test_plain_text_leaves_ascii_alone() -> None:
    text = "offer tax\n"
    assert plain_text(text) is text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_parser_never_raises_on_arbitrary_text(parser: OrderParser[Any], text: str) -> None:
    parse_submission(text, parser)


_WORDS = st.sampled_from(
    [
        "move",
        "legion",
        "from",
        "to",
        "Roma",
        "build",
        "in",
        "with",
        "3",
        "tax",
        ",",
        "offer",
        "then",
        "sack",
        "via",
        "Mare",
        "x2",
        "helen",
        "of",
        "take",
        "password",
        ":",
        "#",
        ";",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=12))
def test_parser_never_raises_on_order_like_word_salad(parser: OrderParser[Any], words: list[str]) -> None:
    parse_submission(" ".join(words), parser)


@given(st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=30).filter(str.strip))
def test_names_keep_their_words(text: str) -> None:
    parser = find_ruleset("mare-nostrum").parser()
    result = parser.parse_line(Piece(1, f"ulysses {text}"))
    if isinstance(result, UlyssesForce):
        assert result.target.split() == text.split()
