"""Validation of trade-phase orders (R5)."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.i18n import t, tn
from adjudicator.rulesets.mare_nostrum.checks import Context, take_index
from adjudicator.rulesets.mare_nostrum.components import (
    Role,
)
from adjudicator.rulesets.mare_nostrum.orders import (
    Give,
    Offer,
    Take,
    TradeSize,
    UlyssesForce,
)

# ---- Trade (R5) ----------------------------------------------------------------------


def check_trade_size(c: Context, order: TradeSize) -> TradeSize:
    c.holds_role(Role.COMMERCE, "R5.1")
    hand = c.position.players[c.civ].hand_size
    if order.size > hand:
        raise c.refuse(
            "R5.1",
            tn(
                "the trade size is at most the %(count)s card in your hand",
                "the trade size is at most the %(count)s cards in your hand",
                hand,
            ),
        )
    return order


def check_offer(c: Context, order: Offer) -> Offer:
    return replace(order, cards=c.ranked_cards(order.cards, "R5.2"))


def check_take(c: Context, order: Take) -> Take:
    choices = take_index()
    choice = c.find(choices, order.choice, t("card"))
    source = None
    if order.source is not None:
        source = c.other_civ(order.source, "R5.3")
        if c.position.players[source].neutral:
            raise c.refuse("R5.2", t("%(civ)s is neutral and does not trade", civ=source))
    return replace(order, choice=choice, source=source)


def check_give(c: Context, order: Give) -> Give:
    c.holds_role(Role.COMMERCE, "R5.5")
    return replace(order, cards=c.ranked_cards(order.cards, "R5.5", check_hand=False))


def check_ulysses(c: Context, order: UlyssesForce) -> UlyssesForce:
    c.own("Ulysses", "R5.6")
    target = c.other_civ(order.target, "R5.6")
    if c.position.players[target].neutral:
        raise c.refuse("R5.6", t("%(civ)s is neutral and does not trade", civ=target))
    return replace(order, target=target)
