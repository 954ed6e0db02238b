"""The trade phase (R5): secret offers revealed together, then the pick chain.

By mail a turn's trade must cost one round of mail, so every player sends his offer and a
ranked list of picking preferences together; the chain is then played out here. When a
player's preferences are exhausted, the default policy (README, "Trade") picks for him:
a commodity he lacks, rarest first; then the commodity he holds fewest of; then tax. Ties
go to the player sitting earliest after the picker in table order. No dice are needed
except to choose cards for a player who offered too few (or nothing).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t, term
from adjudicator.rulesets.kit.offers import pad_by_dice
from adjudicator.rulesets.kit.picking import pick_by_lines
from adjudicator.rulesets.mare_nostrum.components import COMMODITY_CARDS, TAX, Civ, Role
from adjudicator.rulesets.mare_nostrum.orders import Give, Offer, Order, Take, TradeSize, UlyssesForce
from adjudicator.rulesets.mare_nostrum.roles import table_order_from
from adjudicator.rulesets.mare_nostrum.working import Working

DEFAULT_TRADE_SIZE = 3  # D15


def card_preference(card: str, holding: Mapping[str, int]) -> tuple[int, int, int, str]:
    """Default picking order: lacked commodities (rarest first), then held ones (fewest
    held first), then tax."""
    if card == TAX:
        return (2, 0, 0, card)
    return (0 if holding.get(card, 0) == 0 else 1, holding.get(card, 0), COMMODITY_CARDS[card], card)


def default_gift(hand: Mapping[str, int]) -> str | None:
    """D16: the Director's default compensation card: the commodity he holds most copies of
    (then the most common in the game), tax only when he has nothing else."""
    commodities = [c for c, n in hand.items() if c != TAX and n > 0]
    if commodities:
        return sorted(commodities, key=lambda c: (-hand[c], -COMMODITY_CARDS[c], c))[0]
    return TAX if hand.get(TAX, 0) > 0 else None


@dataclass
class _Chain:
    """The state of the pick chain."""

    face_up: dict[Civ, list[str]]
    received: dict[Civ, list[str]]
    given: Counter[Civ] = field(default_factory=Counter)
    picks: list[tuple[Civ, Civ]] = field(default_factory=list)

    def blocked(self, picker: Civ, source: Civ) -> bool:
        """R5.3: after A took from B and B took from A, A must take from a third player."""
        return self.picks[-2:] == [(picker, source), (source, picker)]

    def take(self, picker: Civ, source: Civ, card: str) -> None:
        self.face_up[source].remove(card)
        self.received[picker].append(card)
        self.given[source] += 1
        self.picks.append((picker, source))

    def undo(self, picker: Civ, source: Civ, card: str) -> None:
        self.face_up[source].append(card)
        self.received[picker].remove(card)
        self.given[source] -= 1
        self.picks.pop()


def _orders_of(orders: Sequence[Order], kind: type) -> list[Order]:
    return [o for o in orders if isinstance(o, kind)]


def apply_trade(w: Working, orders: Mapping[Civ, Sequence[Order]], dice: Dice, events: list[Event]) -> None:
    director = w.roles.get(Role.COMMERCE)
    if director is None:
        events.append(event("trade_none", reason=t("nobody is Commerce Director"), rule="R5.1"))
        return
    mine = orders.get(director, ())
    sizes = [o for o in mine if isinstance(o, TradeSize)]
    hand_size = sum(w.players[director].hand.values())
    size = sizes[-1].size if sizes else min(DEFAULT_TRADE_SIZE, hand_size)
    size = min(size, hand_size)
    events.append(event("trade_size", player=director, size=size, defaulted=not sizes, rule="R5.1"))
    if size == 0:
        events.append(event("trade_none", reason=t("the trade size is 0"), rule="R5.7"))
        return
    participants = [c for c in table_order_from(director, w.playing) if sum(w.players[c].hand.values()) >= size]
    for civ in w.playing:
        if civ not in participants:
            events.append(event("trade_sits_out", player=civ, cards=sum(w.players[civ].hand.values()), rule="R5.2"))
    if len(participants) < 2:
        events.append(event("trade_none", reason=t("fewer than two players can offer that many cards"), rule="R5.2"))
        return
    chain = _Chain(
        {c: _offer(w, c, orders.get(c, ()), size, dice, events) for c in participants}, {c: [] for c in participants}
    )
    events.append(event("offers", offers={c: list(chain.face_up[c]) for c in participants}, rule="R5.2"))
    _run_chain(w, director, participants, chain, orders, events)
    for civ in participants:
        if chain.face_up[civ]:
            events.append(event("trade_return", player=civ, cards=list(chain.face_up[civ]), rule="R5.4"))
        w.players[civ].hand.update(chain.face_up[civ])
        w.players[civ].hand.update(chain.received[civ])
    _compensate(w, director, chain, orders.get(director, ()), events)


def _offer(w: Working, civ: Civ, orders: Sequence[Order], size: int, dice: Dice, events: list[Event]) -> list[str]:
    """R5.2: exactly `size` cards, the first ones of the ranked list that are held; the rest by dice."""
    hand = w.players[civ].hand
    offered: list[str] = []
    for order in _orders_of(orders, Offer):
        assert isinstance(order, Offer)
        for item in order.cards:
            for _ in range(item.count):
                if len(offered) < size and hand[item.card] > Counter(offered)[item.card]:
                    offered.append(item.card)
    by_dice = pad_by_dice(offered, hand, size, dice, t("R5.2 card offered for %(civ)s", civ=civ), roll_forced=True)
    if by_dice:
        events.append(event("offer_by_dice", player=civ, cards=by_dice, rule="R5.2"))
    hand.subtract(offered)
    return offered


def _run_chain(
    w: Working,
    director: Civ,
    participants: list[Civ],
    chain: _Chain,
    orders: Mapping[Civ, Sequence[Order]],
    events: list[Event],
) -> None:
    prefs = {c: [o for o in orders.get(c, ()) if isinstance(o, Take)] for c in participants}
    ulysses_owner = w.owner_of("Ulysses")
    ulysses_target = None
    if ulysses_owner in participants:
        forced = [o for o in orders.get(ulysses_owner, ()) if isinstance(o, UlyssesForce)]
        ulysses_target = forced[-1].target if forced else None
    picker = director
    while True:
        holders = [c for c in participants if chain.face_up[c]]
        if not holders:
            events.append(event("trade_end", reason=t("no face-up card is left"), rule="R5.4"))
            return
        if len(holders) == 1:
            events.append(
                event("trade_end", reason=t("only %(civ)s still has face-up cards", civ=holders[0]), rule="R5.4")
            )
            return
        order = table_order_from(picker, participants)[1:]
        sources = [c for c in order if chain.face_up[c] and not chain.blocked(picker, c)]
        if not sources:
            events.append(
                event("trade_end", reason=t("%(civ)s could only complete a second round trip", civ=picker), rule="R5.4")
            )
            return
        source, card, why = _choose(w, picker, sources, chain, prefs[picker])
        chain.take(picker, source, card)
        events.append(event("pick", player=picker, source=source, card=card, why=why, rule="R5.3"))
        if (
            ulysses_target == picker
            and ulysses_owner is not None
            and source != ulysses_owner
            and chain.face_up[ulysses_owner]
        ):
            chain.undo(picker, source, card)
            owner_card = _choose(w, picker, [ulysses_owner], chain, prefs[picker])[1]
            chain.take(picker, ulysses_owner, owner_card)
            events.append(
                event(
                    "ulysses",
                    player=ulysses_owner,
                    target=picker,
                    returned=card,
                    returned_to=source,
                    card=owner_card,
                    rule="R5.6",
                )
            )
            ulysses_target = None
            source = ulysses_owner
        picker = source


def _holding(w: Working, civ: Civ, chain: _Chain) -> Counter[str]:
    return w.players[civ].hand + Counter(chain.received[civ])


def _choose(w: Working, picker: Civ, sources: list[Civ], chain: _Chain, prefs: list[Take]) -> tuple[Civ, str, str]:
    """The picker's first usable preference (used up when it matches), else the default: both
    the best card for him among all that may be taken (`picking.best_pick`)."""
    holding = _holding(w, picker, chain)

    def rank(card: str) -> tuple[int, int, int, str]:
        return card_preference(card, holding)

    def offered(source: Civ) -> list[str]:
        return chain.face_up[source]

    source, card, line = pick_by_lines(sources, offered, rank, prefs, _accepts)
    return source, card, _why(line) if line is not None else t("default choice")


def _why(pref: Take) -> str:
    """Which of his `take` lines chose the card: its number, and the class it named if it named one
    (the card and the player are in the sentence already), in the reader's language."""
    if pref.choice in ("any", "commodity"):
        return t("line %(line)s: %(choice)s", line=pref.line, choice=term("choice", pref.choice))
    return t("line %(line)s", line=pref.line)


def _accepts(choice: str, card: str) -> bool:
    """Whether a `take` line's choice takes this card: any, any commodity, or the card it names."""
    return choice == "any" or (choice == "commodity" and card != TAX) or card == choice


def _compensate(w: Working, director: Civ, chain: _Chain, orders: Sequence[Order], events: list[Event]) -> None:
    """R5.5: the player left one card short gets one of the Director's cards."""
    short = [c for c in chain.received if len(chain.received[c]) < chain.given[c]]
    if not short:
        return
    (civ,) = short
    hand = w.players[director].hand
    gift = next((item.card for o in orders if isinstance(o, Give) for item in o.cards if hand[item.card] > 0), None)
    chosen_by = t("ranked give order") if gift else t("default choice (D16)")
    gift = gift or default_gift(hand)
    if gift is None:
        events.append(
            event("compensation", player=director, to=civ, card=None, why=t("the Director has no card"), rule="R5.5")
        )
        return
    hand[gift] -= 1
    w.players[civ].hand[gift] += 1
    events.append(event("compensation", player=director, to=civ, card=gift, why=chosen_by, rule="R5.5"))
