"""Income at the start of the trade phase (R4), paid from a finite bank (R1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from adjudicator.core.events import Event, event
from adjudicator.rulesets.mare_nostrum.components import COMMODITY_CARDS, TAX, Civ
from adjudicator.rulesets.mare_nostrum.model import Position, ProvinceState
from adjudicator.rulesets.mare_nostrum.roles import table_order_from


def holder(province: ProvinceState, key: str) -> Civ | None:
    """R4, R8.6: an occupying legion takes the income of what it stands on."""
    return province.occupied.get(key, province.influence)


def income_due(position: Position, artemis: Mapping[Civ, str]) -> dict[Civ, Counter[str]]:
    """What every playing civilization is owed this turn, before the bank is asked."""
    playing = set(position.playing)
    due: dict[Civ, Counter[str]] = {civ: Counter() for civ in position.playing}
    for province in position.provinces.values():
        for key, card, doubler in (
            *((f"city:{site}", TAX, "temple") for site in province.cities),
            *((f"caravan:{icon}", icon, "market") for icon in province.caravans),
        ):
            civ = holder(province, key)
            if civ not in playing:
                continue  # R2.3: neutral civilizations never collect
            doubled = getattr(province, doubler) and holder(province, doubler) == civ
            due[civ][card] += 2 if doubled else 1
    for civ in position.playing:
        cards = position.players[civ].cards
        if "Colossus" in cards:
            due[civ][TAX] += 1
        if "Temple of Artemis" in cards:
            due[civ][artemis.get(civ) or default_artemis_choice(position, civ)] += 1
    return due


def default_artemis_choice(position: Position, civ: Civ) -> str:
    """R4: a commodity the owner does not hold, rarest first (then alphabetical)."""
    hand = position.players[civ].hand
    ranked = sorted(COMMODITY_CARDS, key=lambda c: (hand.get(c, 0) > 0, COMMODITY_CARDS[c], c))
    return ranked[0]


def resolve_income(
    position: Position, artemis: Mapping[Civ, str], finite_bank: bool = True
) -> tuple[Position, list[Event]]:
    """Pay R4 income; where the bank runs short, civilizations are paid in table order (D10),
    unless the bank is unlimited (option finite_bank = false): then cards are added."""
    due = income_due(position, artemis)
    bank = position.bank()
    extra = Counter(position.extra_cards)
    hands = {civ: Counter(p.hand) for civ, p in position.players.items()}
    events: list[Event] = []
    for civ in table_order_from(None, position.playing):
        paid: dict[str, int] = {}
        short: dict[str, int] = {}
        for card in sorted(due[civ], key=lambda c: (c != TAX, c)):
            if not finite_bank and bank[card] < due[civ][card]:
                extra[card] += due[civ][card] - bank[card]
                bank[card] = due[civ][card]
            amount = min(due[civ][card], bank[card])
            bank[card] -= amount
            hands[civ][card] += amount
            if amount:
                paid[card] = amount
            if amount < due[civ][card]:
                short[card] = due[civ][card] - amount
        events.append(event("income", player=civ, cards=dict(paid), short=dict(short), rule="R4"))
    players = {
        civ: replace(player, hand={c: n for c, n in sorted(hands[civ].items()) if n})
        for civ, player in position.players.items()
    }
    return replace(position, players=players, extra_cards={c: n for c, n in sorted(extra.items()) if n}), events
