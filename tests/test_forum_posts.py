"""Forum posts as phpBB and BoardGameGeek players write them (issue 13, items 13 and 14): BBCode
formatting, quoted posts, orders in a code block among chatter, text copied from the browser,
and the invisible characters and typographic punctuation a web page leaves in copied text.
Each post is read by `post_text` and collected end to end with `collect --from`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.intake.collect import collect
from adjudicator.intake.forum import post_text

runner = CliRunner()

PHPBB_BOLD_AND_QUOTE = """[quote="Moderator" post_id=812 time=1709485200 user_id=2]Orders for T1 trade are due Friday.
power YOUR-CIVILIZATION
password YOUR-SECRET[/quote]

[b]power Rome[/b]
[b]offer tax[/b]
[color=#0000FF][i]take gold from Carthage[/i][/color]
"""

PHPBB_CODE_AMONG_CHATTER = """Here are mine:
[code]game test-game
power Carthage
offer tax
take gold from Rome
[/code]
Good luck all! [size=85]([url=https://example.org/rules]rules[/url])[/size]
"""

BGG_POST = """[q="Moderator"]T1 trade: orders by Friday, please.[/q]

[b]power Greece[/b]
[c]offer tax
take any[/c]

[o]Egypt, watch your back.[/o] [img]https://cf.geekdo-images.com/pic123.png[/img]
"""

BROWSER_COPY = """Moderator wrote: ↑
Mon Mar 03, 2027 6:00 pm
Orders for T1 trade are due Friday. power YOUR-CIVILIZATION

power Egypt
Code: Select all
offer tax
take gold from Rome
"""

WEB_PAGE_COPY = (
    "\u200bpower Babylon\n\u200boffer tax\ntake gold from \u201cRome\u201d\ntake commodity from \u2018Egypt\u2019\n"
)


# -- post_text, one situation each -----------------------------------------------------------


def test_bold_lines_are_read_as_plain_lines() -> None:
    assert post_text("[b]power Rome[/b]\n[B]offer tax[/B]\n") == "power Rome\noffer tax\n"


def test_phpbb_quote_with_attributes_is_dropped_whole() -> None:
    text = post_text(PHPBB_BOLD_AND_QUOTE)
    assert "YOUR-CIVILIZATION" not in text and "due Friday" not in text
    assert "power Rome\noffer tax\ntake gold from Carthage\n" in text


def test_nested_quotes_are_dropped_whole() -> None:
    post = '[quote="Bela"][quote="Moderator"]power X[/quote]agreed[/quote]\npower Rome\noffer tax\n'
    assert post_text(post).split() == ["power", "Rome", "offer", "tax"]


def test_code_block_among_chatter_is_read_alone() -> None:
    text = post_text(PHPBB_CODE_AMONG_CHATTER)
    assert "Here are mine" not in text and "Good luck" not in text and "rules" not in text
    assert "power Carthage\noffer tax\ntake gold from Rome\n" in text


def test_bgg_q_c_o_and_img_tags() -> None:
    text = post_text(BGG_POST)
    assert "Friday" not in text and "geekdo" not in text and "[" not in text
    assert "power Greece" in text, "a header line outside the code block still counts"
    assert "offer tax\ntake any" in text


def test_code_block_without_orders_leaves_the_post_whole() -> None:
    text = post_text("[code]power Rome[/code]\noffer tax\n")
    assert "power Rome" in text and "offer tax" in text


def test_browser_copy_drops_the_wrote_paragraph_and_code_caption() -> None:
    text = post_text(BROWSER_COPY)
    assert "Moderator" not in text and "YOUR-CIVILIZATION" not in text and "Select all" not in text
    assert "power Egypt\n\noffer tax\ntake gold from Rome" in text  # the caption's line left empty
    assert len(text.splitlines()) == len(BROWSER_COPY.splitlines()), "each line keeps its number"


def test_a_bbcode_list_keeps_the_players_line_numbers() -> None:
    """Issue 29: `[*]` on its own line doubled the blank lines, and the report's line numbers
    were not the player's."""
    post = "[b]power Greece[/b]\n[list]\n[*]offer fish, slaves\n[*]take gold\n[/list]\n"
    assert post_text(post).splitlines() == ["power Greece", "", "offer fish, slaves", "take gold", ""]
    quoted = '[quote="Anna"]my orders:\noffer wine[/quote]\npower Rome\noffer tax\n'
    assert post_text(quoted).splitlines()[1:] == ["", "power Rome", "offer tax"]


def test_unclosed_quote_does_not_swallow_the_post() -> None:
    assert "offer tax" in post_text("[quote]power Rome\noffer tax\n")


def test_unknown_brackets_are_the_players_text() -> None:
    assert post_text("[test-game] power Rome\n") == "[test-game] power Rome\n"


def test_list_items_become_lines() -> None:
    lines = post_text("[list][*]power Rome[*]offer tax[/list]").splitlines()
    assert [line for line in lines if line] == ["power Rome", "offer tax"]


# -- end to end: collect --from a folder of saved posts -------------------------------------


@pytest.fixture
def collect_posts(make_game: Callable[..., Game], tmp_path: Path) -> Callable[..., tuple[Game, str]]:
    """Collect saved posts as `adjudicator collect --from` does."""

    def run(**posts: str) -> tuple[Game, str]:
        game = make_game()
        folder = tmp_path / "posts"
        folder.mkdir()
        for name, text in posts.items():
            (folder / f"{name}.txt").write_text(text, encoding="utf-8")
        return game, collect(game.directory.root, folder=folder).text

    return run


def on_file(game: Game, civ: str) -> str:
    path = game.directory.orders / "001-T01-trade" / f"{civ}.txt"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_phpbb_and_bgg_posts_are_collected_without_errors(collect_posts: Callable[..., tuple[Game, str]]) -> None:
    game, report = collect_posts(
        rome=PHPBB_BOLD_AND_QUOTE, carthage=PHPBB_CODE_AMONG_CHATTER, greece=BGG_POST, egypt=BROWSER_COPY
    )
    for name, civ, orders in (("rome", "Rome", 2), ("carthage", "Carthage", 2), ("greece", "Greece", 2)):
        assert f"{name}.txt: {civ}: {orders} orders, 0 errors" in report, report
    assert "egypt.txt: Egypt: 2 orders, 0 errors" in report, report
    assert "[b]" not in on_file(game, "Rome") and "YOUR-CIVILIZATION" not in on_file(game, "Rome")


def test_web_page_copy_with_invisible_characters_and_curly_quotes_is_collected(
    collect_posts: Callable[..., tuple[Game, str]],
) -> None:
    _game, report = collect_posts(babylon=WEB_PAGE_COPY)
    assert "babylon.txt: Babylon: 3 orders, 0 errors" in report, report


def test_submit_reads_invisible_characters_dashes_and_quotes(make_game: Callable[..., Game], tmp_path: Path) -> None:
    game = make_game()
    orders = tmp_path / "rome.txt"
    orders.write_text(
        "\ufeffpower Rome\n\u200bpassword rome-secret\n\u2060offer tax\u00ad\n"
        "take gold from \u201eCarthage\u201d\n\u2014\nAnna\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["submit", "--vouch", str(game.directory.root), str(orders)])
    assert result.exit_code == 0, result.output
    assert "2 orders accepted, 0 lines with errors" in result.stdout, result.stdout
    assert "rome-secret" not in result.stdout
