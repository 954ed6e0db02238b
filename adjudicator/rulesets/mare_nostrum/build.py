"""The build phase (R6): purchases in the Political Leader's sequence, placement rules,
payment by sets, Cleopatra, end-of-phase keeps, and victory after every purchase (R10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass

from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t, term
from adjudicator.rulesets.kit.payment import CardSet, plan_payment, set_problem
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import (
    BUILDING_SUPPLY,
    CARDS_TO_WIN,
    COMMODITY_CARDS,
    GENERAL_HEROES,
    HERO_COST,
    PIECE_COST,
    PIECE_NAMES,
    PYRAMIDS,
    PYRAMIDS_COST,
    TAX,
    UNIT_STOCK,
    WONDERS,
    Building,
    Civ,
    Piece,
    ProvinceId,
    together,
)
from adjudicator.rulesets.mare_nostrum.geography import borders_held
from adjudicator.rulesets.mare_nostrum.orders import Build, Buy, CardCount, Exchange, Keep, Order
from adjudicator.rulesets.mare_nostrum.working import Working

MAUSOLEUM_COST = {Piece.CITY: 2, Piece.CARAVAN: 2, Piece.TEMPLE: 5, Piece.MARKET: 5}


@dataclass(frozen=True, slots=True)
class Purchase:
    """One item to buy: a piece (one of a `build N …` order) or a hero/wonder card."""

    order: Build | Buy
    card: str | None = None  # resolved hero or wonder

    @property
    def line(self) -> int:
        return self.order.line

    @property
    def payment(self) -> tuple[CardCount, ...] | None:
        return self.order.payment

    def describe(self, board: Board) -> str:
        """What is bought, for the events: a card's name, or `legion in Roma` (a message; the map
        reads the piece and the place from its English text)."""
        if isinstance(self.order, Buy):
            return self.card or self.order.card
        where = board.provinces[ProvinceId(self.order.province or "")].name if self.order.province else "?"
        # NOTE: what a player buys: a kind of piece in a province ("legion in Roma").
        return t("%(piece)s in %(province)s", piece=PIECE_NAMES[self.order.piece], province=where)


@dataclass
class BuildTurn:
    """One player's build turn: what he placed where, to enforce R6.4's same-turn rule."""

    civ: Civ
    influence_placed: set[ProvinceId]


# R6.2, R9: the cards that lower a piece's price, and the price each gives the pieces it lowers.
# No two lower the same piece, so a piece has at most one discount.
DISCOUNTS: dict[str, dict[Piece, int]] = {
    "Mausoleum": MAUSOLEUM_COST,
    "Julius Caesar": {Piece.LEGION: 2, Piece.FORTRESS: 2},
    "Pericles": {Piece.TRIREME: 2},
}


def piece_cost(piece: Piece, owned: Container[str], free_influence: bool = False) -> int:
    """R6.2's price of one piece to a player owning the cards `owned` (the Mausoleum, Caesar,
    Pericles; Hammurabi's free marker when `free_influence`). The one answer the order form, the
    check and the engine give: a form once showed Caesar's legion at 3 and charged 2 (issue 28)."""
    if piece is Piece.INFLUENCE and free_influence:
        return 0
    card = discount_card(piece, owned)
    return DISCOUNTS[card][piece] if card is not None else PIECE_COST[piece]


def discount_card(piece: Piece, owned: Container[str]) -> str | None:
    """The card that lowers this piece's price for its owner, to name beside the price."""
    return next((card for card, prices in DISCOUNTS.items() if card in owned and piece in prices), None)


def card_cost(card: str) -> int:
    """R6.6: the price of a hero or wonder card (the Pyramids cost more than the others)."""
    return PYRAMIDS_COST if card == PYRAMIDS else HERO_COST


def frees_influence(owned: Container[str], used: Container[str]) -> bool:
    """Whether the next influence marker is Hammurabi's free one (R6.2): the first of the phase."""
    return "Hammurabi" in owned and "Hammurabi" not in used


def cost_of(w: Working, civ: Civ, purchase: Purchase, hammurabi_free: bool) -> int:
    """What this purchase costs `civ` now (R6.2, R6.6)."""
    if isinstance(purchase.order, Buy):
        return card_cost(purchase.card or purchase.order.card)
    return piece_cost(purchase.order.piece, w.players[civ].cards, hammurabi_free)


def expand(orders: Sequence[Order]) -> list[Purchase]:
    purchases: list[Purchase] = []
    for order in orders:
        if isinstance(order, Build):
            purchases += [Purchase(order)] * order.count
        elif isinstance(order, Buy):
            purchases.append(Purchase(order, order.card))
    return purchases


def placement_problem(w: Working, board: Board, turn: BuildTurn, purchase: Purchase) -> str | None:
    """Why this purchase cannot be made now (with its rule), or None."""
    civ = turn.civ
    if isinstance(purchase.order, Buy):
        return _card_problem(w, board, civ, purchase.card or "")
    order = purchase.order
    pid = ProvinceId(order.province or "")
    province, info = w.provinces[pid], board.provinces[pid]
    if order.piece is Piece.INFLUENCE:
        return _influence_problem(w, board, civ, pid)
    capital = board.civilizations[civ].capital == pid
    if province.influence != civ:
        return t("R6.3: you have no influence in %(province)s", province=info.name)
    if pid in turn.influence_placed:
        return t(
            "R6.4: influence was placed in %(province)s this turn; nothing else is built there this turn",
            province=info.name,
        )
    if not capital and (problem := under_enemy_units(province.military(), civ, info.name)):
        return t("R6.3: %(problem)s", problem=problem)
    if not capital and any(o != civ for o in province.occupied.values()):
        return t("R6.3: %(province)s is occupied by an enemy", province=info.name)
    supply = BUILDING_SUPPLY[len(w.playing)]
    match order.piece:
        case Piece.CITY:
            free = [s for s in info.cities if s not in province.cities]
            if (order.site is not None and order.site not in free) or not free:
                return t("R6.5: no free city site in %(province)s", province=info.name)
            if sum(len(p.cities) for p in w.provinces.values()) >= supply[Building.CITY]:
                return t("R1.3: no city token left in the supply")
        case Piece.CARAVAN:
            free = [i for i in info.commodities if i not in province.caravans]
            if (order.commodity is not None and order.commodity not in free) or not free:
                if order.commodity is None:
                    return t("R6.5: no free commodity icon in %(province)s", province=info.name)
                return t(
                    "R6.5: no free %(commodity)s icon in %(province)s",
                    commodity=term("card", order.commodity),
                    province=info.name,
                )
            if sum(len(p.caravans) for p in w.provinces.values()) >= supply[Building.CARAVAN]:
                return t("R1.3: no caravan token left in the supply")
        case Piece.TEMPLE | Piece.MARKET:
            temple = order.piece is Piece.TEMPLE
            if getattr(province, order.piece):
                if temple:
                    return t("R6.5: %(province)s already has a temple", province=info.name)
                return t("R6.5: %(province)s already has a market", province=info.name)
            if sum(1 for p in w.provinces.values() if getattr(p, order.piece)) >= supply[Building(order.piece)]:
                return (
                    t("R1.3: no temple token left in the supply")
                    if temple
                    else t("R1.3: no market token left in the supply")
                )
        case Piece.FORTRESS:
            limit = 2 if w.has(civ, "Statue of Zeus") else 1
            if sum(province.fortresses.values()) >= limit:
                if limit == 2:
                    return t("R6.5: %(province)s already has two fortresses", province=info.name)
                return t("R6.5: %(province)s already has a fortress", province=info.name)
        case Piece.TRIREME:
            if not info.coastal:
                return t("R6.5: %(province)s has no coast", province=info.name)
    units = (Piece.FORTRESS, Piece.LEGION, Piece.TRIREME)
    if order.piece in units and w.units_on_board(civ, order.piece) >= UNIT_STOCK[order.piece]:
        return {
            Piece.FORTRESS: t("R1: no fortress left in your stock"),
            Piece.LEGION: t("R1: no legion left in your stock"),
            Piece.TRIREME: t("R1: no trireme left in your stock"),
        }[order.piece]
    return None


def under_enemy_units(military: set[Civ], civ: Civ, name: str, influence: bool = False) -> str | None:
    """Why R6.3 forbids it: nobody builds, or places influence, where another player's (or a
    neutral's) legions or fortresses stand: at war, sacked, occupied or being converted."""
    others = sorted(military - {civ})
    if not others:
        return None
    if influence:
        return t(
            "%(civs)s's units stand in %(province)s; nobody places influence under another player's units",
            civs=together(others),
            province=name,
        )
    return t(
        "%(civs)s's units stand in %(province)s; nobody builds under another player's units",
        civs=together(others),
        province=name,
    )


def _influence_problem(w: Working, board: Board, civ: Civ, pid: ProvinceId) -> str | None:
    province, name = w.provinces[pid], board.provinces[pid].name
    if w.units_on_board(civ, "influence") >= UNIT_STOCK["influence"]:
        return t("R1: no influence marker left in your stock")
    if province.influence == civ:
        return t("R6.4: you already have influence in %(province)s", province=name)
    if province.influence is not None:
        if province.converting != civ or province.legions[civ] < 1:
            return t("R6.4: %(province)s holds %(civ)s's influence", province=name, civ=province.influence)
        if board.civilizations[province.influence].capital == pid:
            return t("R8.7: %(province)s is a capital and can never be converted", province=name)
    if problem := under_enemy_units(province.military(), civ, name, influence=True):
        return t("R6.3: %(problem)s", problem=problem)
    if w.has(civ, "Lighthouse"):
        return None
    if borders_held(board, w.held.get(civ, ()), [sid for sid, t in w.seas.items() if t[civ] > 0], pid):
        return None
    return t("R6.4: %(province)s does not border a province you held at the start of the turn", province=name)


def _card_problem(w: Working, board: Board, civ: Civ, card: str) -> str | None:
    hero_of = board.heroes.get(card)
    if hero_of is not None and hero_of != civ:
        return t("R6.6: %(card)s is %(civ)s's civilization hero", card=card, civ=hero_of)
    if hero_of is None and card not in GENERAL_HEROES and card not in WONDERS:
        return t("R9: %(card)s is not a hero or wonder", card=card)
    owner = w.owner_of(card)
    if owner is not None:
        return t("R6.6: %(card)s already belongs to %(civ)s", card=card, civ=owner)
    return None


def apply_purchase(w: Working, board: Board, turn: BuildTurn, purchase: Purchase) -> dict[str, str]:
    """Place the piece or take the card; returns details for the event."""
    civ = turn.civ
    if isinstance(purchase.order, Buy):
        w.players[civ].cards.append(purchase.card or "")
        return {}
    order = purchase.order
    pid = ProvinceId(order.province or "")
    province, info = w.provinces[pid], board.provinces[pid]
    match order.piece:
        case Piece.INFLUENCE:
            details = {"converted_from": str(province.influence)} if province.influence else {}
            province.influence, province.converting = civ, None
            province.occupied = {k: o for k, o in province.occupied.items() if o != civ}
            turn.influence_placed.add(pid)
            return details
        case Piece.CITY:
            site = order.site or next(s for s in info.cities if s not in province.cities)
            province.cities.append(site)
            return {"site": site}
        case Piece.CARAVAN:
            icon = order.commodity or next(i for i in info.commodities if i not in province.caravans)
            province.caravans.append(icon)
            return {"commodity": icon}
        case Piece.TEMPLE:
            province.temple = True
        case Piece.MARKET:
            province.market = True
        case Piece.FORTRESS:
            province.fortresses[civ] += 1
        case Piece.LEGION:
            province.legions[civ] += 1
        case Piece.TRIREME:
            province.port[civ] += 1
    return {}


def winner_after_purchase(w: Working, civ: Civ) -> str | None:
    """R10: the Pyramids, or four heroes and wonders, win at once."""
    cards = w.players[civ].cards
    if PYRAMIDS in cards:
        return t("built the Pyramids")
    if len(cards) >= CARDS_TO_WIN:
        return t("owns %(count)s heroes and wonders", count=len(cards))
    return None


def _explicit_set(payment: Sequence[CardCount]) -> CardSet:
    return Counter({c.card: c.count for c in payment})


def _spend(w: Working, civ: Civ, cards: CardSet) -> None:
    w.return_to_bank(civ, cards)


def apply_build_turn(w: Working, board: Board, civ: Civ, orders: Sequence[Order], events: list[Event]) -> None:
    """One player's build turn, orders in line order; purchases without `with` are paid by
    a plan re-made before each purchase over everything still to buy (payment.py)."""
    turn = BuildTurn(civ, set())
    purchases = expand(orders)
    done: set[int] = set()
    for order in orders:
        if w.winner is not None:
            return
        if isinstance(order, Exchange):
            _exchange(w, civ, order, events)
            continue
        if not isinstance(order, Build | Buy):
            continue
        for index, purchase in enumerate(purchases):
            if purchase.order is order and index not in done:
                done.add(index)
                _purchase(w, board, turn, purchase, purchases[index + 1 :], events)
                if w.winner is not None:
                    return


def _purchase(
    w: Working, board: Board, turn: BuildTurn, purchase: Purchase, later: Sequence[Purchase], events: list[Event]
) -> None:
    civ = turn.civ
    what = purchase.describe(board)
    problem = placement_problem(w, board, turn, purchase)
    if problem:
        events.append(event("purchase_skipped", player=civ, line=purchase.line, item=what, reason=problem))
        return
    free = (
        isinstance(purchase.order, Build)
        and purchase.order.piece is Piece.INFLUENCE
        and frees_influence(w.players[civ].cards, w.used)
    )
    cost = cost_of(w, civ, purchase, free)
    hand = w.players[civ].hand
    if purchase.payment:
        cards = _explicit_set(purchase.payment)
        problem = set_problem(cards, cost)
        if problem is None and any(hand[c] < n for c, n in cards.items()):
            problem = t("you no longer hold those cards")
        if problem:
            reason = t("R6.1: %(problem)s", problem=problem)
            events.append(event("purchase_skipped", player=civ, line=purchase.line, item=what, reason=reason))
            return
    elif cost == 0:
        cards = Counter()
    else:
        reserved = Counter[str]()
        for other in later:
            if other.payment:
                reserved.update(_explicit_set(other.payment))
        available = Counter({c: max(0, n - reserved[c]) for c, n in hand.items()})
        costs = [cost] + [cost_of(w, civ, p, False) for p in later if not p.payment]
        plan = plan_payment(available, costs)
        if not plan:
            reason = t("R6.1: your cards cannot make a set worth %(cost)s", cost=cost)
            events.append(event("purchase_skipped", player=civ, line=purchase.line, item=what, reason=reason))
            return
        cards = plan[0]
    if free:
        w.used.append("Hammurabi")
    _spend(w, civ, cards)
    details = apply_purchase(w, board, turn, purchase)
    events.append(
        event(
            "purchase",
            player=civ,
            line=purchase.line,
            item=what,
            cost=cost,
            paid=dict(sorted(cards.items())),
            free=free,
            **details,
        )
    )
    victory = winner_after_purchase(w, civ)
    if victory:
        w.winner = civ
        events.append(event("victory", player=civ, reason=victory, rule="R10"))


def _exchange(w: Working, civ: Civ, order: Exchange, events: list[Event]) -> None:
    """R6.7: once per build phase, one commodity for one tax card with the bank, or back."""
    hand = w.players[civ].hand
    reason = None
    if not w.has(civ, "Cleopatra"):
        reason = t("R6.7: you do not own Cleopatra")
    elif "Cleopatra" in w.used:
        reason = t("R6.7: Cleopatra exchanges once per build phase")
    elif hand[order.give] < 1:
        reason = t("R6.7: you hold no %(card)s", card=term("card", order.give))
    elif w.finite_bank and w.bank[order.get] < 1:
        reason = t("R1: the bank has no %(card)s card", card=term("card", order.get))
    if reason:
        events.append(event("exchange_skipped", player=civ, line=order.line, reason=reason))
        return
    w.used.append("Cleopatra")
    w.return_to_bank(civ, Counter({order.give: 1}))
    w.give_from_bank(civ, order.get)
    events.append(event("exchange", player=civ, line=order.line, gave=order.give, got=order.get))


def apply_end_of_build(
    w: Working, keeps: dict[Civ, Sequence[Keep]], events: list[Event], only: Civ | None = None
) -> None:
    """R6.8: keep at most two tax cards (Hanging Gardens: and one commodity); discard the rest."""
    for civ in [only] if only is not None else w.playing:
        hand = w.players[civ].hand
        gardens = w.has(civ, "Hanging Gardens")
        wanted: Counter[str] = Counter()
        for keep in keeps.get(civ, ()):
            for item in keep.cards:
                wanted[item.card] += item.count
        tax = min(hand[TAX], wanted[TAX] if keeps.get(civ) else 2, 2)
        kept = Counter({TAX: tax}) if tax else Counter()
        if gardens:
            held = [c for c in hand if c != TAX and hand[c] > 0]
            chosen = (
                [c for c in wanted if c != TAX and c in held]
                if keeps.get(civ)
                else sorted(held, key=lambda c: (COMMODITY_CARDS[c], c))
            )
            if chosen:
                kept[chosen[0]] = 1
        discarded = hand - kept
        w.return_to_bank(civ, discarded)
        if discarded or kept:
            events.append(
                event(
                    "end_of_build",
                    player=civ,
                    kept=dict(sorted(kept.items())),
                    discarded=dict(sorted(discarded.items())),
                    rule="R6.8",
                )
            )
