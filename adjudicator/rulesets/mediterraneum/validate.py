"""Order validation when the orders arrive: names resolved to the board's ids, the phase, and
whose turn it is; one result per line, never an exception. Then the turn is rehearsed with the
engine's own code (rehearsal.py), so that a line the engine will refuse whatever the dice (a
purchase he cannot pay, a march to a land that does not border) is refused on the receipt with
the engine's reason and rule. What the dice may still change is checked when the line is carried
out and reported there with its rule (M3.2, M3.8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from adjudicator.core.i18n import Msg, t
from adjudicator.core.names import normalise
from adjudicator.language.problems import Rejection
from adjudicator.language.submission import OrderLine
from adjudicator.rulesets.kit.checking import LineChecks, check_line
from adjudicator.rulesets.mediterraneum import orders as order_types
from adjudicator.rulesets.mediterraneum.board import COAST, Board, CardKind
from adjudicator.rulesets.mediterraneum.geography import land_of_army, marches_to, ship_neighbours, space_id, space_name
from adjudicator.rulesets.mediterraneum.model import Army, Options, Phase, Position, Ship, Status
from adjudicator.rulesets.mediterraneum.orders import ART, MAX_MONEY, NOT_ROMAN, WAREHOUSE, roman
from adjudicator.rulesets.mediterraneum.rehearsal import Rehearsal, rehearse

# M7.8: a warehouse as a `build` line names it in each language (the catalogs' `building` term among them).
WAREHOUSE_NAMES = frozenset({WAREHOUSE, "magazyn", "raktar", "entrepot", "almacen"})


@dataclass
class _Context(LineChecks):
    board: Board
    position: Position
    colour: str
    sailed: set[int] = field(default_factory=set)  # ships whose first move of the turn was checked
    moved: set[int] = field(default_factory=set)  # armies named by a line that may move them

    def city(self, text: str) -> str:
        place = self.find(self.board.places, text, t("city"))
        if place not in self.board.cities:
            raise self.refuse("M1.2", t("%(place)s is not a city; name a city", place=self._name(place)))
        return place

    def land(self, text: str) -> str:
        """A land area, or the land of a city named instead."""
        place = self.find(self.board.places, text, t("land"))
        if place in self.board.cities:
            return self.board.cities[place].land
        if place not in self.board.lands:
            raise self.refuse("M8.3", t("%(place)s is a sea; armies march over land", place=self._name(place)))
        return place

    def space(self, text: str) -> str:
        """A ship's space as canonical text: a sea id, a city id (its harbour), `<city> coast`."""
        words = text.split()
        if len(words) > 1 and words[-1].lower() == COAST:
            return f"{self.city(' '.join(words[:-1]))} {COAST}"
        place = self.find(self.board.places, text, t("sea or city"))
        if place in self.board.lands:
            raise self.refuse(
                "M4.3", t("%(place)s is land; ships sail to seas, harbours and coasts", place=self._name(place))
            )
        return place

    def good(self, text: str) -> str:
        return self.find(self.board.good_names, text, t("good"), term_kind="card")

    def cargo(self, text: str) -> str:
        if text.startswith(ART):
            return ART + self.find(self.board.art_names, text.removeprefix(ART), t("artwork"))
        return self.good(text)

    def player(self, text: str, others_only: bool = True) -> str:
        name = self.find(self.board.colour_names, text, t("player colour"))
        if name not in self.position.players:
            raise self.refuse("M1.1", t("%(colour)s does not play in this game", colour=name))
        if others_only and name == self.colour:
            raise self.refuse("M3.6", t("name another player, not yourself"))
        return name

    def money(self, amount: int) -> None:
        if amount == NOT_ROMAN:
            raise self.refuse("M1.4", t("that is not a Roman numeral; write III, IV, XIV, or the digits"))
        if amount > MAX_MONEY:
            raise self.refuse("M1.4", t("no purse holds more than %(most)s MILIA", most=MAX_MONEY))

    def _name(self, place: str) -> str:
        for table in (self.board.cities, self.board.lands, self.board.seas):
            if place in table:
                return str(table[place].name)
        return place


AS_PRINTED = Options()  # the rules without any of the game's options (M12.4)


def validate_orders(
    board: Board,
    position: Position,
    colour: str,
    lines: Sequence[OrderLine[order_types.Order]],
    options: Options = AS_PRINTED,
) -> list[OrderLine[order_types.Order]]:
    """Each line checked, then the turn rehearsed with the engine's steps under the game's
    `options` (the rules as printed when none are given)."""
    context = _Context(board, position, colour)
    seen: set[type] = set()
    checked = []
    for line in lines:
        result = check_line(context, line, _check_line)
        once = ONCE.get(type(result.order)) if result.ok else None
        if once is not None:
            if type(result.order) in seen:
                result = replace(result, problem=Rejection(line.number, *once), order=None)
            seen.add(type(result.order))
        checked.append(result)
    if position.phase is Phase.TURN and position.winner is None and colour == position.step:
        orders = [line.order for line in checked if line.ok and line.order is not None]
        rehearsal = rehearse(board, position, colour, orders, options)
        checked = [_rehearsed(line, rehearsal) for line in checked]
    return checked


def _rehearsed(line: OrderLine[order_types.Order], rehearsal: Rehearsal) -> OrderLine[order_types.Order]:
    """A line as the rehearsal of the turn answers it: refused, noted, or as it was."""
    if line.number in rehearsal.refused:
        return replace(line, problem=rehearsal.refused[line.number], order=None)
    if line.number in rehearsal.notes:
        return replace(line, note=rehearsal.notes[line.number])
    return line


# Orders given once: a second is refused with its rule, rather than one of them counting unseen.
ONCE: dict[type, tuple[str, str]] = {
    order_types.Found: ("M5.1", t("one empire is founded a turn; this is a second")),
    order_types.Bid: ("M3.5", t("one sealed bid a player; this is a second")),
}


def _check_line(c: _Context, order: order_types.Order) -> order_types.Order:
    _check_phase(c, order)
    _own_pieces(c, order)
    return replace(_check(c, order), line=c.line)


def _check_phase(c: _Context, order: order_types.Order) -> None:
    position = c.position
    if position.winner:
        raise c.refuse("M12.2", t("the game is over: %(winner)s won", winner=position.winner))
    if position.phase is Phase.AUCTION:
        if not isinstance(order, order_types.Bid | order_types.Pass):
            raise c.refuse("M3.5", t("an auction is on: send a bid ('bid III'), 'pass' or nothing"))
        return
    if isinstance(order, order_types.Bid):
        raise c.refuse("M3.5", t("no auction is on; bids come when a card opens one"))
    if c.colour != position.step:
        raise c.refuse("M3.1", t("it is %(player)s's turn; your orders count in your own turn", player=position.step))


def _check(c: _Context, order: order_types.Order) -> order_types.Order:
    match order:
        case order_types.Found():
            city = c.city(order.city)
            state = c.position.cities[city]
            if state.owner != c.colour or state.status is not Status.PROVINCE:  # founding comes first (M5.1)
                raise c.refuse(
                    "M5.1",
                    t("an empire is founded in one of his provinces; %(city)s is not", city=c.board.cities[city].name),
                )
            return replace(order, city=city)
        case order_types.BuyShip() | order_types.StandingBuy():
            city = c.city(order.city)
            if c.position.cities[city].owner != c.colour:
                rule = "M4.2" if isinstance(order, order_types.BuyShip) else "M4.6"
                raise c.refuse(
                    rule,
                    t("%(city)s is not one of %(colour)s's cities", city=c.board.cities[city].name, colour=c.colour),
                )
            if isinstance(order, order_types.StandingBuy):
                c.money(order.ceiling)
                return replace(order, cargo=c.cargo(order.cargo), city=city)
            return replace(order, city=city)
        case order_types.Upgrade():
            return replace(order, city=c.city(order.city))
        case order_types.Load():
            return replace(order, cargo=c.cargo(order.cargo))
        case order_types.Sail():
            if len(order.path) > 2:
                raise c.refuse("M4.3", t("a ship moves one space a turn (an empty one two, in the fast variant)"))
            path = tuple(c.space(s) for s in order.path)
            _first_step(c, order.ship, path[0])
            return replace(order, path=path)
        case order_types.Sell():
            c.money(order.floor)
            return order
        case order_types.Capture():
            tactic = c.find(c.board.tactic_names, order.tactic, t("tactic card")) if order.tactic else ""
            return replace(order, owner=c.player(order.owner), tactic=tactic)
        case order_types.March():
            if len(order.path) > 2:
                raise c.refuse("M8.3", t("an army moves one land a turn, cavalry two"))
            path = tuple(c.land(x) for x in order.path)
            _first_march(c, order.army, path[0])
            return replace(order, path=path)
        case order_types.Attack():
            if len(order.armies) > c.board.limits["armies_per_land"]:
                raise c.refuse("M10.1", t("at most three armies, standing together, attack as one"))
            target = c.find(c.board.places, order.target, t("city or land"))
            if target in c.board.seas:
                raise c.refuse("M9.4", t("a sea is not attacked; warships capture ships ('ship N capture …')"))
            retreat = c.land(order.retreat) if order.retreat else ""
            tactic = c.find(c.board.tactic_names, order.tactic, t("tactic card")) if order.tactic else ""
            c.moved |= set(order.armies)  # a city taken or a battle won moves them (M8.5, M10.3)
            return replace(order, target=target, retreat=retreat, tactic=tactic)
        case order_types.Build():
            if normalise(order.building) in WAREHOUSE_NAMES:
                return replace(order, building=WAREHOUSE)
            return replace(
                order, building=c.find(c.board.building_names, order.building, t("building"), term_kind="building")
            )
        case order_types.CardTo():
            return replace(order, colour=c.player(order.colour))
        case order_types.Pay():
            c.money(order.amount)
            return replace(order, colour=c.player(order.colour))
        case order_types.CancelBuy():
            return replace(order, cargo=c.cargo(order.cargo), city=c.city(order.city))
        case order_types.Embark() | order_types.Land():
            c.moved.add(order.army)
            return order
        case order_types.Bid():
            return _bid(c, order)
    return order


def _bid(c: _Context, order: order_types.Bid) -> order_types.Bid:
    """M3.5, M11.14: at least the lowest bid, within his purse (tax still due does not count,
    T:118), and in a province auction the province: checked now, so a bid that cannot count is
    refused on the receipt, not after the auction."""
    c.money(order.amount)
    auction = c.position.auctions[0]
    if order.amount < auction.min_bid:
        raise c.refuse("M3.5", t("the lowest bid is %(bid)s", bid=roman(auction.min_bid)))
    if order.amount > c.position.players[c.colour].money:
        money = c.position.players[c.colour].money
        if money:
            raise c.refuse("M3.5", t("a bid is paid from the purse, which holds %(money)s", money=roman(money)))
        raise c.refuse("M3.5", t("a bid is paid from the purse, which holds nothing"))
    provinces = [
        city for city, s in c.position.cities.items() if s.owner == auction.drawer and s.status is Status.PROVINCE
    ]
    if c.board.trade_cards[auction.card].kind is not CardKind.PROVINCE_AUCTION:
        if order.city:
            raise c.refuse("M3.5", t("this auction is not for a province; bid without naming a city"))
        return order
    names = ", ".join(c.board.cities[p].name for p in provinces)
    if not order.city:
        first = names.split(", ")[0]
        raise c.refuse(
            "M11.14",
            t("name the province you bid for: bid %(amount)s for %(city)s", amount=roman(order.amount), city=first),
        )
    city = c.city(order.city)
    if city not in provinces:
        raise c.refuse(
            "M11.14",
            t(
                "%(city)s is not on auction; %(player)s's provinces are %(cities)s",
                city=c.board.cities[city].name,
                player=auction.drawer,
                cities=names,
            ),
        )
    return replace(order, city=city)


def _own_pieces(c: _Context, order: order_types.Order) -> None:
    """A ship or army he names must be on the board as his turn begins: pieces bought this turn
    come onto it only at its end (M3.2)."""
    ships = [order.ship] if isinstance(order, SHIP_ORDERS) else []
    ships += [order.ship] if isinstance(order, order_types.Embark) else []
    armies: list[int] = []
    if isinstance(order, order_types.Attack):
        armies = list(order.armies)
    elif isinstance(order, ARMY_ORDERS):
        armies = [order.army]
    for number in ships:
        if c.position.ship(c.colour, number) is None:
            raise c.refuse("M4.3", _no_ship(c.colour, number, c.position.ships_of(c.colour)))
    for number in armies:
        if c.position.army(c.colour, number) is None:
            raise c.refuse("M8.3", _no_army(c.colour, number, c.position.armies_of(c.colour)))


def _no_ship(colour: str, number: int, pieces: Sequence[Ship]) -> Msg:
    if pieces:
        return t(
            "%(colour)s has no ship %(number)s; his are %(numbers)s",
            colour=colour,
            number=number,
            numbers=_numbers(pieces),
        )
    return t("%(colour)s has no ship %(number)s (none yet)", colour=colour, number=number)


def _no_army(colour: str, number: int, pieces: Sequence[Army]) -> Msg:
    if pieces:
        return t(
            "%(colour)s has no army %(number)s; his are %(numbers)s",
            colour=colour,
            number=number,
            numbers=_numbers(pieces),
        )
    return t("%(colour)s has no army %(number)s (none yet)", colour=colour, number=number)


def _numbers(pieces: Sequence[Ship | Army]) -> str:
    return ", ".join(str(p.number) for p in pieces)


SHIP_ORDERS = (
    order_types.Sail,
    order_types.Load,
    order_types.Sell,
    order_types.Dump,
    order_types.Store,
    order_types.Capture,
)
ARMY_ORDERS = (order_types.March, order_types.Embark, order_types.Land, order_types.Mount)


def _first_step(c: _Context, number: int, step: str) -> None:
    """A ship's first move of the turn starts where it stands as the turn begins, so a step it
    cannot reach from there is refused now. Cavalry's two ships are left to the engine, which
    moves them together (MD26), and so is a second move of the same ship."""
    ship = c.position.ship(c.colour, number)
    paired = any(a.owner == c.colour and (a.horse_ship == number or (a.at == f"ship:{number}" and a.horse_ship))
                 for a in c.position.armies)  # fmt: skip
    if ship is None or paired or number in c.sailed:
        c.sailed.add(number)
        return
    c.sailed.add(number)
    where = space_id(c.board, step)
    if where != ship.at and where not in ship_neighbours(c.board, ship.at):
        here = space_name(c.board, ship.at)
        raise c.refuse(
            "M4.3",
            t(
                "ship %(number)s is at %(here)s; %(there)s is not next to it",
                number=number,
                here=here,
                there=space_name(c.board, where),
            ),
        )


def _first_march(c: _Context, number: int, step: str) -> None:
    """An army's first move of the turn starts where it stands as the turn begins (M8.3), as a
    ship's does (`_first_step`): a first step into a land that does not border it, or from a
    ship, is refused now, with the engine's own test (`geography.marches_to`). A move after
    another line that may move the army (a march, an attack, boarding, landing) is left to the
    engine, and so is a cavalry army's second land, which comes only if the first is reached."""
    army = c.position.army(c.colour, number)
    first = army is not None and number not in c.moved
    c.moved.add(number)
    if army is None or not first:
        return
    start = land_of_army(c.board, army.at)
    if start is None:
        raise c.refuse(
            "M9.2", t("army %(army)s is aboard a ship; it goes ashore with 'army %(army)s land'", army=number)
        )
    if not marches_to(c.board, army.at, step):
        raise c.refuse(
            "M8.3",
            t("%(to)s does not adjoin %(where)s", to=c.board.lands[step].name, where=c.board.lands[start].name),
        )
