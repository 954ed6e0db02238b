"""Plain data for reports: names, colours, the schematic map, and the rows of the board
and player tables. Shaping only: the templates decide how anything looks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.i18n import t, term, tn
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import PIECE_NAMES, listed
from adjudicator.rulesets.mare_nostrum.options import Options


def report_data(
    board: Board,
    state: Mapping[str, Any],
    player_names: Mapping[str, str],
    options: Options,  # the seam hands every ruleset its game's options; none changes this report
    maps: Mapping[str, Mapping[str, Any]],
    colours: Mapping[str, str],  # the seam adds them to the data itself; its map needs nothing more of them
) -> dict[str, Any]:
    names: dict[str, str] = {p.id: p.name for p in board.provinces.values()}
    names.update({s.id: s.name for s in board.seas.values()})
    return {
        "names": names,
        "map": _map(board, maps.get(board.id)),
        "player_rows": _player_rows(state, player_names),
        "board_rows": _board_rows(board, state),
        "coastal": [p.id for p in board.provinces.values() if p.coastal],
        "neighbours": {
            **{p.id: {"land": list(p.land), "seas": list(p.seas)} for p in board.provinces.values()},
            **{s.id: {"land": [], "seas": list(s.seas)} for s in board.seas.values()},
        },
        "sea_rows": [
            [names[sid], _units(sea["triremes"], "trireme")] for sid, sea in state["seas"].items() if sea["triremes"]
        ],
    }


def _map(board: Board, geography: Mapping[str, Any] | None) -> dict[str, Any]:
    """The baked map when the board has one, else one drawn from the board's own `map` points."""
    if geography is not None:
        return _geographic_map(board, geography)
    places: dict[str, dict[str, Any]] = {}
    for p in board.provinces.values():
        if p.map is not None:
            places[p.id] = {"kind": "province", "name": p.name, "x": p.map[0], "y": p.map[1]}
    for s in board.seas.values():
        if s.map is not None:
            places[s.id] = {"kind": "sea", "name": s.name, "x": s.map[0], "y": s.map[1]}
    links = []
    for p in board.provinces.values():
        links += [{"a": p.id, "b": q, "kind": "land"} for q in p.land if p.id < q]
        links += [{"a": p.id, "b": s, "kind": "coast"} for s in p.seas]
    for s in board.seas.values():
        links += [{"a": s.id, "b": t, "kind": "sea"} for t in s.seas if s.id < t]
    return {
        "geographic": False,
        "places": places,
        "links": [link for link in links if link["a"] in places and link["b"] in places],
    }


def _geographic_map(board: Board, geography: Mapping[str, Any]) -> dict[str, Any]:
    """Each place's region, label point (the middle of its name's baseline), label box (kept clear for
    its name and its block of pieces) and where that block's rows are drawn (see the map file's
    "format"); a province's also has its influence marker's centre. `caravans` holds the text and width of
    the tag a caravan of each commodity is drawn as, and `drawing` the sizes the cards were laid out with,
    which the template draws with (the map file's, as tools/bake_map wrote them)."""
    labels = geography["labels"]
    places: dict[str, dict[str, Any]] = {}
    named = [(str(p.id), p.name) for p in board.provinces.values()] + [(str(s.id), s.name) for s in board.seas.values()]
    for pid, name in named:
        if pid in labels:
            province = pid in board.provinces
            x, y = labels[pid]
            places[pid] = {
                "kind": "province" if province else "sea",
                "name": name,
                "x": x,
                "y": y,
                "box": geography["boxes"][pid],
                "pieces": geography["pieces"][pid],
                **({"marker": geography["markers"][pid]} if province else {}),
                "region": geography["regions"][pid],
            }
    return {
        "geographic": True,
        "width": geography["width"],
        "height": geography["height"],
        "land": geography["land"],
        "source": geography["source"],
        "caravans": geography["caravans"],
        "drawing": geography["drawing"],
        "places": places,
        "links": [],
    }


def _units(table: Mapping[str, int], unit: str) -> str:
    """`Rome 2 legions, Greece 1 legion`: a message per civilization, in the reader's language."""
    return listed([_unit_count(civ, n, unit) for civ, n in table.items()])


def _unit_count(civ: str, n: int, unit: str) -> str:
    match unit:
        case "legion":
            return tn("%(civ)s %(count)s legion", "%(civ)s %(count)s legions", n, civ=civ)
        case "fortress":
            return tn("%(civ)s %(count)s fortress", "%(civ)s %(count)s fortresses", n, civ=civ)
        case "port":
            return tn("%(civ)s %(count)s trireme in port", "%(civ)s %(count)s triremes in port", n, civ=civ)
        case _:
            return tn("%(civ)s %(count)s trireme", "%(civ)s %(count)s triremes", n, civ=civ)


def _player_rows(state: Mapping[str, Any], player_names: Mapping[str, str]) -> list[list[str]]:
    rows = []
    for civ, p in state["players"].items():
        if p["neutral"]:
            rows.append([civ, t("neutral (R2.3)"), "", "", ""])
            continue
        s = p["stock"]
        stock = f"{s['legion']} / {s['trireme']} / {s['fortress']} / {s['influence']}"
        cards = ", ".join(p["cards"]) or "-"
        rows.append([civ, player_names.get(civ, ""), str(sum(p["hand"].values())), cards, stock])
    return rows


def _spot(key: str) -> str:
    kind, _, what = key.partition(":")
    if kind == "city":
        return t("city %(site)s", site=what)
    if kind == "caravan":
        return t("caravan on %(commodity)s", commodity=term("card", what))
    return PIECE_NAMES.get(kind, kind)


def _board_rows(board: Board, state: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for pid, p in state["provinces"].items():
        buildings: list[str] = []
        if cities := p["cities"]:
            buildings.append(tn("city %(sites)s", "cities %(sites)s", len(cities), sites=", ".join(cities)))
        if caravans := p["caravans"]:
            icons = listed([term("card", icon) for icon in caravans])
            buildings.append(tn("caravan on %(icons)s", "caravans on %(icons)s", len(caravans), icons=icons))
        buildings += [PIECE_NAMES[kind] for kind in ("temple", "market") if p[kind]]
        units = [
            u
            for u in (
                _units(p["legions"], "legion"),
                _units(p["fortresses"], "fortress"),
                _units(p["port"], "port"),
            )
            if u
        ]
        status = [t("at war")] if p["at_war"] else []
        status += [t("%(spot)s occupied by %(civ)s", spot=_spot(what), civ=civ) for what, civ in p["occupied"].items()]
        if p.get("converting"):
            status.append(t("%(civ)s converting", civ=p["converting"]))
        if p.get("influence") or buildings or units:
            rows.append(
                [
                    board.provinces[pid].name,
                    p.get("influence") or "-",
                    listed(buildings, semicolons=True) or "-",
                    listed(units, semicolons=True) or "-",
                    listed(status, semicolons=True) or "-",
                ]
            )
    return rows
