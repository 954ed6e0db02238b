"""Turning a raw mail (or a pasted forum post) into the text that holds the orders.

The standard library's `email` package does the MIME work: text/plain is preferred, HTML is
reduced to text, every declared charset is honoured (and undeclared 8-bit text is guessed),
quoted-printable and base64 are undone, and `.txt` attachments are read too. Quoted replies
("On ... wrote:" and everything below it) are cut; `>` lines and signatures are left to the
order parser, which sets them aside visibly.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import parseaddr
from html.parser import HTMLParser

from adjudicator.errors import AdjudicatorError

MAX_MESSAGE_BYTES = 1_000_000
MAX_TEXT_CHARS = 64_000

_REPLY_HEADER = re.compile(
    r"^(?:On\b.{0,200}\bwrote:|Le\b.{0,200}\ba écrit\s*:|Am\b.{0,200}\bschrieb\b.{0,60}:|"
    r"W dniu\b.{0,200}\bpisze:|-{2,}\s*Original Message\s*-{2,}|_{10,})\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_TAG = re.compile(r"\[([a-z0-9][a-z0-9-]{0,62})\]", re.IGNORECASE)


class MailRejected(AdjudicatorError):
    """A mail that cannot be read as orders (too big, no text); the reason goes back to the sender."""


@dataclass(frozen=True, slots=True)
class MailText:
    """What a mail says, once decoded: who sent it, about what, and its order text."""

    message_id: str
    sender: str  # the From address
    sender_name: str
    subject: str
    text: str
    notes: tuple[str, ...] = ()  # what was done to get the text (HTML converted, parts read, ...)

    def subject_tag(self) -> str | None:
        """The game id in a `[game-id]` subject tag, if any."""
        match = _TAG.search(self.subject)
        return match.group(1).lower() if match else None


def message_key(raw: bytes, message_id: str) -> str:
    """A file-name-safe key for a message: its Message-ID, or its bytes when it has none."""
    basis = message_id.strip() or raw.decode("latin-1")
    return hashlib.sha256(basis.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def parse_mail(raw: bytes) -> MailText:
    if len(raw) > MAX_MESSAGE_BYTES:
        raise MailRejected(f"the mail is {len(raw):,} bytes; orders mails may be at most {MAX_MESSAGE_BYTES:,}")
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    name, address = parseaddr(str(message.get("From", "")))
    texts: list[str] = []
    notes: list[str] = []
    body = message.get_body(preferencelist=("plain", "html"))
    if body is not None:
        text = _decode(body, notes)
        if body.get_content_type() == "text/html":
            text = html_to_text(text)
            notes.append("the HTML part was converted to text")
        texts.append(cut_quoted_reply(text))
    for part in message.iter_attachments():
        filename = (part.get_filename() or "").lower()
        if isinstance(part, EmailMessage) and filename.endswith(".txt"):
            texts.append(_decode(part, notes))
            notes.append(f"the attachment {part.get_filename()} was read")
    if not texts:
        raise MailRejected("the mail has no text part and no .txt attachment to read orders from")
    text = "\n".join(texts)
    if len(text) > MAX_TEXT_CHARS:
        raise MailRejected(f"the orders text is {len(text):,} characters; at most {MAX_TEXT_CHARS:,} are read")
    return MailText(
        message_id=str(message.get("Message-ID", "")).strip(),
        sender=address.lower(),
        sender_name=name,
        subject=str(message.get("Subject", "")),
        text=text,
        notes=tuple(notes),
    )


def _decode(part: Message, notes: list[str]) -> str:
    """The part's text in its declared charset; undeclared 8-bit: UTF-8, else Windows-1252."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return str(part.get_payload())
    charset = part.get_content_charset()
    if charset:
        try:
            return payload.decode(charset, errors="replace")
        except LookupError:
            notes.append(f"unknown charset {charset!r}; read as UTF-8")
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        notes.append("no charset declared; read as Windows-1252")
        return payload.decode("cp1252", errors="replace")


def cut_quoted_reply(text: str) -> str:
    """Everything from the first 'On … wrote:' (or similar) line on is the mail being answered."""
    match = _REPLY_HEADER.search(text)
    return text[: match.start()] if match else text


class _TextExtractor(HTMLParser):
    """Visible text of an HTML mail, one line per block element."""

    _BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "pre", "blockquote", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0
        self._quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self._hidden += 1
        if tag == "blockquote":
            self._quote += 1
        if tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self._hidden = max(0, self._hidden - 1)
        if tag == "blockquote":
            self._quote = max(0, self._quote - 1)
        if tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append("\n".join("> " + line for line in data.split("\n")) if self._quote else data)


def html_to_text(html: str) -> str:
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    lines = [" ".join(line.split()) for line in "".join(extractor.parts).splitlines()]
    return "\n".join(line for line in lines if line) + "\n"
