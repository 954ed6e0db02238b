"""Trade cards (M11, T:109-136): drawn by an empire from its tax dice and read at once. Most act
at once; an auction (art, a tactic card, a province) opens an auction phase of sealed bids before
the drawer's turn; a gift or a coup waits for the drawer's orders to name who gets it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import Msg, t, term
from adjudicator.rulesets.mediterraneum.board import Board, CardKind, TradeCard
from adjudicator.rulesets.mediterraneum.chance import blue, highest, pick, shuffled
from adjudicator.rulesets.mediterraneum.model import (
    Army,
    Auction,
    Phase,
    Position,
    Status,
    lift_wants,
    lowest_free,
    storm_outcome,
    storm_sea,
    work_name,
)
from adjudicator.rulesets.mediterraneum.orders import Bid, Order, roman

COUP_ROUNDS = 60  # a coup card goes round at most this often before it is put away (never met in play)


def draw_trade_cards(
    board: Board, position: Position, colour: str, count: int, dice: Dice, events: list[Event]
) -> Position:
    """T:47-48, T:109: the cards in turn, each resolved before the next is drawn."""
    for _ in range(count):
        position, card_id = _draw(position, dice, events)
        if card_id is None:
            events.append(event("trade_deck_empty", player=colour, rule="M11.1"))
            break
        card = board.trade_cards[card_id]
        events.append(event("card_drawn", player=colour, card=card.id, card_kind=str(card.kind), rule="M11.1"))
        position = _resolve(board, position, colour, card, dice, events)
    if position.auctions:
        position = replace(position, phase=Phase.AUCTION)
    return position


def _draw(position: Position, dice: Dice, events: list[Event]) -> tuple[Position, str | None]:
    """The top card; an empty deck is the discard pile shuffled again (MD5)."""
    decks = position.decks
    if not decks.trade and decks.trade_discard:
        events.append(event("trade_reshuffled", cards=len(decks.trade_discard), rule="M11.1"))
        decks = replace(
            decks, trade=shuffled(sorted(decks.trade_discard), dice.sealed(), t("M11.1 trade deck")), trade_discard=()
        )
    if not decks.trade:
        return replace(position, decks=decks), None
    return replace(position, decks=replace(decks, trade=decks.trade[1:])), decks.trade[0]


def discard(position: Position, card: str) -> Position:
    decks = position.decks
    return replace(position, decks=replace(decks, trade_discard=(*decks.trade_discard, card)))


def _resolve(
    board: Board, position: Position, colour: str, card: TradeCard, dice: Dice, events: list[Event]
) -> Position:
    kind = card.kind
    if kind is CardKind.WANT:
        return _want(board, position, colour, card, events)
    if kind is CardKind.STORM:
        return _storm(board, position, card, dice, events)
    if kind in (CardKind.GIFT, CardKind.COUP):
        held = (*position.players[colour].holding, card.id)
        return position.with_player(colour, holding=held)
    if kind in (CardKind.ART_AUCTION, CardKind.TACTIC, CardKind.PROVINCE_AUCTION):
        return _open_auction(board, position, colour, card, events)
    if kind is CardKind.CIRCUS:
        return discard(_circus(board, position, colour, card, events), card.id)
    if kind is CardKind.ROBBERS:
        roll = blue(dice, t("M11.10 robbers, %(player)s", player=colour))
        lost = min(roll, position.players[colour].money)
        events.append(event("robbed", player=colour, roll=roll, lost=lost, rule="M11.10"))
        return discard(position.paid(colour, lost), card.id)
    if kind is CardKind.SLAVE_REVOLT:
        return discard(_slave_revolt(board, position, colour, events), card.id)
    if kind is CardKind.ARMY_REVOLT:
        return discard(_army_revolt(position, colour, dice, events), card.id)
    return discard(_losses(board, position, colour, card, dice, events), card.id)


def _want(board: Board, position: Position, colour: str, card: TradeCard, events: list[Event]) -> Position:
    """T:111-113: produced at home: pay I and discard; in a warehouse: handed over at once;
    otherwise it lies beside the capital and costs I at each tax until the good is brought."""
    capital = position.capital(colour)
    good = card.good
    if capital is None:
        return discard(position, card.id)
    if good in board.produces(capital):
        paid = min(board.prices["want_penalty"], position.players[colour].money)
        events.append(event("want_home", player=colour, good=good, paid=paid, rule="M11.2"))
        return discard(position.paid(colour, paid), card.id)
    houses = position.cities[capital].warehouses
    for index, house in enumerate(houses):
        if good in house:
            left = list(house)
            left.remove(good)
            kept = houses[:index] + ((tuple(left),) if left else ()) + houses[index + 1 :]
            events.append(event("want_supplied", player=colour, good=good, decayed=not left, rule="M11.2"))
            return discard(position.with_city(capital, warehouses=kept), card.id)
    events.append(event("want_card", player=colour, good=good, rule="M11.2"))
    return position.with_player(colour, want_cards=(*position.players[colour].want_cards, good))


def _storm(board: Board, position: Position, card: TradeCard, dice: Dice, events: list[Event]) -> Position:
    """T:114: the card lies face up until another storm replaces it; every ship in its sea rolls:
    5-6 safe, 3-4 the cargo goes overboard, 1-2 the ship sinks."""
    if position.storm is not None:
        position = discard(position, position.storm)
    position = replace(position, storm=card.id)
    sea = storm_sea(board, position)
    events.append(event("storm", sea=board.seas[sea].name if sea else "", rule="M11.3"))
    for ship in [s for s in position.ships if s.at == sea]:
        roll = blue(dice, t("M11.3 storm, %(player)s ship %(ship)s", player=ship.owner, ship=ship.number))
        outcome = storm_outcome(roll)
        events.append(
            event("storm_roll", player=ship.owner, ship=ship.number, roll=roll, outcome=outcome, rule="M11.3")
        )
        if outcome == "cargo lost":
            position = replace(position, ships=tuple(replace(s, cargo="") if s == ship else s for s in position.ships))
        elif outcome == "sunk":
            position = position.without_ship(ship)
    return position


def _open_auction(board: Board, position: Position, colour: str, card: TradeCard, events: list[Event]) -> Position:
    """T:117, T:86, T:134: an auction phase before his turn; an art auction turns up the top
    art card, a province auction needs a province of his that is not his capital."""
    if card.kind is CardKind.ART_AUCTION:
        if not position.decks.art:
            events.append(event("no_auction", player=colour, card=card.id, reason=t("the art deck is empty")))
            return discard(position, card.id)
        lot = position.decks.art[0]
        position = replace(position, decks=replace(position.decks, art=position.decks.art[1:]))
    elif card.kind is CardKind.PROVINCE_AUCTION:
        if not _auctionable(position, colour):
            events.append(event("no_auction", player=colour, card=card.id, reason=t("he has no province to auction")))
            return discard(position, card.id)
        lot = ""
    else:
        lot = card.id
    auction = Auction(card.id, colour, lot, card.min_bid)
    events.append(event("auction_opened", player=colour, card=card.id, lot=lot, min_bid=card.min_bid, rule="M3.5"))
    return replace(position, auctions=(*position.auctions, auction))


def _auctionable(position: Position, colour: str) -> tuple[str, ...]:
    return tuple(c for c, s in position.cities.items() if s.owner == colour and s.status is Status.PROVINCE)


def resolve_auction(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], dice: Dice, events: list[Event]
) -> Position:
    """M3.5: one round of sealed bids; the highest wins and pays the bank (T:117, T:135); ties by
    the blue die, but the owner of a province up for auction wins a tie (he bids first, T:135)."""
    auction, rest = position.auctions[0], position.auctions[1:]
    position = replace(position, auctions=rest)
    card = board.trade_cards[auction.card]
    province = card.kind is CardKind.PROVINCE_AUCTION
    cities = _auctionable(position, auction.drawer)
    bids: dict[str, tuple[int, str]] = {}
    for colour in position.order:
        bid = next((o for o in orders.get(colour, ()) if isinstance(o, Bid)), None)
        if bid is None:
            continue
        problem = _bid_problem(board, position, colour, bid, auction, cities if province else ())
        if problem:
            events.append(event("bid_refused", player=colour, amount=bid.amount, reason=problem, rule="M3.5"))
        else:
            bids[colour] = (bid.amount, bid.city)
    events.append(event("bids", card=auction.card, bids={c: b[0] for c, b in bids.items()}, rule="M3.5"))
    if not bids:
        events.append(event("auction_unsold", card=auction.card, lot=auction.lot, rule="M3.5"))
        if card.kind is CardKind.ART_AUCTION:  # the art card goes under the art deck
            position = replace(position, decks=replace(position.decks, art=(*position.decks.art, auction.lot)))
        return discard(position, card.id)
    best = max(b[0] for b in bids.values())
    tied = [c for c in position.order if c in bids and bids[c][0] == best]
    if province and auction.drawer in tied:
        winner = auction.drawer
    else:
        winner, _rolls = highest(tied, dice, t("M3.5 auction tie")) if len(tied) > 1 else (tied[0], {})
    amount, city = bids[winner]
    position = position.paid(winner, amount)
    events.append(event("auction_won", player=winner, card=auction.card, lot=auction.lot or city, price=amount))
    if card.kind is CardKind.ART_AUCTION:
        position = position.with_player(winner, art=(*position.players[winner].art, auction.lot))
        return discard(position, card.id)
    if card.kind is CardKind.TACTIC:
        return position.with_player(winner, tactics=(*position.players[winner].tactics, card.id))
    if winner != auction.drawer:
        position = position.with_city(city, owner=winner, status=Status.PROVINCE)
    return discard(position, card.id)


def _bid_problem(
    board: Board, position: Position, colour: str, bid: Bid, auction: Auction, cities: tuple[str, ...]
) -> Msg | None:
    if bid.amount < auction.min_bid:
        return t("the lowest bid is %(bid)s", bid=roman(auction.min_bid))
    if bid.amount > position.players[colour].money:
        return t("more than he has (tax still due does not count, T:118)")
    if cities and bid.city not in cities:
        return t("a province auction bid names one of the drawer's provinces")
    return None


def _circus(board: Board, position: Position, colour: str, card: TradeCard, events: list[Event]) -> Position:
    """T:119: pay the cost; one want (a card first, then a disk on his cities) is lifted."""
    paid = min(card.cost, position.players[colour].money)
    position = position.paid(colour, paid)
    player = position.players[colour]
    lifted = ""
    if player.want_cards:
        lifted = player.want_cards[0]
        position = lift_wants(board, position, colour, [lifted])
    else:
        for city in position.provinces(colour):
            if position.cities[city].want:
                lifted = position.cities[city].want[0]
                position = position.with_city(city, want=position.cities[city].want[1:])
                break
    events.append(event("circus", player=colour, paid=paid, lifted=lifted, rule="M11.6"))
    return position


def _slave_revolt(board: Board, position: Position, colour: str, events: list[Event]) -> Position:
    """T:132: he must pay IV for an army to put it down (MD33: without the money, all he has goes)."""
    price, capital = board.prices["army"], position.capital(colour)
    money = position.players[colour].money
    position = position.paid(colour, min(price, money))
    raised = 0
    if money >= price and capital is not None:
        land = board.cities[capital].land
        mine = position.armies_of(colour)
        if (
            len(mine) < board.limits["armies_per_player"]
            and len(position.armies_at(land)) < board.limits["armies_per_land"]
        ):
            raised = lowest_free(a.number for a in mine)
            army = Army(colour, raised, land, since=position.count)
            position = replace(position, armies=(*position.armies, army))
    events.append(event("slave_revolt", player=colour, paid=min(price, money), army=raised, rule="M11.12"))
    return position


def _army_revolt(position: Position, colour: str, dice: Dice, events: list[Event]) -> Position:
    """T:133, MD31: one of his armies goes, picked by the blue die for the other players."""
    mine = position.armies_of(colour)
    if not mine:
        events.append(event("army_revolt", player=colour, army=0, rule="M11.13"))
        return position
    gone = pick(mine, dice, t("M11.13 army revolt, %(player)s", player=colour))
    events.append(event("army_revolt", player=colour, army=gone.number, rule="M11.13"))
    return replace(position, armies=tuple(a for a in position.armies if a != gone))


def _losses(
    board: Board, position: Position, colour: str, card: TradeCard, dice: Dice, events: list[Event]
) -> Position:
    """Art destruction, warehouse loss, pirates, earthquake (T:120-131): the drawer rolls for each
    piece at risk; with none, the card goes to the next player in seating order who has some (MD32)."""
    start = position.order.index(colour)
    for victim in position.order[start:] + position.order[:start]:
        if _at_risk(board, position, victim, card.kind):
            if victim != colour:
                events.append(event("card_passed", card=card.id, player=victim, drawer=colour, rule="MD32"))
            return _strike(board, position, victim, card, dice, events)
    events.append(event("card_harmless", card=card.id, player=colour, rule="M11.1"))
    return position


def _at_risk(board: Board, position: Position, colour: str, kind: CardKind) -> bool:
    capital = position.capital(colour)
    if kind is CardKind.ART_DESTRUCTION:
        return bool(position.players[colour].art)
    if kind is CardKind.WAREHOUSE_LOSS:
        return capital is not None and any(position.cities[capital].warehouses)
    if kind is CardKind.PIRATES:
        return any(s.cargo for s in position.ships_of(colour))
    return any(position.cities[c].buildings for c, s in position.cities.items() if s.owner == colour)


def _strike(
    board: Board, position: Position, colour: str, card: TradeCard, dice: Dice, events: list[Event]
) -> Position:
    rule = {
        CardKind.ART_DESTRUCTION: "M11.7", CardKind.WAREHOUSE_LOSS: "M11.8", CardKind.PIRATES: "M11.9",
        CardKind.EARTHQUAKE: "M11.11",
    }[card.kind]  # fmt: skip

    def hit(what: str, name: str) -> bool:
        """A roll for one piece at risk: `what` as the event names it (an id), `name` as the roll's
        purpose shows it, by the board's names."""
        roll = blue(
            dice, t("%(rule)s %(card)s, %(player)s %(what)s", rule=rule, card=card.name, player=colour, what=name)
        )
        struck = roll in card.numbers
        events.append(event("loss_roll", player=colour, card=card.id, what=what, roll=roll, lost=struck, rule=rule))
        return struck

    if card.kind is CardKind.ART_DESTRUCTION:
        art = position.players[colour].art
        works = {board.art[a].work for a in art if board.art[a].half}
        pairs = {w for w in works if sum(1 for a in art if board.art[a].work == w) >= 2}
        lost: set[str] = set()
        for a in art:
            if board.art[a].work in pairs:
                continue
            if hit(a, board.art[a].name):
                lost.add(a)
        for work in sorted(pairs):
            if hit(work, work_name(board, work)):
                lost |= {a for a in art if board.art[a].work == work}
        return position.with_player(colour, art=tuple(a for a in art if a not in lost))
    if card.kind is CardKind.PIRATES:
        laden = [s for s in position.ships_of(colour) if s.cargo]
        ship = pick(laden, dice, t("M11.9 pirates, which of %(player)s's ships", player=colour))
        shown = t("ship %(ship)s", ship=ship.number)
        return position.without_ship(ship) if hit(shown, shown) else position
    if card.kind is CardKind.WAREHOUSE_LOSS:
        capital = position.capital(colour)
        assert capital is not None
        houses = [
            tuple(g for g in house if not hit(g, term("card", board.goods[g].name)))
            for house in position.cities[capital].warehouses
        ]
        return position.with_city(capital, warehouses=tuple(h for h in houses if h))
    supply = dict(position.decks.buildings)
    for city, state in position.cities.items():
        if state.owner != colour or not state.buildings:
            continue
        kept = []
        for building in state.buildings:
            if hit(building, term("building", board.buildings[building].name)):
                supply[building] = supply.get(building, 0) + 1
            else:
                kept.append(building)
        position = position.with_city(city, buildings=tuple(kept))
    return replace(position, decks=replace(position.decks, buildings=supply))


def give_card(
    board: Board, position: Position, colour: str, card_id: str, target: str, dice: Dice, events: list[Event]
) -> Position:
    """A gift (T:115-116: the receiver takes its value from the bank) or a coup (T:136: the
    target rolls; 1-3 he takes a new State card of the card's form, 4-6 it goes on to the left)."""
    card = board.trade_cards[card_id]
    position = position.with_player(colour, holding=tuple(h for h in position.players[colour].holding if h != card_id))
    if card.kind is CardKind.GIFT:
        events.append(event("gift", player=colour, to=target, value=card.value, rule="M11.4"))
        return discard(position.paid(target, -card.value), card_id)
    order = position.order
    for _ in range(COUP_ROUNDS * len(order)):
        if position.players[target].state is not None:
            roll = blue(dice, t("M11.15 coup, %(player)s", player=target))
            if roll <= 3:
                events.append(event("coup", player=colour, target=target, roll=roll, fell=True, rule="M11.15"))
                return discard(_new_state(board, position, target, card.form), card_id)
            events.append(event("coup", player=colour, target=target, roll=roll, fell=False, rule="M11.15"))
        target = order[(order.index(target) + 1) % len(order)]
        if not any(position.players[c].state for c in order):
            break
    return discard(position, card_id)


def _new_state(board: Board, position: Position, colour: str, form: str) -> Position:
    """T:136: his State card goes under the deck; he takes the first of the card's form."""
    old = position.players[colour].state
    deck = position.decks.states
    new = next((s for s in deck if board.states[s].form == form), deck[0] if deck else old)
    rest = tuple(s for s in deck if s != new) + ((old,) if old and old != new else ())
    position = replace(position, decks=replace(position.decks, states=rest))
    return position.with_player(colour, state=new)
