"""Plain data for Mare Mediterraneum reports: the names events and tables use, and the rows of the
players', cities', ships' and armies' tables. Shaping only: the templates decide how anything
looks. The State cards stay out of every public table (T:46): only `goals` carries them, for the
private report of the player who holds one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.i18n import joined, t, term
from adjudicator.rulesets.mediterraneum.board import GOALS, Board
from adjudicator.rulesets.mediterraneum.geography import space_name
from adjudicator.rulesets.mediterraneum.mapview import map_data
from adjudicator.rulesets.mediterraneum.model import Options, Position, Status, goal_points, goals_of, work_name
from adjudicator.rulesets.mediterraneum.orders import ART, WAREHOUSE, roman
from adjudicator.rulesets.mediterraneum.position import position_from_data
from adjudicator.rulesets.mediterraneum.terms import place_names


def thing_names(board: Board) -> dict[str, str]:
    """Goods, buildings, art (a two-part work too), patronage, State and trade cards by id: what
    events name by id."""
    names: dict[str, str] = {g.id: term("card", g.name) for g in board.goods.values()}
    names |= {b.id: term("building", b.name) for b in board.buildings.values()}
    names |= {s.id: term("state", s.name) for s in board.states.values()}
    for table in (board.art, board.patronage, board.trade_cards):
        names |= {x.id: x.name for x in table.values()}
    # a tactic card keeps its printed (German) name, with the word orders use for it (M11.16)
    names |= {c.id: f"{c.name} ({c.tactic})" for c in board.trade_cards.values() if c.tactic}
    art = {f"{ART}{a.id}": t("art %(name)s", name=a.name) for a in board.art.values()}
    works = {a.work: work_name(board, a.work) for a in board.art.values() if a.work and a.work not in names}
    return names | art | works | {WAREHOUSE: term("building", WAREHOUSE)}


def report_data(
    board: Board,
    state: Mapping[str, Any],
    player_names: Mapping[str, str],
    options: Options,
    maps: Mapping[str, Mapping[str, Any]],
    colours: Mapping[str, str],
) -> dict[str, Any]:
    position = position_from_data(board, state)
    names = place_names(board)
    things = thing_names(board)
    return {
        "names": names,
        "things": things,
        "player_rows": _player_rows(board, position, player_names),
        "city_rows": _city_rows(board, position, things),
        "want_rows": _want_rows(board, position),
        "ship_rows": [
            [
                s.owner,
                str(s.number),
                space_name(board, s.at),
                things.get(s.cargo, "-") if s.cargo else "-",
                _aboard(position, s.owner, s.number),
            ]
            for s in sorted(position.ships, key=lambda s: (position.order.index(s.owner), s.number))
        ],
        "army_rows": [
            [a.owner, str(a.number), _army_place(board, a.at), t("cavalry") if a.cavalry else t("foot")]
            for a in sorted(position.armies, key=lambda a: (position.order.index(a.owner), a.number))
        ],
        "chart": _chart(board, position),
        "storm": names.get(board.trade_cards[position.storm].sea, "") if position.storm else "",
        "auction_rows": [
            [a.drawer, things.get(a.lot, t("a province")) if a.lot else t("a province"), roman(a.min_bid)]
            for a in position.auctions
        ],
        "goals": _goals(board, position, options),
        "goal_set": options.goals,
        "roman": roman,
        "map": map_data(board, position, maps.get(board.id), colours),
    }


def _player_rows(board: Board, position: Position, player_names: Mapping[str, str]) -> list[list[str]]:
    rows = []
    for colour in position.order:
        player = position.players[colour]
        capital = position.capital(colour)
        have = goal_points(board, position, colour)
        rows.append(
            [
                colour,
                player_names.get(colour, ""),
                roman(player.money),
                board.cities[capital].name if capital else "-",
                str(len(position.provinces(colour))),
                str(len(position.ships_of(colour))),
                str(len(position.armies_of(colour))),
                " / ".join(str(have[g]) for g in GOALS),
                ", ".join(board.trade_cards[t].name for t in player.tactics) or "-",
            ]
        )
    return rows


def _city_rows(board: Board, position: Position, things: Mapping[str, str]) -> list[list[str]]:
    rows = []
    for cid, city in position.cities.items():
        if not (city.owner or city.buildings or city.warehouses):
            continue
        status: str = {Status.CAPITAL: t("capital"), Status.PROVINCE: t("province"), Status.TAKEN: t("taken")}.get(
            city.status or Status.PROVINCE, ""
        )
        if city.dormant:
            status = t("%(status)s, dormant (M6.6)", status=status)
        stores = joined([joined([things[g] for g in w], ", ") or t("empty") for w in city.warehouses], "; ")
        rows.append(
            [
                board.cities[cid].name,
                city.owner or "-",
                status if city.owner else "-",
                joined([things[g] for g in city.want], ", ") or "-",
                joined([things[b] for b in city.buildings], ", ") or "-",
                stores or "-",
            ]
        )
    return rows


def _want_rows(board: Board, position: Position) -> list[list[str]]:
    """Each good still wanted and the cities that want it: where a trader can sell (M4.5)."""
    wanted: dict[str, list[str]] = {}
    for cid, city in position.cities.items():
        for good in city.want:
            wanted.setdefault(good, []).append(board.cities[cid].name)
    return [
        [term("card", board.goods[g].name), ", ".join(sorted(wanted[g]))]
        for g in sorted(wanted, key=lambda g: board.goods[g].name)
    ]


def _aboard(position: Position, owner: str, number: int) -> str:
    army = next((a for a in position.armies_of(owner) if a.at == f"ship:{number}"), None)
    return t("army %(army)s", army=army.number) if army else "-"


def _army_place(board: Board, at: str) -> str:
    if at.startswith("ship:"):
        return t("aboard ship %(ship)s", ship=at.removeprefix("ship:"))
    if at in board.cities:
        return t("in %(city)s", city=board.cities[at].name)
    return board.lands[at].name


def _chart(board: Board, position: Position) -> dict[str, Any]:
    """The tax stone on the Atlantic chart (M5.2): where it stands and who moves it."""
    if position.stone is None:
        return {"placed": False, "space": "", "owner": "", "passes": 0, "taxing": True}
    space = board.tax_chart[position.stone]
    return {
        "placed": True,
        "space": space,
        "owner": position.stone_owner or "",
        "passes": position.passes,
        "taxing": space in board.tax_on,
    }


def _goals(board: Board, position: Position, options: Options) -> dict[str, dict[str, Any]]:
    """Each State card holder's card, goals and counts: for his private report only (T:46)."""
    goals = {}
    for colour, player in position.players.items():
        if player.state is None:
            continue
        card = board.states[player.state]
        asked = goals_of(board, player.state, options.goals)
        have = goal_points(board, position, colour)
        goals[colour] = {"card": term("state", card.name), "rows": [[g, str(asked[g]), str(have[g])] for g in GOALS]}
    return goals
