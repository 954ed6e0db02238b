"""Validation of build-phase orders (R3.3, R6, R2.4 setup)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from adjudicator.core.i18n import t, term, tn
from adjudicator.core.names import NameIndex
from adjudicator.rulesets.kit.payment import can_pay, set_problem
from adjudicator.rulesets.mare_nostrum.build import card_cost, frees_influence, piece_cost, under_enemy_units
from adjudicator.rulesets.mare_nostrum.checks import Context
from adjudicator.rulesets.mare_nostrum.components import (
    BUILDING_SUPPLY,
    TAX,
    UNIT_STOCK,
    Building,
    Civ,
    Phase,
    Piece,
    ProvinceId,
    Role,
    listed,
)
from adjudicator.rulesets.mare_nostrum.geography import borders_held, seas_with_triremes
from adjudicator.rulesets.mare_nostrum.orders import Build as BuildOrder
from adjudicator.rulesets.mare_nostrum.orders import (
    Buy,
    CardCount,
    Exchange,
    Keep,
    TurnSequence,
)
from adjudicator.rulesets.mare_nostrum.setup import setup_area

# ---- Build (R6) ----------------------------------------------------------------------


def check_sequence(c: Context, order: TurnSequence) -> TurnSequence:
    role = Role.POLITICAL if c.position.phase is Phase.BUILD else Role.MILITARY
    c.holds_role(role, "R3.3")
    seen: list[Civ] = []
    for text in order.civs:
        civ = c.find(c.board.civ_names, text, t("civilization"))
        if c.position.players[civ].neutral:
            raise c.refuse("R3.3", t("%(civ)s is neutral and takes no turn", civ=civ))
        if civ in seen:
            raise c.refuse("R3.3", t("%(civ)s is named twice", civ=civ))
        seen.append(civ)
    return replace(order, civs=tuple(seen))


def check_build(c: Context, order: BuildOrder) -> BuildOrder:
    province, site = check_build_place(c, order)
    resolved = replace(order, province=province, site=site)
    if order.count > 1 and order.payment:
        raise c.refuse("R6.1", t("one set pays for one item; give each purchase its own line to name its payment"))
    if order.payment:
        resolved = replace(resolved, payment=c.card_list(order.payment, "R6.1"))
    spots: list[str] = []
    if c.position.phase is Phase.SETUP:
        check_setup_place(c, resolved, province)
    elif order.piece is Piece.INFLUENCE:
        if order.count > 1:
            raise c.refuse(
                "R6.4",
                t("one influence marker per province: build 1 influence in %(province)s", province=_name(c, province)),
            )
        check_influence(c, province)
    else:
        resolved, spots = check_building(c, resolved, province)
    check_stock(c, order.piece, order.count)
    check_price(c, [_piece_price(c, order.piece, n) for n in range(order.count)], resolved.payment)
    c.built[order.piece] += order.count
    for spot in spots:
        c.planned[(province, spot)] = c.line
    if order.piece is Piece.FORTRESS:
        c.planned_fortresses[province] += order.count
    if order.piece is Piece.INFLUENCE and c.position.phase is not Phase.SETUP:
        c.influence_placed.append(province)
    return resolved


def _name(c: Context, province: ProvinceId) -> str:
    return c.board.provinces[province].name


def check_setup_place(c: Context, order: BuildOrder, province: ProvinceId) -> None:
    """R2.4: the setup builds only in the capital's area, legions and triremes only in the
    capital itself, paid in points; R6.5 for triremes."""
    if province not in setup_area(c.board, c.civ):
        raise c.refuse(
            "R2.4", t("%(province)s is outside your capital and its neighbours", province=_name(c, province))
        )
    capital = c.board.civilizations[c.civ].capital
    if order.piece in (Piece.LEGION, Piece.TRIREME) and province != capital:
        raise c.refuse(
            "R2.4",
            t("legions and triremes bought in the setup start in your capital, %(capital)s", capital=_name(c, capital)),
        )
    if order.piece is Piece.TRIREME and not c.board.provinces[province].coastal:
        raise c.refuse("R6.5", _no_coast(_name(c, province)))


def check_building(c: Context, order: BuildOrder, province: ProvinceId) -> tuple[BuildOrder, list[str]]:
    """R6.3-R6.5 for everything but influence; also the spots (city sites, icons, temple,
    market) the order takes, so that the player's later lines do not count on them."""
    state = c.position.provinces[province]
    name = _name(c, province)
    capital = c.board.civilizations[c.civ].capital == province
    if province in c.influence_placed:
        raise c.refuse(
            "R6.4", t("nothing else may be built in %(province)s the turn influence is placed there", province=name)
        )
    if state.influence != c.civ:
        raise c.refuse("R6.3", t("you have no influence in %(province)s; build influence there first", province=name))
    if not capital and (problem := under_enemy_units(state.military(), c.civ, name)):
        raise c.refuse("R6.3", t("%(problem)s (except in his own capital)", problem=problem))
    if not capital and any(occupier != c.civ for occupier in state.occupied.values()):
        raise c.refuse("R6.3", t("%(province)s is occupied by an enemy (R8.6)", province=name))
    match order.piece:
        case Piece.CITY:
            return order, check_city_sites(c, order, province)
        case Piece.CARAVAN:
            commodity = check_caravan(c, order, province)
            return replace(order, commodity=commodity), [f"caravan:{commodity}"]
        case Piece.TRIREME if not c.board.provinces[province].coastal:
            raise c.refuse("R6.5", _no_coast(name))
        case Piece.TEMPLE | Piece.MARKET:
            temple = order.piece is Piece.TEMPLE
            if getattr(state, order.piece):
                raise c.refuse(
                    "R6.5",
                    t("%(province)s already has a temple", province=name)
                    if temple
                    else t("%(province)s already has a market", province=name),
                )
            if (province, order.piece) in c.planned:
                line = c.planned[(province, order.piece)]
                raise c.refuse(
                    "R6.5",
                    t("your line %(line)s already builds a temple in %(province)s", line=line, province=name)
                    if temple
                    else t("your line %(line)s already builds a market in %(province)s", line=line, province=name),
                )
            if order.count > 1:
                raise c.refuse(
                    "R6.5",
                    t("one temple stands in a province: build 1 temple in %(province)s", province=name)
                    if temple
                    else t("one market stands in a province: build 1 market in %(province)s", province=name),
                )
            return order, [str(order.piece)]
        case Piece.FORTRESS:
            check_fortress_room(c, order, province)
    return order, []


def check_city_sites(c: Context, order: BuildOrder, province: ProvinceId) -> list[str]:
    """R6.5: one city per printed site, counting the sites the player's earlier lines take
    (a city without a site takes the first free one, as at resolution)."""
    state, name = c.position.provinces[province], _name(c, province)
    site = order.site
    if site is not None:
        if site in state.cities:
            raise c.refuse("R6.5", t("the city site %(site)s already has a city", site=site))
        if (province, f"city:{site}") in c.planned:
            line = c.planned[(province, f"city:{site}")]
            raise c.refuse(
                "R6.5", t("your line %(line)s already builds the city on the site %(site)s", line=line, site=site)
            )
        if order.count > 1:
            raise c.refuse("R6.5", t("one city stands on a site: build 1 city at %(site)s", site=site))
        return [f"city:{site}"]
    free = [s for s in c.board.provinces[province].cities if s not in state.cities]
    left = [s for s in free if (province, f"city:{s}") not in c.planned]
    if len(left) < order.count:
        # NOTE: English writes "site(s)" for every count; the language's plural forms may say it better.
        if len(left) < len(free):
            why = tn(
                "%(province)s has %(count)s free city site(s) after your earlier lines; "
                "one city stands on each printed site",
                "%(province)s has %(count)s free city site(s) after your earlier lines; "
                "one city stands on each printed site",
                len(left),
                province=name,
            )
        else:
            why = tn(
                "%(province)s has %(count)s free city site(s); one city stands on each printed site",
                "%(province)s has %(count)s free city site(s); one city stands on each printed site",
                len(left),
                province=name,
            )
        raise c.refuse("R6.5", why)
    return [f"city:{s}" for s in left[: order.count]]


def check_fortress_room(c: Context, order: BuildOrder, province: ProvinceId) -> None:
    """R6.5: one fortress per province, two with the Statue of Zeus (R9)."""
    standing = sum(c.position.provinces[province].fortresses.values())
    wanted = standing + c.planned_fortresses[province] + order.count
    owned = "Statue of Zeus" in c.position.players[c.civ].cards
    if wanted <= 1 or (wanted <= 2 and owned):
        return
    if wanted <= 2 and "Statue of Zeus" in c.bought:
        c.depends(t("depends on your buying the Statue of Zeus first"))
        return
    has = t("two fortresses") if standing >= 2 else t("a fortress") if standing else t("no fortress")
    planned = c.planned_fortresses[province]
    name = _name(c, province)
    if planned:
        why = t(
            "%(province)s already has %(has)s and your earlier lines build %(count)s; "
            "one fortress stands in a province (two with the Statue of Zeus)",
            province=name,
            has=has,
            count=planned,
        )
    else:
        why = t(
            "%(province)s already has %(has)s; one fortress stands in a province (two with the Statue of Zeus)",
            province=name,
            has=has,
        )
    raise c.refuse("R6.5", why)


def _no_coast(name: str) -> str:
    return t("%(province)s has no coast; triremes are built in coastal provinces", province=name)


def _count(n: int, kind: str) -> str:
    """`no legions`, `1 legion`, `3 legions`: how many pieces of a kind a stock or supply holds."""
    match kind:
        case "influence":
            return (
                tn("%(count)s influence marker", "%(count)s influence markers", n) if n else t("no influence markers")
            )
        case "city":
            return tn("%(count)s city", "%(count)s cities", n) if n else t("no cities")
        case "fortress":
            return tn("%(count)s fortress", "%(count)s fortresses", n) if n else t("no fortresses")
        case "legion":
            return tn("%(count)s legion", "%(count)s legions", n) if n else t("no legions")
        case "trireme":
            return tn("%(count)s trireme", "%(count)s triremes", n) if n else t("no triremes")
        case "caravan":
            return tn("%(count)s caravan", "%(count)s caravans", n) if n else t("no caravans")
        case "temple":
            return tn("%(count)s temple", "%(count)s temples", n) if n else t("no temples")
        case _:
            return tn("%(count)s market", "%(count)s markets", n) if n else t("no markets")


def check_stock(c: Context, piece: Piece, count: int) -> None:
    """R1: a player's own pieces are limited by his stock; R1.3: the buildings by the shared
    supply. Earlier lines of his take their share first; other players only ever use the
    supply up, and give back nothing during the phase, except influence markers, which
    come back to their owner when another player converts (R8.7)."""
    kind = str(piece)
    returnable = 0
    if kind in UNIT_STOCK:
        held, rule = c.stock[kind], "R1"
        where, total = t("your stock"), t("%(count)s per player", count=UNIT_STOCK[kind])
        if piece is Piece.INFLUENCE and c.position.phase is Phase.BUILD:
            returnable = sum(
                1 for p in c.position.provinces.values() if p.influence == c.civ and p.converting not in (None, c.civ)
            )
    else:
        players = len(c.position.playing)
        held, rule = c.supply[kind], "R1.3"
        where = t("the building supply")
        total = t("%(count)s with %(players)s players", count=BUILDING_SUPPLY[players][Building(kind)], players=players)
    used = c.built[kind]
    if used + count <= held:
        return
    if used + count <= held + returnable:
        c.depends(
            t(
                "depends on another player converting one of your provinces first, "
                "which returns its marker to your stock (R8.7)"
            )
        )
        return
    left = held - used
    holds = {"where": where, "held": _count(held, kind), "total": total}
    if not used:
        why = t("%(where)s holds %(held)s (%(total)s); you cannot build %(wanted)s", wanted=count, **holds)
    elif left <= 0:
        why = t(
            "%(where)s holds %(held)s (%(total)s) and your earlier lines build %(used)s; none is left for this line",
            used=used,
            **holds,
        )
    else:
        why = tn(
            "%(where)s holds %(held)s (%(total)s) and your earlier lines build %(used)s; "
            "only %(count)s is left for this line, not %(wanted)s",
            "%(where)s holds %(held)s (%(total)s) and your earlier lines build %(used)s; "
            "only %(count)s are left for this line, not %(wanted)s",
            left,
            used=used,
            wanted=count,
            **holds,
        )
    raise c.refuse(rule, why)


def check_build_place(c: Context, order: BuildOrder) -> tuple[ProvinceId, str | None]:
    if order.province is None:
        sites: NameIndex[ProvinceId] = NameIndex("city site")
        for province in c.board.provinces.values():
            for site in province.cities:
                sites.add(province.id, site)
        assert order.site is not None
        province_id = c.find(sites, order.site, t("city site"))
    else:
        province_id = c.province(order.province)
    if order.site is None:
        return province_id, None
    if order.piece is not Piece.CITY:
        raise c.refuse("R6.5", t("'at %(site)s' names a city site; only cities are built at a site", site=order.site))
    return province_id, c.site(province_id, order.site)


def check_influence(c: Context, province: ProvinceId) -> None:
    state = c.position.provinces[province]
    name = c.board.provinces[province].name
    if state.influence == c.civ:
        raise c.refuse("R6.4", t("you already have influence in %(province)s", province=name))
    if state.influence is not None:
        if state.converting != c.civ:
            raise c.refuse(
                "R6.4",
                t(
                    "%(province)s holds %(civ)s's influence; only a converting legion replaces it (R8.7)",
                    province=name,
                    civ=state.influence,
                ),
            )
        if c.board.civilizations[state.influence].capital == province:
            raise c.refuse(
                "R8.7",
                t("%(province)s is %(civ)s's capital and can never be converted", province=name, civ=state.influence),
            )
    if problem := under_enemy_units(state.military(), c.civ, name, influence=True):
        raise c.refuse("R6.3", problem)
    if "Lighthouse" in c.bought or "Lighthouse" in c.position.players[c.civ].cards:
        return
    held = c.position.held_at_turn_start(c.civ)
    if not borders_held(c.board, held, seas_with_triremes(c.position, c.civ), province):
        raise c.refuse(
            "R6.4",
            t(
                "influence in %(province)s must border (by land or along your triremes) "
                "a province you held at the start of the turn",
                province=name,
            ),
        )


def check_caravan(c: Context, order: BuildOrder, province: ProvinceId) -> str:
    """R6.5: one caravan per printed icon, counting the icons the player's earlier lines take."""
    icons = c.board.provinces[province].commodities
    name = c.board.provinces[province].name
    built = c.position.provinces[province].caravans
    if order.count > 1:
        raise c.refuse(
            "R6.5",
            t(
                "one caravan stands on an icon: give each caravan its own line, "
                "'build caravan on ICON in %(province)s'",
                province=name,
            ),
        )
    if order.commodity is None:
        free = [i for i in icons if i not in built and (province, f"caravan:{i}") not in c.planned]
        if len(free) > 1:
            raise c.refuse(
                "R6.5",
                t(
                    "name the icon: 'build caravan on %(icon)s in %(province)s' (free icons: %(icons)s)",
                    icon=term("card", free[0]),
                    province=name,
                    icons=listed([term("card", icon) for icon in free]),
                ),
            )
        if not free:
            if any(i not in built for i in icons):
                why = t(
                    "every icon in %(province)s already has a caravan or gets one on an earlier line of yours",
                    province=name,
                )
            else:
                why = t("every icon in %(province)s already has a caravan", province=name)
            raise c.refuse("R6.5", why)
        return free[0]
    commodity = c.commodity(order.commodity)
    if commodity not in icons:
        raise c.refuse(
            "R6.5",
            t(
                "%(province)s has no %(commodity)s icon (icons: %(icons)s)",
                province=name,
                commodity=term("card", commodity),
                icons=listed([term("card", icon) for icon in icons]) or t("none"),
            ),
        )
    if commodity in built:
        raise c.refuse(
            "R6.5",
            t(
                "the %(commodity)s icon in %(province)s already has a caravan",
                commodity=term("card", commodity),
                province=name,
            ),
        )
    if (province, f"caravan:{commodity}") in c.planned:
        line = c.planned[(province, f"caravan:{commodity}")]
        raise c.refuse(
            "R6.5",
            t(
                "your line %(line)s already builds the caravan on the %(commodity)s icon in %(province)s",
                line=line,
                commodity=term("card", commodity),
                province=name,
            ),
        )
    return commodity


def _piece_price(c: Context, piece: Piece, earlier: int) -> int:
    """The price of one piece after `earlier` of the same line, as the engine will ask it."""
    first = piece is Piece.INFLUENCE and not earlier and not c.influence_placed
    free = first and c.position.phase is Phase.BUILD and frees_influence(c.owned, c.position.used)
    return piece_cost(piece, c.owned, free)


def check_price(c: Context, prices: list[int], payment: tuple[CardCount, ...] | None) -> None:
    """R6.1, R2.4: the purchase can be paid after the player's earlier lines, as the engine will
    pay it: the setup from 36 points; a named set if it is one and is worth the price; otherwise
    with sets the engine chooses, which must pay this and every earlier such purchase at once."""
    if c.position.phase is Phase.SETUP:
        cost = sum(prices)
        if cost > c.points:
            raise c.refuse(
                "R2.4", t("it costs %(cost)s and %(points)s of your 36 points are left", cost=cost, points=c.points)
            )
        c.points -= cost
        return
    if payment:
        named = Counter({item.card: item.count for item in payment})
        if problem := set_problem(named, prices[0]):
            raise c.refuse("R6.1", problem)
        c.hand.subtract(named)
        if not can_pay(c.hand, c.costs):
            c.depends(t("these cards leave too few for your earlier purchases; the one that cannot be paid is skipped"))
        return
    prices = [price for price in prices if price]
    if not prices:
        return
    if not can_pay(c.hand, prices):
        raise c.refuse("R6.1", t("your cards cannot make a set worth %(cost)s", cost=prices[0]))
    if not can_pay(c.hand, [*c.costs, *prices]):
        raise c.refuse("R6.1", t("your cards cannot pay for this as well as your earlier purchases"))
    c.costs += prices


def check_buy(c: Context, order: Buy) -> Buy:
    card = c.find(c.heroes, order.card, t("hero or wonder"))
    hero_of = c.board.heroes.get(card)
    if hero_of is not None and hero_of != c.civ:
        raise c.refuse(
            "R6.6", t("%(card)s is %(civ)s's civilization hero; only %(civ)s may buy it", card=card, civ=hero_of)
        )
    if c.position.phase is Phase.SETUP and hero_of != c.civ:
        raise c.refuse("R2.4", t("only your civilization hero may be bought in the setup"))
    owner = c.position.owner_of(card)
    if owner == c.civ or card in c.bought:
        raise c.refuse("R6.6", t("you already own %(card)s", card=card))
    if owner is not None:
        raise c.refuse(
            "R6.6", t("%(card)s already belongs to %(civ)s; heroes and wonders are unique", card=card, civ=owner)
        )
    payment = c.card_list(order.payment, "R6.1") if order.payment else None
    check_price(c, [card_cost(card)], payment)
    c.bought.append(card)  # only once the line is accepted: a refused line changes nothing after it
    return replace(order, card=card, payment=payment)


def check_exchange(c: Context, order: Exchange) -> Exchange:
    c.own("Cleopatra", "R6.7")
    if "Cleopatra" in c.position.used:
        raise c.refuse("R6.7", t("Cleopatra exchanges once per build phase, and you have exchanged in this one"))
    if c.exchanged:
        raise c.refuse(
            "R6.7", t("Cleopatra exchanges once per build phase; your line %(line)s exchanges", line=c.exchanged)
        )
    give, get = c.card(order.give), c.card(order.get)
    if (give == TAX) == (get == TAX):
        raise c.refuse("R6.7", t("Cleopatra swaps one commodity for one tax card, or one tax card for one commodity"))
    if c.hand[give] < 1:
        raise c.refuse("R6.7", t("you hold no %(card)s to exchange", card=term("card", give)))
    c.hand[give] -= 1  # the engine exchanges at this line: the lines after it pay with the new card
    c.hand[get] += 1
    c.exchanged = c.line
    return replace(order, give=give, get=get)


def check_keep(c: Context, order: Keep) -> Keep:
    cards = c.card_list(order.cards, "R6.8", check_hand=False)
    wanted = Counter({item.card: item.count for item in cards})
    if wanted[TAX] > 2:
        raise c.refuse("R6.8", t("you keep at most 2 tax cards"))
    commodities = sum(n for card, n in wanted.items() if card != TAX)
    allowed = 1 if "Hanging Gardens" in c.position.players[c.civ].cards or "Hanging Gardens" in c.bought else 0
    if commodities > allowed:
        reason = (
            t("the Hanging Gardens keep 1 commodity")
            if allowed
            else t("unused commodities are discarded (the Hanging Gardens keep 1)")
        )
        raise c.refuse("R6.8", reason)
    return replace(order, cards=cards)
