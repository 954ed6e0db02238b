"""docs/rules.md is the rulebook the messages cite: every rule number cited anywhere in the
code, templates, grammar, README and rule cases must be a numbered clause there."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
RULINGS_DOC = ROOT / "docs" / "rulings.md"

# Where rule numbers are cited: code, message templates, grammar and its error texts, the
# README, and the rule cases (their `rule` keys and titles).
CITING = ("adjudicator/**/*.py", "templates/**/*.j2", "grammar/*.toml", "grammar/*.lark", "README.md")
CITING_CASES = ("tests/rules/cases/*.toml",)

# A rule number standing alone: R6.4, R10, D13. Not inside a word or a hex string (a3D10f),
# not a colour (#D10), not a section of a section (6.R2).
CITATION = re.compile(r"(?<![\w.#])(R\d+(?:\.\d+)?|D\d+)(?![\w])")

# A clause of docs/rules.md: a heading that starts with its number (`### R6.4 Placing
# influence`) or a line that starts with it in bold (`**R6.4** …`, `- **D9** …`). A number
# mentioned anywhere else is a reference, not a clause.
CLAUSE = re.compile(r"^(?:#{1,6}[ \t]+|(?:[-*][ \t]+)?\*\*)(R\d+(?:\.\d+)?|D\d+)(?![\w.])", re.MULTILINE)

# Every clause the rules must have (RULES.md R1-R10 with their sub-clauses, and the decisions).
REQUIRED = (
    "R1", "R1.3",
    "R2", "R2.1", "R2.2", "R2.3", "R2.4",
    "R3", "R3.1", "R3.2", "R3.3",
    "R4",
    "R5", "R5.1", "R5.2", "R5.3", "R5.4", "R5.5", "R5.6", "R5.7",
    "R6", "R6.1", "R6.2", "R6.3", "R6.4", "R6.5", "R6.6", "R6.7", "R6.8", "R6.9",
    "R7", "R7.1", "R7.2", "R7.3", "R7.4", "R7.5",
    "R8", "R8.1", "R8.2", "R8.3", "R8.4", "R8.5", "R8.6", "R8.7", "R8.8", "R8.9",
    "R9", "R10",
    *(f"D{n}" for n in range(1, 26)),
)  # fmt: skip


def clauses(text: str) -> list[str]:
    """The clause numbers a rules document defines, in order of appearance."""
    return CLAUSE.findall(text)


def citations(root: Path, patterns: Iterable[str] = CITING + CITING_CASES) -> dict[str, set[str]]:
    """Every rule number cited under `root`, with the files (relative paths) citing it."""
    found: dict[str, set[str]] = {}
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            for number in CITATION.findall(path.read_text(encoding="utf-8")):
                found.setdefault(number, set()).add(path.relative_to(root).as_posix())
    return found


def undefined(root: Path, doc: Path) -> dict[str, set[str]]:
    """Cited rule numbers that are no clause of `doc`, with where they are cited."""
    defined = set(clauses(doc.read_text(encoding="utf-8")))
    return {number: files for number, files in citations(root).items() if number not in defined}


def _sort_key(number: str) -> tuple[bool, int, int]:
    """R1 < R1.3 < R2 < … < R10 < D1 < D2 < …"""
    major, _, minor = number[1:].partition(".")
    return (number.startswith("D"), int(major), int(minor or 0))


def test_every_cited_rule_number_is_a_clause_of_docs_rules_md() -> None:
    missing = undefined(ROOT, RULES_DOC)
    listing = "\n".join(f"  {n}: cited in {', '.join(sorted(missing[n]))}" for n in sorted(missing, key=_sort_key))
    assert not missing, f"rule numbers cited but not a numbered clause of docs/rules.md:\n{listing}"


def test_docs_rules_md_has_every_clause_once() -> None:
    found = clauses(RULES_DOC.read_text(encoding="utf-8"))
    absent = [n for n in REQUIRED if n not in found]
    assert not absent, f"docs/rules.md lacks the clauses {absent}"
    twice = sorted({n for n in found if found.count(n) > 1}, key=_sort_key)
    assert not twice, f"docs/rules.md numbers these clauses more than once: {twice}"


def test_clauses_come_in_order() -> None:
    """R1 … R10 then D1 … in ascending order, so a reader can find a number by scrolling."""
    found = clauses(RULES_DOC.read_text(encoding="utf-8"))
    assert found == sorted(found, key=_sort_key)


def test_rulings_md_defines_no_clause_of_its_own() -> None:
    """One source of numbering: docs/rulings.md, if kept, only points to docs/rules.md."""
    if RULINGS_DOC.exists():
        text = RULINGS_DOC.read_text(encoding="utf-8")
        assert not clauses(text), f"docs/rulings.md defines {clauses(text)}; they belong in docs/rules.md"
        assert "rules.md" in text


def test_the_scan_reaches_every_kind_of_source() -> None:
    """The scan is not vacuous: code, templates, the README and the rule cases all cite rules."""
    files = set().union(*citations(ROOT).values())
    for where in ("adjudicator/", "templates/", "README.md", "tests/rules/cases/"):
        assert any(f.startswith(where) for f in files), f"no rule number found in {where}"


def test_citation_pattern() -> None:
    text = "R6.4: no. See R2.1-R2.3, (R10), D13; hex a3D10f, #D10, R2D2, MD5, 6.R2, R6.4."
    assert CITATION.findall(text) == ["R6.4", "R2.1", "R2.3", "R10", "D13", "R6.4"]


def test_a_clause_mentioned_only_in_passing_does_not_count() -> None:
    doc = "## R1 Parts\n\nAs R6.4 says, **R6.5** is bold but not at a line start.\n- **D9** A ruling\n"
    assert clauses(doc) == ["R1", "D9"]


def test_an_unknown_number_fails(tmp_path: Path) -> None:
    """The check can fail: a message citing a clause that does not exist is reported."""
    (tmp_path / "adjudicator").mkdir()
    (tmp_path / "adjudicator" / "x.py").write_text('reason = "R11.2: no such rule; see R6.4"\n', encoding="utf-8")
    (tmp_path / "README.md").write_text("Influence (R6.4), and D99.\n", encoding="utf-8")
    assert undefined(tmp_path, RULES_DOC) == {"R11.2": {"adjudicator/x.py"}, "D99": {"README.md"}}
