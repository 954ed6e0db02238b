"""The empire's lines and bills (M5-M8): founding, the turn's tax and upkeep, bankruptcy,
buildings, warehouses, art patronage, raising armies and making a taken city a province."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.i18n import t
from adjudicator.rulesets.mediterraneum.board import BuildingKind
from adjudicator.rulesets.mediterraneum.model import Army, Status, lowest_free, tax_round_began, taxing
from adjudicator.rulesets.mediterraneum.orders import WAREHOUSE, Build, Found, Patron, RaiseArmy, Upgrade
from adjudicator.rulesets.mediterraneum.prices import cost
from adjudicator.rulesets.mediterraneum.turn_state import Turn


def found(turn: Turn, order: Found) -> None:
    """T:43-46, T:60: the tower on one of his provinces; a dormant capital wakes for the same X."""
    text, position = turn.shown(order), turn.position
    state = position.cities[order.city]
    name = turn.board.cities[order.city].name
    if position.capital(turn.colour) is not None:
        turn.refuse(text, t("he has an empire already"), "M5.1")
        return
    if state.owner != turn.colour or state.status is not Status.PROVINCE:
        turn.refuse(text, t("%(city)s is not his province", city=name), "M5.1")
        return
    price = cost(turn.board, position, turn.colour, order)
    if not turn.pay(order, "M5.1"):
        return
    turn.position = turn.position.with_city(order.city, status=Status.CAPITAL, dormant=False)
    player = turn.position.players[turn.colour]
    state_card = player.state
    if state_card is None and turn.position.decks.states:
        state_card = turn.position.decks.states[0]
        decks = replace(turn.position.decks, states=turn.position.decks.states[1:])
        turn.position = replace(turn.position, decks=decks)
    turn.position = turn.position.with_player(turn.colour, state=state_card, founded_at=turn.position.count)
    turn.position = replace(turn.position, founded=True)
    turn.note("founded", city=name, price=price, restored=state.dormant, rule="M5.1")
    if turn.position.stone is None:
        turn.position = replace(turn.position, stone=0, stone_owner=turn.colour)
        turn.note("stone_placed", space=turn.board.tax_chart[0], rule="M5.2")


def collect(turn: Turn) -> None:
    """M3.9: before his lines, the tax due is credited (none on a founding turn, T:45), then a tax
    turn's upkeep is paid (T:68, T:75), plundering armies free (T:83); short, he goes bankrupt (T:60)."""
    position = turn.position
    if position.founded:
        if position.due:
            turn.note("tax_forfeit", due=position.due, rule="M5.3")
    elif position.due:
        turn.position = position.paid(turn.colour, -position.due)
        turn.note("tax_collected", amount=position.due, rule="M3.9")
    turn.position = replace(turn.position, due=0)
    if not taxing(turn.board, turn.position):
        return
    armies = [a for a in turn.position.armies_of(turn.colour) if a.at not in turn.board.cities]
    artist = turn.position.players[turn.colour].patron is not None
    bill = len(armies) * turn.board.prices["army_upkeep"] + artist * turn.board.prices["artist_upkeep"]
    if not bill:
        return
    if bill <= turn.money:
        turn.position = turn.position.paid(turn.colour, bill)
        turn.note("upkeep", armies=len(armies), artist=artist, amount=bill, rule="M6.5")
        return
    bankrupt(turn, bill, [a.number for a in armies])


def bankrupt(turn: Turn, bill: int, paying: list[int]) -> None:
    """T:60, MD19: all his money goes on the armies he can keep, the lowest numbers; the others
    (the highest numbers) are disbanded and the artist dismissed for good; his capital is a
    province again, its buildings, his art and warehouses dormant until X wakes them."""
    upkeep = turn.board.prices["army_upkeep"]
    kept = min(len(paying), turn.money // upkeep) if upkeep else len(paying)
    lost = sorted(paying)[kept:]
    capital = turn.position.capital(turn.colour)
    armies = tuple(a for a in turn.position.armies if not (a.owner == turn.colour and a.number in lost))
    turn.position = replace(turn.position, armies=armies).with_player(turn.colour, money=0, patron=None)
    if capital is not None:
        turn.position = turn.position.with_city(capital, status=Status.PROVINCE, dormant=True)
    city = turn.board.cities[capital].name if capital else ""
    turn.note("bankrupt", bill=bill, city=city, armies=lost, rule="M6.6")


def build(turn: Turn, order: Build) -> None:
    text = turn.shown(order)
    capital = turn.position.capital(turn.colour)
    if capital is None:
        turn.refuse(text, t("he builds only once he has founded his empire"), "M7.1")
        return
    if order.building == WAREHOUSE:
        if turn.pay(order, "M7.8"):
            houses = (*turn.position.cities[capital].warehouses, ())
            turn.position = turn.position.with_city(capital, warehouses=houses)
            turn.note(
                "warehouse_built",
                city=turn.board.cities[capital].name,
                price=turn.board.prices["warehouse"],
                rule="M7.8",
            )
        return
    building = turn.board.buildings[order.building]
    have = [turn.board.buildings[b] for b in turn.position.cities[capital].buildings]
    if turn.built:
        turn.refuse(text, t("one building a turn (T:73)"), "M7.1")
    elif turn.position.decks.buildings.get(building.id, 0) <= 0:
        turn.refuse(text, t("no %(building)s is left to build", building=building.name), "M7.1")
    elif building.kind is BuildingKind.DEFENCE and any(b.id == building.id for b in have):
        turn.refuse(text, t("he has a %(building)s already; one of each (T:74)", building=building.name), "M7.3")
    elif building.kind is BuildingKind.TEMPLE and any(b.temple == building.temple for b in have):
        if building.temple == "big":
            turn.refuse(text, t("he has a big temple already; one of each size (T:74)"), "M7.3")
        else:
            turn.refuse(text, t("he has a little temple already; one of each size (T:74)"), "M7.3")
    elif turn.pay(order, "M7.1"):
        turn.built = True
        supply = dict(turn.position.decks.buildings)
        supply[building.id] -= 1
        turn.position = replace(turn.position, decks=replace(turn.position.decks, buildings=supply))
        built = (*turn.position.cities[capital].buildings, building.id)
        turn.position = turn.position.with_city(capital, buildings=built)
        turn.note("built", building=building.id, price=building.cost, rule="M7.1")


def patron(turn: Turn, order: Patron) -> None:
    """T:51, T:68: the patronage card on offer, once in a game."""
    text = turn.shown(order)
    player, deck = turn.position.players[turn.colour], turn.position.decks.patronage
    if turn.position.capital(turn.colour) is None:
        turn.refuse(text, t("art patronage comes with an empire"), "M7.4")
    elif player.patronised:
        turn.refuse(text, t("each player buys one art patronage card in a game (T:51)"), "M7.4")
    elif not deck:
        turn.refuse(text, t("no art patronage card is left"), "M7.4")
    elif turn.pay(order, "M7.4"):
        turn.position = turn.position.with_player(turn.colour, patron=deck[0], patronised=True)
        turn.position = replace(turn.position, decks=replace(turn.position.decks, patronage=deck[1:]))
        turn.note("patron", card=deck[0], price=turn.board.patronage[deck[0]].cost, rule="M7.4")


def dismiss(turn: Turn, text: str) -> None:
    if turn.position.players[turn.colour].patron is None:
        turn.refuse(text, t("he has no artist"), "M7.5")
    else:
        turn.dismiss = True


def end_patronage(turn: Turn) -> None:
    """M7.5: the artist leaves at the end of the turn, before the next tax dice (T:70)."""
    card = turn.position.players[turn.colour].patron
    if turn.dismiss and card:
        turn.position = turn.position.with_player(turn.colour, patron=None)
        turn.note("artist_dismissed", card=card, rule="M7.5")


def raise_army(turn: Turn, order: RaiseArmy) -> None:
    """T:75: IV, in any turn from the first tax round that began after his founding, into the
    capital's land."""
    text, position, limits = turn.shown(order), turn.position, turn.board.limits
    capital = position.capital(turn.colour)
    if capital is None:
        turn.refuse(text, t("armies are raised by an empire"), "M8.1")
        return
    land = turn.board.cities[capital].land
    began = tax_round_began(turn.board, position)
    if began is None or began <= position.players[turn.colour].founded_at:
        turn.refuse(text, t("armies are raised from the first tax round that begins after his founding (T:75)"), "M8.1")
    elif len(position.armies_of(turn.colour)) + turn.new_armies >= limits["armies_per_player"]:
        turn.refuse(text, t("he has all his %(count)s armies", count=limits["armies_per_player"]), "M1.3")
    elif len(position.armies_at(land)) + turn.new_armies >= limits["armies_per_land"]:
        turn.refuse(
            text,
            t(
                "%(land)s holds %(count)s armies at most",
                land=turn.board.lands[land].name,
                count=limits["armies_per_land"],
            ),
            "M1.3",
        )
    elif turn.pay(order, "M8.1"):
        turn.new_armies += 1


def place_new_armies(turn: Turn) -> None:
    capital = turn.position.capital(turn.colour)
    if capital is None:
        return
    land = turn.board.cities[capital].land
    for _ in range(turn.new_armies):
        number = lowest_free(a.number for a in turn.position.armies_of(turn.colour))
        army = Army(turn.colour, number, land, since=turn.position.count)
        turn.position = replace(turn.position, armies=(*turn.position.armies, army))
        turn.note(
            "army_raised", army=number, land=turn.board.lands[land].name, price=turn.board.prices["army"], rule="M8.1"
        )


def upgrade(turn: Turn, order: Upgrade) -> None:
    """T:83-84: a taken city his army has left becomes a province for I."""
    text, state = turn.shown(order), turn.position.cities[order.city]
    name = turn.board.cities[order.city].name
    if state.owner != turn.colour or state.status is not Status.TAKEN:
        turn.refuse(text, t("%(city)s is not a city he has taken", city=name), "M8.6")
    elif turn.position.armies_at(order.city):
        turn.refuse(
            text, t("his army is still in %(city)s; it becomes a province once the army leaves", city=name), "M8.6"
        )
    elif turn.pay(order, "M8.6"):
        turn.position = turn.position.with_city(order.city, status=Status.PROVINCE)
        turn.note("upgraded", city=name, price=turn.board.prices["upgrade"], rule="M8.6")
