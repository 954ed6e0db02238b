"""Where ships and armies may go (M1.2): seas, each city's harbour and coast, land areas."""

from __future__ import annotations

from adjudicator.rulesets.mediterraneum.board import COAST, Board
from adjudicator.rulesets.mediterraneum.model import HARBOUR, city_of_space, space


def ship_neighbours(board: Board, where: str) -> tuple[str, ...]:
    """A sea's neighbouring seas and the harbours and coasts on it; a harbour's or coast's sea and
    the city's other space (T:12, T:35, T:37)."""
    city = city_of_space(where)
    if city is None:
        cities = board.on_sea.get(where, ())
        return (*board.seas[where].seas, *(space(k, c) for c in cities for k in (HARBOUR, COAST)))
    other = COAST if where.startswith(HARBOUR) else HARBOUR
    return (board.cities[city].sea, space(other, city))


def space_name(board: Board, where: str) -> str:
    """A ship's space as players write it: `Mare Tyrrhenum`, `ROMA`, `ROMA coast`."""
    city = city_of_space(where)
    if city is None:
        return board.seas[where].name if where in board.seas else where
    name = board.cities[city].name
    return f"{name} coast" if where.startswith(COAST) else name


def sea_of(board: Board, where: str) -> str:
    """The sea a ship's space lies on: itself, or the city's sea."""
    city = city_of_space(where)
    return where if city is None else board.cities[city].sea


def space_id(board: Board, text: str) -> str:
    """A validated space (a sea id, a city id, `<city> coast`) as the position keeps it."""
    if text in board.seas:
        return text
    city, _, coast = text.partition(" ")
    return space(COAST if coast == COAST else HARBOUR, city)


def land_of_army(board: Board, at: str) -> str | None:
    """The land an army stands in or by: its own, or the land of the city it is inside (T:83);
    None aboard a ship."""
    if at in board.lands:
        return at
    if at in board.cities:
        return board.cities[at].land
    return None


def marches_to(board: Board, at: str, land: str) -> bool:
    """Whether an army standing at `at` (a land, or inside a city) may step into `land`: a land
    next to its own, or, from inside a city, the city's own land (M8.3, T:83)."""
    start = land_of_army(board, at)
    if start is None:
        return False
    return land in board.lands[start].land or (at in board.cities and land == start)
