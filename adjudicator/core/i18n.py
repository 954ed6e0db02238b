"""The languages players read (issue 18): English, Polish, Hungarian, French and Spanish.

Messages are English in the code and in the templates, and gettext catalogs translate them:
`adjudicator/locale/<lang>/LC_MESSAGES/adjudicator.po`, read with Babel (each language's plural
forms: Polish has three) and compiled in memory once per process. A message made before anyone
knows who will read it (a refusal in a receipt, an event's reason) is a `Msg`: its English
template and arguments, put into a language only when it is shown. Rule numbers (R6.4, E8.3,
M4.5) are the same in every language.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import io
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from adjudicator.core.errors import UsageError
from adjudicator.core.resources import package_file

LANGUAGES: Mapping[str, str] = {"en": "English", "pl": "polski", "hu": "magyar", "fr": "français", "es": "español"}
SOURCE = "en"  # the code's own language: its catalog is the messages themselves
DOMAIN = "adjudicator"


def check_language(code: str) -> str:
    """A language code as given (`PL`, ` fr `) made canonical, or one sentence naming those there are."""
    wanted = code.strip().lower()
    if wanted not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise UsageError(f"'{code}' is not a language of the adjudicator; use one of {known}")
    return wanted


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of a language; English is the messages as written. The .po file is compiled
    once per version of it and kept in a cache (2 ms to read instead of 40 ms to compile: a game
    whose players read four languages reads four catalogs in every command)."""
    if lang == SOURCE:
        return gettext.NullTranslations()
    source = package_file("adjudicator", f"locale/{lang}/LC_MESSAGES/{DOMAIN}.po").read_bytes()
    cached = _compiled_cache(f"{lang}-{hashlib.sha256(source).hexdigest()[:24]}.mo")
    if cached is not None and cached.exists():
        with cached.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    compiled = _compiled(source, lang)
    if cached is not None:
        try:
            fresh = cached.with_name(f"{cached.name}.{os.getpid()}")
            fresh.write_bytes(compiled)
            fresh.replace(cached)  # atomic: another process reads the whole file or none
        except OSError:
            pass  # a cache that cannot be written only costs the next process the compiling
    return gettext.GNUTranslations(io.BytesIO(compiled))


def _compiled(source: bytes, lang: str) -> bytes:
    from babel.messages.mofile import write_mo  # only when a catalog is compiled
    from babel.messages.pofile import read_po

    compiled = io.BytesIO()
    write_mo(compiled, read_po(io.BytesIO(source), locale=lang, domain=DOMAIN))
    return compiled.getvalue()


def _compiled_cache(name: str) -> Path | None:
    """Where a compiled catalog is kept: a folder of this user's under the system's temporary
    folder, as Jinja keeps its compiled templates; None when that folder is not safely ours."""
    folder = Path(tempfile.gettempdir()) / f"adjudicator-catalogs-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        owned = folder.lstat()
    except OSError:
        return None
    if stat.S_ISLNK(owned.st_mode) or owned.st_uid != os.getuid() or owned.st_mode & 0o077:
        return None  # someone else's folder could hold a catalog of their making
    return folder / name


class Msg(str):
    """A message not yet in a language. As a string it is the English text, so it goes wherever
    text goes (into an f-string, a comparison, a log); `render` puts it into another language.
    Its English template and arguments travel with it, and through history files as a table
    (`to_data`, `decode`), so a report rendered later still translates it. Fields are written
    `%(name)s`, as Jinja's `{% trans %}` writes them, so a translator meets one style in the
    whole catalog; arguments that are messages are translated too."""

    text: str
    args: Mapping[str, Any]
    plural: str
    number: int | None  # the count that picks a plural form (str has a `count` method already)
    context: str  # a term's kind ("card", "phase"): the catalog's msgctxt, empty for a sentence

    def __new__(
        cls,
        text: str,
        args: Mapping[str, Any] | None = None,
        plural: str = "",
        count: int | None = None,
        context: str = "",
    ) -> Msg:
        values = dict(args or {})
        english = _fill(plural if plural and count != 1 else text, values, SOURCE)
        self = super().__new__(cls, english)
        self.text, self.args, self.plural, self.number, self.context = text, values, plural, count, context
        return self

    def render(self, lang: str = SOURCE) -> str:
        catalog = translations(lang)
        number = 1 if self.number is None else self.number
        if self.context:
            template = catalog.npgettext(self.context, self.text, self.plural or self.text, number)
        elif self.plural and self.number is not None:
            template = catalog.ngettext(self.text, self.plural, self.number)
        else:
            template = catalog.gettext(self.text)
        return _fill(template, self.args, lang)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {MSG: self.text, "args": {k: encode(v) for k, v in self.args.items()}}
        data |= {"plural": self.plural, "count": self.number} if self.plural else {}
        return data | ({"context": self.context} if self.context else {})


MSG = "msg"  # the key that marks a stored message's table
_MSG_KEYS = {MSG, "args", "plural", "count", "context"}


def _fill(template: str, args: Mapping[str, Any], lang: str) -> str:
    values = {key: value.render(lang) if isinstance(value, Msg) else value for key, value in args.items()}
    return template % values if values else template


def encode(value: Any) -> Any:
    """A value for a history file: messages as tables, inside lists and tables too."""
    if isinstance(value, Msg):
        return value.to_data()
    if isinstance(value, Mapping):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    return value


def decode(value: Any) -> Any:
    """A value read back from a history file: a message's table becomes the message again."""
    if isinstance(value, Mapping):
        if MSG in value and set(value) <= _MSG_KEYS:
            args = {k: decode(v) for k, v in value.get("args", {}).items()}
            plural, context = str(value.get("plural", "")), str(value.get("context", ""))
            return Msg(str(value[MSG]), args, plural, value.get("count"), context)
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def joined(parts: Sequence[str], separator: str = ", ") -> str:
    """Parts joined as `separator.join` joins them, each part that is a message still put into
    the reader's language where it is shown: a list of names and phrases is no sentence, so it
    has no words of its own to translate."""
    if not any(isinstance(part, Msg) for part in parts):
        return separator.join(parts)
    return Msg(separator.join(f"%(part{i})s" for i in range(len(parts))), {f"part{i}": p for i, p in enumerate(parts)})


def t(text: str, /, **args: Any) -> Msg:
    """A message to translate where it is shown (extracted from the code by this name)."""
    return Msg(text, args)


def tn(singular: str, plural: str, count: int, /, **args: Any) -> Msg:
    """A message with a count: the language picks the form (`%(count)s` is among the arguments)."""
    return Msg(singular, {"count": count, **args}, plural, count)


def term(kind: str, name: str, count: int = 1) -> Msg:
    """The name of one of a game's things (a card, a good, a phase) as the reader's language
    calls it: the catalog's word under the context `kind`, in the form a count asks for (Polish
    "2 wina", "5 win"). English is the name as the board or the code has it, whatever the count;
    a name the catalog lacks (a moderator's own board) stays as it is."""
    return Msg(name, None, name, count, context=kind)


def counted(kind: str, name: str, count: int) -> Msg:
    """`2 wine`, `wine`: a count of a thing in the reader's language."""
    if count == 1:
        return term(kind, name)
    return t("%(count)s %(thing)s", count=count, thing=term(kind, name, count))


def in_language(value: object, lang: str) -> str:
    """Any value as text in a language: a message translated, anything else as it is."""
    return value.render(lang) if isinstance(value, Msg) else str(value)
