"""The map of a Mare Mediterraneum position, as plain data for templates/mediterraneum/map.svg.j2:
every shape, name and piece with its coordinates, so that the template only draws.

The shipped board has a baked map (tools/bake_map: coastlines, the region of every land and sea,
each card's place, each city's port point, the rivers, and the sizes the cards were laid out with,
which the drawing keeps). Its cards hold names only, because the board is dense, so the pieces are
placed here, beside their card (armies, a second want disk), about their city's port point (ships in
harbour or on the coast) or under their sea's name (ships at sea): each group of pieces takes the
first of its candidate spots that overlaps nothing already placed, or else the one that overlaps
least, inside the map. A moderator's own board has no baked map: it gets
a schematic one, its places drawn where their positions put them (or in rows, without positions),
lands joined by lines, with the same pieces placed the same way."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.core.i18n import Msg, joined, t, term, tn
from adjudicator.rulesets.mediterraneum.board import COAST, Board
from adjudicator.rulesets.mediterraneum.model import HARBOUR, Army, Position, Ship, Status, city_of_space, storm_sea

LEGEND = 132.0  # the band under the map that holds the legend
ART_CARGO = "Art"  # the text of a ship's cargo tag when it carries a work of art (T:71)

# The pieces' sizes, as the template draws them (view-box units).
ARMY = 19.0  # an army's step in its row (a disc of radius 8, a cavalry diamond of 9.5)
SHIP = 42.0  # a ship's step: its hull (22 wide), a gap, its cargo tag (16)
ROW = 19.0  # the height of a row of pieces
WANT_GAP = 2.0  # between a want disk and what follows it in its row
GAP = 3.0  # kept between a group of pieces and anything else

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Chart:
    """The tax chart's card: spaces a row, a space's width and height, the title's height."""

    across: int
    space_width: float
    space_height: float
    title: float


@dataclass(frozen=True, slots=True)
class Drawing:
    """The sizes a map's cards were laid out with, which its drawing must keep (view-box units). A baked
    map's are its file's `drawing`, as tools/bake_map took them from the board's .bake.toml, so that the
    names fit the boxes the baker measured for them; a schematic map's are SCHEMATIC."""

    city_size: float  # a city's name, bold
    land_size: float  # a land's name under its city's, italic
    land_line: float  # how far the land's name's baseline lies under the city's
    land_name: float  # the name of a land without a city, italic
    sea_size: float  # a sea's name, italic
    storm: float  # the storm mark left of a sea's name
    want: float  # a want disk with its gap (WANT_GAP): right of a city's name, and its step in a row
    chart: Chart


# A schematic map (a board without a baked map) is laid out here the way tools/bake_map lays out the
# baked one, with these sizes of its own; the baked map's are in its file.
SCHEMATIC = Drawing(
    city_size=12.0,
    land_size=10.5,
    land_line=12.5,
    land_name=11.0,
    sea_size=13.0,
    storm=15.0,
    want=15.0,
    chart=Chart(across=6, space_width=22.0, space_height=16.0, title=14.0),
)
SCHEMATIC_WIDTH = 1600.0  # the legend under the map (map.svg.j2) is laid out for this width
MARKER = 19.5  # a city's marker with its ring, left of the city's name
MARKER_X, MARKER_Y = 9.0, 4.5  # the marker's centre: this far left of the name and above its baseline
NAME_ABOVE = 14.5  # a city's card reaches this far above its name's baseline (the marker's ring)
OTHER_NAME = (14.0, 5.0)  # a land's or sea's card reaches this far above and below its name's baseline


def drawing_of(data: Mapping[str, Any]) -> Drawing:
    """A baked map's `drawing` (reports/maps.py hands it over as the file has it) as a value."""
    chart = data["chart"]
    return Drawing(
        city_size=float(data["city_size"]),
        land_size=float(data["land_size"]),
        land_line=float(data["land_line"]),
        land_name=float(data["land_name"]),
        sea_size=float(data["sea_size"]),
        storm=float(data["storm"]),
        want=float(data["want"]),
        chart=Chart(
            across=int(chart["across"]),
            space_width=float(chart["space_width"]),
            space_height=float(chart["space_height"]),
            title=float(chart["title"]),
        ),
    )


def map_data(
    board: Board, position: Position, geography: Mapping[str, Any] | None, colours: Mapping[str, str]
) -> dict[str, Any]:
    """Everything the map template draws, in view-box units; `geographic` says which kind of map:
    the baked `geography` (reports/maps.py), or without one a schematic map."""
    sheet = _Sheet(board, position, geography, colours)
    return sheet.data()


def abbreviations(board: Board) -> dict[str, str]:
    """A short text for each good, unique on the board: its name's first two letters (Gr, Wi), else its
    first letter and a later one, else its id."""
    taken: set[str] = {ART_CARGO}
    out = {}
    for good in sorted(board.goods.values(), key=lambda g: g.name):
        word = "".join(c for c in good.name if c.isalpha()) or good.id
        options = [word[0].upper() + c.lower() for c in word[1:]] + [good.id]
        text = next(o for o in options if o not in taken)
        taken.add(text)
        out[good.id] = text
    return out


class _Sheet:
    """One map being laid out: the places, then the pieces, each group clear of what came before."""

    def __init__(
        self, board: Board, position: Position, geography: Mapping[str, Any] | None, colours: Mapping[str, str]
    ) -> None:
        self.board, self.position, self.geography = board, position, geography
        self.colours = colours
        self.goods = abbreviations(board)
        self.taken: list[Box] = []  # what the pieces must keep clear of
        self.drawing = drawing_of(geography["drawing"]) if geography is not None else SCHEMATIC
        if geography is not None:
            self.width, self.height = float(geography["width"]), float(geography["height"])
            self.labels, self.boxes = geography["labels"], geography["boxes"]
            self.markers = {k: (v["x"], v["y"]) for k, v in geography["markers"].items()}
            self.ports = {k: tuple(v) for k, v in geography.get("ports", {}).items()}
        else:
            self._schematic()
        self.taken += [tuple(b) for b in self.boxes.values()]

    # --- the places ---------------------------------------------------------------------------------

    def _schematic(self) -> None:
        """Cards for a board without a baked map: each place at its position, projected like the baked
        maps (equirectangular), or in rows under the map when some place has none."""
        board, sizes = self.board, self.drawing
        places: list[tuple[str, str, tuple[float, float] | None, float, bool]] = []  # id, text, position, size, bold
        for land in board.lands.values():
            city = board.city_of(land.id)
            if city is None:
                places.append((land.id, land.name, land.position, sizes.land_name, False))
            else:
                c = board.cities[city]
                places.append((land.id, c.name, c.position or land.position, sizes.city_size, True))
        places += [(s.id, s.name, s.position, sizes.sea_size, False) for s in board.seas.values()]
        self.width = SCHEMATIC_WIDTH
        self.labels, self.boxes, self.markers, self.ports = {}, {}, {}, {}
        spots: dict[str, tuple[float, float]] = {}
        known = [p[2] for p in places if p[2] is not None]
        if places and len(known) == len(places):
            lons, lats = [lon for lon, _ in known], [lat for _, lat in known]
            cos = math.cos(math.radians((min(lats) + max(lats)) / 2))
            scale = (self.width - 240) / max((max(lons) - min(lons)) * cos, 1.0)
            self.height = float(round(max((max(lats) - min(lats)) * scale, 200) + 120))
            for pid, _, (lon, lat), _, _ in [(p[0], p[1], p[2], p[3], p[4]) for p in places if p[2] is not None]:
                spots[pid] = (120 + (lon - min(lons)) * cos * scale, 60 + (max(lats) - lat) * scale)
        else:  # in rows, eight a row
            self.height = float(60 + 70 * math.ceil(len(places) / 8) + 60)
            spots = {p[0]: (100 + 200 * (i % 8), 50 + 70 * (i // 8)) for i, p in enumerate(places)}
        for pid, text, _, size, bold in places:
            x, y = spots[pid]
            half = len(text) * size * (0.36 if bold else 0.32)  # about half the name's width
            self.labels[pid] = [round(x, 1), round(y, 1)]
            if bold:  # a city's card: its marker, its name, a want disk, its land's name under them
                self.markers[pid] = (round(x - half - MARKER_X, 1), round(y - MARKER_Y, 1))
                box = (x - half - MARKER, y - NAME_ABOVE, x + half + (1 + sizes.want), y + sizes.land_line + 4)
            else:  # a land's or a sea's name, a sea's with its storm mark left of it
                above, below = OTHER_NAME
                box = (x - half - (sizes.storm if pid in board.seas else 0), y - above, x + half, y + below)
            self.boxes[pid] = [round(v, 1) for v in box]
        for site in board.cities.values():
            x, y = self.labels[site.land]
            sea = self.labels.get(site.sea, [x, y])
            self.ports[site.id] = (round(x + (sea[0] - x) * 0.35, 1), round(y + 24 + (sea[1] - y) * 0.2, 1))
        chart = sizes.chart
        width = chart.across * chart.space_width
        height = chart.title + chart.space_height * math.ceil(len(board.tax_chart) / chart.across)
        self.labels["tax-chart"] = [self.width - width / 2 - 10, self.height - 8]
        self.boxes["tax-chart"] = [self.width - width - 10, self.height - 8 - height, self.width - 10, self.height - 8]

    def data(self) -> dict[str, Any]:
        board, position, geography = self.board, self.position, self.geography
        storm = storm_sea(board, position)
        owners = {c: s.owner for c, s in position.cities.items() if s.owner}
        lands = []
        for land in board.lands.values():
            city = board.city_of(land.id)
            owner = owners.get(city, "") if city else ""
            lands.append(
                {
                    "id": land.id,
                    "name": land.name,
                    "region": geography["regions"].get(land.id, "") if geography else "",
                    "mountain": land.mountain,
                    "city": bool(city),
                    "fill": self.colours.get(owner, "") if owner else "",
                    "owner": owner,
                    "x": self.labels[land.id][0],
                    "y": self.labels[land.id][1],
                }
            )
        seas = [
            {
                "id": sea.id,
                "name": sea.name,
                "region": geography["regions"].get(sea.id, "") if geography else "",
                "storm": sea.id == storm,
                "x": self.labels[sea.id][0],
                "y": self.labels[sea.id][1],
                "mark": self.boxes[sea.id][0] + self.drawing.storm / 2,  # the storm mark's middle
            }
            for sea in board.seas.values()
        ]
        cities = [self._city(cid) for cid in board.cities]
        pieces = self._pieces()
        links = []
        if geography is None:  # the schematic map joins neighbouring lands, and each city to its sea
            for land in board.lands.values():
                for other in land.land:
                    if land.id < other and other in self.labels:
                        a, b = self.labels[land.id], self.labels[other]
                        links.append({"x1": a[0], "y1": a[1] - 4, "x2": b[0], "y2": b[1] - 4, "kind": "land"})
            for sea in board.seas.values():
                for other in sea.seas:
                    if sea.id < other:
                        a, b = self.labels[sea.id], self.labels[other]
                        links.append({"x1": a[0], "y1": a[1] - 4, "x2": b[0], "y2": b[1] - 4, "kind": "sea"})
        return {
            "geographic": geography is not None,
            "width": self.width,
            "height": self.height,
            "legend": LEGEND,
            "want_radius": (self.drawing.want - WANT_GAP) / 2,
            "font_sizes": {  # of the names, as the cards were measured for them
                "city": self.drawing.city_size,
                "land_under": self.drawing.land_size,
                "land_name": self.drawing.land_name,
                "sea": self.drawing.sea_size,
            },
            "land": geography["land"] if geography else "",
            "source": geography["source"] if geography else "",
            "lands": lands,
            "seas": seas,
            "rivers": self._rivers(),
            "links": links,
            "cities": cities,
            "pieces": pieces,
            "chart": self._chart(),
            "goods": [
                {"text": t, "name": term("card", board.goods[g].name)}
                for g, t in sorted(self.goods.items(), key=_second)
            ],
            "players": [{"name": c, "colour": self.colours.get(c, "#888888")} for c in position.order],
            "storm": board.seas[storm].name if storm else "",
        }

    def _rivers(self) -> list[dict[str, str]]:
        if self.geography is None:
            return []
        names = {x.id: x.name for x in self.board.lands.values()}
        out = []
        for pair, path in sorted(self.geography.get("rivers", {}).items()):
            a, _, b = pair.partition("/")
            if path and a in names and b in names:
                out.append({"path": path, "title": t("river between %(a)s and %(b)s", a=names[a], b=names[b])})
        return out

    def _city(self, cid: str) -> dict[str, Any]:
        board, state = self.board, self.position.cities[cid]
        city = board.cities[cid]
        x, y = self.labels[city.land]
        mx, my = self.markers[city.land]
        owner = state.owner or ""
        colour = self.colours.get(owner, "#888888") if owner else "#fffdf6"
        status = str(state.status or Status.PROVINCE) if owner else ""
        title: str = _city_title(city.name, board.lands[city.land].name, owner, status)
        suffixes = [t(", dormant")] if state.dormant else []
        suffixes += [t(", Residence city")] if city.residence else []
        if suffixes:
            title = joined([title, *suffixes], "")
        wants = []
        for i, good in enumerate(state.want):
            if i == 0:  # the first disk has its place in the card, right of the name
                wx, wy = 2 * x - mx - 0.5, my
                wants.append(self._want(good, wx, wy))
        return {
            "id": cid,
            "name": city.name,
            "land": board.lands[city.land].name,
            "residence": city.residence,
            "x": x,
            "y": y,
            "land_y": y + self.drawing.land_line,
            "marker_x": mx,
            "marker_y": my,
            "owner": owner,
            "colour": colour,
            "status": status,
            "title": title,
            "wants": wants,
        }

    def _want(self, good: str, x: float, y: float) -> dict[str, Any]:
        name = term("card", self.board.goods[good].name) if good in self.board.goods else good
        return {
            "x": round(x, 1),
            "y": round(y, 1),
            "text": self.goods.get(good, good[:2]),
            "title": t("wants %(good)s", good=name),
        }

    def _chart(self) -> dict[str, Any]:
        board, position = self.board, self.position
        chart = self.drawing.chart
        across, cell_width, cell_height, title = chart.across, chart.space_width, chart.space_height, chart.title
        x, y = self.labels["tax-chart"]
        count = len(board.tax_chart)
        rows = math.ceil(count / across)
        left, top = x - across * cell_width / 2, y - title - cell_height * rows
        cells = []
        for i, space in enumerate(board.tax_chart):
            cx, cy = left + (i % across) * cell_width, top + title + (i // across) * cell_height
            cells.append({"x": round(cx, 1), "y": round(cy, 1), "text": space, "tax": space in board.tax_on})
        stone = None
        if position.stone is not None and position.stone < count:
            cell = cells[position.stone]
            owner = position.stone_owner or ""
            stone = {
                "x": cell["x"] + cell_width / 2,
                "y": cell["y"] + cell_height / 2,
                "colour": self.colours.get(owner, "#888888"),
                "title": t("the tax stone on %(space)s, moved by %(player)s", space=cell["text"], player=owner)
                if owner
                else t("the tax stone on %(space)s", space=cell["text"]),
            }
        return {
            "x": left,
            "y": top,
            "width": across * cell_width,
            "cell_width": cell_width,
            "cell_height": cell_height,
            "title": tn("Tax chart · %(count)s pass", "Tax chart · %(count)s passes", position.passes)
            if position.passes
            else t("Tax chart"),
            "title_x": x,
            "title_y": top + 10.5,
            "cells": cells,
            "stone": stone,
        }

    # --- the pieces ---------------------------------------------------------------------------------

    def _pieces(self) -> list[dict[str, Any]]:
        board, position = self.board, self.position
        order = {c: i for i, c in enumerate(position.order)}

        def key(piece: Army | Ship) -> tuple[int, int]:
            return (order.get(piece.owner, 99), piece.number)

        aboard = {(a.owner, int(a.at.removeprefix("ship:"))): a for a in position.armies if a.at.startswith("ship:")}
        out: list[dict[str, Any]] = []
        for land in board.lands.values():  # armies, and any further want disk, beside the land's card
            city = board.city_of(land.id)
            armies = sorted(position.armies_at(land.id), key=key)
            inside = sorted(position.armies_at(city), key=key) if city else []
            extra = list(position.cities[city].want[1:]) if city else []
            items = [("want", good) for good in extra] + [("army", a) for a in inside + armies]
            if items:
                out += self._place(items, self._around_box(self.boxes[land.id]))
        for site in board.cities.values():  # ships in harbour, then on the coast, about the port point
            ships = sorted(position.ships_at(f"{HARBOUR}:{site.id}"), key=key)
            ships += sorted(position.ships_at(f"{COAST}:{site.id}"), key=key)
            if ships:
                x, y = self.ports[site.id]
                out += self._place([("ship", s) for s in ships], self._around_point(x, y), aboard, leader=(x, y))
        for sea in board.seas.values():  # ships at sea, under the sea's name
            ships = sorted(position.ships_at(sea.id), key=key)
            if ships:
                out += self._place([("ship", s) for s in ships], self._around_box(self.boxes[sea.id]), aboard)
        return out

    def _around_box(self, box: Sequence[float]) -> Iterable[tuple[str, float, float]]:
        """Candidate spots for a group by a card: (how the group lines up on x, x, middle y)."""
        x0, y0, x1, y1 = box
        mid, level = (x0 + x1) / 2, (y0 + y1) / 2
        for step in range(6):
            out = GAP + step * 10
            yield ("middle", mid, y1 + out + ROW / 2)
            yield ("middle", mid, y0 - out - ROW / 2)
            yield ("start", x1 + out, level)
            yield ("end", x0 - out, level)
            for shift in (-1, 1):
                yield ("middle", mid + shift * (x1 - x0) / 2, y1 + out + ROW / 2)
                yield ("middle", mid + shift * (x1 - x0) / 2, y0 - out - ROW / 2)

    def _around_point(self, x: float, y: float) -> Iterable[tuple[str, float, float]]:
        yield ("middle", x, y)
        for radius in (12.0, 24.0, 36.0, 50.0, 66.0):
            for k in range(12):
                angle = math.pi * 2 * k / 12
                yield ("middle", x + radius * math.cos(angle), y + radius * math.sin(angle))

    def _place(
        self,
        items: Sequence[tuple[str, Any]],
        spots: Iterable[tuple[str, float, float]],
        aboard: Mapping[tuple[str, int], Army] | None = None,
        leader: tuple[float, float] | None = None,
    ) -> list[dict[str, Any]]:
        want = self.drawing.want
        steps = [SHIP if kind == "ship" else want if kind == "want" else ARMY for kind, _ in items]
        width = sum(steps) - 2
        best: tuple[float, Box] | None = None
        for align, x, y in spots:
            left = x - width / 2 if align == "middle" else x if align == "start" else x - width
            box = (left, y - ROW / 2, left + width, y + ROW / 2)
            cost = self._clash(box)
            if best is None or cost < best[0]:
                best = (cost, box)
            if cost == 0:
                break
        assert best is not None
        box = best[1]
        self.taken.append((box[0] - GAP, box[1] - GAP, box[2] + GAP, box[3] + GAP))
        out: list[dict[str, Any]] = []
        x, y = box[0], (box[1] + box[3]) / 2
        if leader is not None:
            out.append({"kind": "leader", "x1": leader[0], "y1": leader[1], "x2": round(x + 11, 1), "y2": round(y, 1)})
        for (kind, piece), step in zip(items, steps, strict=True):
            if kind == "want":
                out.append({"kind": "want", **self._want(piece, x + want / 2, y)})
            elif kind == "army":
                out.append(self._army(piece, x + ARMY / 2, y))
            else:
                out.append(self._ship(piece, x, y, (aboard or {}).get((piece.owner, piece.number))))
            x += step
        return out

    def _clash(self, box: Box) -> float:
        """How much the box overlaps what is placed, and how far it leaves the map (weighted more)."""
        x0, y0, x1, y1 = box
        outside = max(0.0, -x0) + max(0.0, x1 - self.width) + max(0.0, -y0) + max(0.0, y1 - self.height)
        cost = outside * 1000.0
        for a0, b0, a1, b1 in self.taken:
            w, h = min(x1, a1) - max(x0, a0), min(y1, b1) - max(y0, b0)
            if w > 0 and h > 0:
                cost += w * h
        return cost

    def _army(self, army: Army, x: float, y: float) -> dict[str, Any]:
        colour = self.colours.get(army.owner, "#888888")
        where = self.board.cities[army.at].name if army.at in self.board.cities else self.board.lands[army.at].name
        inside = army.at in self.board.cities
        if army.cavalry:
            title = (
                t(
                    "%(player)s army %(army)s (cavalry) inside %(place)s",
                    player=army.owner,
                    army=army.number,
                    place=where,
                )
                if inside
                else t(
                    "%(player)s army %(army)s (cavalry) in %(place)s", player=army.owner, army=army.number, place=where
                )
            )
        else:
            title = (
                t("%(player)s army %(army)s inside %(place)s", player=army.owner, army=army.number, place=where)
                if inside
                else t("%(player)s army %(army)s in %(place)s", player=army.owner, army=army.number, place=where)
            )
        return {
            "kind": "army",
            "x": round(x, 1),
            "y": round(y, 1),
            "owner": army.owner,
            "colour": colour,
            "number": army.number,
            "cavalry": army.cavalry,
            "inside": inside,
            "title": title,
        }

    def _ship(self, ship: Ship, x: float, y: float, army: Army | None) -> dict[str, Any]:
        colour = self.colours.get(ship.owner, "#888888")
        cargo = ART_CARGO if ship.cargo.startswith("art:") else self.goods.get(ship.cargo, ship.cargo[:2])
        city = city_of_space(ship.at)
        where = self.board.seas[ship.at].name if city is None and ship.at in self.board.seas else ship.at
        load = (
            t("a work of art")
            if cargo == ART_CARGO
            else term("card", self.board.goods[ship.cargo].name)
            if ship.cargo in self.board.goods
            else ship.cargo
        )
        title: str
        if city is None:
            title = _ship_at_sea(ship, where, load)
        else:
            title = _ship_at_city(ship, self.board.cities[city].name, ship.at.startswith(COAST), load)
        if army:
            title = joined([title, t(", army %(army)s aboard", army=army.number)], "")
        return {
            "kind": "ship",
            "x": round(x, 1),
            "y": round(y, 1),
            "owner": ship.owner,
            "colour": colour,
            "number": ship.number,
            "cargo": cargo if ship.cargo else "",
            "aboard": army is not None,
            "coast": ship.at.startswith(f"{COAST}:"),
            "title": title,
        }


def _city_title(city: str, land: str, owner: str, status: str) -> Msg:
    """A city's hover text on the map: its land, and whose it is with the piece that shows it."""
    if not owner:
        return t("%(city)s (%(land)s): unowned", city=city, land=land)
    if status == "capital":
        return t("%(city)s (%(land)s): %(player)s's capital (tower)", city=city, land=land, player=owner)
    if status == "taken":
        return t("%(city)s (%(land)s): %(player)s's taken (flag)", city=city, land=land, player=owner)
    return t("%(city)s (%(land)s): %(player)s's province (sword)", city=city, land=land, player=owner)


def _ship_at_sea(ship: Ship, sea: str, load: str) -> Msg:
    if ship.cargo:
        return t(
            "%(player)s ship %(ship)s in %(sea)s, carrying %(load)s",
            player=ship.owner,
            ship=ship.number,
            sea=sea,
            load=load,
        )
    return t("%(player)s ship %(ship)s in %(sea)s, empty", player=ship.owner, ship=ship.number, sea=sea)


def _ship_at_city(ship: Ship, city: str, coast: bool, load: str) -> Msg:
    who = {"player": ship.owner, "ship": ship.number, "city": city}
    if coast and ship.cargo:
        return t("%(player)s ship %(ship)s on the coast of %(city)s, carrying %(load)s", load=load, **who)
    if coast:
        return t("%(player)s ship %(ship)s on the coast of %(city)s, empty", **who)
    if ship.cargo:
        return t("%(player)s ship %(ship)s in the harbour of %(city)s, carrying %(load)s", load=load, **who)
    return t("%(player)s ship %(ship)s in the harbour of %(city)s, empty", **who)


def _second(pair: tuple[str, str]) -> str:
    return pair[1]
