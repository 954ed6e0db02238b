"""Victory (M12): the four goals of a player's State card with an army on the board (T:61-65,
T:76); or, in the two-pass game (T:140), the most points toward the goals when the stone reaches
the last space the second time."""

from __future__ import annotations

from adjudicator.core.events import Event, event
from adjudicator.rulesets.mediterraneum.board import GOALS, Board
from adjudicator.rulesets.mediterraneum.model import Options, Position, goal_points, goals_of


def goal_winner(board: Board, position: Position, options: Options, events: list[Event]) -> str | None:
    """At the end of each turn: the player whose turn it was first, then the others in seating
    order (MD39)."""
    start = position.order.index(position.step)
    for colour in position.order[start:] + position.order[:start]:
        state = position.players[colour].state
        if state is None or position.capital(colour) is None or not position.armies_of(colour):
            continue
        goals = goals_of(board, state, options.goals)
        have = goal_points(board, position, colour)
        if all(have[g] >= goals[g] for g in GOALS):
            events.append(event("winner", player=colour, goals=goals, have=have, rule="M12.2"))
            return colour
    return None


def points(board: Board, position: Position, colour: str, options: Options) -> int:
    """Points toward his goals, none counted past a goal (T:140)."""
    state = position.players[colour].state
    if state is None:
        return 0
    goals, have = goals_of(board, state, options.goals), goal_points(board, position, colour)
    return sum(min(have[g], goals[g]) for g in GOALS)


def chart_winner(board: Board, position: Position, options: Options, events: list[Event]) -> str | None:
    """T:140: the game stops the second time the stone reaches the last space; most points wins,
    then most money, then the earlier in the order of play from the first player (MD40)."""
    if not options.tax_passes or position.passes < options.tax_passes:
        return None
    scores = {c: (points(board, position, c, options), position.players[c].money) for c in position.order}
    best = max(scores.values())
    winner = next(c for c in position.order if scores[c] == best)
    events.append(event("chart_end", player=winner, scores={c: s[0] for c, s in scores.items()}, rule="M12.4"))
    return winner
