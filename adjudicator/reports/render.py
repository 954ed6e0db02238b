"""Rendering with Jinja2: one environment, per-format escaping, ruleset-specific templates.

A template `templates/<ruleset>/<name>` overrides the generic `templates/<name>`, so a
ruleset can shape its own reports while receipts and other generic texts stay shared.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    pass_context,
    select_autoescape,
)
from jinja2.runtime import Context
from markupsafe import Markup

from adjudicator.core.controls import without_controls
from adjudicator.core.i18n import SOURCE, Msg, counted, in_language, term, translations
from adjudicator.core.resources import shipped_folder

_BBCODE = str.maketrans({"[": "［", "]": "］", "<": "‹", ">": "›"})
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~])")


def escape_bbcode(text: object) -> str:
    """Brackets become full-width look-alikes, so no tag survives; '<' goes too, because
    BoardGameGeek drops everything after a '<' that touches a character."""
    return text if isinstance(text, Markup) else str(text).translate(_BBCODE)


def escape_markdown(text: object) -> str:
    """Backslash every character Markdown (and the HTML it allows) could act on."""
    return text if isinstance(text, Markup) else _MARKDOWN.sub(r"\\\1", str(text))


@functools.cache
def make_environment(lang: str = SOURCE) -> Environment:
    """One environment per process and language, as Jinja intends: it keeps the compiled
    templates, and its bytecode cache keeps them across processes (a whole `adjudicate` renders
    eleven). Template text in `{% trans %}` or `_()` comes out in the language's words."""
    environment = Environment(
        extensions=["jinja2.ext.i18n"],
        loader=FileSystemLoader(shipped_folder("templates")),
        # The pattern names what the compiled templates assume (`finalize` below), so a cache an
        # older version left behind is never taken for this one's.
        bytecode_cache=FileSystemBytecodeCache(pattern="__jinja2_adjudicator_finalized_%s.cache"),
        autoescape=select_autoescape(enabled_extensions=("html", "svg", "html.j2", "svg.j2")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=functools.partial(finalize, lang=lang),  # given the value only, as the pattern says
    )
    environment.filters["bbcode"] = escape_bbcode
    environment.filters["markdown"] = escape_markdown
    environment.filters["counts"] = format_counts
    environment.filters["lookup"] = lambda key, table: table[key]
    environment.filters["tr"] = lambda value: in_language(value, lang)  # a Msg in this language
    environment.filters["term"] = lambda name, kind, count=1: term(kind, str(name), count).render(lang)
    environment.filters["terms"] = lambda table, kind, empty="none": format_terms(table, kind, lang, empty)
    environment.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        installed: Callable[..., str] = environment.globals[name]  # type: ignore[assignment]
        environment.globals[name] = _arguments_in(installed, lang)
    environment.globals["lang"] = lang
    return environment


def finalize(value: Any, lang: str) -> Any:
    """What every `{{ … }}` of every template outputs: a message in the reader's language (`{{ msg }}`),
    and never a control character other than the line break and the tab, whatever the value's
    source (a player's name, a forum user name, an order line echoed back)."""
    if isinstance(value, Msg):
        value = value.render(lang)
    elif not isinstance(value, str | int | float) and value is not None and not hasattr(value, "__html__"):
        value = str(value)  # what Jinja would print (and escape), its control characters taken out below
    if not isinstance(value, str):
        return value
    kept = without_controls(value)  # an escape code, a bell or a carriage return acts on the reader's terminal
    return Markup(kept) if isinstance(value, Markup) and kept is not value else kept


def _arguments_in(gettext: Callable[..., str], lang: str) -> Callable[..., str]:
    """One of Jinja's gettext functions, with the arguments that are messages (a phase's label,
    a card's name) put into the reader's language before they fill the template's blanks."""

    @pass_context
    def call(context: Context, *args: Any, **variables: Any) -> str:
        shown = {key: in_language(value, lang) if isinstance(value, Msg) else value for key, value in variables.items()}
        return gettext(context, *args, **shown)

    return call


def format_terms(table: Mapping[str, int], kind: str, lang: str, empty: str = "none") -> str:
    """`{"tax": 2, "wine": 1}` -> `2 tax, wine`, each name as the reader's language says it
    after its count (`2 podatki, wino`)."""
    parts = [counted(kind, str(name), count).render(lang) for name, count in table.items() if count]
    return ", ".join(parts) if parts else empty


def format_counts(table: Mapping[str, int], empty: str = "none") -> str:
    """`{"tax": 2, "wine": 1}` -> `2 tax, wine`."""
    parts = [name if count == 1 else f"{count} {name}" for name, count in table.items() if count]
    return ", ".join(parts) if parts else empty


class Renderer:
    """Renders named templates, preferring the ruleset's own version of each."""

    def __init__(self, ruleset: str, lang: str = SOURCE) -> None:
        self.ruleset = ruleset
        self.lang = lang
        self.environment = make_environment(lang)

    def render(self, name: str, **context: Any) -> str:
        """`templates_of` lets a shared template include the ruleset's own part of it."""
        template = self.environment.select_template([f"{self.ruleset}/{name}", name])
        return template.render(templates_of=self.ruleset, **context)

    def render_markup(self, name: str, **context: Any) -> Markup:
        """An autoescaped rendering (SVG, HTML) to embed in another such rendering."""
        return Markup(self.render(name, **context))
