"""Whole forum threads, as the moderator saves them, cut into posts: a BoardGameGeek thread in
its XML API form (`https://boardgamegeek.com/xmlapi2/thread?id=…`) and a phpBB topic page
saved from the browser as HTML.

Each post comes out with its author, its time and its text in the form `forum.post_text`
reads (BBCode, or text): a BGG body is BBCode or HTML, a phpBB body is HTML. From HTML, quoted
posts (`<blockquote>`, BGG's `<div class="quote">`) are dropped, `<code>` is kept as a
`[code]` block, and line breaks are kept where the board shows them.

XML is read by the standard library's parser (its expat refuses entity expansion bombs, and
external entities are never fetched); a file with a DOCTYPE is refused all the same, since no
board's thread has one. HTML is read by `html.parser`, which runs nothing and fetches nothing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.limits import THREAD_BYTES, THREAD_POSTS
from adjudicator.intake.markup import defused_html

THREAD_SUFFIXES = frozenset({".xml", ".html", ".htm"})

# A BGG body the API gives as HTML (not as BBCode) has tags or entities in it.
_HTML = re.compile(
    r"<(?:br|p|div|span|b|i|u|a|img|blockquote|font|pre|code|ul|ol|li)\b[^>]*>|&(?:amp|lt|gt|quot|nbsp|#\d+);",
    re.IGNORECASE,
)
_DOCTYPE = re.compile(rb"<!DOCTYPE", re.IGNORECASE)
_PHPBB_POST = re.compile(rb"""class=["'](?:[^"'>]*\s)?post[\s"']""")  # a phpBB post's <div class="post …">


class ThreadError(AdjudicatorError):
    """A saved thread that cannot be read: the message names the file and says what to save."""


@dataclass(frozen=True, slots=True)
class ThreadPost:
    """One post of a thread, as the board shows it."""

    number: int  # its place in the saved thread, from 1
    post_id: str  # the board's id of the post ("47675007", "p812"), or ""
    author: str
    posted: datetime | None  # with its offset (a time given without one is read as UTC)
    body: str  # BBCode or plain text, for forum.post_text


def read_thread(path: Path) -> list[ThreadPost]:
    """The posts of a saved thread: .xml is a BoardGameGeek thread, .html/.htm a phpBB topic."""
    data = path.read_bytes()
    if len(data) > THREAD_BYTES:
        raise ThreadError(f"{path}: the file is {len(data):,} bytes; a saved thread is at most {THREAD_BYTES:,}")
    marks = data.count(b"<article") if path.suffix.lower() == ".xml" else len(_PHPBB_POST.findall(data))
    if marks > THREAD_POSTS:  # counted on the bytes: a page of 380,000 posts is never parsed
        raise _too_many_posts(path, marks)
    try:
        if path.suffix.lower() == ".xml":
            posts = parse_bgg_thread(data)
        else:
            posts = parse_phpbb_topic(data.decode("utf-8", errors="replace"))
    except ThreadError as error:
        raise ThreadError(f"{path}: {error}") from None
    if len(posts) > THREAD_POSTS:  # the markers counted above are a board's usual markup only
        raise _too_many_posts(path, len(posts))
    return posts


def _too_many_posts(path: Path, count: int) -> ThreadError:
    return ThreadError(
        f"{path}: the thread has {count:,} posts; at most {THREAD_POSTS:,} are read: "
        "save only the pages of the current phase"
    )


def parse_bgg_thread(data: bytes) -> list[ThreadPost]:
    """A thread from BoardGameGeek's XML API 2: <thread><articles><article username postdate>
    <body>…</body></article>…"""
    if _DOCTYPE.search(data):
        raise ThreadError("the XML has a DOCTYPE, which no BoardGameGeek thread has; save the API's answer as it is")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise ThreadError(f"not well-formed XML ({error}); save the API's answer as it is") from None
    if root.tag != "thread":
        raise ThreadError(
            f"the XML is not a BoardGameGeek thread (its top element is <{root.tag}>); "
            "save the answer of https://boardgamegeek.com/xmlapi2/thread?id=THREAD"
        )
    posts = []
    for number, article in enumerate(root.iter("article"), start=1):
        body = article.findtext("body") or ""
        posts.append(
            ThreadPost(
                number,
                article.get("id", ""),
                " ".join(article.get("username", "").split()),
                _moment(article.get("postdate", "")),
                html_post_text(body) if _HTML.search(body) else body,
            )
        )
    return posts


def parse_phpbb_topic(html: str) -> list[ThreadPost]:
    """A phpBB topic page as the browser saves it: each post a `div.post`, its author an
    `a.username` (or `.username-coloured`), its time a `time[datetime]`, its text `div.content`."""
    reader = _TopicReader()
    reader.feed(defused_html(html))
    reader.close()
    posts = [post for post in reader.posts if post.body is not None]
    if not posts:
        raise ThreadError(
            'no phpBB post in it (no <div class="post"> with a <div class="content">); '
            "save the topic page from the browser as 'Web page, HTML only'"
        )
    return [
        ThreadPost(number, post.post_id, " ".join(post.author.split()), _moment(post.time), post.body.text())
        for number, post in enumerate(posts, start=1)
        if post.body is not None
    ]


def html_post_text(html: str) -> str:
    """The text of a post body given as HTML, with its code blocks as [code] blocks."""
    reader = _FragmentReader()
    reader.feed(defused_html(html))
    reader.close()
    return reader.body.text()


def _moment(text: str) -> datetime | None:
    text = text.strip()
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = parsedate_to_datetime(text)  # "Mon, 19 Jan 2015 14:12:57 +0000"
        except (TypeError, ValueError):
            return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _classes(attrs: list[tuple[str, str | None]]) -> set[str]:
    return set((dict(attrs).get("class") or "").split())


class _PostBody:
    """The text of a post's HTML as the board shows it: tags dropped, a line per block and
    <br>, quotes dropped whole, <code> kept as [code] … [/code]."""

    _BLOCKS = frozenset({"p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "hr", "dl", "dt", "dd"})
    _HIDDEN = frozenset({"script", "style"})

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._divs: list[bool] = []  # each open <div>: is it a quote (BGG's div.quote)?
        self._quote_divs = 0  # how many of them are (counted, not searched: 100,000 nested divs)
        self._quotes = 0  # open <blockquote>s
        self._hidden = 0
        self._code = 0
        self._pre = 0

    def _dropping(self) -> bool:
        return bool(self._quotes or self._hidden or self._quote_divs)

    def start(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "div":
            self._divs.append("quote" in _classes(attrs))
            self._quote_divs += self._divs[-1]
        elif tag == "blockquote":
            self._quotes += 1
        elif tag in self._HIDDEN:
            self._hidden += 1
        if self._dropping():
            return
        if tag == "code":
            self._code += 1
            if self._code == 1:
                self.parts.append("\n[code]")
        elif tag == "pre":
            self._pre += 1
        elif tag == "br" or tag in self._BLOCKS:
            self.parts.append("\n")

    def end(self, tag: str) -> None:
        dropping = self._dropping()
        if tag == "div" and self._divs:
            self._quote_divs -= self._divs.pop()
        elif tag == "blockquote":
            self._quotes = max(0, self._quotes - 1)
        elif tag in self._HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        if dropping:
            return
        if tag == "code" and self._code:
            self._code -= 1
            if not self._code:
                self.parts.append("[/code]\n")
        elif tag == "pre":
            self._pre = max(0, self._pre - 1)
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def data(self, text: str) -> None:
        if self._dropping():
            return
        self.parts.append(text if self._code or self._pre else " ".join(text.split("\n")))

    def text(self) -> str:
        lines = "".join(self.parts).replace("\r\n", "\n").split("\n")
        return "\n".join(" ".join(line.split()) for line in lines).strip("\n") + "\n"


class _FragmentReader(HTMLParser):
    """A post body given as HTML (a BGG article's body)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.body = _PostBody()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.body.start(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.body.end(tag)

    def handle_data(self, data: str) -> None:
        self.body.data(data)


@dataclass
class _TopicPost:
    post_id: str
    author: str = ""
    time: str = ""
    body: _PostBody | None = None
    reading_author: bool = False


class _TopicReader(HTMLParser):
    """The posts of a phpBB topic page (prosilver and its descendants, phpBB 3.0 to 3.3)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.posts: list[_TopicPost] = []
        self._divs: list[str] = []  # each open <div>: "post", "content" or ""
        self._open: Counter[str] = Counter()  # how many of each are open (counted, not searched)
        self._author_tag = ""

    @property
    def _post(self) -> _TopicPost | None:
        return self.posts[-1] if self.posts and self._open["post"] else None

    def _in_content(self) -> bool:
        return bool(self._open["content"])

    def _push(self, kind: str) -> None:
        self._divs.append(kind)
        self._open[kind] += 1

    def _pop(self) -> str:
        kind = self._divs.pop()
        self._open[kind] -= 1
        return kind

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        post = self._post
        if tag == "div":
            classes = _classes(attrs)
            if post is None and "post" in classes:
                self.posts.append(_TopicPost(dict(attrs).get("id") or ""))
                self._push("post")
                return
            if post is not None and not self._in_content() and "content" in classes and post.body is None:
                post.body = _PostBody()
                self._push("content")
                return
            self._push("")
        if post is None:
            return
        if self._in_content() and post.body is not None:
            post.body.start(tag, attrs)
        elif not post.author and tag in ("a", "span") and _classes(attrs) & {"username", "username-coloured"}:
            post.reading_author, self._author_tag = True, tag
        elif tag == "time" and not post.time:
            post.time = dict(attrs).get("datetime") or ""

    def handle_endtag(self, tag: str) -> None:
        post = self._post
        if tag == "div" and self._divs and self._pop() in ("post", "content"):
            return
        if post is None:
            return
        if self._in_content() and post.body is not None:
            post.body.end(tag)
        elif post.reading_author and tag == self._author_tag:
            post.reading_author = False

    def handle_data(self, data: str) -> None:
        post = self._post
        if post is None:
            return
        if self._in_content() and post.body is not None:
            post.body.data(data)
        elif post.reading_author:
            post.author += data
