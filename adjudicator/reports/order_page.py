"""A player's order page (issue 35): one self-contained HTML file beside his private report and
attached to its mail, where he clicks his orders together instead of typing them.

It offers exactly his order form (reports/order_form.py: the same lines, in his language, with the
same notes, prices and odds), grouped by the places each line names, so that a click on the map or a
choice in the list of places shows what he can order there. The text it builds is the form's head
(game, power, phase) and the lines he picked, with his password if he types it into the page, which
keeps it nowhere. It fetches nothing: no script, style, font or picture comes from elsewhere, and its
Content-Security-Policy forbids the browser to try."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.core.i18n import t
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import judge_address
from adjudicator.reports.order_form import OrderForm
from adjudicator.reports.render import Renderer


def named_places(text: str, names: Mapping[str, str]) -> list[str]:
    """The ids of the places a line names, in the order it names them: each by its name as the
    board prints it, whole words, any case, the longest name first (`Mare Ionium`, not `Ionium`)."""
    found: list[tuple[int, str]] = []
    taken: list[range] = []
    for place, name in sorted(names.items(), key=lambda item: -len(item[1])):
        for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE):
            span = range(match.start(), match.end())
            if not any(span.start < other.stop and other.start < span.stop for other in taken):
                taken.append(span)
                found.append((match.start(), place))
    return list(dict.fromkeys(place for _, place in sorted(found)))


def order_page(
    game: Game, civ: str, form: OrderForm, lang: str, map_svg: str, label: str, context: Mapping[str, Any]
) -> str:
    """The page for `civ`'s orders in the phase `label` names, drawn on `map_svg`."""
    names = game.ruleset.place_names(game.board)
    lines = [{"order": line.order, "note": line.note, "places": named_places(line.order, names)} for line in form.lines]
    offered = {place for line in lines for place in line["places"]}
    places = sorted(((place, names[place]) for place in offered), key=lambda item: item[1].lower())
    address = judge_address(game)
    head = [line for line in form.head if not line.startswith(f"{form.password} ")]
    page = {
        "civ": civ,
        "label": label,
        "lines": lines,
        "places": _unique_names(places),
        "head": head,
        "password_word": form.password,
        "end": form.end,
        "map_svg": map_svg,
        "mail_to": address or "",
        "subject": f"[{game.settings.id}] " + t("orders of %(civ)s", civ=civ).render(lang),
    }
    return Renderer(game.ruleset.name, lang).render("order-page.html.j2", **{**context, **page})


def _unique_names(places: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    """One entry a name: a city's harbour shares the city's name (Mare Mediterraneum), and the
    list of places offers each name once, with every place it stands for."""
    by_name: dict[str, list[str]] = {}
    for place, name in places:
        by_name.setdefault(name, []).append(place)
    return [{"name": name, "ids": " ".join(ids)} for name, ids in by_name.items()]
