"""The rule-case suite: one parametrized test per case, named by its stable id."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.rules.runner import check_case, load_cases, run_case

CASES = load_cases()
PREFIXES = {"mare-nostrum": ("MN-", ("R", "D")), "empires": ("ME-", ("E",)), "mediterraneum": ("MM-", ("M",))}


def _param(case: dict[str, Any]) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=case["xfail"])] if "xfail" in case else []
    return pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_rule_case(case: dict[str, Any]) -> None:
    result = run_case(case)
    problems = check_case(case, result)
    assert not problems, (
        f"{case['id']} ({case['rule']}): {case['title']}\n" + "\n".join(problems) + "\n" + result.trace()
    )


def test_case_ids_are_unique_and_well_formed() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for case in CASES:
        prefix, rules = PREFIXES[case["ruleset"]]
        assert case["id"].startswith(prefix), case["id"]
        assert case["rule"].startswith(rules), case["id"]


def test_the_catalogue_in_docs_is_current() -> None:
    from tests.rules.catalogue import DOC, render

    assert DOC.read_text(encoding="utf-8") == render(), "run: python -m tests.rules.catalogue"


def _covered(ruleset: str) -> set[str]:
    return {c["rule"] for c in CASES if c["ruleset"] == ruleset}


def test_every_rules_clause_has_a_case() -> None:
    clauses = {
        "R1", "R1.3", "R2.1", "R2.2", "R2.3", "R2.4", "R3", "R3.1", "R3.2", "R3.3", "R4",
        "R5.1", "R5.2", "R5.3", "R5.4", "R5.5", "R5.6", "R5.7",
        "R6.1", "R6.2", "R6.3", "R6.4", "R6.5", "R6.6", "R6.7", "R6.8", "R6.9",
        "R7.1", "R7.2", "R7.3", "R7.4", "R7.5",
        "R8.1", "R8.2", "R8.3", "R8.4", "R8.5", "R8.6", "R8.7", "R8.8", "R8.9", "R9", "R10",
        "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8",
    }  # fmt: skip
    covered = _covered("mare-nostrum")
    assert not clauses - covered, f"clauses without a case: {sorted(clauses - covered)}"


def test_every_empires_clause_has_a_case() -> None:
    """Issue 16: numbered rule cases cover every E-clause of docs/rules-empires.md, and the
    decisions that change outcomes."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules-empires.md").read_text(encoding="utf-8")
    clauses = set(re.findall(r"^### (E\d+\.\d+) ", page, flags=re.MULTILINE))
    assert len(clauses) >= 54, sorted(clauses)
    decisions = {f"ED{n}" for n in (4, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)}
    covered = _covered("empires")
    missing = (clauses | decisions) - covered
    assert not missing, f"clauses without a case: {sorted(missing)}"


def test_every_mediterraneum_clause_has_a_case() -> None:
    """Issue 17: numbered rule cases cover every M-clause of docs/rules-mediterraneum.md."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules-mediterraneum.md").read_text(encoding="utf-8")
    clauses = set(re.findall(r"^\*\*(M\d+\.\d+)\*\*", page, flags=re.MULTILINE))
    assert len(clauses) >= 90, sorted(clauses)
    missing = clauses - _covered("mediterraneum")
    assert not missing, f"clauses without a case: {sorted(missing)}"
