"""Rendering with Jinja2: one environment, per-format escaping, ruleset-specific templates.

A template `templates/<ruleset>/<name>` overrides the generic `templates/<name>`, so a
ruleset can shape its own reports while receipts and other generic texts stay shared.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from adjudicator.resources import shipped_folder

_BBCODE = re.compile(r"[\[\]]")
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def escape_bbcode(text: object) -> str:
    """Square brackets become look-alike full-width brackets: no tag survives."""
    return _BBCODE.sub(lambda m: "［" if m.group() == "[" else "］", str(text))


def escape_markdown(text: object) -> str:
    return _MARKDOWN.sub(r"\\\1", str(text))


def make_environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(shipped_folder("templates")),
        autoescape=select_autoescape(enabled_extensions=("html", "svg", "html.j2", "svg.j2")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["bbcode"] = escape_bbcode
    environment.filters["markdown"] = escape_markdown
    environment.filters["counts"] = format_counts
    environment.filters["lookup"] = lambda key, table: table[key]
    return environment


def format_counts(table: Mapping[str, int], empty: str = "none") -> str:
    """`{"tax": 2, "wine": 1}` -> `2 tax, wine`."""
    parts = [name if count == 1 else f"{count} {name}" for name, count in table.items() if count]
    return ", ".join(parts) if parts else empty


class Renderer:
    """Renders named templates, preferring the ruleset's own version of each."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.environment = make_environment()

    def render(self, name: str, **context: Any) -> str:
        template = self.environment.select_template([f"{self.ruleset}/{name}", name])
        return template.render(**context)
