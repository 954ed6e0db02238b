"""A new Empires game's opening position (E2): the start screens, the first titles, the hero
track and the legendary pile; the game opens at round 1, Trade (E3.1: the screens already
hold round 1's production)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from adjudicator.core.dice import Dice, choose_index
from adjudicator.core.errors import UsageError
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.empires.board import Board, Empire, TileKind, Title
from adjudicator.rulesets.empires.model import TABLE_ORDER, Phase, PlayerState, Position, ProvinceState, SeaState
from adjudicator.rulesets.empires.purchase import TRACK_SPACES


def new_position(board: Board, empires: Sequence[str], dice: Dice) -> tuple[Position, list[Event]]:
    """E2.1-E2.4 for the empires that play (their names, as the board spells them)."""
    wanted = board.empires_for(len(empires))
    if sorted(empires) != sorted(wanted):
        raise UsageError(
            f"with {len(empires)} players the empires are {', '.join(wanted)} (E2.1); "
            f"give each of them a player, and no other empire"
        )
    playing = [e for e in TABLE_ORDER if e in empires] + [e for e in empires if e not in TABLE_ORDER]
    provinces = {pid: ProvinceState() for pid in board.provinces}
    seas = {sid: SeaState() for sid in board.seas}
    players = {}
    events: list[Event] = []
    for name in playing:
        empire = board.empires[name]
        _place_start(board, empire, provinces, seas)
        resources = {k: n for k, n in empire.start.resources.items() if n}
        players[name] = PlayerState(name, MappingProxyType(resources), MappingProxyType({}), (empire.hero,))
        events.append(
            event(
                "setup",
                player=name,
                provinces=[board.provinces[p].name for p in empire.provinces],
                hero=empire.hero,
                resources=dict(sorted(resources.items())),
            )
        )
    track, hidden = _draw_track(board, dice, events)
    position = Position(
        round=1,
        phase=Phase.TRADE,
        step=None,
        winner=None,
        titles={},
        players=players,
        provinces=provinces,
        seas=seas,
        track=track,
        hidden=hidden,
        legendary_pile={good: 1 for good in board.commodities},
        board=board,
    )
    titles = _first_titles(board, position, dice, events)
    return _replace_titles(position, titles), events


def _place_start(board: Board, empire: Empire, provinces: dict[str, ProvinceState], seas: dict[str, SeaState]) -> None:
    start = empire.start
    for pid in empire.provinces:
        provinces[pid] = ProvinceState(
            influence=empire.name,
            caravans=start.caravans.get(pid, ()),
            market=pid in start.markets,
            city=pid in start.cities,
            temple=pid in start.temples,
            legions=MappingProxyType({empire.name: start.legions[pid]} if start.legions.get(pid) else {}),
            fortress=empire.name if start.fortresses.get(pid) else None,
        )
    for sid, count in start.triremes.items():
        if count:
            seas[sid] = seas[sid].with_ships(empire.name, count)


def _draw_track(board: Board, dice: Dice, events: list[Event]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """E2.4, ED7: five tiles face up, drawn by the dice; the rest face down, in no order."""
    left = sorted(t.name for t in board.tiles.values() if t.start is None and t.kind is not TileKind.PYRAMIDS)
    track = []
    for space in range(1, min(TRACK_SPACES, len(left)) + 1):
        track.append(left.pop(choose_index(dice, len(left), t("E2.4 hero track, space %(space)s", space=space))))
    events.append(event("track", tiles=list(track)))
    return tuple(track), tuple(left)


TITLE_NAMES = {  # E9, as the reports name them
    Title.COMMERCE: t("Master of Commerce"),
    Title.POLITICAL: t("Political Leader"),
    Title.MILITARY: t("Military Leader"),
}


def _first_titles(board: Board, position: Position, dice: Dice, events: list[Event]) -> dict[Title, str]:
    """E2.3, ED2: the printed first holders; a title whose holder is out goes to the highest
    level among the players, a tie decided by the dice."""
    titles = {}
    for title in Title:
        holder = board.title_holders[title]
        if holder not in position.players:
            levels = {e: position.levels(board, e)[title] for e in position.playing}
            best = max(levels.values())
            tied = [e for e in position.playing if levels[e] == best]
            purpose = t("ED2 first %(title)s among %(empires)s", title=TITLE_NAMES[title], empires=", ".join(tied))
            holder = tied[choose_index(dice, len(tied), purpose)]
            events.append(event("first_title", title=str(title), player=holder, level=best, tied=tied))
        titles[title] = holder
    return titles


def _replace_titles(position: Position, titles: dict[Title, str]) -> Position:
    return replace(position, titles=MappingProxyType(dict(titles)))
