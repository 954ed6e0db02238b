"""Purchase and placement (E6): each player's turn in the Political Leader's order, every item
checked where it goes (E6.4-E6.7) and paid with one set (E6.3), a win checked after every
purchase (E6.8, E10.2, ED17), goods given back at the end of the turn (E6.9), and the track refilled.

A line that cannot be carried out when its turn comes is skipped at no cost, with the reason
and the rule, for the player's report (E6.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from adjudicator.core.dice import Dice, choose_index
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t, term, tn
from adjudicator.rulesets.empires.board import Board, CityKind, TileKind, Title
from adjudicator.rulesets.empires.claims import capital_victory
from adjudicator.rulesets.empires.geography import borders_empire, covered, provinces_of
from adjudicator.rulesets.empires.model import COPY_CHOICE, PlayerState, Position, ProvinceState, frozen_counts
from adjudicator.rulesets.empires.orders import Build, Buy, Copy, Order, TurnOrder
from adjudicator.rulesets.empires.presentation import listed
from adjudicator.rulesets.empires.trade import table_order_from
from adjudicator.rulesets.kit.payment import TAX, TOKEN_SETS, plan_payment, set_problem

TRACK_SPACES = 5  # E2.4, E6.7
TILES_TO_WIN = 5  # E10.1: the fifth hero or wonder, the starting hero included
TAX_KEPT = 2  # E6.9
BUILDINGS = ("caravan", "market", "city", "capital", "legendary", "temple")
UNITS = ("legion", "trireme", "fortress")
PIECE_WORDS = {  # the pieces an empire buys (E6), as a purchase and its refusals name them
    # NOTE: a piece an empire buys (E6): "legion in Latium", "no legion left in your stock".
    "legion": t("legion"),
    "trireme": t("trireme"),
    "fortress": t("fortress"),
    "influence": t("influence"),
    "caravan": t("caravan"),
    "market": t("market"),
    "temple": t("temple"),
    "city": t("city"),
    "capital": t("capital"),
    "legendary": t("legendary city"),
}


@dataclass(frozen=True, slots=True)
class _Item:
    """One thing to buy: a piece somewhere, or a tile."""

    order: Build | Buy
    piece: str  # a piece, or "tile"

    @property
    def line(self) -> int:
        return self.order.line


def purchase_order(position: Position, orders: Mapping[str, Sequence[Order]], board: Board) -> list[str]:
    """E3.3, ED16: the Political Leader's sequence, the rest after him in table order; a
    player owning `first when winning` whose holding could pay for a win goes first (E11.1)."""
    leader = position.titles.get(Title.POLITICAL)
    named = [o for o in orders.get(leader or "", ()) if isinstance(o, TurnOrder)]
    wanted = [e for e in (named[-1].empires if named else ()) if e in position.playing]
    order = list(dict.fromkeys([*wanted, *table_order_from(leader, position.playing)]))
    for empire in list(order):
        if position.effects(board, empire, "first_when_winning") and _could_win(board, position, empire):
            order.remove(empire)
            order.insert(0, empire)
    return order


def resolve_purchase(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice
) -> tuple[Position, list[Event]]:
    events: list[Event] = []
    order = purchase_order(position, orders, board)
    events.append(event("purchase_order", order=order, rule="E6.1"))
    position = replace(position, sequence=tuple(order))
    for empire in order:
        position = purchase_turn(board, position, empire, orders.get(empire, ()), events)
        if position.winner:
            return position, events
    return refill_track(position, dice, events), events


def purchase_turn(
    board: Board, position: Position, empire: str, orders: Sequence[Order], events: list[Event]
) -> Position:
    """One player's purchase turn (E6.1-E6.9)."""
    events.append(event("turn_of", player=empire, phase="purchase"))
    position = _copy(board, position, empire, orders, events)
    items = [item for order in orders if isinstance(order, Build | Buy) for item in _items(order)]
    for index, item in enumerate(items):
        problem = _placement_problem(board, position, empire, item)
        if problem:
            events.append(event("purchase_skipped", player=empire, line=item.line, reason=problem))
            continue
        free = _free_placement(board, position, empire, item)
        if free:
            paid: Counter[str] | None = Counter()
        else:
            paid, problem = _payment(board, position, empire, item, items[index:])
        if paid is None:
            events.append(event("purchase_skipped", player=empire, line=item.line, reason=problem))
            continue
        position = _pay(position, empire, paid)
        position = _place(board, position, empire, item)
        if free:
            position = replace(position, used=(*position.used, free))
        events.append(
            event(
                "purchase",
                player=empire,
                item=_describe(board, item),
                paid=dict(sorted(paid.items())),
                free=free or None,
                line=item.line,
            )
        )
        winner, why = _purchase_win(board, position, empire)
        if winner:
            events.append(event("victory", player=empire, rule="E10.1", why=why))
            return replace(position, winner=empire)
        position = capital_victory(board, position, events)  # a city built may be the fourth (ED17)
        if position.winner:
            return position
    return _end_of_turn(board, position, empire, events)


def _copy(board: Board, position: Position, empire: str, orders: Sequence[Order], events: list[Event]) -> Position:
    """E11.1 copy ability: the tile he names this purchase turn lends him its effects until his
    next one; naming none ends the copy."""
    if not any(e.kind == "copy_ability" for t in position.players[empire].tiles for e in board.tiles[t].effects):
        return position
    named = [o.tile for o in orders if isinstance(o, Copy) and position.owner_of(o.tile) not in (None, empire)]
    choices = dict(position.standing.get(empire, {}))
    choices.pop(COPY_CHOICE, None)
    if named:
        choices[COPY_CHOICE] = named[-1]
        events.append(event("copy", player=empire, tile=named[-1], owner=position.owner_of(named[-1]), rule="E11.1"))
    standing = {e: c for e, c in position.standing.items() if e != empire}
    return replace(position, standing={**standing, **({empire: choices} if choices else {})})


def _items(order: Build | Buy) -> list[_Item]:
    """One item per piece; ED19: a set named on a counted line is dealt out among its pieces
    (`build 2 legions with 6 tax` pays 3 tax for each), different goods apart."""
    if isinstance(order, Buy):
        return [_Item(order, "tile")]
    tokens = sorted(order.pay)
    return [
        _Item(replace(order, count=1, pay=tuple(tokens[index :: order.count])), order.piece)
        for index in range(order.count)
    ]


# ---- where a piece may go (E6.4-E6.7) --------------------------------------------------------


def _placement_problem(board: Board, position: Position, empire: str, item: _Item) -> str:
    order = item.order
    if isinstance(order, Buy):
        return tile_problem(board, position, order.tile)
    piece, place = item.piece, order.place
    if piece == "trireme":
        if place not in board.seas:
            return t("E6.5: %(place)s is not a sea; a trireme goes straight into a sea", place=place)
        if not any(p in provinces_of(position, empire) for p in board.coasts(place)):
            return t("E6.5: %(sea)s touches none of your provinces", sea=board.seas[place].name)
        return _stock_problem(position, empire, piece)
    if place not in board.provinces:
        return t("E6.4: %(place)s is not a province", place=place)
    name, province = board.provinces[place].name, position.provinces[place]
    if place in covered(board, position):
        return t("E2.1: %(province)s is covered with this many players and out of play (ED20)", province=name)
    if piece == "influence":
        if province.influence is not None:
            return t("E6.4: %(province)s already has an influence marker", province=name)
        if province.units() - {empire}:
            return t("E6.4: other players' units stand in %(province)s", province=name)
        if not borders_empire(board, position, empire, place):
            return t(
                "E6.4: %(province)s does not border your provinces, by land or along your triremes (ED11)",
                province=name,
            )
        return _stock_problem(position, empire, piece)
    if province.influence != empire:
        return t("E6.4: %(province)s is not under your influence", province=name)
    capital = board.empires[empire].capital == place
    if province.at_war and not capital:
        return t("E8.4: %(province)s is at war: nobody builds or places units there but in his capital", province=name)
    if province.conqueror not in (None, empire) and not capital:
        return t("ED11: %(empire)s holds %(province)s as conqueror", empire=province.conqueror, province=name)
    if piece in UNITS:
        if piece == "fortress" and province.fortress:
            return t("E6.5: %(province)s already has a fortress", province=name)
        return _stock_problem(position, empire, piece)
    good = item.order.good if isinstance(item.order, Build) else None
    return site_problem(board, position, place, piece, good)


def _stock_problem(position: Position, empire: str, piece: str) -> str:
    if position.stock(empire)[piece] <= 0:
        return t("E1.2: no %(piece)s left in your stock", piece=PIECE_WORDS.get(piece, piece))
    return ""


def site_problem(board: Board, position: Position, place: str, piece: str, good: str | None) -> str:
    """E6.6: one building per icon the board prints; E1.4: while tokens last. Nothing in a
    purchase phase frees a site or a token, so what this refuses at submission stays refused."""
    site, built, name = board.provinces[place], position.provinces[place], board.provinces[place].name
    if piece == "caravan":
        free = list(site.caravans)
        for taken in built.caravans:
            free.remove(taken)
        if good is None:
            return t(
                "E6.6: say which good the caravan stands on (%(free)s)",
                free=listed([term("card", g) for g in free]) or t("none free"),
            )
        if good not in free:
            return t(
                "E6.6: %(province)s has no free %(good)s caravan site (%(free)s)",
                province=name,
                good=term("card", good),
                free=listed([term("card", g) for g in free]) or t("none free"),
            )
    elif piece in ("market", "temple"):
        if not getattr(site, piece):
            return t("E6.6: %(province)s prints no %(piece)s", province=name, piece=PIECE_WORDS[piece])
        if getattr(built, piece):
            return t("E6.6: %(province)s already has its %(piece)s", province=name, piece=PIECE_WORDS[piece])
    else:  # a city, capital or legendary city on its own kind of site
        kind = {"city": CityKind.CITY, "capital": CityKind.CAPITAL, "legendary": CityKind.LEGENDARY}[piece]
        if site.city is None:
            return t("E6.6: %(province)s prints no city site", province=name)
        if site.city is not kind:
            return t(
                "E6.6: %(province)s's site is for a %(printed)s, not a %(kind)s",
                province=name,
                printed=PIECE_WORDS[site.city.value],
                kind=PIECE_WORDS[piece],
            )
        if built.city:
            return t("E6.6: %(province)s already has its city", province=name)
    supply = "city" if piece in ("capital", "legendary") else piece
    if position.supply()[supply] <= 0:
        return t("E1.4: no %(piece)s token left", piece=PIECE_WORDS.get(supply, supply))
    return ""


def tile_problem(board: Board, position: Position, name: str) -> str:
    """E6.7: why a tile cannot be bought now ("" when it can); in a purchase phase a tile only
    ever leaves the track, so what this refuses at submission stays refused."""
    if name not in board.tiles:
        return t("E6.7: there is no tile called %(tile)s", tile=name)
    tile = board.tiles[name]
    owner = position.owner_of(name)
    if owner:
        return t("E6.7: %(empire)s owns %(tile)s", empire=owner, tile=name)
    if tile.kind is not TileKind.PYRAMIDS and name not in position.track:
        return t("E6.7: %(tile)s is not face up on the track (%(track)s)", tile=name, track=", ".join(position.track))
    return ""


# ---- paying (E6.2, E6.3, E11.1) -------------------------------------------------------------


def _cost(board: Board, position: Position, empire: str, item: _Item) -> tuple[int, frozenset[str] | None]:
    """What the item costs, and the kinds each token must be when a tile changes it (else None)."""
    if isinstance(item.order, Buy):
        return board.tiles[item.order.tile].price(position.round), None
    return piece_cost(board, position, empire, item.piece)


def piece_cost(board: Board, position: Position, empire: str, piece: str) -> tuple[int, frozenset[str] | None]:
    """E6.2, E11.1 cost change: what a piece costs him, and the kinds each token must be when
    a tile he owns (or copies) changes it (else None). The form quotes it, the engine charges it."""
    for effect in position.effects(board, empire, "cost_change"):
        if effect.parameters.get("piece") == piece:
            return int(effect.parameters.get("cost", 1)), frozenset(effect.parameters.get("pay", ()))
    return board.costs[piece], None


def _payment(
    board: Board, position: Position, empire: str, item: _Item, rest: Sequence[_Item]
) -> tuple[Counter[str] | None, str]:
    holding = _holding(position.players[empire])
    cost, kinds = _cost(board, position, empire, item)
    named = Counter(item.order.pay)
    if kinds is not None:
        return _restricted(holding, cost, kinds, named)
    if named:
        problem = _named_problem(board, position, empire, holding, named, cost)
        return (None, problem) if problem else (named, "")
    # the sets later lines name are kept for them; the planner pays the rest (E6.3)
    reserved = sum((Counter(other.order.pay) for other in rest[1:]), Counter())
    later = [_cost(board, position, empire, other) for other in rest[1:] if not other.order.pay]
    plan = plan_payment(holding - reserved, [cost, *(c for c, restricted in later if restricted is None)])
    if plan:
        return plan[0], ""
    exception = _exception_set(board, position, empire, holding, cost)
    if exception is not None:
        return exception, ""
    return None, t("E6.3: your tokens make no set worth %(cost)s (%(item)s)", cost=cost, item=_describe(board, item))


def _restricted(
    holding: Counter[str], cost: int, kinds: frozenset[str], named: Counter[str]
) -> tuple[Counter[str] | None, str]:
    """E11.1 cost change: `cost` tokens, each one of the kinds the tile names (a good first)."""
    if named:
        if sum(named.values()) < cost or set(named) - kinds or named - holding:
            return None, t("E11.1: pay %(cost)s of %(kinds)s that you hold", cost=cost, kinds=", ".join(sorted(kinds)))
        return named, ""
    paid: Counter[str] = Counter()
    for kind in sorted(kinds, key=lambda k: (k == TAX, k)):
        while sum(paid.values()) < cost and holding[kind] > paid[kind]:
            paid[kind] += 1
    if sum(paid.values()) < cost:
        return None, t(
            "E11.1: it costs %(cost)s of %(kinds)s, and you hold too few", cost=cost, kinds=", ".join(sorted(kinds))
        )
    return paid, ""


def _named_problem(
    board: Board, position: Position, empire: str, holding: Counter[str], named: Counter[str], cost: int
) -> str:
    missing = named - holding
    if missing:
        short = [
            t("%(held)s %(kind)s, not %(named)s", held=holding[kind], kind=term("card", kind), named=named[kind])
            for kind in sorted(missing)
        ]
        return t("E6.3: you hold %(tokens)s", tokens=listed(short))
    problem = set_problem(named, cost, TOKEN_SETS)
    if problem and _exception_allows(board, position, empire, named, cost):
        return ""
    return t("E6.3: %(problem)s", problem=problem) if problem else ""


def _exception_allows(board: Board, position: Position, empire: str, paid: Counter[str], cost: int) -> bool:
    """E11.1 set exception: one tax token among goods or one good among tax (mix), or one pair
    of identical goods (identical)."""
    if sum(paid.values()) < cost:
        return False
    for effect in position.effects(board, empire, "set_exception"):
        allow = effect.parameters.get("allow")
        goods = Counter({k: n for k, n in paid.items() if k != TAX})
        one_tax_among_goods = paid[TAX] == 1 and all(n == 1 for n in goods.values())
        one_good_among_tax = sum(goods.values()) == 1
        if allow == "mix_tax_and_goods" and paid[TAX] and goods and (one_tax_among_goods or one_good_among_tax):
            return True
        if allow == "identical_goods" and not paid[TAX] and sum(n - 1 for n in goods.values()) == 1:
            return True
    return False


def _exception_set(
    board: Board, position: Position, empire: str, holding: Counter[str], cost: int
) -> Counter[str] | None:
    """The adjudicator's own set under a set exception, when no plain set pays."""
    goods = sorted((k for k in holding if k != TAX and holding[k] > 0), key=lambda k: (-holding[k], k))
    tries: list[Counter[str]] = []
    if len(goods) >= cost - 1 and holding[TAX] >= 1:
        tries.append(Counter(goods[: cost - 1]) + Counter({TAX: 1}))
    if holding[TAX] >= cost - 1 and goods:
        tries.append(Counter({TAX: cost - 1}) + Counter(goods[:1]))
    pair = [k for k in goods if holding[k] >= 2]
    if pair and len(goods) >= cost - 1:
        others = [k for k in goods if k != pair[0]][: cost - 2]
        tries.append(Counter({pair[0]: 2}) + Counter(others))
    for paid in tries:
        if sum(paid.values()) >= cost and _exception_allows(board, position, empire, paid, cost):
            return paid
    return None


def _holding(player: PlayerState) -> Counter[str]:
    """What he can pay with: tax, and each good with its legendary tokens (ED8)."""
    return Counter(player.resources) + Counter(player.legendary)


def _pay(position: Position, empire: str, paid: Counter[str]) -> Position:
    """Spent tokens go back (E6.3): ordinary ones first, legendary ones to their pile (ED8)."""
    player = position.players[empire]
    resources, legendary = Counter(player.resources), Counter(player.legendary)
    pile = Counter(position.legendary_pile)
    for kind, n in paid.items():
        plain = min(n, resources[kind])
        resources[kind] -= plain
        legendary[kind] -= n - plain
        pile[kind] += n - plain
    player = replace(player, resources=frozen_counts(resources), legendary=frozen_counts(legendary))
    return replace(position, players={**position.players, empire: player}, legendary_pile=frozen_counts(pile))


def _free_placement(board: Board, position: Position, empire: str, item: _Item) -> str:
    """E11.1 free placement: the tile's one free piece this round, if unused and it fits."""
    for tile in position.players[empire].tiles:
        for effect in board.tiles[tile].effects:
            if effect.kind != "free_placement" or effect.parameters.get("piece") != item.piece:
                continue
            key = f"{tile}:free"
            if key in position.used:
                continue
            if effect.parameters.get("where") == "occupied":
                place = item.order.place if isinstance(item.order, Build) else ""
                if position.provinces.get(place, ProvinceState()).conqueror != empire:
                    continue
            return key
    return ""


# ---- carrying it out -------------------------------------------------------------------------


def _place(board: Board, position: Position, empire: str, item: _Item) -> Position:
    order = item.order
    if isinstance(order, Buy):
        player = position.players[empire]
        track = tuple(t for t in position.track if t != order.tile)
        player = replace(player, tiles=(*player.tiles, order.tile))
        return replace(position, players={**position.players, empire: player}, track=track)
    if item.piece == "trireme":
        return replace(position, seas={**position.seas, order.place: position.seas[order.place].with_ships(empire, 1)})
    province = position.provinces[order.place]
    changes: dict[str, object] = {}
    if item.piece == "influence":
        changes["influence"] = empire
    elif item.piece == "legion":
        changes["legions"] = MappingProxyType({**province.legions, empire: province.legions.get(empire, 0) + 1})
    elif item.piece == "fortress":
        changes["fortress"] = empire
    elif item.piece == "caravan":
        changes["caravans"] = (*province.caravans, order.good or "")
    elif item.piece in ("market", "temple"):
        changes[item.piece] = True
    else:
        changes["city"] = True
    provinces = {**position.provinces, order.place: replace(province, **changes)}  # type: ignore[arg-type]
    return replace(position, provinces=provinces)


def _describe(board: Board, item: _Item) -> str:
    order = item.order
    if isinstance(order, Buy):
        return order.tile
    place = board.seas[order.place].name if order.place in board.seas else board.provinces[order.place].name
    what = PIECE_WORDS.get(item.piece, item.piece)
    if order.good:
        return t("%(piece)s on %(good)s in %(place)s", piece=what, good=term("card", order.good), place=place)
    return t("%(piece)s in %(place)s", piece=what, place=place)


def _purchase_win(board: Board, position: Position, empire: str) -> tuple[bool, str]:
    """E10.1: the Pyramids, or a fifth hero or wonder."""
    tiles = [board.tiles[t] for t in position.players[empire].tiles]
    if any(any(e.kind == "win" for e in t.effects) for t in tiles):
        return True, t("the Pyramids")
    heroes = sum(1 for t in tiles if t.kind is not TileKind.PYRAMIDS)
    if heroes >= TILES_TO_WIN:
        return True, tn("%(count)s hero and wonder", "%(count)s heroes and wonders", heroes)
    return False, ""


def _could_win(board: Board, position: Position, empire: str) -> bool:
    """Whether his holding could pay for a win now (E11.1 first when winning)."""
    holding = _holding(position.players[empire])
    heroes = sum(1 for t in position.players[empire].tiles if board.tiles[t].kind is not TileKind.PYRAMIDS)
    pyramids = [t for t in board.tiles.values() if t.kind is TileKind.PYRAMIDS and not position.owner_of(t.name)]
    if pyramids and plan_payment(holding, [pyramids[0].price(position.round)]):
        return True
    cheapest = min((board.tiles[t].price(position.round) for t in position.track), default=None)
    return heroes == TILES_TO_WIN - 1 and cheapest is not None and bool(plan_payment(holding, [cheapest]))


def _end_of_turn(board: Board, position: Position, empire: str, events: list[Event]) -> Position:
    """E6.9: goods go back (a tile may keep some different ones, E11.1 keep goods), legendary
    ones to their pile (ED8); at most two tax tokens are kept."""
    player = position.players[empire]
    keep = max((int(e.parameters.get("count", 0)) for e in position.effects(board, empire, "keep_goods")), default=0)
    goods = _holding(player)
    del goods[TAX]
    kept_goods = sorted(goods, key=lambda k: (-goods[k], k))[:keep]
    resources = Counter({TAX: min(player.resources.get(TAX, 0), TAX_KEPT)})
    legendary: Counter[str] = Counter()
    for kind in kept_goods:
        (resources if player.resources.get(kind, 0) else legendary)[kind] += 1
    returned = _holding(player) - resources - legendary
    pile = Counter(position.legendary_pile) + (Counter(player.legendary) - legendary)
    events.append(
        event(
            "turn_end",
            player=empire,
            returned=dict(sorted(returned.items())),
            kept=dict(sorted((resources + legendary).items())),
            rule="E6.9",
        )
    )
    player = replace(player, resources=frozen_counts(resources), legendary=frozen_counts(legendary))
    return replace(position, players={**position.players, empire: player}, legendary_pile=frozen_counts(pile))


def refill_track(position: Position, dice: Dice, events: list[Event]) -> Position:
    """E6.7, ED7: after everyone's purchase each empty space gets a face-down tile, drawn by the dice."""
    track, hidden = list(position.track), sorted(position.hidden)
    drawn = []
    while len(track) < TRACK_SPACES and hidden:
        tile = hidden.pop(choose_index(dice, len(hidden), t("E6.7 hero track refill")))
        track.append(tile)
        drawn.append(tile)
    if drawn:
        events.append(event("track_refill", tiles=drawn, rule="E6.7"))
    return replace(position, track=tuple(track), hidden=tuple(hidden))
