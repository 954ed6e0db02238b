"""The reports of an adjudicated phase, made from its history record and the state after it.

Public reports come in four formats (plain text, Markdown, BBCode, HTML with the map), written
to reports/<phase>/ to be published; each player gets a private plain-text report with his
hand, his orders' results and an order form for the next phase, written to private/<phase>/.
Nothing here knows a game rule: the ruleset's templates and its `report_data` do.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from adjudicator.core.errors import UsageError
from adjudicator.core.events import Event
from adjudicator.core.i18n import Msg, decode, t
from adjudicator.game.directory import order_page_name as page_name
from adjudicator.game.event_records import stored_events
from adjudicator.game.game import Game
from adjudicator.game.history import phase_slug
from adjudicator.game.storage import PRIVATE, is_public_page, read_toml, write_bytes_atomic, write_text_atomic
from adjudicator.reports.maps import ruleset_maps
from adjudicator.reports.order_form import OrderForm, order_form
from adjudicator.reports.order_page import order_page
from adjudicator.reports.render import Renderer
from adjudicator.reports.seat_lines import seat_lines
from adjudicator.rulesets import Standing, phase_label

FORMATS = ("txt", "md", "bbcode", "html")  # each written to reports/<phase>/ as the phase is resolved
CHAT = "chat"  # the public report as a chat post ([[notify]]): made when it is queued, not written
PICTURE = "png"  # `report --format png`: the map drawn as a picture, written beside the reports


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
    seats: dict[str, Any] | None = None  # who held each seat and who missed, when not in history yet (a dry run)


def record_label(game: Game, position: dict[str, Any]) -> Msg:
    """`T3 build` (or `R3 trade`) for a position as history stores it, in the reader's language where shown."""
    return phase_label(game.ruleset.turn_prefix, position["turn"], position["phase"])


def map_alt(standings: Sequence[Standing], label: Msg | str) -> Msg:
    """The map in a sentence, for readers who cannot see it (its alternative text in every
    format, its caption in chat, and on the campaign site's map history): who holds what, by the
    first two counts of the ruleset's standings after the phase, which are what its map shows
    (provinces and cities; cities held and armies)."""
    holdings = []
    for standing in standings:
        counts = list(standing.counts.items())[:2]
        parts: dict[str, object] = {f"m{i}": measure for i, (measure, _) in enumerate(counts)}
        parts |= {f"n{i}": count for i, (_, count) in enumerate(counts)}
        template = ", ".join(f"%(m{i})s %(n{i})s" for i in range(len(counts)))
        holdings.append(t("%(player)s: %(counts)s", player=standing.civ, counts=Msg(template, parts)))
    joined = Msg("; ".join(f"%(h{i})s" for i in range(len(holdings))), {f"h{i}": h for i, h in enumerate(holdings)})
    return t("The map after %(label)s. Who holds what: %(holdings)s.", label=label, holdings=joined)


def load_record(game: Game, phase: str | None = None) -> PhaseRecord:
    """A phase by number or slug (default: the last adjudicated one)."""
    if phase is not None and game.directory.history_file(phase).exists():
        return _record_of(game, phase)
    return _record_of(game, phase_slug(game, phase))


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
        decode(stored_events(game.ruleset, data)),  # a message kept as a table is a message again, to translate
        decode(data["dice"]),  # a roll's purpose kept as a table is a message again
        decode(read_toml(receipts)) if (receipts := game.directory.receipts_file(slug)).exists() else {},
    )


def unsaved_record(
    game: Game,
    after: Any,
    events: Sequence[Event],
    dice: Mapping[str, Any] | None = None,
    receipts: Mapping[str, list[dict[str, Any]]] | None = None,
    seats: dict[str, Any] | None = None,
) -> PhaseRecord:
    """The phase now open as history would keep it, had it been resolved to `after`: what the
    reports are rendered from, in memory only."""
    return PhaseRecord(
        game.slug,
        game.phase_number,
        game.state_data(),
        game.ruleset.position_to_data(after),
        decode([e.to_data() for e in events]),
        decode(dict(dice or {})),
        decode(dict(receipts or {})),
        seats,
    )


def _complete(game: Game, stored: dict[str, Any]) -> dict[str, Any]:
    """A stored position with every key of the stable shape (TOML drops the empty ones)."""
    return game.ruleset.position_to_data(game.ruleset.position_from_data(game.board, stored))


class PhaseReports:
    """The reports of one adjudicated phase. What they share (the position after the phase,
    the ruleset's report data, the map) is gathered once, however many are rendered."""

    def __init__(self, game: Game, record: PhaseRecord) -> None:
        self.game = game
        self.record = record
        self.renderer = Renderer(game.ruleset.name, game.settings.lang)  # the public reports: the game's language

    @functools.cached_property
    def context(self) -> dict[str, Any]:
        game, record = self.game, self.record
        after = self.after
        names = {p.civ: p.name for p in game.settings.players}
        due = game.due(after)
        current = record.number + 1 == game.phase_number  # the phase now open follows this one
        deadline = game.deadline()
        due_at = deadline if deadline and current else None
        colours = game.ruleset.colours(game.board, game.settings.palette)
        return {
            "title": t("%(game)s: %(label)s", game=game.settings.id, label=record_label(game, record.before)),
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
                "label": record_label(game, record.after),
                "step": record.after.get("step"),
                "due": list(due),
                "deadline": game.settings.local(due_at) if due_at else "",
                "due_at": due_at,  # each private report shows it in its reader's language and zone
            },
            "dice": record.dice,
            "commitment": game.settings.commitment,
            # Once the game is over the chain's root is published: it checks the sealed rolls
            # (the order of face-down decks) that no phase's seed revealed.
            "dice_root": game.dice_root().hex()
            if record.after.get("winner") and game.directory.secrets_file.exists()
            else "",
            "seat_lines": seat_lines(game, record.number, list(game.ruleset.playing(after)), record.seats),
            "map_svg": "",
            "site": None,  # the campaign site's links, when rendered for it (adjudicator/site.py)
            "map_url": f"{game.settings.map_url.rstrip('/')}/{record.slug}/map.png" if game.settings.map_url else "",
            "map_alt": map_alt(game.ruleset.standings(game.board, after), record_label(game, record.before)),
            **game.ruleset.report_data(
                game.board, record.after, names, game.settings.options, ruleset_maps(game.ruleset), colours
            ),
        }

    @functools.cached_property
    def map_svg(self) -> Markup:
        return self.renderer.render_markup("map.svg.j2", **self.context)

    def public(self, fmt: str) -> str:
        if fmt not in (*FORMATS, CHAT):
            raise UsageError(
                f"'{fmt}' is not a report format; use {', '.join((*FORMATS, CHAT))} or {PICTURE} (the map)"
            )
        context = {**self.context, "map_svg": self.map_svg} if fmt == "html" else self.context
        return self.renderer.render(f"public.{fmt}.j2", **context)

    def site_page(self, links: dict[str, Any]) -> str:
        """The HTML report as a page of the campaign site, with links to its neighbours."""
        return self.renderer.render("public.html.j2", **{**self.context, "map_svg": self.map_svg, "site": links})

    def private(self, civ: str) -> str:
        players = self.record.after["players"]
        if civ not in players:
            raise UsageError(f"{civ} is not a player of this game")
        receipt = self.record.receipts.get(civ, [])
        lang = self.game.settings.language_of(civ)
        form = self._form(civ)
        renderer = Renderer(self.game.ruleset.name, lang)
        due_at = self.context["next"]["due_at"]
        next_phase = {**self.context["next"], "deadline": self.game.settings.local(due_at, civ) if due_at else ""}
        context = {**self.context, "next": next_phase}
        return renderer.render("private.txt.j2", civ=civ, player=players[civ], receipt=receipt, form=form, **context)

    def order_page(self, civ: str) -> str:
        """The player's order page for the next phase: his form clicked together on the map, in his
        language (reports/order_page.py)."""
        if civ not in self.record.after["players"]:
            raise UsageError(f"{civ} is not a player of this game")
        lang = self.game.settings.language_of(civ)
        same = lang == self.game.settings.lang  # the public map, unless he reads another language
        map_svg = (
            self.map_svg if same else Renderer(self.game.ruleset.name, lang).render_markup("map.svg.j2", **self.context)
        )
        label = self.game.ruleset.phase_info(self.after).label.render(lang)
        return order_page(self.game, civ, self._form(civ), lang, map_svg, label, self.context)

    @functools.cache  # noqa: B019 - one PhaseReports renders one phase's pages, then goes
    def _form(self, civ: str) -> OrderForm:
        """His order form (116 ms for a whole game's): the private report and the page share it."""
        return order_form(self.game, self.after, civ, self.game.settings.language_of(civ))

    @functools.cached_property
    def after(self) -> Any:
        """The position after the phase: the one the next phase's order forms are for."""
        return self.game.ruleset.position_from_data(self.game.board, self.record.after)

    def pages(self) -> dict[str, str]:
        """Every report by file name: public.{txt,md,bbcode,html}, map.svg, <Civ>.txt, <Civ>-orders.html."""
        pages = {f"public.{fmt}": self.public(fmt) for fmt in FORMATS}
        pages["map.svg"] = str(self.map_svg)
        before = self.game.ruleset.position_from_data(self.game.board, self.record.before)
        for civ in self.game.ruleset.playing(before):
            pages |= {f"{civ}.txt": self.private(civ), page_name(civ): self.order_page(civ)}
        return pages

    def write(self, pages: dict[str, str] | None = None) -> list[Path]:
        """The pages, rendered now unless given: the public ones to reports/<slug>/ (the
        folder to publish), each player's to private/<slug>/<Civ>.txt (his only)."""
        directory, slug = self.game.directory, self.record.slug
        pages = self.pages() if pages is None else pages
        if not all(is_public_page(name) for name in pages):
            directory.make_private_folder(slug)
        written = [directory.page_file(slug, name) for name in pages]
        for path, text in zip(written, pages.values(), strict=True):
            write_text_atomic(path, text, mode=0o644 if is_public_page(path.name) else PRIVATE)
        if pages and self.game.settings.map_url:  # published: the BBCode and Markdown reports show it
            written.append(self.write_png())
        return written

    def write_png(self) -> Path:
        """reports/<slug>/map.png: the map as a picture (0.2 s, so only when it is wanted)."""
        from adjudicator.reports.picture import svg_to_png

        path = self.game.directory.page_file(self.record.slug, "map.png")
        write_bytes_atomic(path, svg_to_png(str(self.map_svg)))
        return path
