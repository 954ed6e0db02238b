"""The Empires position in its stable file shape (state.toml, history), read back strictly.

`turn` is the round (the generic layer files every game's phases by turn). Stocks, the
building supply and the title levels (E3.4, counted from the board the position was read with)
are derived: written for people and tools to read (`state --json`), ignored on reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from adjudicator.core.errors import DataError
from adjudicator.core.fields import Fields
from adjudicator.rulesets.empires.board import Board, Title
from adjudicator.rulesets.empires.model import Phase, PlayerState, Position, ProvinceState, SeaState
from adjudicator.rulesets.kit.payment import TAX

_KEYS = frozenset(
    {
        "game", "ruleset", "dice", "turn", "phase", "step", "winner", "titles", "players", "provinces", "seas",
        "track", "hidden", "legendary_pile", "tokens_used", "trade_size", "sequence", "used", "standing", "supply",
    }
)  # fmt: skip
_PROVINCE_KEYS = frozenset(
    {
        "influence", "caravans", "market", "city", "temple", "legions", "fortress", "occupied", "conqueror",
        "converting", "converting_since", "at_war",
    }
)  # fmt: skip


def _counts(table: Mapping[str, int]) -> dict[str, int]:
    return {k: n for k, n in sorted(table.items()) if n}


def position_to_data(position: Position) -> dict[str, Any]:
    return {
        "turn": position.round,
        "phase": str(position.phase),
        "step": position.step,
        "winner": position.winner,
        "titles": {str(t): position.titles.get(t) for t in Title},
        "players": {
            empire: {
                "resources": _counts(p.resources),
                "legendary": _counts(p.legendary),
                "tiles": list(p.tiles),
                "stock": position.stock(empire),
                **_levels(position, empire),
            }
            for empire, p in position.players.items()
        },
        "provinces": {pid: _province(p) for pid, p in position.provinces.items()},
        "seas": {sid: {"triremes": _counts(s.triremes)} for sid, s in position.seas.items()},
        "track": list(position.track),
        "hidden": sorted(position.hidden),
        "legendary_pile": _counts(position.legendary_pile),
        "tokens_used": list(position.tokens_used),
        "trade_size": position.trade_size,
        "sequence": list(position.sequence),
        "used": list(position.used),
        "standing": {e: dict(sorted(c.items())) for e, c in sorted(position.standing.items()) if c},
        "supply": position.supply(),
    }


def _levels(position: Position, empire: str) -> dict[str, dict[str, int]]:
    """E3.4, ED3: his level on each title track, when the position knows its board."""
    if position.board is None:
        return {}
    return {"levels": {str(title): n for title, n in position.levels(position.board, empire).items()}}


def _province(p: ProvinceState) -> dict[str, Any]:
    return {
        "influence": p.influence,
        "caravans": list(p.caravans),
        "market": p.market,
        "city": p.city,
        "temple": p.temple,
        "legions": _counts(p.legions),
        "fortress": p.fortress,
        "occupied": dict(sorted(p.occupied.items())),
        "conqueror": p.conqueror,
        "converting": p.converting,
        "converting_since": p.converting_since,
        "at_war": p.at_war,
    }


def position_from_data(board: Board, data: Mapping[str, Any]) -> Position:
    root = Fields(data)
    root.only(_KEYS)
    root.table("dice", {})  # the generic game layer's
    names = set(board.empires)
    players_table = root.table("players", {})
    players = {}
    for empire in players_table:
        _empire(players_table, empire, names)
        f = players_table.table(empire)
        f.only({"resources", "legendary", "tiles", "stock", "levels"})
        tiles = tuple(f.texts("tiles", []))
        for index, tile in enumerate(tiles):
            if tile not in board.tiles:
                raise DataError(f"{f.key('tiles')}[{index}]", f"'{tile}' is not a hero or wonder of this board")
        players[empire] = PlayerState(
            empire,
            MappingProxyType(_resources(board, f, "resources")),
            MappingProxyType(_resources(board, f, "legendary")),
            tiles,
        )
    provinces = {pid: ProvinceState() for pid in board.provinces}
    table = root.table("provinces", {})
    for pid in table:
        if pid not in board.provinces:
            raise table.error(pid, "not a province of this board")
        provinces[pid] = _read_province(table.table(pid), set(players))
    seas = {sid: SeaState() for sid in board.seas}
    sea_table = root.table("seas", {})
    for sid in sea_table:
        if sid not in board.seas:
            raise sea_table.error(sid, "not a sea of this board")
        f = sea_table.table(sid)
        f.only({"triremes"})
        seas[sid] = SeaState(MappingProxyType(_by_empire(f, "triremes", set(players))))
    titles_table = root.table("titles", {})
    titles_table.only({str(t) for t in Title})
    titles = {t: _empire_or_none(titles_table, str(t), set(players)) for t in Title}
    phase = root.text("phase", "trade")
    if phase not in Phase.__members__.values():
        raise root.error("phase", f"'{phase}' is not a phase; use {', '.join(Phase)}")
    return Position(
        round=root.integer("turn", 1, minimum=1),
        phase=Phase(phase),
        step=_empire_or_none(root, "step", set(players)),
        winner=_empire_or_none(root, "winner", set(players)),
        titles=MappingProxyType(titles),
        players=players,
        provinces=provinces,
        seas=seas,
        track=tuple(root.texts("track", [])),
        hidden=tuple(root.texts("hidden", [])),
        legendary_pile=MappingProxyType(root.counts("legendary_pile")),
        tokens_used=tuple(int(i) for i in root.data.get("tokens_used", [])),
        trade_size=root.integer("trade_size", None, minimum=0),
        sequence=tuple(root.texts("sequence", [])),
        used=tuple(root.texts("used", [])),
        standing={e: dict(Fields(c).data) for e, c in root.table("standing", {}).data.items()},
        board=board,
    )


def _empire(f: Fields, name: str, names: set[str]) -> None:
    if name not in names:
        raise f.error(name, f"'{name}' is not an empire of this board ({', '.join(sorted(names))})")


def _empire_or_none(f: Fields, key: str, playing: set[str]) -> str | None:
    value: str | None = f.text(key, None)
    if value is not None and value not in playing:
        raise f.error(key, f"'{value}' does not play in this game ({', '.join(sorted(playing))})")
    return value


def _by_empire(f: Fields, key: str, playing: set[str]) -> dict[str, int]:
    counts = f.counts(key)
    for empire in counts:
        if empire not in playing:
            raise DataError(f"{f.key(key)}.{empire}", f"'{empire}' does not play in this game")
    return {e: n for e, n in counts.items() if n}


def _resources(board: Board, f: Fields, key: str) -> dict[str, int]:
    counts = f.counts(key)
    for kind in counts:
        if kind != TAX and kind not in board.commodities:
            raise DataError(f"{f.key(key)}.{kind}", f"'{kind}' is neither tax nor a good of this board")
    return {k: n for k, n in counts.items() if n}


def _read_province(f: Fields, playing: set[str]) -> ProvinceState:
    f.only(_PROVINCE_KEYS)
    occupied = f.table("occupied", {})
    for building in occupied:
        _empire_or_none(occupied, building, playing)
    return ProvinceState(
        influence=_empire_or_none(f, "influence", playing),
        caravans=tuple(f.texts("caravans", [])),
        market=f.flag("market", False),
        city=f.flag("city", False),
        temple=f.flag("temple", False),
        legions=MappingProxyType(_by_empire(f, "legions", playing)),
        fortress=_empire_or_none(f, "fortress", playing),
        occupied=MappingProxyType({b: occupied.text(b) for b in occupied}),
        conqueror=_empire_or_none(f, "conqueror", playing),
        converting=_empire_or_none(f, "converting", playing),
        converting_since=f.integer("converting_since", 0, minimum=0),
    )
