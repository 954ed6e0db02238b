"""docs/rule-cases.md, made from the cases themselves: `python -m tests.rules.catalogue`."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.rules.runner import load_cases

DOC = Path(__file__).resolve().parents[2] / "docs" / "rule-cases.md"


def section(rule: str) -> str:
    """R6.4 -> R6, R10 -> R10, D7 -> decisions."""
    return "Decisions" if rule.startswith("D") else re.sub(r"\..*", "", rule)


def render() -> str:
    cases = load_cases()
    counts = Counter(section(c["rule"]) for c in cases)
    order = sorted(counts, key=lambda s: (s == "Decisions", int(s[1:]) if s != "Decisions" else 0))
    lines = [
        "# Rule cases (our DATC)",
        "",
        "Every case is a small TOML table in `tests/rules/cases/`: a position in the DESIGN.md shape,",
        "orders per civilization, scripted dice, and the expected rejections, events and position",
        "fragments. `tests/rules/test_rule_cases.py` runs each one under its id; on failure it prints",
        "the whole event trace. This page is generated (`python -m tests.rules.catalogue`), and a test",
        "fails when it is out of date.",
        "",
        f"{len(cases)} cases. Per section:",
        "",
        "| section | cases |",
        "|---|---|",
        *(f"| {s} | {counts[s]} |" for s in order),
        "",
        "| id | rule | what it shows | source |",
        "|---|---|---|---|",
    ]
    for case in sorted(cases, key=lambda c: (order.index(section(c["rule"])), c["rule"], c["id"])):
        title = case["title"].replace("|", "\\|")
        lines.append(f"| {case['id']} | {case['rule']} | {title} | {case.get('source', '')} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    DOC.write_text(render(), encoding="utf-8")
