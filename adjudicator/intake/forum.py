"""Turning a forum post, as the moderator saved it, into the text that holds the orders.

Play-by-forum players post on phpBB, BoardGameGeek and similar boards. A saved post is either
its BBCode source or the text as the browser shows it. Formatting tags (`[b]`, `[color=red]`,
`[url=…]`, BGG's `[c]` and `[o]` …) are dropped and their text kept; quoted posts (phpBB's
`[quote="Anna"]`, BGG's `[q="Anna"]`, and the "Anna wrote:" paragraph of copied text) are
dropped whole; images are dropped. When a `[code]` (or BGG `[c]`) block holds orders, only
the code blocks are read, as with a mail's attachment: the chatter around them ("Here are
mine:", "Good luck all!") is not, except for its header lines.

BBCode is read by a small tag walker here: the BBCode packages on PyPI are unmaintained (the
newest release is from 2019) and render HTML, which would then have to be read back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.intake.mail import header_lines, holds_orders

# A BBCode tag: [b], [/b], [*], [color=red], [quote="Anna" post_id=12 time=1709]. A tag never
# spans a line.
_TAG = re.compile(r"\[(/?)(\*|[a-z]+)(?:[= ][^\]\n]*)?\]", re.IGNORECASE)

_QUOTES = frozenset({"quote", "q"})
_CODES = frozenset({"code", "c"})
_HIDDEN = frozenset({"img", "imageid", "youtube", "video", "media", "attachment"})
_BLOCKS = frozenset({"*", "li", "list", "ul", "ol", "center", "left", "right", "justify", "indent", "hr"})
_FORMATTING = frozenset(
    {
        *("b", "i", "u", "s", "strike", "color", "colour", "size", "font", "o", "url", "email", "sup", "sub"),
        *("tt", "highlight", "bgcolor", "spoiler", "hide", "floatleft", "floatright", "user", "thing"),
        *("boardgame", "thread", "article", "geeklist", "family", "person", "company", "mono", "abbr"),
    }
)
_PAIRED = _QUOTES | _CODES | _HIDDEN

# Text copied from the browser: a quoted post shows as a line "Anna wrote:" (phpBB adds an
# arrow and the date), and the quote runs to the next blank line. phpBB's code box starts with
# a line "Code: Select all".
_COPIED_QUOTE = re.compile(r"^[^\n]{1,80}?\b(?:wrote|said|a écrit|schrieb|napisał)\s*:[^\n]{0,60}$", re.IGNORECASE)
_CODE_CAPTION = re.compile(r"^\s*code:\s*(?:select all)?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Tag:
    start: int
    end: int
    closing: bool
    name: str


def post_text(post: str) -> str:
    """The order text of a saved forum post (BBCode source or text copied from the browser)."""
    post = post.replace("\r\n", "\n").removeprefix("\ufeff")
    full, blocks = _read_bbcode(post)
    full = _without_copied_quotes(full)
    with_orders = [block for block in blocks if holds_orders(block)]
    if not with_orders:
        return full
    outside = _without_copied_quotes(_read_bbcode(post, codes=False)[0])
    remark = "# Only the code block of this post was read as orders.\n"
    return remark + "".join(line + "\n" for line in header_lines(outside)) + "\n".join(with_orders)


def _read_bbcode(post: str, codes: bool = True) -> tuple[str, list[str]]:
    """The post without tags, quotes and images (with the code blocks' text in place, or
    without it when `codes` is false), and the text of each code block."""
    tags = [_Tag(m.start(), m.end(), m.group(1) == "/", m.group(2).lower()) for m in _TAG.finditer(post)]
    paired = _paired(tags)
    out: list[str] = []
    blocks: list[str] = []
    code: list[str] | None = None
    dropping = 0  # inside a quote or an image
    position = 0
    for index, tag in enumerate(tags):
        _keep(post[position : tag.start], out, code, dropping)
        position = tag.end
        if tag.name in _PAIRED and index in paired:
            if tag.name in _CODES and not dropping:
                if not tag.closing:
                    code = []
                elif code is not None:
                    blocks.append("".join(code).strip("\n") + "\n")
                    if codes:
                        out.append("\n" + blocks[-1])
                    code = None
            elif tag.name not in _CODES:
                dropping += -1 if tag.closing else 1
        elif tag.name in _BLOCKS:
            if not _at_line_start(code if code is not None else out):  # `[*]` starting a line adds none
                _keep("\n", out, code, dropping)
        elif tag.name not in _FORMATTING and tag.name not in _PAIRED:
            _keep(post[tag.start : tag.end], out, code, dropping)  # not a tag we know: the player's text
    _keep(post[position:], out, code, dropping)
    return "".join(out), blocks


def _keep(text: str, out: list[str], code: list[str] | None, dropping: int) -> None:
    """Text kept in place; dropped text (a quote, an image) leaves its line breaks, so that a
    line keeps the number it has in the player's post."""
    (code if code is not None else out).append("\n" * text.count("\n") if dropping else text)


def _at_line_start(kept: list[str]) -> bool:
    last = next((piece for piece in reversed(kept) if piece), "")
    return not last or last.endswith("\n")


def _paired(tags: list[_Tag]) -> set[int]:
    """The quote, code and image tags that have their partner (an unclosed `[quote]` shows as
    text on the board, so it must not swallow the rest of the post)."""
    matched: set[int] = set()
    open_tags: list[int] = []
    for index, tag in enumerate(tags):
        if tag.name not in _PAIRED:
            continue
        if not tag.closing:
            open_tags.append(index)
            continue
        for depth in range(len(open_tags) - 1, -1, -1):
            if _kind(tags[open_tags[depth]].name) == _kind(tag.name):
                matched.update((open_tags[depth], index))
                del open_tags[depth:]
                break
    return matched


def _kind(name: str) -> str:
    return "quote" if name in _QUOTES else "code" if name in _CODES else name


def _without_copied_quotes(text: str) -> str:
    """Text copied from the browser: "Anna wrote:" and its paragraph go, and so does the caption
    of a code box."""
    kept: list[str] = []
    quoting = False
    for line in text.split("\n"):
        if quoting:
            quoting = bool(line.strip())
            kept.append("")  # an empty line in its place: the lines after it keep their numbers
            continue
        if _COPIED_QUOTE.match(line.strip()):
            quoting = True
            kept.append("")
            continue
        kept.append("" if _CODE_CAPTION.match(line) else line)
    return "\n".join(kept)
