"""Every event the engine emits has a sentence in the plain-text report (no raw dumps), in each
ruleset's own events template."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.core.dice import ChainDice
from adjudicator.game.game import default_board_path, load_board
from adjudicator.reports.maps import ruleset_maps
from adjudicator.reports.render import Renderer
from adjudicator.rulesets import REGISTRY, find_ruleset
from tests.rules.runner import load_cases, run_case


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_event_of_every_rule_case_renders_as_a_sentence(name: str) -> None:
    ruleset = find_ruleset(name)
    board = load_board(ruleset, default_board_path(ruleset))
    template = Renderer(ruleset.name).environment.get_template(f"{ruleset.name}/events.txt.j2")
    seen: dict[str, Any] = {}
    for case in load_cases():
        if case["ruleset"] == ruleset.name:
            for event in run_case(case).events:
                seen.setdefault(str(event["kind"]), event)
    assert len(seen) > 10, "the rule cases emit events of many kinds"
    module = template.make_module({**_report_context(ruleset, board), "phase_number": 7})
    for kind, event in sorted(seen.items()):
        for audience in (None, event.get("player")):
            text = str(module.sentence(event, audience))
            assert text and not text.startswith(f"{kind}:"), f"no sentence for {kind}: {text}"
            assert "{" not in text and "None" not in text, f"{kind} renders badly: {text}"


def _report_context(ruleset: Any, board: Any) -> dict[str, Any]:
    """What a report renders events with: the ruleset's report data for an opening position."""
    civs = ruleset.civilizations(board)[: max(ruleset.player_counts)]
    options = ruleset.check_options({})
    position, _ = ruleset.new_position(board, civs, ChainDice("sentences", 0, bytes(32), root=bytes(32)), options)
    return ruleset.report_data(
        board,
        ruleset.position_to_data(position),
        {},
        options,
        ruleset_maps(ruleset),
        ruleset.colours(board, "distinct"),
    )
