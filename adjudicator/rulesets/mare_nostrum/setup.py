"""A new game's opening position (R2): basic setup, neutrals, roles, and turn 1 income."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from adjudicator.core.dice import Dice
from adjudicator.core.errors import DataError
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.mare_nostrum.board import Board, Civilization
from adjudicator.rulesets.mare_nostrum.build import (
    BuildTurn,
    Purchase,
    apply_purchase,
    cost_of,
    expand,
    placement_problem,
)
from adjudicator.rulesets.mare_nostrum.components import (
    FIXED_START_CARAVANS,
    SETUP_EXTRA_AREA,
    SETUP_POINTS,
    UNIT_STOCK,
    Civ,
    Phase,
    Piece,
    ProvinceId,
    Role,
)
from adjudicator.rulesets.mare_nostrum.income import resolve_income
from adjudicator.rulesets.mare_nostrum.model import PlayerState, Position, ProvinceState, SeaState
from adjudicator.rulesets.mare_nostrum.orders import Build, Buy, Order
from adjudicator.rulesets.mare_nostrum.roles import assign_start_roles, table_order_from
from adjudicator.rulesets.mare_nostrum.working import Working


def basic_setup(
    board: Board, playing: Sequence[Civ], dice: Dice, start_caravans: Sequence[str] = ()
) -> tuple[Position, list[Event]]:
    """R2.1-R2.3, then R4 income, so the game opens at turn 1 trade with hands dealt."""
    board = with_start_caravans(board, start_caravans)
    position, events = _opening(board, playing, Phase.TRADE, printed=True)
    printed = {c.role: c.name for c in board.civilizations.values() if c.role is not None}
    roles, role_events = assign_start_roles(position, printed, dice)
    position, income_events = resolve_income(replace(position, roles=roles), artemis={})
    return position, events + role_events + income_events


def with_start_caravans(board: Board, choices: Sequence[str]) -> Board:
    """D23: the board with each start caravan on the icon the moderator recorded at `new`
    (`--option start_caravan=Rome:ravenna=wine`; two caravans: `province=fish+slaves`)."""
    chosen: dict[ProvinceId, tuple[str, ...]] = {}
    for index, choice in enumerate(choices):
        key = f"options.start_caravan[{index}]"
        civ_text, colon, rest = choice.partition(":")
        place, equals, icons_text = rest.partition("=")
        if not (colon and equals):
            raise DataError(key, f"'{choice}' is not CIV:PROVINCE=ICON, e.g. Rome:ravenna=wine")
        civ = _one(board.civ_names.find(civ_text.strip()).keys, key, f"'{civ_text}' is not a civilization")
        pid = _one(board.places.find(place.strip()).keys, key, f"'{place}' is not a province")
        holding = next((h for h in board.civilizations[civ].start if h.province == pid), None)
        if holding is None or not holding.caravans:
            raise DataError(key, f"{civ} has no start caravan in {board.place_name(pid)} (R2.1)")
        icons = tuple(sorted(i.strip().lower() for i in icons_text.split("+")))
        allowed = FIXED_START_CARAVANS.get(pid, board.provinces[pid].commodities)
        if len(icons) != len(holding.caravans) or len(set(icons)) != len(icons) or not set(icons) <= set(allowed):
            count, name = len(holding.caravans), board.place_name(pid)
            where = " or ".join(allowed) if count == 1 else f"{count} different icons of {', '.join(allowed)}"
            caravans = "start caravan" if count == 1 else f"{count} start caravans"
            raise DataError(key, f"{civ}'s {caravans} in {name} can stand on {where} only (D23)")
        chosen[pid] = icons
    if not chosen:
        return board
    civilizations = {
        name: replace(civ, start=tuple(replace(h, caravans=chosen.get(h.province, h.caravans)) for h in civ.start))
        for name, civ in board.civilizations.items()
    }
    return replace(board, civilizations=civilizations)


def _one(keys: Sequence[Any], key: str, message: str) -> Any:
    if len(keys) != 1:
        raise DataError(key, message)
    return keys[0]


def advanced_setup_position(board: Board, playing: Sequence[Civ]) -> tuple[Position, list[Event]]:
    """R2.4: an empty board (neutrals as R2.3) waiting for every player's 36-point orders."""
    return _opening(board, playing, Phase.SETUP, printed=False)


def _opening(board: Board, playing: Sequence[Civ], phase: Phase, printed: bool) -> tuple[Position, list[Event]]:
    """Neutrals as R2.3; players with their printed start and hero (R2.1, R2.2) or with nothing (R2.4)."""
    provinces: dict[ProvinceId, ProvinceState] = {pid: ProvinceState() for pid in board.provinces}
    players: dict[Civ, PlayerState] = {}
    events: list[Event] = []
    for civ in board.civilizations.values():
        plays = civ.name in playing
        players[civ.name] = PlayerState(civ.name, {}, (civ.hero,) if plays and printed else (), neutral=not plays)
        if plays and printed:
            provinces.update(_printed_holdings(civ))
    for civ in board.civilizations.values():  # after the players: what a player holds at setup stays his
        if civ.name not in playing:
            provinces.update(_neutral_holdings(board, civ, provinces))
        rule = "R2.3" if civ.name not in playing else "R2.1" if printed else "R2.4"
        events.append(event("setup", player=civ.name, neutral=civ.name not in playing, rule=rule))
    position = Position(
        turn=1,
        phase=phase,
        step=None,
        winner=None,
        roles={role: None for role in Role},
        players=players,
        provinces=provinces,
        seas={sid: SeaState() for sid in board.seas},
    )
    return position, events


def _printed_holdings(civ: Civilization) -> dict[ProvinceId, ProvinceState]:
    """R2.1: influence, cities, caravans and fortresses as the player aid prints them."""
    return {
        h.province: ProvinceState(
            influence=civ.name,
            cities=h.cities,
            caravans=h.caravans,
            fortresses={civ.name: h.fortresses} if h.fortresses else {},
        )
        for h in civ.start
    }


def _neutral_holdings(
    board: Board, civ: Civilization, provinces: Mapping[ProvinceId, ProvinceState]
) -> dict[ProvinceId, ProvinceState]:
    """R2.3: influence and a legion in the capital and in every province next to it by land
    (-pl, -hu, -fr), a fortress in the capital; a province someone already holds keeps that."""
    return {
        pid: ProvinceState(
            influence=civ.name,
            legions={civ.name: 1},
            fortresses={civ.name: 1} if pid == civ.capital else {},
        )
        for pid in (civ.capital, *board.provinces[civ.capital].land)
        if provinces[pid].influence is None
    }


def setup_area(board: Board, civ: Civ) -> frozenset[ProvinceId]:
    """R2.4: the capital and the provinces next to it (Greece: also the four the -hu FAQ names)."""
    capital = board.civilizations[civ].capital
    extra = (ProvinceId(p) for p in SETUP_EXTRA_AREA.get(civ, ()) if p in board.provinces)
    return frozenset({capital, *board.provinces[capital].land, *extra})


def printed_orders(board: Board, civ: Civ) -> list[Order]:
    """D21: a player who sends no setup orders gets his printed start (R2.1) instead."""
    orders: list[Order] = []
    for h in board.civilizations[civ].start:
        orders.append(Build(Piece.INFLUENCE, h.province))
        orders += [Build(Piece.CITY, h.province, site=site) for site in h.cities]
        orders += [Build(Piece.CARAVAN, h.province, commodity=icon) for icon in h.caravans]
        orders += [Build(Piece.FORTRESS, h.province)] * h.fortresses
    return orders


def apply_advanced_setup(w: Working, board: Board, orders: Mapping[Civ, Sequence[Order]], events: list[Event]) -> None:
    """Every player, in table order, spends up to 36 points in his area, line by line."""
    for civ in table_order_from(None, w.playing):
        given = list(orders.get(civ, ())) or printed_orders(board, civ)
        if not orders.get(civ):
            events.append(event("setup_defaulted", player=civ, rule="D21"))
        area = setup_area(board, civ)
        points = SETUP_POINTS
        turn = BuildTurn(civ, set())
        for purchase in expand(given):
            what = purchase.describe(board)
            cost = cost_of(w, civ, purchase, hammurabi_free=False)
            problem = _setup_problem(w, board, turn, purchase, area)
            if problem is None and cost > points:
                problem = t(
                    "R2.4: it costs %(cost)s and %(points)s of your 36 points are left", cost=cost, points=points
                )
            if problem:
                events.append(event("purchase_skipped", player=civ, line=purchase.line, item=what, reason=problem))
                continue
            points -= cost
            details = apply_purchase(w, board, turn, purchase)
            events.append(
                event(
                    "setup_purchase",
                    player=civ,
                    line=purchase.line,
                    item=what,
                    cost=cost,
                    points_left=points,
                    **details,
                )
            )
        events.append(event("setup_done", player=civ, points_unspent=points, rule="R2.4"))


def _setup_problem(
    w: Working, board: Board, turn: BuildTurn, purchase: Purchase, area: frozenset[ProvinceId]
) -> str | None:
    if isinstance(purchase.order, Buy):
        if purchase.card != board.civilizations[turn.civ].hero:
            return t("R2.4: only your civilization hero may be bought in the setup")
        return placement_problem(w, board, turn, purchase)
    province = ProvinceId(purchase.order.province or "")
    if province not in area:
        return t(
            "R2.4: %(province)s is outside your capital and its neighbours", province=board.provinces[province].name
        )
    capital = board.civilizations[turn.civ].capital
    if purchase.order.piece in (Piece.LEGION, Piece.TRIREME) and province != capital:
        return t(
            "R2.4: legions and triremes bought in the setup start in your capital, %(capital)s",
            capital=board.provinces[capital].name,
        )
    if purchase.order.piece is Piece.INFLUENCE:
        if w.provinces[province].influence is not None:
            return t(
                "R6.4: %(province)s already holds %(civ)s's influence",
                province=board.provinces[province].name,
                civ=w.provinces[province].influence,
            )
        if w.units_on_board(turn.civ, "influence") >= UNIT_STOCK["influence"]:
            return t("R1: no influence marker left in your stock")
        return None
    turn.influence_placed.clear()  # R6.4's same-turn rule does not bind the setup
    return placement_problem(w, board, turn, purchase)


def finish_advanced_setup(w: Working, board: Board, dice: Dice, events: list[Event]) -> Position:
    """After the setup orders: roles as R2.3, the first income (R4), and the trade phase."""
    position = w.freeze()
    printed = {c.role: c.name for c in board.civilizations.values() if c.role is not None}
    roles, role_events = assign_start_roles(position, printed, dice)
    position, income_events = resolve_income(replace(position, roles=roles, phase=Phase.TRADE), artemis={})
    events += role_events + income_events
    held = {civ: tuple(pid for pid, p in position.provinces.items() if p.influence == civ) for civ in position.players}
    return replace(position, held=held)
