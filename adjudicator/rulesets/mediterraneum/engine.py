"""The phase machine (M3): each phase is one player's turn, or an auction that a card drawn at
the start of a turn opened. What needs no orders (the next player's tax stone, tax and dice,
M5.2, M6.1) runs on at the end of the adjudication that closes a turn, so the player writes his
orders knowing his tax and the cards he drew."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.mediterraneum.board import Board, BuildingKind
from adjudicator.rulesets.mediterraneum.cards import draw_trade_cards, resolve_auction
from adjudicator.rulesets.mediterraneum.chance import black
from adjudicator.rulesets.mediterraneum.model import Options, Phase, Position, taxing
from adjudicator.rulesets.mediterraneum.orders import Order
from adjudicator.rulesets.mediterraneum.player_turn import play_turn
from adjudicator.rulesets.mediterraneum.victory import chart_winner, goal_winner


def resolve_phase(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice, options: Options
) -> tuple[Position, list[Event]]:
    """The engine: the phase the position names, resolved, and play run on to the next phase
    that waits for orders. Pure."""
    events: list[Event] = []
    if position.winner:
        return position, events
    if position.phase is Phase.AUCTION:
        position = resolve_auction(board, position, orders, dice, events)
        if position.auctions:
            return position, events
        return replace(position, phase=Phase.TURN), events
    colour = position.step
    position = play_turn(board, position, colour, orders.get(colour, ()), dice, options, events)
    winner = goal_winner(board, position, options, events)
    if winner:
        return replace(position, winner=winner), events
    return next_turn(board, position, dice, options, events), events


def next_turn(board: Board, position: Position, dice: Dice, options: Options, events: list[Event]) -> Position:
    """The next player in seating order, a new round after the last (M3.1), and his turn's start."""
    index = position.order.index(position.step) + 1
    turn = position.turn + (index == len(position.order))
    colour = position.order[index % len(position.order)]
    position = replace(position, turn=turn, step=colour, count=position.count + 1, founded=False, due=0)
    events.append(event("turn_start", player=colour, turn=turn))
    return start_turn(board, position, dice, options, events)


def start_turn(board: Board, position: Position, dice: Dice, options: Options, events: list[Event]) -> Position:
    """Step 1 of a turn (T:53): the tax stone, the tax due, and for an empire the tax dice with
    what they bring (M6.1-M6.4)."""
    colour = position.step
    if colour == position.stone_owner and position.stone is not None:
        position = _move_stone(board, position, events)
        winner = chart_winner(board, position, options, events)
        if winner:
            return replace(position, winner=winner)
    if not taxing(board, position):
        events.append(event("no_tax", player=colour, space=board.tax_chart[position.stone or 0], rule="M5.3"))
        return position
    if position.capital(colour) is None:  # T:31: I a province; want disks cost only an empire (T:50)
        provinces = len(position.provinces(colour))
        tax = provinces * board.prices["province_tax"]
        events.append(event("tax_due", player=colour, provinces=provinces, due=tax, rule="M4.1"))
        return replace(position, due=tax)
    faces = [black(board, dice, t("M6.1 tax, %(player)s, die %(number)s", player=colour, number=n)) for n in (1, 2)]
    events.append(event("tax_roll", player=colour, dice=faces, rule="M6.1"))
    if position.players[colour].patron:
        position = _draw_art(position, colour, sum(1 for f in faces if f <= 1), events)
    draws = sum(1 for f in faces if 2 <= f <= 4)
    position = draw_trade_cards(board, position, colour, draws, dice, events)
    return replace(position, due=empire_tax(board, position, colour, faces, events))


def empire_tax(board: Board, position: Position, colour: str, faces: list[int], events: list[Event]) -> int:
    """M6.3: the dice, I a province (the capital too, T:58), tax buildings and temples on a 0
    (T:72), less I a want disk and a want card (T:50, T:111); never below zero (MD9). Counted
    after the cards that act at once, so a want card or a circus already counts (T:111, T:119; MD33)."""
    provinces = len(position.provinces(colour))
    wants = sum(len(position.cities[c].want) for c in position.provinces(colour))
    wants += len(position.players[colour].want_cards)
    held = [c for c, s in position.cities.items() if s.owner == colour and not s.dormant]
    buildings = [board.buildings[b] for c in held for b in position.cities[c].buildings]
    built = sum(b.tax for b in buildings if b.kind is BuildingKind.TAX)
    temples = sum(b.pays for b in buildings if b.kind is BuildingKind.TEMPLE) * faces.count(0)
    penalty = wants * board.prices["want_penalty"]
    tax = max(0, sum(faces) + provinces * board.prices["province_tax"] + built + temples - penalty)
    events.append(
        event(
            "tax_due", player=colour, dice=faces, provinces=provinces, buildings=built, temples=temples,
            wants=wants, due=tax, rule="M6.3",
        )
    )  # fmt: skip
    return tax


def _move_stone(board: Board, position: Position, events: list[Event]) -> Position:
    """T:44, T:59: one space on; after the last it goes on to the first after R."""
    stone = (position.stone or 0) + 1
    if stone >= len(board.tax_chart):
        stone = 1
    passes = position.passes + (stone == len(board.tax_chart) - 1)
    space = board.tax_chart[stone]
    events.append(event("stone", player=position.step, space=space, taxing=space in board.tax_on, rule="M5.2"))
    return replace(position, stone=stone, passes=passes)


def _draw_art(position: Position, colour: str, count: int, events: list[Event]) -> Position:
    """T:69: an art patron takes the top art card for each tax die showing 0 or 1."""
    drawn = position.decks.art[:count]
    if not drawn:
        return position
    events.append(event("art_drawn", player=colour, cards=list(drawn), rule="M7.5"))
    position = replace(position, decks=replace(position.decks, art=position.decks.art[len(drawn) :]))
    return position.with_player(colour, art=position.players[colour].art + drawn)
