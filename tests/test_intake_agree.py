"""One reader for every path (issue 29): each fixture mail and forum post of the test suite, and
the mails and posts players write, give the same accepted lines and the same errors through
`check`, `submit` and `collect --from`. They disagreed: `check` asked for a `power` line in a
post whose `[b]power Greece[/b]` `collect` read, and found no order in its `[*]` list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator import commands
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.game.submissions import check_submission
from tests.conftest import FIVE, player_args
from tests.test_forum_posts import BGG_POST, BROWSER_COPY, PHPBB_BOLD_AND_QUOTE, PHPBB_CODE_AMONG_CHATTER
from tests.test_mail_reading import (
    APPLE_FLOWED_DELSP,
    CHATTER_NOTE,
    GMAIL_WRAPPED_REPLY,
    IPHONE,
    OUTLOOK_EMPTY_PLAIN,
    SIGNATURE_NOTE,
    THUNDERBIRD_FLOWED,
    crlf,
    gmail_with_attachment,
)

ROOT = bytes(32)  # one dice chain for every game here: the same hands, so the same checks

BBCODE_LIST = "[b]power Greece[/b]\n[list]\n[*]offer fish, slaves\n[*]take gold\n[/list]\n"
REALISTIC_MAIL = crlf(
    """From: Chloe Martin <greece@example.org>
To: gm@example.org
Subject: [test-game] my orders
Message-ID: <realistic@example.org>
Content-Type: text/plain; charset="utf-8"

Hi GM,

here are my orders for this turn:

power Greece
password greece-secret
- offer fish, slaves
* take gold
\u2022 take any
1. take commodity

Cheers,
Chloe
"""
)

POSTS = {
    "phpbb-bold-and-quote": PHPBB_BOLD_AND_QUOTE,
    "phpbb-code-among-chatter": PHPBB_CODE_AMONG_CHATTER,
    "bgg": BGG_POST,
    "browser-copy": BROWSER_COPY,
    "bbcode-list": BBCODE_LIST,
    "markdown-list": "power Rome\n- offer wine\n* take gold\n**take any**\n\nThanks!\nAnna\n",
}
MAILS = {
    "thunderbird-flowed": THUNDERBIRD_FLOWED,
    "apple-flowed": APPLE_FLOWED_DELSP,
    "outlook-empty-plain": OUTLOOK_EMPTY_PLAIN,
    "gmail-wrapped-reply": GMAIL_WRAPPED_REPLY,
    "iphone": IPHONE,
    "attachment-signed": gmail_with_attachment(SIGNATURE_NOTE),
    "attachment-chatter": gmail_with_attachment(CHATTER_NOTE),
    "realistic": REALISTIC_MAIL,
}
FIXTURES = [(name, ".txt", text.encode()) for name, text in POSTS.items()]
FIXTURES += [(name, ".eml", raw) for name, raw in MAILS.items()]
COUNTS = re.compile(r"(\d+) orders? accepted, (\d+) lines? with errors")
COLLECTED = re.compile(r": (?:accepted from )?\w+: (\d+) orders?, (\d+) errors?")


def new_game(folder: Path) -> Game:
    """A five-player game called test-game, as the fixtures' `game` lines name it."""
    specs = [parse_player_spec(p) for p in player_args(FIVE)]
    return Game.create(folder / "test-game", specs, dice_root=ROOT)[0]


def accepted_lines(game: Game, civ: str) -> list[str]:
    """The order lines on file for `civ` that the check accepts."""
    stored = (game.directory.orders_folder(game.slug) / f"{civ}.txt").read_text(encoding="utf-8")
    return [line.text for line in check_submission(game, stored, civ).lines if line.ok]


@pytest.mark.parametrize(("name", "suffix", "raw"), FIXTURES, ids=[f[0] for f in FIXTURES])
def test_check_submit_and_collect_read_a_text_alike(tmp_path: Path, name: str, suffix: str, raw: bytes) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    path = folder / f"{name}{suffix}"
    path.write_bytes(raw)
    by_hand = new_game(tmp_path / "by-hand")
    vouched = suffix == ".txt"  # a post carries no password; a mail carries its player's
    checked = commands.check_orders(by_hand.directory.root, str(path), None, vouched)
    entered = commands.submit_orders(by_hand.directory.root, str(path), None, vouched)
    by_mail = new_game(tmp_path / "by-mail")
    collected = commands.collect_mail(by_mail.directory.root, False, folder)
    counts = [COUNTS.search(checked.text), COUNTS.search(entered.text), COLLECTED.search(collected.text)]
    assert all(counts), (checked.text, entered.text, collected.text)
    assert len({match.groups() for match in counts if match}) == 1, (checked.text, collected.text)
    civ = re.search(r"Orders of (\w+)", entered.text)
    assert civ is not None
    assert accepted_lines(Game.load(by_hand.directory.root), civ.group(1)) == accepted_lines(
        Game.load(by_mail.directory.root), civ.group(1)
    )


def test_a_realistic_mail_is_all_orders_and_no_error(tmp_path: Path) -> None:
    """Issue 29's last word: greeting, orders with list markers, sign-off: every order accepted."""
    (tmp_path / "realistic.eml").write_bytes(REALISTIC_MAIL)
    game = new_game(tmp_path)
    receipt = commands.check_orders(game.directory.root, str(tmp_path / "realistic.eml"), None).text
    assert "4 orders accepted, 0 lines with errors." in receipt, receipt
    assert "Hi GM," in receipt and "(not an order: read as your note)" in receipt
