"""Order validation against the current position: one result per line, never an exception.

This checks what can be known when the orders arrive: names, phase, role, ownership of
units and cards, and the placement rules that nothing earlier in the phase can change.
What depends on other players' earlier moves is checked again at resolution and reported
as skipped there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from adjudicator.names import NameIndex
from adjudicator.orders import OrderLine
from adjudicator.problems import AmbiguousName, Problem, Rejection, UnknownName
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import (
    CARD_ALIASES,
    GENERAL_HEROES,
    ROLE_ALIASES,
    TAX,
    WONDERS,
    Civ,
    Phase,
    Piece,
    ProvinceId,
    Role,
    SeaId,
)
from adjudicator.rulesets.mare_nostrum.geography import borders_held_province
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.orders import (
    ORDER_PHASES,
    Artemis,
    Buy,
    CardCount,
    Casualties,
    Consequence,
    Exchange,
    Give,
    Helen,
    Keep,
    Move,
    NavalAttack,
    Offer,
    Order,
    RoleChoice,
    Sail,
    Take,
    Then,
    TradeSize,
    TurnSequence,
    UlyssesForce,
)
from adjudicator.rulesets.mare_nostrum.orders import Build as BuildOrder

K = TypeVar("K")
TAKE_CLASSES = {
    "commodity": "commodity",
    "commodities": "commodity",
    "tax": TAX,
    "any": "any",
    "anything": "any",
}


class _Refused(Exception):
    """Carries a line's problem out of nested checks; never leaves this module."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def card_index() -> NameIndex[str]:
    index: NameIndex[str] = NameIndex("card")
    for card, aliases in CARD_ALIASES.items():
        index.add(card, card, aliases)
    return index


def hero_index(board: Board) -> NameIndex[str]:
    index: NameIndex[str] = NameIndex("hero or wonder")
    for hero in board.heroes:
        index.add(hero, hero, (hero.split()[-1],) if " " in hero else ())
    for table in (GENERAL_HEROES, WONDERS):
        for card, aliases in table.items():
            index.add(card, card, aliases)
    return index


@dataclass
class _Context:
    """What validating one player's lines needs, plus what his earlier lines used up."""

    board: Board
    position: Position
    civ: Civ
    line: int = 0
    cards: NameIndex[str] = field(default_factory=card_index)
    heroes: NameIndex[str] = field(init=False)
    moved_legions: Counter[ProvinceId] = field(default_factory=Counter)
    moved_triremes: Counter[str] = field(default_factory=Counter)
    bought: list[str] = field(default_factory=list)
    influence_placed: list[ProvinceId] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.heroes = hero_index(self.board)

    def refuse(self, rule: str, text: str) -> _Refused:
        return _Refused(Rejection(self.line, rule, text))

    def find(self, index: NameIndex[K], text: str, kind: str, where: str = "") -> K:
        match = index.find(text)
        if len(match.keys) == 1:
            return match.keys[0]
        if match.keys:
            names = tuple(str(k) for k in match.keys)
            raise _Refused(AmbiguousName(self.line, kind, text, names))
        raise _Refused(UnknownName(self.line, kind, text, match.suggestions, where))

    def province(self, text: str) -> ProvinceId:
        place = self.find(self.board.places, text, "province")
        if place not in self.board.provinces:
            raise self.refuse(
                "R7.2" if place in self.board.seas else "",
                f"{self.board.place_name(place)} is a sea; name a province",
            )
        return ProvinceId(place)

    def sea(self, text: str) -> SeaId:
        place = self.find(self.board.places, text, "sea")
        if place not in self.board.seas:
            raise self.refuse("R7.2", f"{self.board.place_name(place)} is a province; name a sea")
        return SeaId(place)

    def site(self, province: ProvinceId, text: str) -> str:
        """A printed city site of one province."""
        info = self.board.provinces[province]
        local: NameIndex[str] = NameIndex("city site")
        for site in info.cities:
            local.add(site, site)
        return self.find(local, text, "city site", f"in {info.name} (sites: {', '.join(info.cities) or 'none'})")

    def place(self, text: str) -> str:
        return self.find(self.board.places, text, "province or sea")

    def other_civ(self, text: str, rule: str) -> Civ:
        civ = self.find(self.board.civ_names, text, "civilization")
        if civ == self.civ:
            raise self.refuse(rule, "you cannot name yourself here")
        return civ

    def card(self, text: str) -> str:
        match = self.cards.find(text)
        if not match.keys and self.heroes.find(text).keys:
            raise self.refuse("R1", f"{text} is a hero or wonder card; only tax and commodity cards are meant here")
        return self.find(self.cards, text, "card")

    def commodity(self, text: str) -> str:
        card = self.card(text)
        if card == TAX:
            raise self.refuse("R1", "tax is not a commodity; name a commodity card")
        return card

    def card_list(self, cards: Sequence[CardCount], rule: str, check_hand: bool = True) -> tuple[CardCount, ...]:
        """The cards with canonical names, counts merged in first-seen order."""
        wanted: Counter[str] = Counter()
        for item in cards:
            if item.count < 1:
                raise self.refuse(rule, f"'{item.to_text()}' names no card; counts start at 1")
            wanted[self.card(item.card)] += item.count
        hand = self.position.players[self.civ].hand
        for card, count in wanted.items():
            if check_hand and count > hand.get(card, 0):
                raise self.refuse(rule, f"you name {count} {card} but hold {hand.get(card, 0)}")
        return tuple(CardCount(card, count) for card, count in wanted.items())

    def ranked_cards(self, cards: Sequence[CardCount], rule: str, check_hand: bool = True) -> tuple[CardCount, ...]:
        """Like `card_list` but keeping the ranking as written (repeats stay apart)."""
        self.card_list(cards, rule, check_hand)
        return tuple(CardCount(self.card(item.card), item.count) for item in cards)

    def own(self, card: str, rule: str) -> None:
        if card not in self.position.players[self.civ].cards and card not in self.bought:
            raise self.refuse(rule, f"this order needs {card}, which you do not own")

    def holds_role(self, role: Role, rule: str) -> None:
        holder = self.position.roles.get(role)
        if holder != self.civ:
            raise self.refuse(rule, f"only the {role.label} ({holder or 'nobody'}) may give this order")


def validate_orders(
    board: Board, position: Position, civ: Civ, lines: Sequence[OrderLine[Order]]
) -> list[OrderLine[Order]]:
    """Each line with its order's names resolved to board ids, or with the problem that stops it."""
    context = _Context(board, position, civ)
    checked = []
    for line in lines:
        if line.problem is not None or line.order is None:
            checked.append(line)
            continue
        context.line = line.number
        try:
            _check_phase(context, line.order)
            line = replace(line, order=_check_order(context, line.order))
        except _Refused as refused:
            line = replace(line, problem=refused.problem)
        checked.append(line)
    return checked


def _check_phase(c: _Context, order: Order) -> None:
    phase = c.position.phase
    if isinstance(order, TurnSequence):
        if phase is Phase.TRADE:
            raise c.refuse("R3.3", "'sequence' orders the build or military phase; the game is in the trade phase")
        return
    if phase is Phase.SETUP:
        if not isinstance(order, BuildOrder | Buy):
            raise c.refuse("R2.4", "the setup takes only build and buy orders, paid with the 36 points")
        if order.payment:
            raise c.refuse("R2.4", "the setup is paid in points, not cards: leave out 'with …'")
        return
    wanted = ORDER_PHASES[type(order)]
    if wanted is not phase:
        verb = order.to_text().split()[0]
        raise c.refuse(
            "R3", f"'{verb}' is a {wanted}-phase order; the game is in turn {c.position.turn}, {phase} phase"
        )


# ---- Trade (R5) ----------------------------------------------------------------------


def _trade_size(c: _Context, order: TradeSize) -> TradeSize:
    c.holds_role(Role.COMMERCE, "R5.1")
    hand = c.position.players[c.civ].hand_size
    if order.size > hand:
        raise c.refuse("R5.1", f"the trade size is at most the {hand} cards in your hand")
    return order


def _offer(c: _Context, order: Offer) -> Offer:
    return replace(order, cards=c.ranked_cards(order.cards, "R5.2"))


def _take(c: _Context, order: Take) -> Take:
    choices = card_index()
    for word, meaning in TAKE_CLASSES.items():
        choices.add(meaning, word)
    choice = c.find(choices, order.choice, "card")
    source = None
    if order.source is not None:
        source = c.other_civ(order.source, "R5.3")
        if c.position.players[source].neutral:
            raise c.refuse("R5.2", f"{source} is neutral and does not trade")
    return replace(order, choice=choice, source=source)


def _give(c: _Context, order: Give) -> Give:
    c.holds_role(Role.COMMERCE, "R5.5")
    return replace(order, cards=c.ranked_cards(order.cards, "R5.5", check_hand=False))


def _ulysses(c: _Context, order: UlyssesForce) -> UlyssesForce:
    c.own("Ulysses", "R5.6")
    target = c.other_civ(order.target, "R5.6")
    if c.position.players[target].neutral:
        raise c.refuse("R5.6", f"{target} is neutral and does not trade")
    return replace(order, target=target)


# ---- Build (R6) ----------------------------------------------------------------------


def _sequence(c: _Context, order: TurnSequence) -> TurnSequence:
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


def _build(c: _Context, order: BuildOrder) -> BuildOrder:
    province, site = _build_place(c, order)
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
        _influence(c, province)
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
        resolved = replace(resolved, commodity=_caravan(c, order, province))
    if order.piece is Piece.TRIREME and not c.board.provinces[province].coastal:
        raise c.refuse("R6.5", f"{name} has no coast; triremes are built in coastal provinces")
    if (order.piece is Piece.TEMPLE and state.temple) or (order.piece is Piece.MARKET and state.market):
        raise c.refuse("R6.5", f"{name} already has a {order.piece}")
    return resolved


def _build_place(c: _Context, order: BuildOrder) -> tuple[ProvinceId, str | None]:
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


def _influence(c: _Context, province: ProvinceId) -> None:
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
    if not borders_held_province(c.board, c.position, c.civ, province):
        raise c.refuse(
            "R6.4",
            f"influence in {name} must border (by land or along your triremes) "
            "a province you held at the start of the turn",
        )


def _caravan(c: _Context, order: BuildOrder, province: ProvinceId) -> str | None:
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


def _buy(c: _Context, order: Buy) -> Buy:
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


def _exchange(c: _Context, order: Exchange) -> Exchange:
    c.own("Cleopatra", "R6.7")
    give, get = c.card(order.give), c.card(order.get)
    if (give == TAX) == (get == TAX):
        raise c.refuse("R6.7", "Cleopatra swaps one commodity for one tax card, or one tax card for one commodity")
    if c.position.players[c.civ].hand.get(give, 0) < 1:
        raise c.refuse("R6.7", f"you hold no {give} to exchange")
    return replace(order, give=give, get=get)


def _keep(c: _Context, order: Keep) -> Keep:
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


# ---- Military (R7, R8) ---------------------------------------------------------------


def _sail(c: _Context, order: Sail) -> Sail:
    origin = c.place(order.origin)
    destination = c.sea(order.destination)
    if origin in c.board.provinces:
        here = c.position.provinces[ProvinceId(origin)].port.get(c.civ, 0)
        reachable = c.board.provinces[ProvinceId(origin)].seas
        where = f"in port in {c.board.place_name(origin)}"
    else:
        here = c.position.seas[SeaId(origin)].triremes.get(c.civ, 0)
        reachable = c.board.seas[SeaId(origin)].seas
        where = f"in {c.board.place_name(origin)}"
    if order.count < 1:
        raise c.refuse("R7.2", "move at least one trireme")
    if here - c.moved_triremes[origin] < order.count:
        left = here - c.moved_triremes[origin]
        raise c.refuse("R7.2", f"you have {left} trireme(s) {where} that have not moved, not {order.count}")
    if destination not in reachable:
        raise c.refuse(
            "R7.2",
            f"{c.board.place_name(destination)} is not next to {c.board.place_name(origin)}; triremes move one step",
        )
    c.moved_triremes[origin] += order.count
    return replace(order, origin=origin, destination=destination)


def _naval_attack(c: _Context, order: NavalAttack) -> NavalAttack:
    return replace(order, target=c.other_civ(order.target, "R8.3"), sea=c.sea(order.sea))


def _move(c: _Context, order: Move) -> Move:
    origin = c.province(order.origin)
    destination = c.province(order.destination)
    seas = [c.sea(s) for s in order.via]
    attack = tuple(c.other_civ(text, "D7") for text in order.attack)
    if order.count < 1:
        raise c.refuse("R7.3", "move at least one legion")
    here = c.position.provinces[origin].legions.get(c.civ, 0) - c.moved_legions[origin]
    if here < order.count:
        raise c.refuse(
            "R7.3",
            f"you have {here} legion(s) in {c.board.provinces[origin].name} that have not moved, not {order.count}",
        )
    start, end = c.board.provinces[origin], c.board.provinces[destination]
    if destination == origin:
        raise c.refuse("R7.3", "a legion moves to another province")
    if destination not in start.land and (seas or not start.coastal or not end.coastal):
        if not start.coastal or not end.coastal:
            raise c.refuse(
                "R7.3",
                f"{end.name} does not border {start.name} by land, and a sea route needs both to have a coast",
            )
        if seas and (seas[0] not in start.seas or seas[-1] not in end.seas):
            raise c.refuse("R7.3", f"the route must start on a sea of {start.name} and end on a sea of {end.name}")
    if order.then is not None and order.then.consequence is Consequence.CONVERT:
        owner = c.board.capital_of(destination)
        if owner is not None and owner != c.civ:
            raise c.refuse("R8.7", f"{end.name} is {owner}'s capital; its influence can never be converted")
    c.moved_legions[origin] += order.count
    then = _then(c, order.then, destination) if order.then else None
    return replace(order, origin=origin, destination=destination, via=tuple(seas), attack=attack, then=then)


def _then(c: _Context, then: Then, province: ProvinceId) -> Then:
    """Canonical sack targets: `city SITE` (site optional), `caravan ICON`, `temple`, `market`."""
    if then.consequence is not Consequence.SACK or not then.target:
        return then
    kind, _, rest = then.target.partition(" ")
    if kind == "caravan":
        return replace(then, target=f"caravan {c.commodity(rest)}")
    if kind == "city" and rest:
        local: NameIndex[str] = NameIndex("city site")
        for site in c.board.provinces[province].cities:
            local.add(site, site)
        return replace(
            then, target=f"city {c.find(local, rest, 'city site', f'in {c.board.provinces[province].name}')}"
        )
    return then


def _casualties(c: _Context, order: Casualties) -> Casualties:
    if len(set(order.units)) != len(order.units):
        raise c.refuse("R8.2", "name each kind of unit once")
    return order


def _helen(c: _Context, order: Helen) -> Helen:
    c.own("Helen of Troy", "R8.9")
    return replace(order, province=c.province(order.province)) if order.province is not None else order


def _role(c: _Context, order: RoleChoice) -> RoleChoice:
    roles: NameIndex[Role] = NameIndex("role")
    for role, aliases in ROLE_ALIASES.items():
        roles.add(role, role.label, aliases)
    role = c.find(roles, order.role, "role")
    c.holds_role(role, "R3.2")
    target = c.find(c.board.civ_names, order.civ, "civilization")
    if c.position.players[target].neutral:
        raise c.refuse("R3.2", f"{target} is neutral and holds no role")
    return replace(order, role=str(role), civ=target)


def _artemis(c: _Context, order: Artemis) -> Artemis:
    c.own("Temple of Artemis", "R4")
    return replace(order, commodity=c.commodity(order.commodity))


def _check_order(c: _Context, order: Order) -> Order:
    match order:
        case TradeSize():
            return _trade_size(c, order)
        case Offer():
            return _offer(c, order)
        case Take():
            return _take(c, order)
        case Give():
            return _give(c, order)
        case UlyssesForce():
            return _ulysses(c, order)
        case TurnSequence():
            return _sequence(c, order)
        case BuildOrder():
            return _build(c, order)
        case Buy():
            return _buy(c, order)
        case Exchange():
            return _exchange(c, order)
        case Keep():
            return _keep(c, order)
        case Sail():
            return _sail(c, order)
        case NavalAttack():
            return _naval_attack(c, order)
        case Move():
            return _move(c, order)
        case Casualties():
            return _casualties(c, order)
        case Helen():
            return _helen(c, order)
        case RoleChoice():
            return _role(c, order)
        case Artemis():
            return _artemis(c, order)
