"""The position as plain data: the stable shape of `state --json`, positions and state.toml.

Reading checks every name and count against the board and names the key at fault.
Stocks, the bank and the building supply are derived from the board and the hands; a
file may state them, and then they must agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.core.errors import DataError
from adjudicator.core.fields import Fields
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import (
    CARD_TOTALS,
    GENERAL_HEROES,
    PLAYER_COUNTS,
    WONDERS,
    Civ,
    Phase,
    ProvinceId,
    Role,
    SeaId,
)
from adjudicator.rulesets.mare_nostrum.model import PlayerState, Position, ProvinceState, SeaState

OCCUPIABLE_PREFIXES = ("city:", "caravan:")
_PROVINCE_KEYS = frozenset(
    {
        "influence",
        "cities",
        "caravans",
        "temple",
        "market",
        "legions",
        "fortresses",
        "port",
        "at_war",
        "occupied",
        "converting",
    }
)
_POSITION_KEYS = frozenset(
    {
        "game",
        "ruleset",
        "turn",
        "phase",
        "step",
        "winner",
        "roles",
        "players",
        "provinces",
        "seas",
        "bank",
        "supply",
        "dice",
        "sequence",
        "used",
        "held",
        "extra_cards",
    }
)


def _counts(table: Mapping[Civ, int]) -> dict[str, int]:
    return {civ: n for civ, n in sorted(table.items()) if n}


def position_to_data(position: Position) -> dict[str, Any]:
    """The position in the DESIGN.md shape (without the generic game/ruleset/dice keys)."""
    return {
        "turn": position.turn,
        "phase": str(position.phase),
        "step": position.step,
        "winner": position.winner,
        "roles": {str(role): position.roles.get(role) for role in Role},
        "players": {
            civ: {
                "hand": {card: n for card, n in player.hand.items() if n},
                "cards": list(player.cards),
                "stock": position.stock(civ),
                "neutral": player.neutral,
            }
            for civ, player in position.players.items()
        },
        "provinces": {pid: _province_to_data(p) for pid, p in position.provinces.items()},
        "seas": {sid: {"triremes": _counts(s.triremes)} for sid, s in position.seas.items()},
        "bank": position.bank(),
        "supply": position.supply(),
        "sequence": list(position.sequence),
        "used": list(position.used),
        # A civilization that held nothing is left out, as a file leaves out an empty list.
        "held": None if position.held is None else {civ: list(p) for civ, p in sorted(position.held.items()) if p},
        "extra_cards": {card: n for card, n in sorted(position.extra_cards.items()) if n},
    }


def _province_to_data(p: ProvinceState) -> dict[str, Any]:
    return {
        "influence": p.influence,
        "cities": list(p.cities),
        "caravans": list(p.caravans),
        "temple": p.temple,
        "market": p.market,
        "legions": _counts(p.legions),
        "fortresses": _counts(p.fortresses),
        "port": _counts(p.port),
        "at_war": p.at_war,
        "occupied": dict(sorted(p.occupied.items())),
        "converting": p.converting,
    }


def position_from_data(board: Board, data: Mapping[str, Any], playing: Sequence[str] | None = None) -> Position:
    """Read a position; missing players and provinces take their empty defaults.

    With `playing`, the civilizations not named there are neutral (R2.3), and a file that
    says otherwise is an error.
    """
    root = Fields(data)
    root.only(_POSITION_KEYS)
    root.table("dice", {})  # the generic game layer's: checked for shape only
    reader = _Reader(board, playing)
    players = reader.players(root.table("players", {}))
    provinces = {pid: ProvinceState() for pid in board.provinces} | reader.provinces(root.table("provinces", {}))
    seas = {sid: SeaState() for sid in board.seas} | reader.seas(root.table("seas", {}))
    roles_table = root.table("roles", {})
    roles_table.only({str(r) for r in Role})
    roles = {role: reader.civ_or_none(roles_table, str(role)) for role in Role}
    position = Position(
        turn=root.integer("turn", 1, minimum=1),
        phase=reader.phase(root),
        step=reader.civ_or_none(root, "step"),
        winner=reader.civ_or_none(root, "winner"),
        roles=roles,
        players=players,
        provinces=provinces,
        seas=seas,
        sequence=tuple(reader.civ(root, f"sequence[{i}]", c) for i, c in enumerate(root.texts("sequence", []))),
        used=tuple(root.texts("used", [])),
        held=reader.held(root) if "held" in root else None,
        extra_cards=reader.cards(root, "extra_cards"),
    )
    _check_derived(root, reader.stated_stock, position)
    return position


class _Reader:
    """Resolves names in a position document against the board."""

    def __init__(self, board: Board, playing: Sequence[str] | None) -> None:
        self.board = board
        self.playing = playing
        self.stated_stock: dict[Civ, dict[str, int]] = {}

    def civ(self, f: Fields, key: str | int, text: str) -> Civ:
        if text in self.board.civilizations:  # the usual case, written by the program itself
            return Civ(text)
        match = self.board.civ_names.find(text)
        if len(match.keys) != 1:
            hint = f"; did you mean {' or '.join(match.suggestions)}?" if match.suggestions else ""
            names = ", ".join(self.board.civilizations)
            raise f.error(key, f"'{text}' is not a civilization ({names}){hint}")
        return match.keys[0]

    def civ_or_none(self, f: Fields, key: str) -> Civ | None:
        text = f.text(key, None)
        return None if text is None else self.civ(f, key, text)

    def phase(self, f: Fields) -> Phase:
        text = f.text("phase", str(Phase.TRADE))
        if text not in Phase.__members__.values():
            raise f.error("phase", f"'{text}' is not a phase; use trade, build or military")
        return Phase(text)

    def civ_counts(self, f: Fields, key: str) -> dict[Civ, int]:
        table = f.table(key, {})
        return {self.civ(table, name, name): table.integer(name, minimum=0) for name in table}

    def cards(self, f: Fields, key: str) -> dict[str, int]:
        counts = f.counts(key) if key in f else {}
        for card in counts:
            if card not in CARD_TOTALS:
                raise f.table(key).error(card, "not a tax or commodity card")
        return counts

    def players(self, f: Fields) -> dict[Civ, PlayerState]:
        named = {self.civ(f, name, name): f.table(name) for name in f}
        players = {}
        for civ in self.board.civilizations:
            table = named.get(civ, Fields({}, f.key(civ)))
            table.only({"hand", "cards", "stock", "neutral"})
            hand = self.cards(table, "hand")
            cards = table.texts("cards", [])
            for index, card in enumerate(cards):
                self._check_card(table, index, card, civ)
            self.stated_stock[civ] = table.counts("stock")
            neutral = table.flag("neutral", self.playing is not None and civ not in self.playing)
            if self.playing is not None and neutral == (civ in self.playing):
                state = "neutral" if neutral else "played"
                raise table.error("neutral", f"the position has {civ} {state}, the player list says otherwise")
            players[civ] = PlayerState(civ, hand, tuple(cards), neutral)
        owners: dict[str, Civ] = {}
        for civ, player in players.items():
            for card in player.cards:
                if card in owners:
                    raise f.error(civ, f"{card} is also owned by {owners[card]}; heroes and wonders are unique (R6.6)")
                owners[card] = civ
        playing = sum(1 for p in players.values() if not p.neutral)
        if playing not in PLAYER_COUNTS:
            raise f.error("", f"{playing} civilizations are played; the game takes 3 to 5 (mark the others neutral)")
        return players

    def _check_card(self, f: Fields, index: int, card: str, civ: Civ) -> None:
        heroes = self.board.heroes
        if card in heroes and heroes[card] != civ:
            raise DataError(f"{f.key('cards')}[{index}]", f"{card} belongs to {heroes[card]} only (R6.6)")
        if card not in heroes and card not in GENERAL_HEROES and card not in WONDERS:
            raise DataError(f"{f.key('cards')}[{index}]", f"'{card}' is not a hero or wonder")

    def provinces(self, f: Fields) -> dict[ProvinceId, ProvinceState]:
        result = {}
        for name in f:
            pid = self._place(f, name, self.board.provinces)
            result[ProvinceId(pid)] = self._province(
                f.table(name),
                self.board.provinces[ProvinceId(pid)].cities,
                self.board.provinces[ProvinceId(pid)].commodities,
            )
        return result

    def _province(self, f: Fields, sites: tuple[str, ...], icons: tuple[str, ...]) -> ProvinceState:
        f.only(_PROVINCE_KEYS)
        cities = f.texts("cities", [])
        for index, site in enumerate(cities):
            if site not in sites:
                raise DataError(
                    f"{f.key('cities')}[{index}]",
                    f"no city site '{site}' here (sites: {', '.join(sites) or 'none'})",
                )
        caravans = f.texts("caravans", [])
        for index, icon in enumerate(caravans):
            if icon not in icons:
                raise DataError(
                    f"{f.key('caravans')}[{index}]",
                    f"no '{icon}' icon here (icons: {', '.join(icons) or 'none'})",
                )
        if len(set(cities)) != len(cities) or len(set(caravans)) != len(caravans):
            raise f.error("cities", "a site or icon holds at most one city or caravan (R6.5)")
        occupied_table = f.table("occupied", {})
        occupied = {}
        for key in occupied_table:
            if key not in ("temple", "market") and not key.startswith(OCCUPIABLE_PREFIXES):
                raise occupied_table.error(key, "use city:SITE, caravan:ICON, temple or market")
            occupied[key] = self.civ(occupied_table, key, occupied_table.text(key))
        province = ProvinceState(
            influence=self.civ_or_none(f, "influence"),
            cities=tuple(cities),
            caravans=tuple(caravans),
            temple=f.flag("temple", False),
            market=f.flag("market", False),
            legions=self.civ_counts(f, "legions"),
            fortresses=self.civ_counts(f, "fortresses"),
            port=self.civ_counts(f, "port"),
            occupied=occupied,
            converting=self.civ_or_none(f, "converting"),
        )
        if "at_war" in f and f.flag("at_war") != province.at_war:  # derived (R8.4), like the stocks
            armed = sorted(province.military())
            there = (
                f"units of {' and '.join(armed)} stand there" if len(armed) > 1
                else f"only {armed[0]}'s units stand there" if armed
                else "no legion or fortress stands there"
            )  # fmt: skip
            raise f.error(
                "at_war",
                f"says {str(f.flag('at_war')).lower()}, but {there} (R8.4: at war exactly while two or more "
                "players' units do); correct it or delete the key",
            )
        return province

    def held(self, root: Fields) -> dict[Civ, tuple[ProvinceId, ...]]:
        table = root.table("held")
        return {
            self.civ(table, name, name): tuple(
                ProvinceId(self._place(table, p, self.board.provinces)) for p in table.texts(name)
            )
            for name in table
        }

    def seas(self, f: Fields) -> dict[SeaId, SeaState]:
        result = {}
        for name in f:
            sid = self._place(f, name, self.board.seas)
            table = f.table(name)
            table.only({"triremes"})
            result[SeaId(sid)] = SeaState(self.civ_counts(table, "triremes"))
        return result

    def _place(self, f: Fields, name: str, kind: Mapping[Any, Any]) -> str:
        if name in kind:  # an id, as the program writes them
            return name
        match = self.board.places.find(name)
        if len(match.keys) == 1 and match.keys[0] in kind:
            return match.keys[0]
        hint = f"; did you mean {' or '.join(match.suggestions)}?" if match.suggestions else ""
        raise f.error(name, f"not a {'province' if kind is self.board.provinces else 'sea'} of the board{hint}")


def _check_derived(root: Fields, stated_stock: Mapping[Civ, Mapping[str, int]], position: Position) -> None:
    """Stated stocks, bank and supply must match what the pieces and hands imply."""
    for civ in position.players:
        derived = position.stock(civ)
        for piece, count in stated_stock.get(civ, {}).items():
            if derived.get(piece) != count:
                raise DataError(
                    f"players.{civ}.stock.{piece}",
                    f"says {count} but the board leaves {derived.get(piece)}; correct it or delete the key",
                )
        for piece, count in derived.items():
            if count < 0:
                raise DataError(
                    f"players.{civ}", f"places {-count} more {piece} pieces than the {piece} stock holds (R1)"
                )
    for key, derived_table in (("bank", position.bank()), ("supply", position.supply())):
        stated = root.counts(key) if key in root else {}
        for item, count in stated.items():
            if derived_table.get(item) != count:
                raise DataError(
                    f"{key}.{item}",
                    f"says {count} but the hands and board leave {derived_table.get(item)}; "
                    "correct it or delete the key",
                )
        for item, count in derived_table.items():
            if count < 0:
                raise DataError(key, f"{-count} more {item} than the game has (R1) are in use")
