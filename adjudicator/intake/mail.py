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
from email.utils import parseaddr
from html.parser import HTMLParser

from adjudicator.errors import AdjudicatorError
from adjudicator.i18n import t
from adjudicator.orders import end_of_orders, plain_text

MAX_MESSAGE_BYTES = 1_000_000
MAX_TEXT_CHARS = 64_000

# The line a mail client puts above the mail being answered. Gmail and phones wrap a long one
# ("On Mon, 3 Mar 2027 at 18:00, Anna <" / "anna@example.org> wrote:"), hence one line break;
# Outlook writes a "From: … / Sent: …" block under a rule instead.
_ONE_WRAP = r"[^\n]{0,200}\n?[^\n]{0,200}"
_REPLY_HEADER = re.compile(
    rf"^(?:(?:On\b{_ONE_WRAP}\bwrote:|Le\b{_ONE_WRAP}\ba écrit\s*:|Am\b{_ONE_WRAP}\bschrieb\b.{{0,60}}:|"
    rf"W dniu\b{_ONE_WRAP}\bpisze:|-{{2,}}\s*Original Message\s*-{{2,}}|_{{10,}})\s*$|"
    r"From:[^\n]*\n(?:[^\n]*\n)?(?:Sent|Date):)",
    re.IGNORECASE | re.MULTILINE,
)
# A header line of the order language: what a covering note may carry beside an attachment.
_HEADER_LINE = re.compile(r"\s*(?:game|power|civ|civilization|nation|password|pass|secret|phase)\b", re.IGNORECASE)
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
        raise MailRejected(
            t(
                "the mail is %(size)s bytes; orders mails may be at most %(limit)s",
                size=_grouped(len(raw)),
                limit=_grouped(MAX_MESSAGE_BYTES),
            )
        )
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
    if len(text) > MAX_TEXT_CHARS:
        raise MailRejected(
            t(
                "the orders text is %(size)s characters; at most %(limit)s are read",
                size=_grouped(len(text)),
                limit=_grouped(MAX_TEXT_CHARS),
            )
        )
    return MailText(
        message_id=str(message.get("Message-ID", "")).strip(),
        sender=address.lower(),
        sender_name=name,
        subject=str(message.get("Subject", "")),
        text=text,
        notes=tuple(notes),
    )


def _grouped(number: int) -> str:
    """`1 048 577`: thousands set apart by a narrow space, which every language reads alike
    (a comma is a decimal point in Polish, French, Hungarian and Spanish)."""
    return f"{number:,}".replace(",", "\u202f")


def _sender(message: EmailMessage) -> tuple[str, str]:
    """The From name (on one line) and address. A From the email package refuses to parse (a
    display name that decodes to a line break, as sent to smuggle a Bcc into the reply) is read
    from the raw header with `parseaddr` instead, its name decoded and flattened to one line:
    the mail is answered like any other, and no reply header ever carries CR or LF."""
    try:
        name, address = parseaddr(str(message.get("From", "")))
    except Exception:  # untrusted bytes: whatever the header parser trips on
        raw = next((str(value) for key, value in message.raw_items() if key.lower() == "from"), "")
        name, address = parseaddr(" ".join(raw.split()))
        with contextlib.suppress(Exception):  # a broken encoded word: the name stays as written
            name = str(make_header(decode_header(name)))
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        address = address.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return " ".join(name.split()), "".join(address.split())


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
        if stripped and stripped[0] not in "#>" and not _HEADER_LINE.match(stripped):
            return True
    return False


def header_lines(text: str) -> list[str]:
    """The header lines (`game`, `power`, `password`, `phase`) of a covering note."""
    return [line for line in text.splitlines() if _HEADER_LINE.match(plain_text(line))]


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
        try:
            return payload.decode(charset, errors="replace").removeprefix("\ufeff")
        except LookupError:
            notes.append(f"unknown charset {charset!r}; read as UTF-8")
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        notes.append("no charset declared; read as Windows-1252")
        return payload.decode("cp1252", errors="replace")


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
