"""A ruleset's rules as the project states them (docs/), whole or one numbered clause: what
`adjudicator rules R6.4` prints and what a player's `rules R6.4` request is answered with."""

from __future__ import annotations

import re
from typing import Any

from adjudicator.errors import UsageError
from adjudicator.resources import shipped_folder
from adjudicator.rulesets import Ruleset


def rules_text(ruleset: Ruleset[Any, Any, Any], number: str | None = None) -> str:
    """The rules, or the section of the one clause a message cites, e.g. R6.4 or D5."""
    text = (shipped_folder("docs") / ruleset.rules).read_text(encoding="utf-8")
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
    raise UsageError(f"'{number}' is not a rule number of {ruleset.title}; numbers look like {_examples(text)}")


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
    return " or ".join(n for n in (clause, decision) if n) or "the headings of the rules page"
