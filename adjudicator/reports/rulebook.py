"""A ruleset's rules as the project states them (docs/), whole or one numbered clause: what
`adjudicator rules R6.4` prints and what a player's `rules R6.4` request is answered with, in
his language where the page has been translated (docs/rules.pl.md beside docs/rules.md)."""

from __future__ import annotations

import re
from typing import Any

from adjudicator.core.errors import UsageError
from adjudicator.core.i18n import SOURCE, t
from adjudicator.core.resources import shipped_folder
from adjudicator.rulesets import Ruleset


def rules_page(ruleset: Ruleset[Any, Any, Any], lang: str = SOURCE) -> str | None:
    """The name of a ruleset's rules page in a language, or None while it has no translation."""
    if lang == SOURCE:
        return ruleset.rules
    stem, dot, suffix = ruleset.rules.rpartition(".")
    name = f"{stem}.{lang}{dot}{suffix}"
    return name if (shipped_folder("docs") / name).exists() else None


def rules_text(ruleset: Ruleset[Any, Any, Any], number: str | None = None, lang: str = SOURCE) -> str:
    """The rules, or the section of the one clause a message cites, e.g. R6.4 or D5: in the
    language asked for if its page exists, else in English. The clause numbers are the same."""
    page = rules_page(ruleset, lang) or ruleset.rules
    text = (shipped_folder("docs") / page).read_text(encoding="utf-8")
    if number is None:
        return text
    wanted = number.strip().upper()
    lines = text.splitlines()
    for index, line in enumerate(lines):
        level = _heading_level(line)
        if level and line.split(" ")[1].rstrip(".:").upper() == wanted:
            end = next((i for i in range(index + 1, len(lines)) if 0 < _heading_level(lines[i]) <= level), len(lines))
            return "\n".join(lines[index:end]).strip()
        if line.upper().startswith(f"**{wanted}**"):  # a clause that is a paragraph: **M4.5** *Title.* ...
            end = next((i for i in range(index + 1, len(lines)) if _starts_clause(lines[i])), len(lines))
            return "\n".join(lines[index:end]).strip()
    raise UsageError(
        t(
            "'%(number)s' is not a rule number of %(title)s; numbers look like %(examples)s",
            number=number,
            title=ruleset.title,
            examples=_examples(text),
        )
    )


def _heading_level(line: str) -> int:
    marks, _, title = line.partition(" ")
    return len(marks) if marks and not marks.strip("#") and title.strip() else 0


def _starts_clause(line: str) -> bool:
    """A heading, or the next paragraph clause (`**M4.6**`): where a paragraph clause ends."""
    return bool(_heading_level(line)) or (line.startswith("**") and line[2:3].isalpha() and "**" in line[3:12])


def _examples(text: str) -> str:
    """Two numbers the page really has, a clause and a decision (R6.4 or D5; M4.5 or MD13)."""
    numbers = re.findall(r"(?m)^(?:#+ |\*\*)([A-Z]+\d+(?:\.\d+)?)\b", text)
    clause = next((n for n in numbers if "." in n), "")
    decision = next((n for n in numbers if "." not in n and n.rstrip("0123456789")[-1:] == "D"), "")
    if clause and decision:
        return t("%(some)s or %(other)s", some=clause, other=decision)
    return clause or decision or t("the headings of the rules page")
