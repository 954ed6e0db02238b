"""The written forms of order lines (the `[forms]` of grammar/common.forms.toml and of each
grammar/*.errors.toml) as a player reads them: in the `help` answer and after a syntax error
("write it as: …").

A form is parts cut by two or more spaces: the syntax itself (`build [N] city|temple in
PROVINCE [with CARDS]`), a gloss in brackets (`(Commerce Director only)`), and `or` between
two ways of writing the line. The syntax is the order language: the caller may put its keywords
into the player's words (`orders.in_keywords`), a translator never does; its placeholders
(PROVINCE, CARDS) are messages, like the glosses and the `or`. tools/catalogs.py gathers those
from the same files with `form_parts`, so what is shown and what is translated cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from adjudicator.core.i18n import Msg

_GAP = re.compile(r"(\s{2,})")  # between the parts of a form
PLACEHOLDER = re.compile(r"\b[A-Z]{2,}(?:-[A-Z]+)*\b")  # CARD, HERO-OR-WONDER; not N, T3 or R6.4
OR = "or"


class PartKind(StrEnum):
    SYNTAX = "syntax"
    GLOSS = "gloss"  # the text inside the brackets
    OR = "or"
    GAP = "gap"  # the spaces between two parts, kept so the form lines up as its author set it


@dataclass(frozen=True, slots=True)
class FormPart:
    kind: PartKind
    text: str


def form_parts(form: str) -> Iterator[FormPart]:
    for part in _GAP.split(form):
        if not part:
            continue
        if not part.strip():
            yield FormPart(PartKind.GAP, part)
        elif part == OR:
            yield FormPart(PartKind.OR, part)
        elif part.startswith("(") and part.endswith(")"):
            yield FormPart(PartKind.GLOSS, part[1:-1])
        else:
            yield FormPart(PartKind.SYNTAX, part)


def placeholders(syntax: str) -> list[str]:
    return PLACEHOLDER.findall(syntax)


def form_message(form: str, syntax_in: Callable[[str], str] | None = None) -> Msg:
    """A form as a message: its placeholders, glosses and `or`s translated where it is shown,
    its syntax as written or as `syntax_in` writes it (in the reader's keywords). The message's
    own text is the form with those translated parts as fields: no catalog entry, so every
    language shows it as it is, with the fields filled in."""
    template: list[str] = []
    fields: dict[str, Msg] = {}

    def field(said: Msg) -> str:
        name = f"part{len(fields)}"
        fields[name] = said
        return f"%({name})s"

    for part in form_parts(form):
        if part.kind is PartKind.SYNTAX:
            syntax = syntax_in(part.text) if syntax_in is not None else part.text
            template.append(PLACEHOLDER.sub(lambda m: field(Msg(m.group(0))), syntax.replace("%", "%%")))
        elif part.kind is PartKind.GLOSS:
            template.append("(" + field(Msg(part.text)) + ")")
        elif part.kind is PartKind.OR:
            template.append(field(Msg(OR)))
        else:
            template.append(part.text)
    return Msg("".join(template), fields)
