"""The reports of an adjudicated phase, made from its history record and the state after it.

Public reports come in four formats (plain text, Markdown, BBCode, HTML with the map); each
player gets a private plain-text report with his hand, his orders' results and an order
form for the next phase. Nothing here knows a game rule: the ruleset's templates and its
`report_data` do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.errors import UsageError
from adjudicator.game import Game
from adjudicator.reports import Renderer
from adjudicator.storage import read_toml, write_text_atomic

FORMATS = ("txt", "md", "bbcode", "html")


@dataclass(frozen=True, slots=True)
class PhaseRecord:
    """One adjudicated phase as history keeps it."""

    slug: str
    number: int
    before: dict[str, Any]  # the position as the phase opened
    after: dict[str, Any]  # the position it led to
    events: list[dict[str, Any]]
    dice: dict[str, Any]
    receipts: dict[str, list[dict[str, Any]]]


def adjudicated_slugs(game: Game) -> list[str]:
    return [
        p.stem
        for p in sorted(game.directory.history.glob("*.toml"))
        if "events" in read_toml(p) and p.stem[:3] != "000"
    ]


def load_record(game: Game, phase: str | None = None) -> PhaseRecord:
    """A phase by number or slug (default: the last adjudicated one)."""
    if phase is not None and game.directory.history_file(phase).exists():
        return _record_of(game, phase)
    slugs = adjudicated_slugs(game)
    if not slugs:
        raise UsageError("no phase has been adjudicated yet; run 'adjudicator adjudicate GAME' first")
    if phase is None:
        slug = slugs[-1]
    else:
        matches = [s for s in slugs if s == phase or (phase.isdigit() and int(s[:3]) == int(phase))]
        if not matches:
            raise UsageError(f"no adjudicated phase '{phase}'; the phases are {', '.join(slugs)}")
        slug = matches[0]
    return _record_of(game, slug)


def _record_of(game: Game, slug: str) -> PhaseRecord:
    data = read_toml(game.directory.history_file(slug))
    number = int(data["phase_number"])
    following = sorted(game.directory.history.glob(f"{number + 1:03d}-*.toml"))
    after = read_toml(following[0])["position"] if following else game.state_data()
    return PhaseRecord(
        slug,
        number,
        _complete(game, data["position"]),
        _complete(game, after),
        data["events"],
        data["dice"],
        read_toml(receipts) if (receipts := game.directory.orders_folder(slug) / "receipts.toml").exists() else {},
    )


def _complete(game: Game, stored: dict[str, Any]) -> dict[str, Any]:
    """A stored position with every key of the stable shape (TOML drops the empty ones)."""
    return game.ruleset.position_to_data(game.ruleset.position_from_data(game.board, stored))


def _context(game: Game, record: PhaseRecord) -> dict[str, Any]:
    after = game.ruleset.position_from_data(game.board, record.after)
    names = {p.civ: p.name for p in game.settings.players}
    due = game.ruleset.due(after, game.settings.mode == "stepwise")
    current = record.after == _complete(game, game.state_data())
    deadline = game.deadline()
    shown = game.settings.schedule.local(deadline) if deadline and current else ""
    return {
        "title": f"{game.settings.id}: T{record.before['turn']} {record.before['phase']}",
        "game": {"id": game.settings.id, "title": game.ruleset.title},
        "phase": {
            "number": record.number,
            "turn": record.before["turn"],
            "name": record.before["phase"],
            "step": record.before.get("step"),
        },
        "phase_number": record.number,
        "events": record.events,
        "state": record.after,
        "winner": record.after.get("winner"),
        "next": {
            "label": f"T{record.after['turn']} {record.after['phase']}",
            "step": record.after.get("step"),
            "due": list(due),
            "deadline": shown,
        },
        "dice": record.dice,
        "commitment": game.settings.commitment,
        "map_svg": "",
        **game.ruleset.report_data(game.board, record.after, names),
    }


def render_map(game: Game, record: PhaseRecord) -> str:
    return Renderer(game.ruleset.name).render("map.svg.j2", **_context(game, record))


def render_public(game: Game, record: PhaseRecord, fmt: str) -> str:
    if fmt not in FORMATS:
        raise UsageError(f"'{fmt}' is not a report format; use {', '.join(FORMATS)}")
    renderer = Renderer(game.ruleset.name)
    context = _context(game, record)
    if fmt == "html":
        context["map_svg"] = renderer.render_markup("map.svg.j2", **context)
    return renderer.render(f"public.{fmt}.j2", **context)


def render_private(game: Game, record: PhaseRecord, civ: str) -> str:
    if civ not in game.playing() and civ not in record.after["players"]:
        raise UsageError(f"{civ} is not a player of this game")
    context = _context(game, record)
    return Renderer(game.ruleset.name).render(
        "private.txt.j2", civ=civ, player=record.after["players"][civ], receipt=record.receipts.get(civ, []), **context
    )


def write_phase_reports(game: Game, record: PhaseRecord) -> list[Path]:
    """reports/<slug>/: public.{txt,md,bbcode,html}, map.svg, and <Civ>.txt per player."""
    folder = game.directory.reports / record.slug
    written = []
    for fmt in FORMATS:
        written.append(folder / f"public.{fmt}")
        write_text_atomic(written[-1], render_public(game, record, fmt))
    written.append(folder / "map.svg")
    write_text_atomic(written[-1], render_map(game, record))
    for civ in game.ruleset.playing(game.ruleset.position_from_data(game.board, record.before)):
        written.append(folder / f"{civ}.txt")
        write_text_atomic(written[-1], render_private(game, record, civ))
    return written
