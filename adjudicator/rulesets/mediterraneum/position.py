"""The position in its stable file shape (state.toml, history), read back strictly. Keys whose
value is None are left out, as TOML has no None; a missing key reads back as None."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from adjudicator.core.errors import DataError
from adjudicator.core.fields import Fields
from adjudicator.rulesets.kit.players import no_neutrals
from adjudicator.rulesets.mediterraneum.board import Board
from adjudicator.rulesets.mediterraneum.model import (
    Army,
    Auction,
    CityState,
    Decks,
    Phase,
    PlayerState,
    Position,
    Ship,
    Status,
)

_KEYS = frozenset(
    {
        "game", "ruleset", "dice", "turn", "phase", "step", "order", "count", "stone", "stone_owner", "passes", "due",
        "founded", "storm", "winner", "players", "cities", "ships", "armies", "decks", "auctions",
    }
)  # fmt: skip
_PLAYER = frozenset(
    {
        "money", "residences", "state", "art", "patron", "patronised", "founded_at", "want_cards", "tactics", "holding",
        "buys",
    }
)  # fmt: skip


def _some(data: dict[str, Any]) -> dict[str, Any]:
    """Without the keys TOML cannot hold (None) or that say nothing (empty, false, zero); money
    and the stone (0 is R, T:44) always say something."""
    return {k: v for k, v in data.items() if v not in (None, (), [], {}, False, "") or k in ("money", "stone")}


def position_to_data(position: Position) -> dict[str, Any]:
    return _some(
        {
            "turn": position.turn,
            "phase": str(position.phase),
            "step": position.step,
            "order": list(position.order),
            "count": position.count,
            "stone": position.stone,
            "stone_owner": position.stone_owner,
            "passes": position.passes,
            "due": position.due,
            "founded": position.founded,
            "storm": position.storm,
            "winner": position.winner,
            "players": {c: _player(p) for c, p in position.players.items()},
            "cities": {c: _city(s) for c, s in position.cities.items()},
            "ships": [_ship(s) for s in position.ships],
            "armies": [_army(a) for a in position.armies],
            "decks": _decks(position.decks),
            "auctions": [_auction(a) for a in position.auctions],
        }
    )


def _player(p: PlayerState) -> dict[str, Any]:
    return _some(
        {
            "money": p.money,
            "residences": list(p.residences),
            "state": p.state,
            "art": list(p.art),
            "patron": p.patron,
            "patronised": p.patronised,
            "founded_at": p.founded_at,
            "want_cards": list(p.want_cards),
            "tactics": list(p.tactics),
            "holding": list(p.holding),
            "buys": dict(p.buys),
        }
    )


def _city(s: CityState) -> dict[str, Any]:
    return _some(
        {
            "owner": s.owner,
            "status": str(s.status) if s.status else None,
            "want": list(s.want),
            "buildings": list(s.buildings),
            "warehouses": [list(w) for w in s.warehouses],
            "dormant": s.dormant,
        }
    )


def _ship(s: Ship) -> dict[str, Any]:
    return _some({"owner": s.owner, "number": s.number, "at": s.at, "cargo": s.cargo})


def _auction(a: Auction) -> dict[str, Any]:
    return _some({"card": a.card, "drawer": a.drawer, "lot": a.lot, "min_bid": a.min_bid})


def _army(a: Army) -> dict[str, Any]:
    return _some(
        {
            "owner": a.owner, "number": a.number, "at": a.at, "cavalry": a.cavalry, "since": a.since,
            "crossed": a.crossed, "horse_ship": a.horse_ship,
        }
    )  # fmt: skip


def _decks(d: Decks) -> dict[str, Any]:
    return {
        "trade": list(d.trade),
        "trade_discard": list(d.trade_discard),
        "art": list(d.art),
        "patronage": list(d.patronage),
        "states": list(d.states),
        "buildings": {k: n for k, n in d.buildings.items() if n},
    }


def position_from_data(board: Board, data: Mapping[str, Any]) -> Position:
    f = Fields(data)
    f.only(_KEYS)
    phase = f.text("phase")
    if phase not in Phase.__members__.values():
        raise f.error("phase", f"'{phase}' is not a phase; use turn or auction")
    order = tuple(f.texts("order"))
    players = f.table("players")
    for colour in players:
        if colour not in board.colours or colour not in order:
            raise players.error(colour, f"'{colour}' is not a player colour of this game")
    cities = f.table("cities")
    for city in cities:
        if city not in board.cities:
            raise cities.error(city, f"'{city}' is not a city")
    step = f.text("step")
    if step not in order:
        raise f.error("step", f"'{step}' is not a player of this game")
    stone = f.integer("stone", None, minimum=0)
    if stone is not None and stone >= len(board.tax_chart):
        raise f.error("stone", f"the tax chart has {len(board.tax_chart)} spaces")
    return Position(
        turn=f.integer("turn", minimum=1),
        phase=Phase(phase),
        step=step,
        order=order,
        players=MappingProxyType({c: _read_player(players.table(c), c) for c in order}),
        cities=MappingProxyType(
            {c: _read_city(cities.table(c, {}), board) if c in cities else CityState() for c in board.cities}
        ),
        ships=tuple(_read_ship(s) for s in f.tables("ships", [])),
        armies=tuple(_read_army(a) for a in f.tables("armies", [])),
        decks=_read_decks(f.table("decks"), board),
        count=f.integer("count", 1, minimum=1),
        stone=stone,
        stone_owner=f.text("stone_owner", None),
        passes=f.integer("passes", 0, minimum=0),
        due=f.integer("due", 0, minimum=0),
        founded=f.flag("founded", False),
        storm=f.text("storm", None),
        auctions=tuple(_read_auction(a) for a in f.tables("auctions", [])),
        winner=f.text("winner", None),
    )


def _read_player(f: Fields, colour: str) -> PlayerState:
    f.only(_PLAYER)
    buys = f.table("buys", {})
    return PlayerState(
        colour=colour,
        money=f.integer("money", 0, minimum=0),
        residences=tuple(f.texts("residences", [])),
        state=f.text("state", None),
        art=tuple(f.texts("art", [])),
        patron=f.text("patron", None),
        patronised=f.flag("patronised", False),
        founded_at=f.integer("founded_at", 0, minimum=0),
        want_cards=tuple(f.texts("want_cards", [])),
        tactics=tuple(f.texts("tactics", [])),
        holding=tuple(f.texts("holding", [])),
        buys=MappingProxyType({k: buys.integer(k, minimum=0) for k in buys}),
    )


def _read_city(f: Fields, board: Board) -> CityState:
    f.only({"owner", "status", "want", "buildings", "warehouses", "dormant"})
    status = f.text("status", None)
    if status is not None and status not in Status.__members__.values():
        raise f.error("status", f"'{status}' is not a city status; use province, capital or taken")
    houses = f.data.get("warehouses", [])
    if not (
        isinstance(houses, list) and all(isinstance(h, list) and all(isinstance(g, str) for g in h) for h in houses)
    ):
        raise f.error("warehouses", "expected a list of warehouses, each a list of goods")
    return CityState(
        owner=f.text("owner", None),
        status=Status(status) if status else None,
        want=tuple(f.texts("want", [])),
        buildings=tuple(f.texts("buildings", [])),
        warehouses=tuple(tuple(h) for h in houses),
        dormant=f.flag("dormant", False),
    )


def _read_ship(f: Fields) -> Ship:
    f.only({"owner", "number", "at", "cargo"})
    return Ship(f.text("owner"), f.integer("number", minimum=1), f.text("at"), f.text("cargo", ""))


def _read_army(f: Fields) -> Army:
    f.only({"owner", "number", "at", "cavalry", "since", "crossed", "horse_ship"})
    return Army(
        owner=f.text("owner"),
        number=f.integer("number", minimum=1),
        at=f.text("at"),
        cavalry=f.flag("cavalry", False),
        since=f.integer("since", 0, minimum=0),
        crossed=f.flag("crossed", False),
        horse_ship=f.integer("horse_ship", 0, minimum=0),
    )


def _read_decks(f: Fields, board: Board) -> Decks:
    f.only({"trade", "trade_discard", "art", "patronage", "states", "buildings"})
    for name, known in (("trade", board.trade_cards), ("trade_discard", board.trade_cards), ("art", board.art)):
        for card in f.texts(name, []):
            if card not in known:
                raise DataError(f.key(name), f"'{card}' is not a card of this game")
    buildings = f.table("buildings", {})
    return Decks(
        trade=tuple(f.texts("trade", [])),
        trade_discard=tuple(f.texts("trade_discard", [])),
        art=tuple(f.texts("art", [])),
        patronage=tuple(f.texts("patronage", [])),
        states=tuple(f.texts("states", [])),
        buildings=MappingProxyType({k: buildings.integer(k, minimum=0) for k in buildings}),
    )


def _read_auction(f: Fields) -> Auction:
    f.only({"card", "drawer", "lot", "min_bid"})
    return Auction(f.text("card"), f.text("drawer"), f.text("lot", ""), f.integer("min_bid", 0, minimum=0))


_SEATED = no_neutrals(position_from_data, "players", "M1.1")


def given_position(board: Board, data: Mapping[str, Any], playing: Sequence[str] | None) -> Position:
    """A position in the stable shape. With `playing`, a position to start a game from (`new
    --position`): its players are the game's, and its decks hold cards, since a game whose decks
    are all empty is one the state file cannot keep (it leaves an empty table out)."""
    position = _SEATED(board, data, playing)
    if playing is not None and not any(position_to_data(position)["decks"].values()):
        raise DataError(
            "decks",
            "every deck is empty; give the trade, art, patronage and State cards and the buildings' "
            "supply the game deals from (M1.7)",
        )
    return position
