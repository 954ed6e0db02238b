"""Validation of build-phase orders (R3.3, R6, R2.4 setup)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from adjudicator.names import NameIndex
from adjudicator.rulesets.mare_nostrum.checks import Context
from adjudicator.rulesets.mare_nostrum.components import (
    TAX,
    Civ,
    Phase,
    Piece,
    ProvinceId,
    Role,
)
from adjudicator.rulesets.mare_nostrum.geography import borders_held, seas_with_triremes
from adjudicator.rulesets.mare_nostrum.orders import Build as BuildOrder
from adjudicator.rulesets.mare_nostrum.orders import (
    Buy,
    Exchange,
    Keep,
    TurnSequence,
)

# ---- Build (R6) ----------------------------------------------------------------------


def check_sequence(c: Context, order: TurnSequence) -> TurnSequence:
    role = Role.POLITICAL if c.position.phase is Phase.BUILD else Role.MILITARY
    c.holds_role(role, "R3.3")
    seen: list[Civ] = []
    for text in order.civs:
        civ = c.find(c.board.civ_names, text, "civilization")
        if c.position.players[civ].neutral:
            raise c.refuse("R3.3", f"{civ} is neutral and takes no turn")
        if civ in seen:
            raise c.refuse("R3.3", f"{civ} is named twice")
        seen.append(civ)
    return replace(order, civs=tuple(seen))


def check_build(c: Context, order: BuildOrder) -> BuildOrder:
    province, site = check_build_place(c, order)
    resolved = replace(order, province=province, site=site)
    state = c.position.provinces[province]
    name = c.board.provinces[province].name
    if order.count > 1 and order.payment:
        raise c.refuse("R6.1", "one set pays for one item; give each purchase its own line to name its payment")
    if order.payment:
        resolved = replace(resolved, payment=c.card_list(order.payment, "R6.1"))
    if c.position.phase is Phase.SETUP:
        if order.piece is Piece.TRIREME and not c.board.provinces[province].coastal:
            raise c.refuse("R6.5", f"{name} has no coast; triremes are built in coastal provinces")
        return resolved
    if order.piece is Piece.INFLUENCE:
        check_influence(c, province)
        c.influence_placed.append(province)
        return resolved
    capital = c.board.civilizations[c.civ].capital == province
    if province in c.influence_placed:
        raise c.refuse("R6.4", f"nothing else may be built in {name} the turn influence is placed there")
    if state.influence != c.civ:
        raise c.refuse("R6.3", f"you have no influence in {name}; build influence there first")
    if not capital and state.at_war:
        raise c.refuse("R6.3", f"{name} is at war; nobody builds there (R8.4)")
    if not capital and any(occupier != c.civ for occupier in state.occupied.values()):
        raise c.refuse("R6.3", f"{name} is occupied by an enemy (R8.6)")
    if order.piece is Piece.CITY and site is not None and site in state.cities:
        raise c.refuse("R6.5", f"the city site {site} already has a city")
    free_sites = [s for s in c.board.provinces[province].cities if s not in state.cities]
    if order.piece is Piece.CITY and len(free_sites) < order.count:
        raise c.refuse("R6.5", f"{name} has {len(free_sites)} free city site(s); one city stands on each printed site")
    if order.piece is Piece.CARAVAN:
        resolved = replace(resolved, commodity=check_caravan(c, order, province))
    if order.piece is Piece.TRIREME and not c.board.provinces[province].coastal:
        raise c.refuse("R6.5", f"{name} has no coast; triremes are built in coastal provinces")
    if (order.piece is Piece.TEMPLE and state.temple) or (order.piece is Piece.MARKET and state.market):
        raise c.refuse("R6.5", f"{name} already has a {order.piece}")
    return resolved


def check_build_place(c: Context, order: BuildOrder) -> tuple[ProvinceId, str | None]:
    if order.province is None:
        sites: NameIndex[ProvinceId] = NameIndex("city site")
        for province in c.board.provinces.values():
            for site in province.cities:
                sites.add(province.id, site)
        assert order.site is not None
        province_id = c.find(sites, order.site, "city site")
    else:
        province_id = c.province(order.province)
    if order.site is None:
        return province_id, None
    if order.piece is not Piece.CITY:
        raise c.refuse("R6.5", f"'at {order.site}' names a city site; only cities are built at a site")
    return province_id, c.site(province_id, order.site)


def check_influence(c: Context, province: ProvinceId) -> None:
    state = c.position.provinces[province]
    name = c.board.provinces[province].name
    if state.influence == c.civ:
        raise c.refuse("R6.4", f"you already have influence in {name}")
    if state.influence is not None:
        if state.converting != c.civ:
            raise c.refuse(
                "R6.4",
                f"{name} holds {state.influence}'s influence; only a converting legion replaces it (R8.7)",
            )
        if c.board.civilizations[state.influence].capital == province:
            raise c.refuse("R8.7", f"{name} is {state.influence}'s capital and can never be converted")
    if "Lighthouse" in c.bought or "Lighthouse" in c.position.players[c.civ].cards:
        return
    held = c.position.held_at_turn_start(c.civ)
    if not borders_held(c.board, held, seas_with_triremes(c.position, c.civ), province):
        raise c.refuse(
            "R6.4",
            f"influence in {name} must border (by land or along your triremes) "
            "a province you held at the start of the turn",
        )


def check_caravan(c: Context, order: BuildOrder, province: ProvinceId) -> str | None:
    icons = c.board.provinces[province].commodities
    name = c.board.provinces[province].name
    built = c.position.provinces[province].caravans
    if order.commodity is None:
        free = [i for i in icons if i not in built]
        if len(free) > 1:
            raise c.refuse(
                "R6.5",
                f"name the icon: 'build caravan on {free[0]} in {name}' (free icons: {', '.join(free)})",
            )
        if not free:
            raise c.refuse("R6.5", f"every icon in {name} already has a caravan")
        return free[0]
    commodity = c.commodity(order.commodity)
    if commodity not in icons:
        raise c.refuse("R6.5", f"{name} has no {commodity} icon (icons: {', '.join(icons) or 'none'})")
    if commodity in built:
        raise c.refuse("R6.5", f"the {commodity} icon in {name} already has a caravan")
    return commodity


def check_buy(c: Context, order: Buy) -> Buy:
    card = c.find(c.heroes, order.card, "hero or wonder")
    hero_of = c.board.heroes.get(card)
    if hero_of is not None and hero_of != c.civ:
        raise c.refuse("R6.6", f"{card} is {hero_of}'s civilization hero; only {hero_of} may buy it")
    if c.position.phase is Phase.SETUP and hero_of != c.civ:
        raise c.refuse("R2.4", "only your civilization hero may be bought in the setup")
    owner = c.position.owner_of(card)
    if owner == c.civ or card in c.bought:
        raise c.refuse("R6.6", f"you already own {card}")
    if owner is not None:
        raise c.refuse("R6.6", f"{card} already belongs to {owner}; heroes and wonders are unique")
    c.bought.append(card)
    payment = c.card_list(order.payment, "R6.1") if order.payment else None
    return replace(order, card=card, payment=payment)


def check_exchange(c: Context, order: Exchange) -> Exchange:
    c.own("Cleopatra", "R6.7")
    give, get = c.card(order.give), c.card(order.get)
    if (give == TAX) == (get == TAX):
        raise c.refuse("R6.7", "Cleopatra swaps one commodity for one tax card, or one tax card for one commodity")
    if c.position.players[c.civ].hand.get(give, 0) < 1:
        raise c.refuse("R6.7", f"you hold no {give} to exchange")
    return replace(order, give=give, get=get)


def check_keep(c: Context, order: Keep) -> Keep:
    cards = c.card_list(order.cards, "R6.8", check_hand=False)
    wanted = Counter({item.card: item.count for item in cards})
    if wanted[TAX] > 2:
        raise c.refuse("R6.8", "you keep at most 2 tax cards")
    commodities = sum(n for card, n in wanted.items() if card != TAX)
    allowed = 1 if "Hanging Gardens" in c.position.players[c.civ].cards or "Hanging Gardens" in c.bought else 0
    if commodities > allowed:
        reason = (
            "the Hanging Gardens keep 1 commodity"
            if allowed
            else "unused commodities are discarded (the Hanging Gardens keep 1)"
        )
        raise c.refuse("R6.8", reason)
    return replace(order, cards=cards)
