"""Plain data for Empires reports: names, colours, and the rows of the player, board, sea and
hero-track tables. Shaping only: the templates decide how anything looks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.i18n import joined, t, term, tn
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.geography import covered
from adjudicator.rulesets.empires.position import position_from_data
from adjudicator.rulesets.empires.terms import place_names

# NOTE: the three titles of Mare Nostrum: Empires (E9).
TITLE_NAMES = {
    "commerce": t("Master of Commerce"),
    "political": t("Political Leader"),
    "military": t("Military Leader"),
}


listed = joined  # parts joined, each message translated where shown (core/i18n.py)


def report_data(
    board: Board,
    state: Mapping[str, Any],
    player_names: Mapping[str, str],
    options: None,  # the seam hands every ruleset its game's options; Empires has none
    maps: Mapping[str, Mapping[str, Any]],
    colours: Mapping[str, str],  # the seam adds them to the data itself; its map needs nothing more of them
) -> dict[str, Any]:
    names = place_names(board)
    position = position_from_data(board, state)
    levels = {e: {str(t): n for t, n in position.levels(board, e).items()} for e in position.playing}
    return {
        "covered": sorted(covered(board, position)),
        "levels": levels,
        "names": names,
        "title_names": TITLE_NAMES,
        "title_rows": [[TITLE_NAMES[str(title)], state["titles"].get(str(title)) or t("nobody")] for title in Title],
        "player_rows": _player_rows(state, levels, player_names),
        "board_rows": _board_rows(board, state, names),
        "sea_rows": [[names[sid], _triremes(sea["triremes"])] for sid, sea in state["seas"].items() if sea["triremes"]],
        "track_rows": [[tile, str(board.tiles[tile].price(state["turn"]))] for tile in state["track"]],
        "map": _map(board, maps.get(board.id)),
        "city_kinds": {pid: str(p.city) for pid, p in board.provinces.items() if p.city is not None},
        "pyramids_price": next((str(t.price(state["turn"])) for t in board.tiles.values() if t.kind == "pyramids"), ""),
    }


def _map(board: Board, geography: Mapping[str, Any] | None) -> dict[str, Any]:
    """The baked map with each place's name, kind and region; empty for a board without one (a
    moderator's own)."""
    if geography is None:
        return {"geographic": False, "places": {}}
    places = {}
    for kind, table in (("province", board.provinces), ("sea", board.seas)):
        for pid, place in table.items():
            if pid in geography["labels"]:
                x, y = geography["labels"][pid]
                places[pid] = {
                    "kind": kind,
                    "name": place.name,
                    "x": x,
                    "y": y,
                    "region": geography["regions"][pid],
                    "pieces": geography["pieces"].get(pid),
                    "marker": geography["markers"].get(pid),
                }
    return {"geographic": True, **{k: v for k, v in geography.items() if k != "regions"}, "places": places}


def _triremes(table: Mapping[str, int]) -> str:
    return listed(
        [tn("%(empire)s %(count)s trireme", "%(empire)s %(count)s triremes", n, empire=e) for e, n in table.items()]
    )


def _player_rows(
    state: Mapping[str, Any], levels: Mapping[str, Mapping[str, int]], player_names: Mapping[str, str]
) -> list[list[str]]:
    rows = []
    for empire, p in state["players"].items():
        tokens = sum(p["resources"].values()) + sum(p["legendary"].values())
        level_text = " / ".join(str(levels.get(empire, {}).get(str(t), 0)) for t in Title)
        s = p["stock"]
        stock = f"{s['legion']} / {s['trireme']} / {s['fortress']} / {s['influence']}"
        rows.append(
            [empire, player_names.get(empire, ""), str(tokens), ", ".join(p["tiles"]) or "-", level_text, stock]
        )
    return rows


def _board_rows(board: Board, state: Mapping[str, Any], names: Mapping[str, str]) -> list[list[str]]:
    rows = []
    for pid, p in state["provinces"].items():
        if not (p["influence"] or p["legions"] or p["fortress"] or p["caravans"] or p["city"]):
            continue
        site = board.provinces[pid]
        buildings: list[str] = []
        if p["city"]:
            if str(site.city) == "capital":
                buildings.append(t("capital %(city)s", city=site.city_name))
            elif str(site.city) == "legendary":
                buildings.append(t("legendary city %(city)s", city=site.city_name))
            else:
                buildings.append(t("city %(city)s", city=site.city_name))
        buildings += [t("caravan on %(good)s", good=term("card", good)) for good in p["caravans"]]
        buildings += [BUILDING_NAMES[name] for name in ("market", "temple") if p[name]]
        units = [
            tn("%(empire)s %(count)s legion", "%(empire)s %(count)s legions", n, empire=empire)
            for empire, n in p["legions"].items()
        ]
        if p["fortress"]:
            units.append(t("%(empire)s fortress", empire=p["fortress"]))
        status: list[str] = []
        if p["at_war"]:
            status.append(t("at war (E8.4)"))
        if p["conqueror"]:
            status.append(t("conquered by %(empire)s", empire=p["conqueror"]))
        status += [
            t("%(building)s occupied by %(empire)s", building=_building(building), empire=who)
            for building, who in p["occupied"].items()
        ]
        if p["converting"]:
            status.append(t("%(empire)s converting", empire=p["converting"]))
        rows.append(
            [
                names[pid],
                p["influence"] or "-",
                listed(buildings) or "-",
                listed(units) or "-",
                listed(status, "; "),
            ]
        )
    return rows


# NOTE: a building in the board table of the public report.
BUILDING_NAMES = {"market": t("market"), "temple": t("temple"), "city": t("city")}


def _building(key: str) -> str:
    """A building by its key (`caravan:wine`, `market`), in words."""
    kind, _, good = key.partition(":")
    if kind == "caravan":
        return t("caravan on %(good)s", good=term("card", good))
    return BUILDING_NAMES.get(key, key)
