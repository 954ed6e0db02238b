"""Per-line problems with orders: values kept next to their line, never raised.

Three kinds, as in python-chess (invalid / illegal / ambiguous) and godip (not understood /
not allowed): the line is not understood (`OrderSyntaxError`), it names something that does
not exist or could be several things (`UnknownName`, `AmbiguousName`), or it is understood
but the rules forbid it (`Rejection`, which cites its rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.i18n import Msg, t
from adjudicator.language.written_forms import form_message


@dataclass(frozen=True, slots=True)
class OrderSyntaxError:
    line: int
    column: int
    label: str
    expected: str = ""  # the form to write the line in, as grammar/*.toml gives it

    @property
    def message(self) -> str:
        if self.expected:
            return t("%(problem)s; write it as: %(form)s", problem=self.label, form=form_message(self.expected))
        return self.label


@dataclass(frozen=True, slots=True)
class UnknownName:
    line: int
    kind: str
    name: str
    suggestions: tuple[str, ...] = ()
    where: str = ""  # e.g. "in Ravenna" for a city site

    @property
    def message(self) -> str:
        if self.where:
            text = t("unknown %(kind)s '%(name)s' %(where)s", kind=_kind(self.kind), name=self.name, where=self.where)
        else:
            text = t("unknown %(kind)s '%(name)s'", kind=_kind(self.kind), name=self.name)
        if self.suggestions:
            return t("%(problem)s; did you mean %(names)s?", problem=text, names=either(self.suggestions))
        return text


@dataclass(frozen=True, slots=True)
class AmbiguousName:
    line: int
    kind: str
    name: str
    candidates: tuple[str, ...]

    @property
    def message(self) -> str:
        options = either(self.candidates)
        return t(
            "'%(name)s' could be the %(kind)s %(names)s; write the full name",
            name=self.name,
            kind=_kind(self.kind),
            names=options,
        )


@dataclass(frozen=True, slots=True)
class Rejection:
    line: int
    rule: str
    text: str

    @property
    def message(self) -> str:
        return t("%(rule)s: %(reason)s", rule=self.rule, reason=self.text) if self.rule else self.text


Problem = OrderSyntaxError | UnknownName | AmbiguousName | Rejection


def either(names: tuple[str, ...]) -> str:
    """`'a'`, `'a' or 'b'`, `'a' or 'b' or 'c'`: the names quoted, with the language's "or"."""
    quoted = [Msg("'%(name)s'", {"name": name}) if isinstance(name, Msg) else f"'{name}'" for name in names]
    text: str = quoted[0] if quoted else ""
    for name in quoted[1:]:
        text = t("%(some)s or %(other)s", some=text, other=name)
    return text


def _kind(kind: str) -> str:
    """A kind of name (`city`, `province`) as a message, when the caller marked it as one."""
    return kind if isinstance(kind, Msg) else Msg(kind)
