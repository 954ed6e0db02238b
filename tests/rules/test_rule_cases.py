"""The rule-case suite: one parametrized test per case, named by its stable id."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.runner import check_case, load_cases, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
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
        assert case["id"].startswith("MN-"), case["id"]
        assert case["rule"].startswith(("R", "D")), case["id"]
