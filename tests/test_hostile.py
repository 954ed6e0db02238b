"""Issue 27: nothing a stranger sends may stop, slow or use the judge.

One test (or a parametrized set) per item the issue found, each failing without its fix;
tests/test_hostile_run.py plays the poison mails through `run ROOT` against a real IMAP
server, tests/test_mail_fuzz.py feeds random mails under a memory cap and a time limit, and
tests/test_private_files.py checks modes and logs. No test here times anything: what a fix
saves is shown by counting the work done (bench/run.py measures time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import adjudicator.core.limits as limits
import tests.test_mail_jams as jams
from adjudicator.cli import app
from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.passwords import redact_passwords
from adjudicator.game.game import Game
from adjudicator.game.players import mail_address
from adjudicator.intake import mail as mail_module
from adjudicator.intake.collect import collect
from adjudicator.intake.mail import MailRejected, check_shape, cut_quoted_reply, parse_mail
from adjudicator.intake.markup import defused_html
from adjudicator.language.cleaning import Piece
from adjudicator.language.headers import PasswordHeader, bounded_number
from adjudicator.language.parser import OrderParser
from adjudicator.language.submission import TooManyOrders, parse_submission
from adjudicator.rulesets import find_ruleset
from tests.mail_servers import SmtpServer
from tests.test_mail import ROME_OK, deliver, mail

runner = CliRunner()
servers = jams.servers  # the fixtures of real IMAP and SMTP servers, and a game that reads them
mailed_game = jams.mailed_game
ROOT = Path(__file__).resolve().parent.parent
HUGE = "1" * 5000  # past the 4,300 digits Python converts: once a crash of every collect


def _game_and_drop(make_game: Callable[..., Game], tmp_path: Path) -> tuple[Game, Path]:
    """A five-player game and an empty folder to collect mails and posts from."""
    folder = tmp_path / "drop"
    folder.mkdir()
    return make_game(), folder


def _parser(ruleset: str) -> OrderParser[Any]:
    rules = find_ruleset(ruleset)
    return rules.parser()


def _new(tmp_path: Path, ruleset: str) -> Path:
    civs = ("Red", "Blue", "Green") if ruleset == "mediterraneum" else ("Rome", "Carthage", "Greece")
    folder = tmp_path / ruleset
    args = [a for civ in civs for a in ("--player", f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret")]
    result = runner.invoke(app, ["new", str(folder), "--ruleset", ruleset, *args])
    assert result.exit_code == 0, result.output
    return folder


# ---- 1. a number of thousands of digits, an address the email package refuses ---------------


@pytest.mark.parametrize(
    ("ruleset", "line"),
    [
        ("mare-nostrum", f"offer {HUGE} wine"),
        ("mare-nostrum", f"trade {HUGE}"),
        ("mare-nostrum", f"build {HUGE} legions in Roma"),
        ("mare-nostrum", f"phase T{HUGE} trade"),
        ("empires", f"trade {HUGE}"),
        ("empires", f"offer {HUGE} wine"),
        ("empires", f"build {HUGE} legions in Roma"),
        ("mediterraneum", f"trade {HUGE}"),
        ("mediterraneum", f"phase T{HUGE} trade"),
    ],
)
def test_a_number_of_thousands_of_digits_is_read_as_too_large(ruleset: str, line: str) -> None:
    submission = parse_submission(f"power Rome\n{line}\n", _parser(ruleset))
    assert submission.lines or submission.phase is not None  # read: an order, an error or a header
    if submission.phase is not None:
        assert submission.phase.turn == limits.ORDER_COUNT + 1


@pytest.mark.parametrize("ruleset", ["mare-nostrum", "empires", "mediterraneum"])
def test_check_refuses_a_huge_count_with_a_sentence(tmp_path: Path, ruleset: str) -> None:
    folder = _new(tmp_path, ruleset)
    result = runner.invoke(
        app,
        ["check", "--vouch", str(folder), "-", "--power", "Rome" if ruleset != "mediterraneum" else "Red"],
        input=f"offer {HUGE} wine\ntrade {HUGE}\n",
    )
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


def test_bounded_number_never_converts_a_long_number() -> None:
    assert bounded_number("12") == 12
    assert bounded_number("000012") == 12
    assert bounded_number("1000") == limits.ORDER_COUNT + 1
    assert bounded_number(HUGE) == limits.ORDER_COUNT + 1
    assert bounded_number("١٢") == 12  # Arabic-Indic digits are digits to the grammar too


@pytest.mark.parametrize(
    "address",
    ["a..b@evil.example", ".a@evil.example", "a.@evil.example", "ä@evil.example", "a@evil.example\x00", "a b@x.org"],
)
def test_an_address_the_mailer_cannot_write_is_no_address(address: str) -> None:
    assert mail_address(address) is None


def test_an_ordinary_address_is_kept_in_lower_case() -> None:
    assert mail_address("Anna.Nowak+mn@Example.ORG") == "anna.nowak+mn@example.org"
    assert mail_address("a" * 250 + "@x.org") is None


@pytest.mark.parametrize("address", ["a..b@evil.example", "ä@evil.example", ".a@evil.example", "a.@evil.example"])
def test_a_mail_from_an_odd_address_is_read_and_answered_nowhere(
    make_game: Callable[..., Game], tmp_path: Path, address: str
) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    raw = bytes(mail("power Rome\npassword guess\n"))
    raw = raw.replace(b"rome@example.org", address.encode("utf-8"), 1)
    (folder / "1-odd.eml").write_bytes(raw)
    (folder / "2-good.eml").write_bytes(bytes(mail(ROME_OK)))
    report = collect(game.directory.root, folder=folder)
    assert "accepted from Rome" in report.text, report.text
    outbox = sorted((game.directory.root / "outbox").glob("*.eml"))
    assert all(address.encode() not in path.read_bytes() for path in outbox)


def test_new_refuses_an_address_the_mailer_cannot_write_before_making_anything(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    players = ["--player", "Rome:ä@example.org:rome-secret", "--player", "Carthage:c@example.org"]
    result = runner.invoke(app, ["new", str(folder), *players, "--player", "Greece:g@example.org"])
    assert result.exit_code != 0 and "ä@example.org" in result.output and "internal error" not in result.output
    assert not folder.exists(), "no half-made game"


# ---- 2. a player's own absence of year 9999 ------------------------------------------------


def test_an_absence_in_year_9999_is_refused_as_no_date(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    (folder / "a.eml").write_bytes(bytes(mail("power Rome\npassword rome-secret\nabsence 9999-12-31\n")))
    report = collect(game.directory.root, folder=folder)
    assert "answered from Rome" in report.text, report.text
    (answer,) = (game.directory.root / "outbox").glob("*answer*.eml")
    assert "is not a date" in answer.read_text(encoding="utf-8", errors="replace")


# ---- 3. work a stranger can make the judge do ------------------------------------------------


def test_a_text_of_thousands_of_orders_is_refused_before_any_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = _parser("mare-nostrum")
    parsed: list[str] = []
    real = parser.parse_line
    monkeypatch.setattr(parser, "parse_line", lambda piece, **kw: parsed.append(piece.text) or real(piece, **kw))
    text = "power Rome\n" + "weź;" * 12_000
    with pytest.raises(TooManyOrders, match="at most 400"):
        parse_submission(text, parser)
    assert parsed == []


def test_only_the_first_errors_are_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = _parser("mare-nostrum")
    explained: list[int] = []
    real = parser._syntax_error
    monkeypatch.setattr(parser, "_syntax_error", lambda piece, *a: explained.append(piece.number) or real(piece, *a))
    submission = parse_submission("power Rome\n" + "weź\n" * 300, parser)
    assert len(explained) == limits.EXPLAINED_ERRORS
    assert len([line for line in submission.lines if line.problem is not None]) == 300
    assert "fix the errors above first" in str(
        submission.lines[-1].problem.message if submission.lines[-1].problem else ""
    )


def _pieces_parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every piece any order parser parses from now on, in order."""
    parsed: list[str] = []
    real = OrderParser.parse_line

    def counting(self: OrderParser[Any], piece: Piece, **kw: Any) -> Any:
        parsed.append(piece.text)
        return real(self, piece, **kw)

    monkeypatch.setattr(OrderParser, "parse_line", counting)
    return parsed


def test_a_mail_without_the_password_has_only_its_header_lines_parsed(
    make_game: Callable[..., Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    (folder / "a.eml").write_bytes(bytes(mail("power Rome\npassword guess\n" + "take gold from nowhere\n" * 350)))
    parsed = _pieces_parsed(monkeypatch)
    report = collect(game.directory.root, folder=folder)
    assert "rejected from Rome: the password" in report.text
    assert len(parsed) <= 4, parsed  # power and password, once to route and once to check


def test_a_post_by_someone_who_is_no_player_is_never_parsed(
    make_game: Callable[..., Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game()
    body = "power Rome\n" + "weź;" * 300
    xml = (
        '<?xml version="1.0"?><thread id="1"><articles>'
        + "".join(
            f'<article id="{n}" username="lurker{n}" postdate="2027-03-01T10:00:00+00:00"><body>{body}</body></article>'
            for n in range(20)
        )
        + "</articles></thread>"
    )
    folder = tmp_path / "drop"
    folder.mkdir()
    (folder / "thread.xml").write_text(xml, encoding="utf-8")
    calls = _pieces_parsed(monkeypatch)
    report = collect(game.directory.root, folder=folder)
    assert report.text.count("skipped: not a player") == 20 and calls == []


def test_a_punycode_body_is_read_as_utf8() -> None:
    raw = (
        b"From: a@example.org\r\nSubject: x\r\nContent-Type: text/plain; charset=punycode\r\n\r\n"
        + b"power Rome\r\n"
        + b"a" * 2000
        + b"\r\n"
    )
    text = parse_mail(raw)
    assert "power Rome" in text.text and any("unknown charset 'punycode'" in note for note in text.notes)


def test_finding_a_quoted_reply_reads_each_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    body = "power Rome\n" + "On Monday, somebody said something\n" * 20_000 + "On Mon, 1 Mar 2027, Anna wrote:\n> x\n"
    tried: list[int] = []
    real = mail_module._starts_reply
    monkeypatch.setattr(mail_module, "_starts_reply", lambda lines: tried.append(1) or real(lines))
    # the last of them and the line below read as one wrapped "On …, Anna wrote:", as clients wrap it
    assert cut_quoted_reply(body) == "power Rome\n" + "On Monday, somebody said something\n" * 19_999
    assert len(tried) == 20_001


@pytest.mark.parametrize("construct", ["<!--", "<a", "</", "<!", "<?", "<![", "<a b='"])
def test_html_that_never_closes_is_defused_in_one_pass(construct: str) -> None:
    """Every '<' left has its '>' before the next '<': html.parser then scans each tag once."""
    html = construct * 50_000
    defused = defused_html(html)
    opens = [m.start() for m in re.finditer("<", defused)]
    closes = [m.start() for m in re.finditer(">", defused)]
    for number, position in enumerate(opens):
        following = opens[number + 1] if number + 1 < len(opens) else len(defused)
        assert any(position < close < following for close in closes[:1] + closes), construct


def test_defused_html_keeps_the_text_a_browser_shows() -> None:
    html = "<p>power <b>Rome</b></p><!-- a <hidden> note --><p>offer wine &amp; fish</p><p>3 < 4</p>"
    assert mail_module.html_to_text(html) == "power Rome\noffer wine & fish\n3 < 4\n"


# ---- 4. headers that blow up the email package: refused before it parses them ----------------


@pytest.mark.parametrize(
    ("header", "what"),
    [
        (b"Subject: " + b"=?utf-8?q?a?= " * 20_000, "bytes of header lines"),
        (b"From: " + b"=?utf-8?q?a?= " * 8_000 + b"<a@example.org>", "bytes of header lines"),
        (b"Subject: " + b"=?utf-8?q?a?= " * 100, "encoded words"),
        (b"To: " + b", ".join(b"a%d@x.org" % n for n in range(60)), "addresses"),
        (b"X-Junk: " + b"x" * 9_000, "bytes"),
        (b"\r\n".join(b"X-H%d: x" % n for n in range(250)), "header fields"),
    ],
)
def test_a_header_over_a_bound_is_refused_before_it_is_parsed(
    header: bytes, what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = b"From: a@example.org\r\n" + header + b"\r\n\r\npower Rome\r\n"
    monkeypatch.setattr(mail_module.email, "message_from_bytes", _only_compat32(mail_module.email.message_from_bytes))
    with pytest.raises(MailRejected, match=what):
        check_shape(raw)


def _only_compat32(real: Callable[..., Any]) -> Callable[..., Any]:
    def parse(raw: bytes, policy: Any = None, **kwargs: Any) -> Any:
        assert policy is mail_module.compat32, "the header-parsing policy saw a mail over a bound"
        return real(raw, policy=policy, **kwargs)

    return parse


def test_deep_or_many_mime_parts_are_refused() -> None:
    def nested(depth: int) -> bytes:
        if depth == 0:
            return b"Content-Type: text/plain\r\n\r\npower Rome\r\n"
        boundary = b"b%d" % depth
        return (
            b"Content-Type: multipart/mixed; boundary="
            + boundary
            + b"\r\n\r\n--"
            + boundary
            + b"\r\n"
            + nested(depth - 1)
            + b"\r\n--"
            + boundary
            + b"--\r\n"
        )

    with pytest.raises(MailRejected, match="nested"):
        check_shape(b"From: a@example.org\r\n" + nested(limits.MAIL_DEPTH + 2))
    check_shape(b"From: a@example.org\r\n" + nested(3))


# ---- 5 and 6. the judge relays nothing, and a password opens the player's own mail only -------


def test_forged_mails_get_a_few_plain_replies_at_the_registered_address_only(
    mailed_game: Game,
    servers: tuple[int, SmtpServer],
) -> None:
    imap_port, smtp = servers
    forged = [
        mail(f"power Rome\nclick https://evil.example/{n}\n", subject=f"Urgent {n}: https://evil.example")
        for n in range(limits.REPLIES_PER_ADDRESS + 3)
    ]
    stranger = [mail("power Rome\n", sender="victim@elsewhere.example", subject="https://evil.example")]
    deliver(imap_port, *forged, *stranger)
    report = collect(mailed_game.directory.root, imap=True)
    assert {rcpt for _, rcpts, _ in smtp.received for rcpt in rcpts} == {"rome@example.org"}
    assert len(smtp.received) == limits.REPLIES_PER_ADDRESS
    for _, _, message in smtp.received:
        assert "evil" not in message.as_string()
    assert "too many rejected mails" in report.text


def test_the_orders_a_password_opens_go_to_the_registered_address_only(
    mailed_game: Game,
    servers: tuple[int, SmtpServer],
) -> None:
    imap_port, smtp = servers
    deliver(imap_port, mail(ROME_OK))
    collect(mailed_game.directory.root, imap=True)
    smtp.received.clear()
    deliver(imap_port, mail("power Rome\npassword rome-secret\norders\nbuild junk\n", sender="thief@evil.example"))
    report = collect(mailed_game.directory.root, imap=True)
    assert not smtp.messages_to("thief@evil.example"), "nothing goes to the address the mail came from"
    replies = smtp.messages_to("rome@example.org")
    assert replies and "offer wine, metal" in replies[0].get_content()
    assert "thief@evil.example" in report.text, "the moderator hears of the other address"


def _verified(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password checked against a secret's hash from now on (scrypt's work)."""
    import adjudicator.game.players as players

    checked: list[str] = []
    real = players.verify_secret
    monkeypatch.setattr(players, "verify_secret", lambda secret, stored: checked.append(secret) or real(secret, stored))
    return checked


def test_wrong_passwords_are_checked_a_few_times_then_refused_unchecked(
    make_game: Callable[..., Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    guesser = "guesser@evil.example"
    for n in range(limits.PASSWORD_FAILURES + 3):
        (folder / f"{n:02d}.eml").write_bytes(bytes(mail(f"power Rome\npassword guess-{n}\n", sender=guesser)))
    checked = _verified(monkeypatch)
    report = collect(game.directory.root, folder=folder)
    assert len(checked) == limits.PASSWORD_FAILURES
    assert report.text.count("rejected from Rome: the password for Rome is wrong") == limits.PASSWORD_FAILURES + 3
    assert "5 wrong passwords for Rome from guesser@evil.example" in report.text
    status = runner.invoke(app, ["status", str(game.directory.root)])
    assert "5 wrong passwords for Rome" in status.stdout
    later = tmp_path / "later"
    later.mkdir()
    (later / "a.eml").write_bytes(bytes(mail(ROME_OK, sender=guesser)))
    (later / "b.eml").write_bytes(bytes(mail(ROME_OK.replace("offer wine", "offer metal"))))
    text = collect(game.directory.root, folder=later).text
    assert "rejected from Rome: the password" in text, "the count holds across runs"
    assert "accepted from Rome" in text, "the player's own address is never locked out"
    assert timedelta(hours=1) == limits.PASSWORD_WINDOW


def test_forged_wrong_passwords_from_a_player_s_address_never_lock_him_out(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    for n in range(limits.PASSWORD_FAILURES + 3):
        (folder / f"{n:02d}.eml").write_bytes(bytes(mail(f"power Rome\npassword guess-{n}\n")))
    (folder / "zz-real.eml").write_bytes(bytes(mail(ROME_OK)))
    report = collect(game.directory.root, folder=folder)
    assert "accepted from Rome: 2 orders" in report.text
    assert (
        "5 wrong passwords for Rome from rome@example.org within an hour; later ones are still checked" in report.text
    )
    receipts = [p for p in (game.directory.root / "outbox").glob("*.eml") if "receipt" in p.name]
    assert len(receipts) == 1, "the player hears that his orders are in, whatever the forger used up"


# ---- 7. every spelling of a password line the parser accepts is masked ----------------------

SPELLINGS = [
    ":password X1secret",
    '"password" X2secret',
    "«password» X3secret",
    "„password” X4secret",
    "\u2003password X5secret",
    "password\u2009X6secret",
    "password\u3000X7secret",
    "Pässword X8secret",
    "passwörd X9secret",
    "ｐａｓｓｗｏｒｄ X10secret",
    "Pa\u0308ssword X11secret",
    "Hasło: X12secret",
    "mot de passe X13secret",
    "> > password X14secret",
    "# password X15secret",
    "power Rome; password X16secret; offer wine",
    "offer wine # password X17secret",
]


@pytest.mark.parametrize("line", SPELLINGS)
def test_a_password_line_is_masked_however_it_is_written(line: str) -> None:
    secret = re.search(r"X\d+secret", line)
    assert secret is not None
    assert secret.group() not in redact_passwords(line + "\n")
    submission = parse_submission(f"{line}\n", _parser("mare-nostrum"))
    echoed = [a.text for a in submission.set_aside] + [item.text for item in submission.lines]
    assert not any(secret.group() in text for text in echoed), echoed


@pytest.mark.parametrize("line", SPELLINGS[:13])
def test_the_parser_reads_each_spelling_as_the_password(line: str) -> None:
    submission = parse_submission(f"{line}\n", _parser("mare-nostrum"))
    assert submission.password is not None and "secret" in submission.password


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*"pasword PASWORD:\"'«»>-ąäöł\u2003\u3000\u200b\u00adｐ", "hasło", "mot de passe"])).map(
        "".join
    ),
    st.integers(min_value=0, max_value=10**6),
)
def test_whatever_the_parser_reads_as_a_password_is_masked(head: str, number: int) -> None:
    """The parser and the masking share one function: no line has a secret the one reads and
    the other shows."""
    token = f"Zq{number}"
    line = f"{head}{token}"
    result = _PARSER.parse_line(Piece(1, line.strip()))
    if isinstance(result, PasswordHeader) and token in result.secret:
        assert token not in redact_passwords(line)


_PARSER = _parser("mare-nostrum")


# ---- 10. posts and documented bounds --------------------------------------------------------


def test_a_post_file_longer_than_any_post_is_not_read(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    (folder / "huge.txt").write_text("power Rome\n" + "x" * (limits.POST_CHARS + 1), encoding="utf-8")
    (folder / "rome.txt").write_text(ROME_OK, encoding="utf-8")
    report = collect(game.directory.root, folder=folder)
    assert "huge.txt: not read" in report.text and "Rome: 2 orders" in report.text


def test_docs_state_every_bound() -> None:
    """docs/hosting.md's table names each bound of adjudicator/limits.py with its value."""
    table = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([A-Z_]+)` \| ([^|]+) \|", table, re.MULTILINE)}
    bounds = {name: value for name, value in vars(limits).items() if name.isupper()}
    assert set(rows) == set(bounds)
    for name, value in bounds.items():
        if isinstance(value, int):
            assert f"{value:,}" in rows[name], (name, rows[name])
        elif isinstance(value, timedelta):
            hours = int(value.total_seconds() // 3600)
            assert f"{hours} hour" in rows[name], (name, rows[name])
        else:
            assert all(str(part) in rows[name] for part in value), (name, rows[name])


def test_every_bounded_error_is_one_of_ours() -> None:
    for raw in (b"From: " + b"a@x.org, " * 200 + b"\r\n\r\nx", b"x" * (limits.MAIL_BYTES + 1)):
        with pytest.raises(AdjudicatorError):
            parse_mail(raw)


# ---- found by the review of this change -------------------------------------------------------

DIGITS = "9" * 5000


def test_a_character_reference_of_thousands_of_digits_is_text(make_game: Callable[..., Game], tmp_path: Path) -> None:
    """Python converts `&#…;` with int(): 5,000 digits once stopped every collect of the thread."""
    game, folder = _game_and_drop(make_game, tmp_path)
    body = f"&lt;p&gt;nice game &amp;#{DIGITS};&lt;/p&gt;"
    (folder / "a-thread.xml").write_text(
        '<?xml version="1.0"?><thread id="1"><articles>'
        f'<article id="1" username="Troll" postdate="2027-03-01T10:00:00+00:00"><body>{body}</body></article>'
        "</articles></thread>",
        encoding="utf-8",
    )
    page = f'<div class="post" id="p1"><a class="username">Troll</a><div class="content">&#{DIGITS};</div></div>'
    (folder / "b-topic.html").write_text(page, encoding="utf-8")
    html = EmailMessage()
    html["From"], html["Subject"] = "Rome <rome@example.org>", "orders"
    html.set_content(f"<p>power Rome<br>password rome-secret<br>offer wine &#{DIGITS};</p>", subtype="html")
    (folder / "c.eml").write_bytes(bytes(html))
    (folder / "d-rome.txt").write_text(ROME_OK, encoding="utf-8")
    report = collect(game.directory.root, folder=folder)
    assert "internal error" not in report.text and "d-rome.txt: Rome: 2 orders" in report.text, report.text
    assert "from Rome" in report.text  # the HTML mail: read, its entity as text


def test_divs_nested_a_hundred_thousand_deep_are_read_without_hanging() -> None:
    """The readers count the open divs instead of searching them: 100,000 nested divs once took
    36 s (and 300,000 on a phpBB page 282 s). The alarm is a guard against a hang, not a timing."""
    import signal

    from adjudicator.intake.threads import html_post_text, parse_phpbb_topic

    def stop(*_: object) -> None:
        raise TimeoutError("a hundred thousand nested divs hung the reader")

    nested = "<div>" * 100_000 + "power Rome" + "</div>" * 100_000
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    try:
        assert "power Rome" in html_post_text(nested)
        page = f'<div class="post" id="p1"><a class="username">Anna</a><div class="content">{nested}</div></div>'
        assert "power Rome" in parse_phpbb_topic(page)[0].body
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("suffix", [".xml", ".html"])
def test_a_thread_of_more_posts_than_the_bound_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    from adjudicator.intake import threads

    for name in ("parse_bgg_thread", "parse_phpbb_topic"):
        monkeypatch.setattr(threads, name, lambda *_: pytest.fail("a thread over the bound was parsed"))
    post = '<article username="a" postdate="2027-03-01"><body>x</body></article>'
    if suffix == ".html":
        post = '<div class="post bg2" id="p1"><div class="content">x</div></div>'
    path = tmp_path / f"thread{suffix}"
    path.write_text(post * (limits.THREAD_POSTS + 1), encoding="utf-8")
    with pytest.raises(threads.ThreadError, match="at most 5,000 are read"):
        threads.read_thread(path)


def test_parts_nested_thousands_deep_are_refused_before_they_are_parsed() -> None:
    raw = b"From: a@example.org\r\n" + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (n, n) for n in range(3000)
    )
    with pytest.raises(MailRejected, match="MIME parts"):
        check_shape(raw)


def test_the_secret_is_masked_on_every_line_it_stands_on(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game, folder = _game_and_drop(make_game, tmp_path)
    text = ROME_OK + "password=rome-secret\npasword rome-secret\n# my password is rome-secret\n"
    (folder / "a.eml").write_bytes(bytes(mail(text)))
    report = collect(game.directory.root, folder=folder)
    assert "accepted from Rome" in report.text
    for path in [*game.directory.root.glob("orders/**/*.*"), *(game.directory.root / "outbox").glob("*.eml")]:
        assert b"rome-secret" not in path.read_bytes(), path


def test_collected_drop_files_are_private_and_links_and_odd_names_go_unread(tmp_path: Path) -> None:
    from adjudicator.hosting.run import run_pass
    from tests.test_hosting import START, plain_game

    plain_game(tmp_path / "demo")
    drop = tmp_path / "demo" / "drop"
    drop.mkdir()
    (drop / "rome.eml").write_bytes(bytes(mail("power Rome\npassword rome-secret\noffer wine\n")))
    (drop / "rome.eml").chmod(0o644)
    secret = tmp_path / "demo" / "secrets.toml"
    (drop / "link.eml").symlink_to(secret)
    (drop / "forged\nNEEDS THE MODERATOR: x.txt").write_text("power Greece\noffer oil\n", encoding="utf-8")
    report = run_pass(tmp_path / "demo", START)
    assert "\nNEEDS THE MODERATOR: x" not in report.text, "a file name forges no line"
    collected = drop / "collected"
    assert oct(collected.stat().st_mode & 0o777) == "0o700"
    assert all(oct(p.stat().st_mode & 0o777) == "0o600" for p in collected.iterdir())
    copies = [p for p in (tmp_path / "demo").rglob("*.eml") if p.is_file() and not p.is_symlink()]
    assert not any(p.read_bytes() == secret.read_bytes() for p in copies), "the link was not followed"


def test_a_from_name_hiding_a_colon_and_a_line_break_keeps_the_real_address() -> None:
    raw = b"From: =?utf-8?q?Rome=0D=0ABcc:_victim@evil.example?= <rome@example.org>\r\nSubject: x\r\n\r\npower Rome\r\n"
    read = parse_mail(raw)
    assert read.sender == "rome@example.org" and "\n" not in read.sender_name
