"""Every event the engine emits has a sentence in the plain-text report (no raw dumps)."""

from __future__ import annotations

from typing import Any

from adjudicator.game import default_board_path, load_board
from adjudicator.reports import Renderer
from adjudicator.rulesets import find_ruleset
from tests.rules.runner import load_cases, run_case


def test_every_event_of_every_rule_case_renders_as_a_sentence() -> None:
    ruleset = find_ruleset("mare-nostrum")
    names = ruleset.place_names(load_board(ruleset, default_board_path(ruleset)))
    template = Renderer(ruleset.name).environment.get_template("mare-nostrum/events.txt.j2")
    seen: dict[str, Any] = {}
    for case in load_cases():
        for event in run_case(case).events:
            seen.setdefault(str(event["kind"]), event)
    module = template.make_module({"names": names, "phase_number": 7})
    for kind, event in sorted(seen.items()):
        for audience in (None, event.get("civ")):
            text = str(module.sentence(event, audience))
            assert text and not text.startswith(f"{kind}:"), f"no sentence for {kind}: {text}"
            assert "{" not in text and "None" not in text, f"{kind} renders badly: {text}"
