"""Answers to a player's requests in a mail (`status`, `orders`, `help`, `rules`, `absence`):
made once the mail's password was checked, and sent back in the reply to that mail.

`status` says who has sent orders, never what they sent; `orders` shows the asker his own.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from adjudicator.core.errors import UsageError, message_of
from adjudicator.core.i18n import SOURCE, in_language, t
from adjudicator.game import absences
from adjudicator.game.game import Game
from adjudicator.game.pause import paused
from adjudicator.game.submissions import check_submission, missing_orders, order_files, submitted
from adjudicator.language.headers import Request
from adjudicator.language.translation import canonical_keywords, in_keywords
from adjudicator.language.written_forms import form_message
from adjudicator.reports.render import Renderer
from adjudicator.reports.rulebook import rules_page, rules_text

if TYPE_CHECKING:
    from adjudicator.language.submission import Submission

PREVIEW = "preview"  # the request whose mail's orders are tried, not stored (reports/preview.py)


@dataclass(frozen=True, slots=True)
class Answer:
    line: int
    request: str  # the request as the player would write it
    text: str
    preview: bool = False  # the answer to `preview`: the mail's orders were tried, not stored


def answer_requests(game: Game, civ: str, requests: Sequence[Request], now: datetime) -> tuple[Answer, ...]:
    """Each request answered in the order written; one that cannot be done says why. The request
    is named in the player's keywords (`stan`, not `status`)."""
    keywords = _keywords(game, game.settings.language_of(civ))
    return tuple(
        Answer(
            r.number,
            in_keywords(" ".join((r.command.replace("-", " "), *r.arguments)), keywords),
            _answer(game, civ, r, now),
        )
        for r in requests
    )


def preview_answer(game: Game, civ: str, text: str, submission: Submission[Any]) -> Answer:
    """A `preview` mail's orders (`submission`: its text as read) checked as a submission would be,
    then tried alone: the answer to its `preview` line. Raises what `check_submission` raises
    (another phase)."""
    from adjudicator.reports.preview import preview_text

    lang = game.settings.language_of(civ)
    line = next(r.number for r in submission.requests if r.command == PREVIEW)
    word = in_keywords(PREVIEW, _keywords(game, lang))
    if not submission.lines:
        said = t("A preview tries the orders written below it, and this mail holds none; nothing was changed.")
        return Answer(line, word, said.render(lang), preview=True)
    checked = check_submission(game, text, civ)
    return Answer(line, word, preview_text(game, checked), preview=True)


def _keywords(game: Game, lang: str) -> Mapping[str, str]:
    """The player's language's word for each English keyword, to name his requests in (none in English)."""
    return canonical_keywords(game.parser.grammar, lang) if lang != SOURCE else {}


def _answer(game: Game, civ: str, request: Request, now: datetime) -> str:
    lang = game.settings.language_of(civ)
    shown = functools.partial(game.settings.local, civ=civ)  # a moment in the player's language and zone
    try:
        if request.command == "status":
            return _status(game, shown, now, lang)
        if request.command == "orders":
            path = order_files(game).get(civ)
            label = game.phase_info.label
            if path is None:
                return t("You have no orders on file for %(label)s.", label=label).render(lang)
            heading = t("Your orders on file for %(label)s:", label=label).render(lang)
            return f"{heading}\n\n" + path.read_text(encoding="utf-8")
        if request.command == "help":
            keywords = _keywords(game, lang)
            forms = [_form_in(form, keywords, lang) for form in game.parser.order_forms]
            shared = [_form_in(form, keywords, lang) for form in game.parser.shared_forms]
            return Renderer(game.ruleset.name, lang).render("help.txt.j2", game=game, forms=forms, shared=shared)
        if request.command == "rules":
            said = rules_text(game.ruleset, request.arguments[0] if request.arguments else None, lang)
            if rules_page(game.ruleset, lang) is None:
                note = t("The rules of this game are not yet written in your language; here they are in English.")
                return f"{note.render(lang)}\n\n{said}"
            return said
        if request.command == "absence":
            start, end = request.arguments
            zone = game.settings.zone_of(civ)
            said = absences.declare(game.directory.root, game.settings.schedule, civ, start, end, now, shown, zone)
            return in_language(said, lang)
        if request.command == "absence-cancel":
            said = absences.cancel(game.directory.root, civ, now, shown)
            return in_language(said, lang)
        if request.command == "resign":
            return _resign(game, civ, lang)
    except UsageError as error:
        return t("Not done: %(why)s.", why=message_of(error)).render(lang)
    raise ValueError(f"no answer for the request {request.command!r}")  # the grammar made a request we do not know


def _resign(game: Game, civ: str, lang: str) -> str:
    """The player leaves: his seat opens at once (everyone is told), his secret stops working."""
    from adjudicator.delivery.seat_messages import queue_notices
    from adjudicator.game.seating import vacate_seat

    vacate_seat(game, civ, queue_notices(game, f"{game.phase_number:03d}-resigned"))
    return t(
        "You have left game %(id)s: the seat of %(civ)s is open, and your secret no longer works. If this was "
        "a mistake, write to the moderator: he can give the seat back to you.",
        id=game.settings.id,
        civ=civ,
    ).render(lang)


def _form_in(form: str, keywords: Mapping[str, str], lang: str) -> str:
    """A form of the help answer in the player's language: his keywords in its syntax, its
    placeholders, explanations and 'or's translated."""
    return form_message(form, lambda syntax: in_keywords(syntax, keywords)).render(lang)


def _status(game: Game, shown: absences.Shown, now: datetime, lang: str) -> str:
    deadline = game.deadline()
    return Renderer(game.ruleset.name, lang).render(
        "player-status.txt.j2",
        game=game,
        info=game.phase_info,
        deadline=deadline,
        remaining=(deadline - now) if deadline else None,
        schedule=game.settings.schedule,
        local=shown,
        sent=sorted(submitted(game)),
        missing=missing_orders(game),
        pause=paused(game.directory.root),
    )
