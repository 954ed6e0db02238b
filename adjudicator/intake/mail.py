"""Turning a raw mail (or a pasted forum post) into the text that holds the orders.

The standard library's `email` package does the MIME work: text/plain is preferred (an empty
one, as Outlook sends, gives way to the HTML part), HTML is reduced to text, every declared
charset is honoured (and undeclared 8-bit text is guessed; a byte-order mark wins), and
quoted-printable and base64 are undone. What the package leaves undone is done here:
format=flowed lines (RFC 3676, Thunderbird's soft wraps) are joined again.

`.txt` attachments are read whole. When one holds orders, the body is not read as orders (it
is the player's covering note), except for its header lines (`password …`); a comment line
at the top of the text says so, so the receipt says so. Quoted replies ("On ... wrote:", also
wrapped over two lines, and everything below it) are cut; `>` lines and signatures are left to
the order parser, which sets them aside visibly (a signature ends the body only, never an
attachment).
"""

from __future__ import annotations

import codecs
import contextlib
import email
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.policy import compat32
from email.utils import parseaddr
from html.parser import HTMLParser

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.i18n import t
from adjudicator.core.limits import (
    MAIL_ADDRESSES,
    MAIL_BYTES,
    MAIL_DEPTH,
    MAIL_ENCODED_WORDS,
    MAIL_HEADER_BYTES,
    MAIL_HEADER_FIELD_BYTES,
    MAIL_HEADERS,
    MAIL_PARTS,
    TEXT_CHARS,
)
from adjudicator.game.players import mail_address
from adjudicator.intake.markup import defused_html
from adjudicator.language.cleaning import end_of_orders, plain_text
from adjudicator.language.headers import is_header_line

# The line a mail client puts above the mail being answered. Gmail and phones wrap a long one
# ("On Mon, 3 Mar 2027 at 18:00, Anna <" / "anna@example.org> wrote:"), hence a second line;
# Outlook writes a "From: … / Sent: …" block under a rule instead. Each is tried on one line or
# two, never on more than REPLY_HEADER_CHARS: the search stays linear in the mail's length.
_REPLY_HEADER = re.compile(
    r"(?:On\b.*\bwrote:|Le\b.*\ba écrit\s*:|Am\b.*\bschrieb\b.{0,60}:|W dniu\b.*\bpisze:"
    r"|-{2,}\s*Original Message\s*-{2,}|_{10,})\s*",
    re.IGNORECASE | re.DOTALL,
)
_OUTLOOK_FROM = re.compile(r"From:.*", re.IGNORECASE)
_OUTLOOK_SENT = re.compile(r"(?:Sent|Date):.*", re.IGNORECASE)
REPLY_HEADER_CHARS = 401
_OPENING = re.compile(r"On\b|Le\b|Am\b|W dniu\b|-{2,}|_{10,}|From:", re.IGNORECASE)
_CLOSING_WORDS = ("wrote:", "écrit", "schrieb", "pisze:", "original message", "__________")


def _closes(line: str) -> bool:
    """Whether a line holds a word that ends a reply header (cheap: most lines do not)."""
    low = line.lower()
    return low.startswith(("sent:", "date:")) or any(word in low for word in _CLOSING_WORDS)


# A header line of the order language: what a covering note may carry beside an attachment.
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
    """What a mail says. Its size and shape are checked on the raw bytes first (`check_shape`):
    the email package's header parser takes gigabytes for a header of many encoded words."""
    check_shape(raw)
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    name, address = _sender(message)
    notes: list[str] = []
    body = _body_text(message, notes)
    attachments: list[tuple[str, str]] = []
    for part in message.iter_attachments():
        filename = part.get_filename() or ""
        if isinstance(part, EmailMessage) and filename.lower().endswith(".txt"):
            attachments.append((filename, _decode(part, notes)))
            notes.append(f"the attachment {filename} was read")
    if body is None and not attachments:
        raise MailRejected(t("the mail has no text part and no .txt attachment to read orders from"))
    text = "\n".join(_texts(cut_quoted_reply(body or ""), attachments, notes))
    if len(text) > TEXT_CHARS:
        raise MailRejected(
            t(
                "the orders text is %(size)s characters; at most %(limit)s are read",
                size=_grouped(len(text)),
                limit=_grouped(TEXT_CHARS),
            )
        )
    return MailText(
        message_id=" ".join(str(message.get("Message-ID", "")).split()),
        sender=address,
        sender_name=name,
        subject=" ".join(str(message.get("Subject", "")).split()),
        text=text,
        notes=tuple(notes),
    )


_LAST_ANGLE_ADDRESS = re.compile(r"<([^<>\s]+)>\s*$")
_CONTAINER = re.compile(rb"content-type:\s*(?:multipart|message)/", re.IGNORECASE)
_ENCODED_WORD = re.compile(rb"=\?[^?\s]{1,75}\?[bq]\?", re.IGNORECASE)
_ADDRESS_FIELDS = frozenset({"from", "sender", "reply-to", "to", "cc", "bcc", "resent-from", "resent-to"})


def check_shape(raw: bytes) -> None:
    """The mail's size, its headers (count, length, encoded words, addresses) and its MIME
    parts (count, depth), measured before anything parses a header: each bound is in
    adjudicator/limits.py and docs/hosting.md. The standard library's compat32 parser keeps
    header values as the raw strings they are, so taking the mail apart here costs linear time."""
    if len(raw) > MAIL_BYTES:
        raise MailRejected(
            t(
                "the mail is %(size)s bytes; orders mails may be at most %(limit)s",
                size=_grouped(len(raw)),
                limit=_grouped(MAIL_BYTES),
            )
        )
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i != -1), default=len(raw))
    if end > MAIL_HEADER_BYTES:
        _over(f"{_grouped(end)} bytes of header lines", MAIL_HEADER_BYTES)
    containers = len(_CONTAINER.findall(raw))
    if containers > MAIL_PARTS:  # counted on the bytes: 3,000 nested parts never reach the parser
        _over(f"more than {MAIL_PARTS} MIME parts", MAIL_PARTS)
    tree = email.message_from_bytes(raw, policy=compat32)
    stack: list[tuple[Message, int]] = [(tree, 0)]
    parts = 0
    while stack:
        part, depth = stack.pop()
        parts += 1
        if parts > MAIL_PARTS:
            _over(f"more than {MAIL_PARTS} MIME parts", MAIL_PARTS)
        if depth > MAIL_DEPTH:
            _over(f"MIME parts nested {depth} deep", MAIL_DEPTH)
        _check_fields(part)
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend((child, depth + 1) for child in payload if isinstance(child, Message))


def _check_fields(part: Message) -> None:
    items = part.items()  # compat32: the values as received, never parsed
    if len(items) > MAIL_HEADERS:
        _over(f"{_grouped(len(items))} header fields", MAIL_HEADERS)
    for name, value in items:
        data = str(value).encode("utf-8", "surrogateescape")
        field = str(name)[:40]
        if len(data) > MAIL_HEADER_FIELD_BYTES:
            _over(f"a {field} field of {_grouped(len(data))} bytes", MAIL_HEADER_FIELD_BYTES)
        words = len(_ENCODED_WORD.findall(data))
        if words > MAIL_ENCODED_WORDS:
            _over(f"a {field} field of {_grouped(words)} encoded words", MAIL_ENCODED_WORDS)
        if str(name).lower() in _ADDRESS_FIELDS:
            addresses = max(data.count(b"@"), data.count(b",") + 1)
            if addresses > MAIL_ADDRESSES:
                _over(f"a {field} field of {_grouped(addresses)} addresses", MAIL_ADDRESSES)


def _over(what: str, limit: int) -> None:
    raise MailRejected(
        t("the mail is over one of the judge's limits (%(what)s; at most %(limit)s)", what=what, limit=_grouped(limit))
    )


def _grouped(number: int) -> str:
    """`1 048 577`: thousands set apart by a narrow space, which every language reads alike
    (a comma is a decimal point in Polish, French, Hungarian and Spanish)."""
    return f"{number:,}".replace(",", "\u202f")


def _sender(message: EmailMessage) -> tuple[str, str]:
    """The From name (on one line) and address, or "" for an address no reply can go to
    (`players.mail_address` is the one test of that). A From the email package refuses to parse
    (a display name that decodes to a line break, as sent to smuggle a Bcc into the reply) is
    read from the raw header with `parseaddr` instead, its name decoded and flattened to one
    line: the mail is answered like any other, and no reply header ever carries CR or LF."""
    try:
        name, address = parseaddr(str(message.get("From", "")))
    except Exception:  # untrusted bytes: whatever the header parser trips on
        raw = " ".join(next((str(v) for k, v in message.raw_items() if k.lower() == "from"), "").split())
        name, address = parseaddr(raw)
        if angle := _LAST_ANGLE_ADDRESS.search(raw):  # `=?…Bcc:_x@y?= <rome@…>`: the address is the last <…>
            name, address = raw[: angle.start()].strip().strip('"'), angle.group(1)
        with contextlib.suppress(Exception):  # a broken encoded word: the name stays as written
            name = str(make_header(decode_header(name)))
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return " ".join(name.split()), mail_address(address) or ""


def _body_text(message: EmailMessage, notes: list[str]) -> str | None:
    """The body as text: the text/plain part, or the HTML one when there is no plain part or
    it is blank (Outlook sends an empty one beside the real HTML)."""
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return None
    text = _decode(body, notes)
    if body.get_content_type() == "text/plain":
        if plain_text(text).strip():
            return text
        html = message.get_body(preferencelist=("html",))
        if html is None:
            return text
        notes.append("the text part was empty, so the HTML part was read")
        text = _decode(html, notes)
    notes.append("the HTML part was converted to text")
    return html_to_text(text)


def _texts(body: str, attachments: list[tuple[str, str]], notes: list[str]) -> list[str]:
    """The body and the attachments, each read on its own terms."""
    if not attachments:
        return [body] if body else []
    body = end_of_orders(body)  # the body's signature ends the body, not the attachments
    with_orders = [name for name, text in attachments if holds_orders(text)]
    if not with_orders:
        return [body, *(text for _name, text in attachments)]
    named = ", ".join(with_orders)
    notes.append(f"the body was not read as orders: they are in {named}")
    remark = f"# The text of this mail was not read as orders; the orders were read from {named}.\n"
    return [remark + "".join(line + "\n" for line in header_lines(body)), *(text for _name, text in attachments)]


def holds_orders(text: str) -> bool:
    """Whether a text has a line before its end that is neither blank, comment, quote nor header."""
    for line in end_of_orders(text).splitlines():
        stripped = plain_text(line).strip()
        if stripped and stripped[0] not in "#>" and not is_header_line(stripped):
            return True
    return False


def header_lines(text: str) -> list[str]:
    """The header lines (`game`, `power`, `password`, `phase`) of a covering note."""
    return [line for line in text.splitlines() if is_header_line(line)]


def _decode(part: Message, notes: list[str]) -> str:
    """The part's text: a byte-order mark says its encoding, else its declared charset, else
    UTF-8 or Windows-1252; format=flowed lines joined again."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return str(part.get_payload())
    text = _decode_bytes(payload, part.get_content_charset(), notes).replace("\r\n", "\n")
    if part.get_content_type() == "text/plain" and str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, delsp=str(part.get_param("delsp", "")).lower() == "yes")
    return text


def _decode_bytes(payload: bytes, charset: str | None, notes: list[str]) -> str:
    if payload.startswith(codecs.BOM_UTF8):
        return payload[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace")
    if payload.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return payload.decode("utf-16", errors="replace")
    if charset:
        if _text_charset(charset):
            return payload.decode(charset, errors="replace").removeprefix("\ufeff")
        notes.append(f"unknown charset {charset[:40]!r}; read as UTF-8")
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        notes.append("no charset declared; read as Windows-1252")
        return payload.decode("cp1252", errors="replace")


# Codecs Python has that no mail client writes a text in, and whose decoding is slow (punycode
# and idna take quadratic time: 39 s for one mail) or not a text at all.
_NOT_MAIL_CHARSETS = frozenset({"punycode", "idna", "raw_unicode_escape", "unicode_escape", "undefined"})


def _text_charset(charset: str) -> bool:
    """Whether a declared charset is one to decode a mail's text with."""
    try:
        info = codecs.lookup(charset)
    except (LookupError, ValueError):
        return False
    return bool(getattr(info, "_is_text_encoding", True)) and info.name not in _NOT_MAIL_CHARSETS


def unflow(text: str, delsp: bool = False) -> str:
    """format=flowed text (RFC 3676) as the lines its writer typed: a line that ends in a space
    goes on in the next line of the same quote depth (with DelSp=yes that space is not part of
    the text), a leading space of a line was added for transport, and `-- ` stays a line."""
    lines: list[str] = []
    paragraph: list[str] = []
    depth = 0
    for raw in text.splitlines():
        quotes = len(raw) - len(raw.lstrip(">"))
        content = raw[quotes:].removeprefix(" ")
        if paragraph and quotes != depth:  # a quote depth change ends a paragraph (4.5)
            lines.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
        depth = quotes
        flowed = content.endswith(" ") and content != "-- "
        paragraph.append(content[:-1] if flowed and delsp else content)
        if not flowed:
            lines.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
    if paragraph:
        lines.append(_quoted(depth, "".join(paragraph)))
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def _quoted(depth: int, line: str) -> str:
    return ">" * depth + " " + line if depth else line


def cut_quoted_reply(text: str) -> str:
    """Everything from the first 'On … wrote:' (or similar) line on is the mail being answered:
    a line, or two when a client wrapped it, each tried only when short enough to be one."""
    lines = text.splitlines(keepends=True)
    bare = [line.rstrip("\r\n") for line in lines]
    offset = 0
    for number, line in enumerate(lines):
        if _starts_reply(bare[number : number + 3]):
            return text[:offset]
        offset += len(line)
    return text


def _starts_reply(lines: list[str]) -> bool:
    """Whether the first of these lines opens a quoted reply (the next two may finish it)."""
    line, *rest = lines
    if len(line) > REPLY_HEADER_CHARS or not _OPENING.match(line):
        return False
    if not any(_closes(text[:REPLY_HEADER_CHARS]) for text in lines):
        return False  # most lines: no word that ends such a line, on it or the next two
    if _REPLY_HEADER.fullmatch(line):
        return True
    if _OUTLOOK_FROM.fullmatch(line) and any(_OUTLOOK_SENT.match(later) for later in rest[:2]):
        return True
    two = f"{line}\n{rest[0]}" if rest else ""
    return bool(rest) and len(two) <= REPLY_HEADER_CHARS and bool(_REPLY_HEADER.fullmatch(two))


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
    extractor.feed(defused_html(html))
    extractor.close()
    lines = [" ".join(line.split()) for line in "".join(extractor.parts).splitlines()]
    return "\n".join(line for line in lines if line) + "\n"
