"""A new game's opening position (M2, T:24-29): want disks on the cities, two Residenz cards a
player, the decks shuffled, the first player by the blue die; then his first turn starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from adjudicator.core.dice import Dice
from adjudicator.core.errors import UsageError
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.mediterraneum.board import PLAYER_COUNTS, Board, place_disks
from adjudicator.rulesets.mediterraneum.chance import highest, shuffled
from adjudicator.rulesets.mediterraneum.engine import start_turn
from adjudicator.rulesets.mediterraneum.model import CityState, Decks, Options, Phase, PlayerState, Position, Status


def new_position(board: Board, colours: Sequence[str], dice: Dice, options: Options) -> tuple[Position, list[Event]]:
    if len(colours) not in PLAYER_COUNTS:
        raise UsageError(f"Mare Mediterraneum takes 2 to 6 players (M1.1), not {len(colours)}")
    events: list[Event] = []
    wants = place_want_disks(board, dice)
    cities = {c: CityState(want=(wants[c],)) for c in board.cities}
    residences = shuffled(
        sorted(c for c, city in board.cities.items() if city.residence), dice, t("M2.2 Residenz cards")
    )
    players = {}
    for index, colour in enumerate(colours):
        drawn = residences[2 * index : 2 * index + 2]
        players[colour] = PlayerState(colour, residences=drawn)
        for city in drawn:
            cities[city] = CityState(owner=colour, status=Status.PROVINCE, want=cities[city].want)
        events.append(event("residences", player=colour, cities=[board.cities[c].name for c in drawn]))
    events.append(event("want_disks", disks={board.cities[c].name: board.goods[g].name for c, g in wants.items()}))
    first, rolls = highest(colours, dice, t("M2.4 first player"))
    events.append(event("first_player", player=first, rolls=rolls))
    start = colours.index(first)
    order = tuple(colours[start:]) + tuple(colours[:start])
    position = Position(
        turn=1,
        phase=Phase.TURN,
        step=first,
        order=order,
        players=MappingProxyType({c: players[c] for c in order}),  # in play order, as a saved game reads back
        cities=MappingProxyType(cities),
        ships=(),
        armies=(),
        decks=_decks(board, dice.sealed()),  # face down: no published roll may give the order away (M2.3)
    )
    events.append(event("turn_start", player=first, turn=1))
    return start_turn(board, position, dice, options, events), events


def place_want_disks(board: Board, dice: Dice) -> Mapping[str, str]:
    """One disk a city, never a good of the city's own land (T:25), the disks and the cities each
    in an order drawn from the dice."""
    disks = shuffled([g for g, n in sorted(board.want_disks.items()) for _ in range(n)], dice, t("M2.1 want disks"))
    cities = shuffled(sorted(board.cities), dice, t("M2.1 cities for the want disks"))
    placed = place_disks(board, disks, cities)
    if placed is None:
        raise UsageError("the board's want disks cannot be placed (T:25); run 'adjudicator board check'")
    return placed


def _decks(board: Board, dice: Dice) -> Decks:
    trade = [c.id for c in board.trade_cards.values() for _ in range(c.count)]
    return Decks(
        trade=shuffled(sorted(trade), dice, t("M2.3 trade deck")),
        art=shuffled(sorted(board.art), dice, t("M2.3 art deck")),
        patronage=shuffled(sorted(board.patronage), dice, t("M2.3 patronage deck")),
        states=shuffled(sorted(board.states), dice, t("M2.3 State cards")),
        buildings=MappingProxyType({b.id: b.count for b in board.buildings.values()}),
    )
