"""Orders by mail against real servers on loopback: Dovecot (or pymap) for IMAP, aiosmtpd
for SMTP. Every case of the intake issue: accepted, rejected, flagged, decoded, quarantined,
deduplicated, recovered after a crash; receipts and reports delivered."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from imapclient import IMAPClient
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.intake.collect import collect
from tests.conftest import FIVE, player_args
from tests.mail_servers import PASSWORD, USER, SmtpServer, imap_server, smtp_server

runner = CliRunner()
ROME_OK = "game test-game\npower Rome\npassword rome-secret\noffer wine, metal\ntake gold\n"


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[tuple[int, SmtpServer]]:
    """Dovecot when installed, else pymap; a test parametrized with False gets pymap anyway."""
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    with imap_server(dovecot=getattr(request, "param", True)) as imap_port, smtp_server() as smtp:
        yield imap_port, smtp


def settings_toml(imap_port: int, smtp_port: int) -> str:
    return f"""
[intake.imap]
host = "127.0.0.1"
port = {imap_port}
security = "plain"
user = "{USER}"
password_env = "ADJ_TEST_MAIL_PASSWORD"

[delivery.smtp]
host = "127.0.0.1"
port = {smtp_port}
security = "plain"
user = "{USER}"
password_env = "ADJ_TEST_MAIL_PASSWORD"
from = "{USER}"
list = "list@example.org"
"""


@pytest.fixture
def mailed_game(make_game: Callable[..., Game], servers: tuple[int, SmtpServer]) -> Game:
    game = make_game()
    imap_port, smtp = servers
    with game.directory.game_file.open("a") as handle:
        handle.write(settings_toml(imap_port, smtp.port))
    return Game.load(game.directory.root)


def mailbox(port: int) -> IMAPClient:
    client = IMAPClient("127.0.0.1", port, ssl=False)
    client.login(USER, PASSWORD)
    client.select_folder("INBOX")
    return client


def deliver(port: int, *messages: EmailMessage | bytes) -> None:
    client = mailbox(port)
    for message in messages:
        client.append("INBOX", message if isinstance(message, bytes) else bytes(message))
    client.logout()


def mail(
    body: str,
    sender: str = "rome@example.org",
    subject: str = "orders",
    charset: str = "utf-8",
    message_id: str | None = None,
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = f"Player <{sender}>"
    message["To"] = USER
    message["Subject"] = subject
    message["Message-ID"] = message_id or make_msgid(domain="example.org")
    message.set_content(body, charset=charset)
    return message


def on_file(game: Game, civ: str = "Rome") -> str:
    path = game.directory.orders / "001-T01-trade" / f"{civ}.txt"
    return path.read_text() if path.exists() else ""


@pytest.mark.parametrize("servers", [True, False], indirect=True, ids=["installed-server", "pymap"])
def test_valid_orders_are_accepted_answered_and_moved(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    imap_port, smtp = servers
    deliver(imap_port, mail(ROME_OK))
    result = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--imap"])
    assert result.exit_code == 0, result.output
    assert "accepted from Rome: 2 orders, 0 errors" in result.stdout and "1 mail(s) sent" in result.stdout
    assert "offer wine, metal" in on_file(mailed_game) and "rome-secret" not in on_file(mailed_game)
    (receipt,) = smtp.messages_to("rome@example.org")
    body = receipt.get_content()
    assert "OK      offer wine, metal" in body and "2 orders accepted" in body and "rome-secret" not in body
    assert "Your orders on file for this phase now" in body and receipt["In-Reply-To"]
    client = mailbox(imap_port)
    assert client.search(["ALL"]) == [], "processed mail left the inbox"
    client.select_folder("Processed")
    (uid,) = client.search(["ALL"])
    assert b"\\Seen" not in client.get_flags([uid])[uid], "fetched with BODY.PEEK: still unread for the moderator"
    client.logout()


@pytest.mark.parametrize("password_line", ["password wrong-secret\n", ""])
def test_wrong_or_missing_password_changes_nothing(
    mailed_game: Game, servers: tuple[int, SmtpServer], password_line: str
) -> None:
    imap_port, smtp = servers
    deliver(imap_port, mail(f"power Rome\n{password_line}offer wine\n", sender="mallory@evil.example"))
    result = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--imap"])
    assert result.exit_code == 0 and "rejected from Rome" in result.stdout
    assert on_file(mailed_game) == ""
    assert not smtp.received, "a stranger's mail is answered nowhere: the judge mails only registered players"


@pytest.mark.parametrize("password_line", ["password wrong-secret\n", ""])
def test_a_registered_player_without_his_password_hears_why_and_nothing_is_echoed(
    mailed_game: Game, servers: tuple[int, SmtpServer], password_line: str
) -> None:
    imap_port, smtp = servers
    text = f"power Rome\n{password_line}offer wine\nVisit https://evil.example now\n"
    deliver(imap_port, mail(text, subject="Your account is locked: https://evil.example"))
    result = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--imap"])
    assert result.exit_code == 0 and "rejected from Rome" in result.stdout
    (rejection,) = smtp.messages_to("rome@example.org")
    content = rejection.get_content()
    assert "not accepted" in content and "offer wine" not in content
    assert "evil" not in content and "evil" not in str(rejection["Subject"]), "no word of the mail is echoed"


def test_right_password_from_another_address_is_accepted_and_flagged(
    mailed_game: Game, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    deliver(imap_port, mail(ROME_OK, sender="anna.private@example.net"))
    result = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--imap"])
    assert "accepted from Rome" in result.stdout
    assert "warning: test-game: Rome: sent from anna.private@example.net, not Rome's registered" in result.stdout
    assert smtp.messages_to("rome@example.org"), "the receipt goes to the registered address"


def test_html_only_mail(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    message = mail("")
    message.set_content(
        "<html><body><p>power Rome<br>password rome-secret</p><div>offer wine</div></body></html>", subtype="html"
    )
    deliver(servers[0], message)
    collect(mailed_game.directory.root, imap=True)
    assert "offer wine" in on_file(mailed_game)


@pytest.mark.parametrize("charset", ["iso-8859-2", "utf-8"])
def test_declared_charsets_are_decoded(mailed_game: Game, servers: tuple[int, SmtpServer], charset: str) -> None:
    deliver(servers[0], mail(ROME_OK + "# Zażółć gęślą jaźń\n", charset=charset))
    collect(mailed_game.directory.root, imap=True)
    assert "Zażółć gęślą jaźń" in on_file(mailed_game)


def test_quoted_reply_and_signature_are_set_aside(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    body = ROME_OK + "-- \nAnna Rossi\n\nOn Mon, 2 Mar 2026, moderator wrote:\n> offer gold\n> take fish\n"
    deliver(servers[0], mail(body))
    report = collect(mailed_game.directory.root, imap=True)
    assert "2 orders, 0 errors" in report.text
    assert "offer gold" not in on_file(mailed_game)


def test_orders_in_a_txt_attachment(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    message = mail("My orders are attached.\n")
    message.add_attachment(ROME_OK.encode(), maintype="text", subtype="plain", filename="orders.txt")
    deliver(servers[0], message)
    collect(mailed_game.directory.root, imap=True)
    assert "offer wine, metal" in on_file(mailed_game)


def test_an_oversize_mail_is_rejected_and_kept(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    deliver(servers[0], mail(ROME_OK + "# " + "x" * 1_100_000 + "\n"))
    report = collect(mailed_game.directory.root, imap=True)
    assert "rejected" in report.text and "orders mails may be at most" in report.text
    assert list(mailed_game.directory.inbox.glob("*.eml")), "the raw mail is kept"
    assert on_file(mailed_game) == ""


def test_same_message_id_twice_counts_once(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    imap_port, smtp = servers
    same = "<the-same-one@example.org>"
    deliver(imap_port, mail(ROME_OK, message_id=same), mail(ROME_OK.replace("wine", "oil"), message_id=same))
    report = collect(mailed_game.directory.root, imap=True)
    assert report.text.count("accepted") == 1 and "duplicate" in report.text
    assert "offer wine" in on_file(mailed_game)
    assert len(smtp.messages_to("rome@example.org")) == 1
    assert not (mailed_game.directory.orders / "001-T01-trade" / "superseded").exists()


def test_crash_between_saving_and_marking_loses_and_doubles_nothing(
    mailed_game: Game, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    deliver(
        imap_port,
        mail(ROME_OK),
        mail(
            ROME_OK.replace("Rome", "Egypt").replace("rome-", "egypt-").replace("wine, metal", "tax"),
            sender="egypt@example.org",
        ),
    )
    first = collect(mailed_game.directory.root, imap=True, mark=False)  # the process dies before marking
    assert first.text.count("accepted") == 2
    client = mailbox(imap_port)
    assert len(client.search(["ALL"])) == 2, "nothing was marked: the mails are offered again"
    client.logout()
    second = collect(mailed_game.directory.root, imap=True)
    assert second.text.count("duplicate") == 2 and "accepted" not in second.text
    assert len(list(mailed_game.directory.inbox.glob("*.eml"))) == 2
    client = mailbox(imap_port)
    assert client.search(["ALL"]) == []
    client.logout()
    assert len(smtp.messages_to("rome@example.org")) == 1, "one receipt per mail"


def test_one_inbox_for_many_games_routes_and_quarantines(
    make_game: Callable[..., Game], tmp_path: Path, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    root = tmp_path / "games"
    for name in ("alpha", "beta"):
        Game.create(root / name, [parse_player_spec(p) for p in player_args(FIVE)])
    (root / "intake.toml").write_text(settings_toml(imap_port, smtp.port))
    deliver(
        imap_port,
        mail(ROME_OK.replace("game test-game\n", ""), subject="[beta] my orders"),
        mail(ROME_OK.replace("test-game", "alpha")),
        mail(ROME_OK.replace("test-game", "gamma")),
    )
    result = runner.invoke(app, ["collect", str(root), "--imap"])
    assert result.exit_code == 0, result.output
    assert "beta: accepted from Rome" in result.stdout and "alpha: accepted from Rome" in result.stdout
    assert "quarantined: there is no game 'gamma' here" in result.stdout
    assert len(list((root / "quarantine").glob("*.eml"))) == 1
    client = mailbox(imap_port)
    client.select_folder("Quarantine")
    assert len(client.search(["ALL"])) == 1
    client.logout()


def test_folder_of_files_collects_posts_and_mails(mailed_game: Game, tmp_path: Path) -> None:
    posts = tmp_path / "posts"
    posts.mkdir()
    (posts / "forum-rome.txt").write_text("[quote]earlier[/quote]\npower Rome\noffer wine\n")
    (posts / "egypt.eml").write_bytes(
        bytes(
            mail(
                ROME_OK.replace("Rome", "Egypt").replace("rome-", "egypt-").replace("wine, metal", "tax"),
                sender="egypt@example.org",
            )
        )
    )
    result = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--from", str(posts)])
    assert result.exit_code == 0, result.output
    assert "forum-rome.txt: Rome: 1 order" in result.stdout and "accepted from Egypt" in result.stdout
    again = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--from", str(posts)])
    assert "already collected" in again.stdout and "duplicate" in again.stdout


def test_late_orders_are_kept_but_count_only_when_accepted(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    root = str(mailed_game.directory.root)
    assert runner.invoke(app, ["deadline", root, "2000-01-01T00:00"]).exit_code == 0
    deliver(servers[0], mail(ROME_OK))
    result = runner.invoke(app, ["collect", root, "--imap"])
    assert "late from Rome" in result.stdout and on_file(mailed_game) == ""
    (receipt,) = servers[1].messages_to("rome@example.org")
    assert "AFTER THE DEADLINE" in receipt.get_content() and "LATE" in receipt["Subject"]
    accepted = runner.invoke(app, ["accept-late", root, "Rome"])
    assert accepted.exit_code == 0 and "offer wine, metal" in on_file(mailed_game)


def test_reminders_and_reports_are_mailed_with_safe_headers(
    make_game: Callable[..., Game], tmp_path: Path, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in FIVE]
    specs[0] = parse_player_spec("Rome:rome@example.org:rome-secret:Zoë Ærø")
    game, _ = Game.create(tmp_path / "g", specs)
    with game.directory.game_file.open("a") as handle:
        handle.write(settings_toml(imap_port, smtp.port))
    data = tomllib.loads(game.directory.game_file.read_text())
    data["player"][1]["name"] = "Evil\nBcc: victim@example.org"
    import tomli_w

    game.directory.game_file.write_text(tomli_w.dumps(data))
    root = str(game.directory.root)
    refused = runner.invoke(app, ["remind", root])
    assert refused.exit_code == 1 and "[player[1].name]: holds a line break" in refused.output, refused.output
    data["player"][1]["name"] = "Evil Bcc: victim@example.org"  # one line that looks like a header
    game.directory.game_file.write_text(tomli_w.dumps(data))
    reminded = runner.invoke(app, ["remind", root])
    assert reminded.exit_code == 0 and "5 mail(s) sent" in reminded.stdout, reminded.output
    assert runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"]).exit_code == 0
    dry = runner.invoke(app, ["send", root, "--dry-run"])
    assert dry.exit_code == 0 and "dry run" in dry.stdout
    assert len(list((game.directory.root / "outbox" / "dry-run").glob("*.eml"))) == 6
    sent = runner.invoke(app, ["send", root])
    assert sent.exit_code == 0 and "6 mail(s) sent" in sent.stdout, sent.output
    assert all("victim@example.org" not in rcpts for _, rcpts, _ in smtp.received), "no header injection"
    carthage = [m for m in smtp.messages_to("carthage@example.org") if "your report" in m["Subject"]]
    assert carthage and "\n" not in str(carthage[0]["To"]) and "Evil Bcc: victim@example.org" in str(carthage[0]["To"])
    rome = [m for m in smtp.messages_to("rome@example.org") if "your report" in m["Subject"]]
    assert str(rome[0]["To"]) == "Zoë Ærø <rome@example.org>"
    (public,) = smtp.messages_to("list@example.org")
    assert "What happened" in public.get_content()


def test_a_whole_turn_from_mailbox_to_reports(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    imap_port, smtp = servers
    root = str(mailed_game.directory.root)
    hands = {civ: mailed_game.state_data()["players"][civ]["hand"] for civ in FIVE}
    for civ in FIVE:
        first_card = sorted(hands[civ])[0]
        body = f"game test-game\npower {civ}\npassword {civ.lower()}-secret\noffer {first_card}\ntake commodity\n"
        if civ == "Carthage":
            body += "trade 1\n"
        deliver(imap_port, mail(body, sender=f"{civ.lower()}@example.org"))
    collected = runner.invoke(app, ["collect", root, "--imap"])
    assert collected.stdout.count("accepted") == 5, collected.output
    assert "5 of 5 in." in runner.invoke(app, ["status", root]).stdout
    adjudicated = runner.invoke(app, ["adjudicate", root])
    assert adjudicated.exit_code == 0, adjudicated.output
    sent = runner.invoke(app, ["send", root])
    assert sent.exit_code == 0, sent.output
    for civ in FIVE:
        reports = [m for m in smtp.messages_to(f"{civ.lower()}@example.org") if "your report" in m["Subject"]]
        assert len(reports) == 1 and f"private report for {civ}" in reports[0].get_body(("plain",)).get_content()
    assert smtp.messages_to("list@example.org")


def test_flag_mode_marks_instead_of_moving(make_game: Callable[..., Game], servers: tuple[int, SmtpServer]) -> None:
    from tests.mail_servers import dovecot_binary

    if dovecot_binary() is None:
        pytest.skip("pymap, the fallback server, drops custom keywords; flag mode needs Dovecot")
    imap_port, smtp = servers
    game = make_game()
    with game.directory.game_file.open("a") as handle:
        handle.write(
            settings_toml(imap_port, smtp.port).replace(
                'password_env = "ADJ_TEST_MAIL_PASSWORD"\n',
                'password_env = "ADJ_TEST_MAIL_PASSWORD"\nprocessed = "flag"\n',
                1,
            )
        )
    deliver(imap_port, mail(ROME_OK))
    assert "accepted" in collect(game.directory.root, imap=True).text
    client = mailbox(imap_port)
    (uid,) = client.search(["ALL"])
    assert b"$Processed" in client.get_flags([uid])[uid]
    client.logout()
    assert "No new mail." in collect(game.directory.root, imap=True).text


def test_without_smtp_settings_mail_waits_in_the_outbox(make_game: Callable[..., Game]) -> None:
    game = make_game()
    result = runner.invoke(app, ["remind", str(game.directory.root)])
    assert result.exit_code == 0 and "5 mail(s) wait in" in result.stdout and "[delivery.smtp]" in result.stdout
    assert len(list((game.directory.root / "outbox").glob("*.eml"))) == 5


def test_status_lists_what_the_moderator_should_look_at(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    deliver(servers[0], mail(ROME_OK, sender="anna.private@example.net"), mail("power Egypt\noffer tax\n"))
    collect(mailed_game.directory.root, imap=True)
    status = runner.invoke(app, ["status", str(mailed_game.directory.root)]).stdout
    assert "To look at:" in status and "sent from anna.private@example.net" in status
    assert "rejected: mail from rome@example.org: the mail has no 'password' line" in status


def test_welcome_mails_queued_before_the_settings_leave_from_the_address_set_then(
    tmp_path: Path, servers: tuple[int, SmtpServer]
) -> None:
    """Issue 29: `new` queued the welcome mails before [delivery.smtp] was set; `send` mailed them
    From moderator@GAME.invalid, telling the players to write there, and --dry-run left them out."""
    imap_port, smtp = servers
    root = tmp_path / "spring"
    players = [a for civ in ("Rome", "Carthage", "Greece") for a in ("--player", f"{civ}:{civ.lower()}@example.org")]
    assert runner.invoke(app, ["new", str(root), *players]).exit_code == 0
    waiting = sorted((root / "outbox").glob("*.welcome.*"))
    assert len(waiting) == 3 and b".invalid" in waiting[0].read_bytes(), "queued by `new`, before the settings"
    with (root / "game.toml").open("a") as handle:
        handle.write(settings_toml(imap_port, smtp.port))
    dry = runner.invoke(app, ["send", str(root), "--dry-run"])
    assert "3 mail(s) written" in dry.stdout and "3 of them waiting in outbox/ already" in dry.stdout, dry.stdout
    shown = sorted((root / "outbox" / "dry-run").glob("*.welcome.*"))
    assert len(shown) == 3 and all(b".invalid" not in path.read_bytes() for path in shown)
    sent = runner.invoke(app, ["send", str(root)])
    assert sent.exit_code == 0 and "3 mail(s) sent" in sent.stdout, sent.output
    (welcome,) = smtp.messages_to("rome@example.org")
    assert welcome["From"].addresses[0].addr_spec == USER
    body = welcome.get_content()
    assert ".invalid" not in body and USER in body and "your secret" in body.lower(), body


def test_collect_keeps_its_report_when_the_smtp_password_is_not_exported(
    make_game: Callable[..., Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: with the password variable unset, `collect` printed only the error, and the lines
    saying whose orders were accepted were lost (`run` printed them)."""
    monkeypatch.delenv("ADJ_TEST_MAIL_PASSWORD", raising=False)
    game = make_game()
    settings = settings_toml(1, 1)
    with game.directory.game_file.open("a") as handle:
        handle.write(settings[settings.index("[delivery.smtp]") :])  # the sending half only
    posts = tmp_path / "posts"
    posts.mkdir()
    (posts / "rome.txt").write_text("power Rome\noffer wine\n")
    (game.directory.root / "outbox").mkdir(exist_ok=True)
    (game.directory.root / "outbox" / "waiting.eml").write_bytes(b"From: a@example.org\nTo: b@example.org\n\nhi\n")
    result = runner.invoke(app, ["collect", str(game.directory.root), "--from", str(posts)])
    assert result.exit_code == 0, result.output  # the orders are in; the mail waits, and a warning says why
    assert "rome.txt: Rome: 1 order, 0 errors" in result.output, result.output
    assert "warning: test-game: the environment variable ADJ_TEST_MAIL_PASSWORD is not set" in result.output
    assert "wait in outbox/" in result.output
