"""docs/rule-cases.md, made from the cases themselves: `python -m tests.rules.catalogue`.

Each ruleset gets its own part, with its own numbering: R1…R10 and D… for the 2003 game,
E1…E11 and ED… for Empires, M1…M12 and MD… for Mare Mediterraneum; decisions come last in each part.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from tests.rules.runner import DEFAULT_RULESET, load_cases

DOC = Path(__file__).resolve().parents[2] / "docs" / "rule-cases.md"
PARTS = {
    "mare-nostrum": "Mare Nostrum (2003): R and D numbers, [rules.md](rules.md)",
    "empires": "Mare Nostrum: Empires: E and ED numbers, [rules-empires.md](rules-empires.md)",
    "mediterraneum": "Mare Mediterraneum: M and MD numbers, [rules-mediterraneum.md](rules-mediterraneum.md)",
}


def section(rule: str) -> str:
    """R6.4 -> R6, R10 -> R10, D7 -> decisions; E6.4 -> E6, ED14 -> decisions; MD13 likewise."""
    return "Decisions" if re.match(r"[EM]?D\d", rule) else re.sub(r"\..*", "", rule)


def _section_key(name: str) -> tuple[bool, int]:
    return (name == "Decisions", int(re.sub(r"\D", "", name) or 0))


def _rule_key(rule: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", rule))


def _part(cases: list[dict[str, Any]], numeric: bool) -> list[str]:
    """One ruleset's part; the 2003 part keeps its rules in text order (D10 before D2), as it
    always has; Empires sorts them by number."""
    counts = Counter(section(c["rule"]) for c in cases)
    order = sorted(counts, key=_section_key)
    lines = [
        f"{len(cases)} cases. Per section:",
        "",
        "| section | cases |",
        "|---|---|",
        *(f"| {s} | {counts[s]} |" for s in order),
        "",
        "| id | rule | what it shows | source |",
        "|---|---|---|---|",
    ]
    for case in sorted(
        cases,
        key=lambda c: (order.index(section(c["rule"])), _rule_key(c["rule"]) if numeric else (), c["rule"], c["id"]),
    ):
        title = case["title"].replace("|", "\\|")
        lines.append(f"| {case['id']} | {case['rule']} | {title} | {case.get('source', '')} |")
    return lines


def render() -> str:
    cases = load_cases()
    lines = [
        "# Rule cases (our DATC)",
        "",
        "Every case is a small TOML table in `tests/rules/cases/`: a position in the DESIGN.md shape,",
        "orders per civilization, scripted dice, and the expected rejections, events and position",
        "fragments. `tests/rules/test_rule_cases.py` runs each one under its id; on failure it prints",
        "the whole event trace. This page is generated (`python -m tests.rules.catalogue`), and a test",
        "fails when it is out of date.",
        "",
        'Empires cases (`ruleset = "empires"`, files `e*.toml`) give their positions in the Empires',
        "file shape, often as changes to the opening (`setup = true`); each cites the seed line, or the",
        "decision, it checks. Mare Mediterraneum cases (`m*.toml`) do the same in their own file shape",
        "and cite the English translation by line (T:NN). A case marked `xfail` records where the",
        "engine and the rules page disagree.",
    ]
    for ruleset, heading in PARTS.items():
        mine = [c for c in cases if c.get("ruleset", DEFAULT_RULESET) == ruleset]
        if mine:
            lines += ["", f"## {heading}", "", *_part(mine, numeric=ruleset != DEFAULT_RULESET)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    DOC.write_text(render(), encoding="utf-8")
