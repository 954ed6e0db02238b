"""Mails as real clients write them (issue 13, items 6, 8-11 and 14): Thunderbird's
format=flowed, Outlook's empty text part beside the HTML, Gmail's wrapped reply line, a phone's
em dash and a web page's zero-width spaces, orders in an attachment under a covering note, and
a password quoted back. Each mail is literal bytes as the client sends it; each situation is
read by `parse_mail` and also collected end to end, from a folder of .eml files or from a real
IMAP server."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.intake.collect import collect
from adjudicator.intake.mail import parse_mail, unflow
from tests.mail_servers import PASSWORD, USER, SmtpServer, imap_server, smtp_server

runner = CliRunner()


def crlf(text: str) -> bytes:
    """A mail as it travels: CR LF line ends."""
    return text.replace("\n", "\r\n").encode("utf-8")


def on_file(game: Game, civ: str) -> str:
    path = game.directory.orders / "001-T01-trade" / f"{civ}.txt"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def receipts(game: Game, address: str) -> list[str]:
    """The bodies of the receipts waiting in (or sent from) the game's outbox for `address`."""
    bodies = []
    for path in sorted(game.directory.root.glob("outbox/**/*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if isinstance(message, EmailMessage) and address in str(message["To"]):
            part = message.get_body(preferencelist=("plain",))
            assert part is not None
            bodies.append(part.get_content())
    return bodies


def collected(game: Game, folder: Path, *mails: bytes) -> str:
    """Collect the mails as .eml files of a folder, as `adjudicator collect --from` does."""
    folder.mkdir(exist_ok=True)
    for number, raw in enumerate(mails, start=1):
        (folder / f"mail-{number:02d}.eml").write_bytes(raw)
    return collect(game.directory.root, folder=folder).text


# -- the mails -----------------------------------------------------------------------------

SP = " "  # a space that ends a line: format=flowed's soft break, and the signature's "-- "

THUNDERBIRD_FLOWED = crlf(
    f"""From: Anna Kowalska <rome@example.org>
To: gm@example.org
Subject: [test-game] orders T1
Message-ID: <8e1f0c2a-tb@example.org>
Date: Mon, 3 Mar 2027 17:12:03 +0100
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-US
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

game test-game
power Rome
password rome-secret
take gold from Carthage; take commodity from Greece; take tax from{SP}
Egypt; take any
offer tax

--{SP}
Anna
"""
)

APPLE_FLOWED_DELSP = crlf(
    f"""From: Anna Kowalska <rome@example.org>
To: gm@example.org
Subject: [test-game] orders T1
Message-ID: <C0FFEE-apple@example.org>
Mime-Version: 1.0 (Mac OS X Mail 16.0)
X-Mailer: Apple Mail (2.3731)
Content-Type: text/plain; charset=us-ascii; format=flowed; delsp=yes
Content-Transfer-Encoding: 7bit

game test-game
power Rome
password rome-secret
take gold from Carthage; take commodity from Greece; take tax from Eg{SP}
ypt; take any
offer tax
"""
)

OUTLOOK_EMPTY_PLAIN = crlf(
    """From: "Nowak, Bela" <carthage@example.org>
To: "gm@example.org" <gm@example.org>
Subject: RE: [test-game] T1 trade
Thread-Topic: [test-game] T1 trade
Message-ID: <DB9PR07MB1234ABCD@DB9PR07MB1234.eurprd07.prod.outlook.com>
Content-Language: en-US
X-MS-Has-Attach:
Content-Type: multipart/alternative;
\tboundary="_000_DB9PR07MB1234ABCD_"
MIME-Version: 1.0

--_000_DB9PR07MB1234ABCD_
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

=20

--_000_DB9PR07MB1234ABCD_
Content-Type: text/html; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

<html xmlns:o=3D"urn:schemas-microsoft-com:office:office"><head>
<meta http-equiv=3D"Content-Type" content=3D"text/html; charset=3Dus-ascii">
<style><!-- p.MsoNormal {margin:0cm; font-size:11.0pt;} --></style></head>
<body lang=3D"EN-US"><div class=3D"WordSection1">
<p class=3D"MsoNormal">game test-game<o:p></o:p></p>
<p class=3D"MsoNormal">power Carthage<o:p></o:p></p>
<p class=3D"MsoNormal">password carthage-secret<o:p></o:p></p>
<p class=3D"MsoNormal">offer tax<o:p></o:p></p>
<p class=3D"MsoNormal">take gold from Rome<o:p></o:p></p>
<p class=3D"MsoNormal"><o:p>&nbsp;</o:p></p>
<div style=3D"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm =
0cm 0cm">
<p class=3D"MsoNormal"><b>From:</b> test-game moderator &lt;gm@example.org&gt=
;<br><b>Sent:</b> Monday, March 3, 2027 6:00 PM<br><b>To:</b> Bela<br>
<b>Subject:</b> [test-game] T1 trade<o:p></o:p></p></div>
<p class=3D"MsoNormal">Send your orders with the lines power YOUR-CIVILIZATION=
<o:p></o:p></p>
</div></body></html>

--_000_DB9PR07MB1234ABCD_--
"""
)

GMAIL_WRAPPED_REPLY = crlf(
    """From: Chloe Martin <greece@example.org>
To: gm@example.org
Subject: Re: [test-game] T1 trade
Message-ID: <CAB3x=q9gmail@mail.gmail.com>
In-Reply-To: <reminder-1@example.org>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="0000000000004c7a2b05f1d2e3a4"

--0000000000004c7a2b05f1d2e3a4
Content-Type: text/plain; charset="UTF-8"

game test-game
power Greece
password greece-secret
offer tax
take any

On Mon, 3 Mar 2027 at 18:00, test-game moderator <
gm@example.org> wrote:

> Orders for T1 trade are due on Friday.
>

--0000000000004c7a2b05f1d2e3a4
Content-Type: text/html; charset="UTF-8"

<div dir="ltr">game test-game<br>power Greece<br>password greece-secret<br>offer tax<br>take any</div>
<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, 3 Mar 2027 at 18:00, test-game
moderator &lt;<a href="mailto:gm@example.org">gm@example.org</a>&gt; wrote:<br></div>
<blockquote class="gmail_quote">Orders for T1 trade are due on Friday.</blockquote></div>

--0000000000004c7a2b05f1d2e3a4--
"""
)

BOM = "\ufeff".encode()
ATTACHMENT = BOM + crlf("game test-game\npower Egypt\npassword egypt-secret\noffer tax\ntake gold from Rome\n")


def gmail_with_attachment(note: str, attachment: bytes = ATTACHMENT) -> bytes:
    """Gmail's shape for a mail with a file: mixed, alternative body, then the file in base64."""
    import base64

    encoded = base64.encodebytes(attachment).decode("ascii")
    return crlf(
        f"""From: Dan Okafor <egypt@example.org>
To: gm@example.org
Subject: [test-game] orders
Message-ID: <CAF=attached@mail.gmail.com>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="000000000000b1b2b3"

--000000000000b1b2b3
Content-Type: multipart/alternative; boundary="000000000000a1a2a3"

--000000000000a1a2a3
Content-Type: text/plain; charset="UTF-8"

{note}
--000000000000a1a2a3
Content-Type: text/html; charset="UTF-8"

<div dir="ltr">{note.replace(chr(10), "<br>")}</div>

--000000000000a1a2a3--
--000000000000b1b2b3
Content-Type: text/plain; charset="UTF-8"; name="orders.txt"
Content-Disposition: attachment; filename="orders.txt"
Content-Transfer-Encoding: base64
X-Attachment-Id: f_lt1

{encoded}
--000000000000b1b2b3--
"""
    )


SIGNATURE_NOTE = "Hi,\n\nmy orders are attached.\n\n-- \nDan Okafor\nSent from my phone\n"
CHATTER_NOTE = "My orders are attached.\nGood luck all!\n"

IPHONE = crlf(
    """From: Bela Nowak <carthage@example.org>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable
Mime-Version: 1.0 (1.0)
Subject: [test-game] orders
Message-Id: <5A1B-IPHONE@example.org>
Date: Mon, 3 Mar 2027 19:02:11 +0100
To: gm@example.org
X-Mailer: iPhone Mail (20D47)

=E2=80=8Bgame test-game
=E2=80=8Bpower Carthage
password carthage-secret
offer tax=E2=80=8B
take gold from =E2=80=9CRome=E2=80=9D
=EF=BB=BFtake commodity from Gree=C2=ADce
=E2=80=94
Bela
Sent from my iPhone
"""
)

QUOTED_PASSWORD = crlf(
    """From: Anna Kowalska <rome@example.org>
To: gm@example.org
Subject: Re: [test-game] orders T1
Message-ID: <quoted-password@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

> > game test-game
> > password old-rome-secret
> > offer wine
>
> Got it, but use this turn's form.

game test-game
power Rome
password rome-secret
offer tax
>password third-secret
"""
)


# -- item 8: format=flowed ---------------------------------------------------------------


def test_thunderbird_flowed_long_line_is_one_line_again() -> None:
    text = parse_mail(THUNDERBIRD_FLOWED).text
    assert "take gold from Carthage; take commodity from Greece; take tax from Egypt; take any\n" in text
    assert "\n-- \nAnna" in text, "the signature separator is not a soft break"


def test_apple_mail_flowed_with_delsp_joins_inside_a_word() -> None:
    assert "take tax from Egypt; take any\n" in parse_mail(APPLE_FLOWED_DELSP).text


def test_unflow_keeps_quote_depth_and_undoes_space_stuffing() -> None:
    flowed = "> quoted and \n> wrapped\n>> deeper\n From here on\nplain \n"
    assert unflow(flowed) == "> quoted and wrapped\n>> deeper\nFrom here on\nplain \n"


def test_flowed_mails_are_collected_without_broken_lines(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    report = collected(game, tmp_path / "mails", THUNDERBIRD_FLOWED)
    assert "accepted from Rome: 5 orders, 0 errors" in report, report
    assert "take tax from Egypt; take any" in on_file(game, "Rome")


# -- item 9: Outlook's empty text part -----------------------------------------------------


def test_outlook_empty_plain_part_gives_way_to_html() -> None:
    mail = parse_mail(OUTLOOK_EMPTY_PLAIN)
    assert "password carthage-secret\noffer tax\ntake gold from Rome\n" in mail.text
    assert "YOUR-CIVILIZATION" not in mail.text, "Outlook's From:/Sent: block starts the quoted mail"
    assert any("HTML part was read" in note for note in mail.notes)


def test_outlook_mail_is_collected_from_its_html(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    report = collected(game, tmp_path / "mails", OUTLOOK_EMPTY_PLAIN)
    assert "accepted from Carthage: 2 orders, 0 errors" in report, report


# -- item 10: an attachment is read whole ------------------------------------------------


def test_body_signature_does_not_cut_the_attachment() -> None:
    text = parse_mail(gmail_with_attachment(SIGNATURE_NOTE)).text
    assert "take gold from Rome" in text and "Sent from my phone" not in text


def test_byte_order_mark_of_an_attachment_is_dropped() -> None:
    text = parse_mail(gmail_with_attachment(SIGNATURE_NOTE)).text
    assert "\ufeff" not in text and "\ngame test-game\n" in text


def test_utf16_attachment_from_notepad_is_read() -> None:
    notepad = "game test-game\r\npower Egypt\r\npassword egypt-secret\r\noffer tax\r\n".encode("utf-16")
    assert "power Egypt" in parse_mail(gmail_with_attachment("see file", notepad)).text


@pytest.mark.parametrize(
    "said", ["hasło egypt-secret", "Hasło: egypt-secret", "mot de passe egypt-secret", "Jelszó: egypt-secret"]
)
def test_a_password_on_the_covering_note_counts_in_any_language(
    make_game: Callable[..., Game], tmp_path: Path, said: str
) -> None:
    """Issue 29: orders in a .txt file, the password in the body in the player's language."""
    game = make_game()
    orders = BOM + crlf("game test-game\npower Egypt\noffer tax\ntake gold from Rome\n")
    report = collected(game, tmp_path / "mails", gmail_with_attachment(f"Cześć,\n{said}\nrozkazy w pliku.\n", orders))
    assert "accepted from Egypt: 2 orders, 0 errors" in report, report


def test_attachment_under_a_signed_body_is_collected_whole(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    report = collected(game, tmp_path / "mails", gmail_with_attachment(SIGNATURE_NOTE))
    assert "accepted from Egypt: 2 orders, 0 errors" in report, report
    assert "take gold from Rome" in on_file(game, "Egypt")


# -- item 11: Gmail's wrapped reply line, chatter beside an attachment ----------------------


def test_gmail_reply_line_wrapped_over_two_lines_is_cut() -> None:
    text = parse_mail(GMAIL_WRAPPED_REPLY).text
    assert "take any" in text and "wrote:" not in text and "gm@example.org>" not in text


def test_chatter_beside_an_attachment_is_not_read_as_orders() -> None:
    mail = parse_mail(gmail_with_attachment(CHATTER_NOTE))
    assert "My orders are attached." not in mail.text and "Good luck" not in mail.text
    assert mail.text.startswith("# The text of this mail was not read as orders")


def test_password_in_the_body_counts_beside_an_attachment() -> None:
    attachment = crlf("game test-game\npower Egypt\noffer tax\n")
    text = parse_mail(gmail_with_attachment("password egypt-secret\nOrders attached.\n", attachment)).text
    assert "password egypt-secret" in text and "Orders attached" not in text


def test_body_is_read_when_the_attachment_holds_no_orders() -> None:
    text = parse_mail(gmail_with_attachment("power Egypt\noffer tax\n", crlf("# my notes\n"))).text
    assert "offer tax" in text and "not read as orders" not in text


def test_gmail_reply_and_chatter_collected_without_errors(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    report = collected(game, tmp_path / "mails", GMAIL_WRAPPED_REPLY, gmail_with_attachment(CHATTER_NOTE))
    assert "accepted from Greece: 2 orders, 0 errors" in report, report
    assert "accepted from Egypt: 2 orders, 0 errors" in report, report
    (receipt,) = receipts(game, "egypt@example.org")
    assert "not read as orders; the orders were read from orders.txt" in receipt


# -- item 14: invisible characters, typographic dashes and quotes ---------------------------


def test_iphone_mail_with_invisible_characters_and_em_dash_signature(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = make_game()
    report = collected(game, tmp_path / "mails", IPHONE)
    assert "accepted from Carthage: 3 orders, 0 errors" in report, report
    (receipt,) = receipts(game, "carthage@example.org")
    assert "OK      take gold from Rome" in receipt and "OK      take commodity from Greece" in receipt
    assert "(after the end of the orders)" in receipt, "the phone's em dash is its --"


# -- item 6: a quoted password is masked everywhere ----------------------------------------


def test_quoted_password_is_masked_in_file_receipt_and_private_report(
    make_game: Callable[..., Game], tmp_path: Path
) -> None:
    game = make_game()
    report = collected(game, tmp_path / "mails", QUOTED_PASSWORD)
    assert "accepted from Rome: 1 order, 0 errors" in report, report
    stored = on_file(game, "Rome")
    (receipt,) = receipts(game, "rome@example.org")
    root = str(game.directory.root)
    assert runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"]).exit_code == 0
    private = runner.invoke(app, ["report", root, "--phase", "1", "--power", "Rome"])
    assert private.exit_code == 0, private.output
    for where, text in (("orders file", stored), ("receipt", receipt), ("private report", private.stdout)):
        assert "> > password ********" in text or where == "private report", (where, text)
        for secret in ("old-rome-secret", "rome-secret", "third-secret"):
            assert secret not in text, f"{secret} shown in the {where}"


# -- the same mails through a real IMAP server ----------------------------------------------


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, SmtpServer]]:
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    with imap_server() as imap_port, smtp_server() as smtp:
        yield imap_port, smtp


def test_every_client_shape_over_imap(make_game: Callable[..., Game], servers: tuple[int, SmtpServer]) -> None:
    from imapclient import IMAPClient

    from tests.test_mail import settings_toml

    imap_port, smtp = servers
    game = make_game()
    with game.directory.game_file.open("a") as handle:
        handle.write(settings_toml(imap_port, smtp.port))
    client = IMAPClient("127.0.0.1", imap_port, ssl=False)
    client.login(USER, PASSWORD)
    for raw in (APPLE_FLOWED_DELSP, OUTLOOK_EMPTY_PLAIN, GMAIL_WRAPPED_REPLY, gmail_with_attachment(SIGNATURE_NOTE)):
        client.append("INBOX", raw)
    client.logout()
    result = runner.invoke(app, ["collect", str(game.directory.root), "--imap"])
    assert result.exit_code == 0, result.output
    for civ, orders in (("Rome", 5), ("Carthage", 2), ("Greece", 2), ("Egypt", 2)):
        assert f"accepted from {civ}: {orders} orders, 0 errors" in result.stdout, result.stdout
    (receipt,) = smtp.messages_to("egypt@example.org")
    assert "not read as orders" in receipt.get_content() and "egypt-secret" not in receipt.get_content()
