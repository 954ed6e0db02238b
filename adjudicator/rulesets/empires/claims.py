"""Claims (E9), and the victory conditions of capitals (E10.2, checked wherever control can
change: ED17) and of titles (E10.3, at the end of Claims)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from adjudicator.core.events import Event, event
from adjudicator.rulesets.empires.board import Board, CityKind, Title
from adjudicator.rulesets.empires.model import Position

TITLE_CHOICE = "title:"  # standing[holder]["title:military"] = "Greece, Rome" (E9.2, ED16)
CAPITALS_TO_WIN = 4  # E10.2


def claim_titles(board: Board, position: Position) -> tuple[Position, list[Event]]:
    """E9.1, E9.2: the highest level takes each title; a tie is the previous holder's choice."""
    events: list[Event] = []
    titles = dict(position.titles)
    tokens_used = position.tokens_used
    levels = {e: position.levels(board, e) for e in position.playing}
    for title in Title:
        best = max(levels[e][title] for e in position.playing)
        tied = [e for e in position.playing if levels[e][title] == best]
        holder = titles.get(title)
        new = tied[0] if len(tied) == 1 else _tie_choice(position, title, holder, tied)
        if new != holder:
            events.append(event("title", title=str(title), player=new, previous=holder, level=best, tied=tied))
            if title is Title.COMMERCE:
                tokens_used = ()  # E5.7: a new Master takes all three tokens back
        titles[title] = new
    position = replace(position, titles=MappingProxyType(titles), tokens_used=tokens_used)
    return position, events


def _tie_choice(position: Position, title: Title, holder: str | None, tied: Sequence[str]) -> str:
    """E9.2, ED16: the previous holder's ranked choice among the tied; without one he keeps it if
    tied, else the tied player earliest in this round's military order."""
    wanted = position.standing.get(holder or "", {}).get(f"{TITLE_CHOICE}{title}", "")
    for name in (part.strip() for part in wanted.split(",")):
        if name in tied:
            return name
    if holder is not None and holder in tied:
        return holder
    order = [*position.sequence, *(e for e in position.playing if e not in position.sequence)]
    return min(tied, key=order.index)


def capitals_held(board: Board, position: Position, empire: str) -> int:
    """E10.2: capitals and legendary cities the empire controls (E4.1)."""
    return sum(
        1
        for pid, p in position.provinces.items()
        if p.city
        and board.provinces[pid].city in (CityKind.CAPITAL, CityKind.LEGENDARY)
        and p.controller("city") == empire
    )


def capital_winner(board: Board, position: Position) -> tuple[str | None, list[Event]]:
    """E10.2, ED17: four capitals or legendary cities; two at once, the one with more, then the
    earlier in this phase's order."""
    held = {e: capitals_held(board, position, e) for e in position.playing}
    winners = [e for e in position.playing if held[e] >= CAPITALS_TO_WIN]
    if not winners:
        return None, []
    order = [*position.sequence, *(e for e in position.playing if e not in position.sequence)]
    winner = min(winners, key=lambda e: (-held[e], order.index(e)))
    return winner, [event("victory", player=winner, rule="E10.2", capitals=held[winner])]


def capital_victory(board: Board, position: Position, events: list[Event]) -> Position:
    """The position, won (with its event) if E10.2 holds now: ED17 checks it after every step
    that can change who controls a capital or legendary city, and the game ends there."""
    if position.winner:
        return position
    winner, won = capital_winner(board, position)
    events += won
    return replace(position, winner=winner) if winner else position


def titles_winner(position: Position) -> tuple[str | None, list[Event]]:
    """E10.3 at the end of Claims: one player holding all three titles."""
    winner = position.titles.get(Title.COMMERCE)
    if winner is None or any(position.titles.get(t) != winner for t in Title):
        return None, []
    return winner, [event("victory", player=winner, rule="E10.3")]
