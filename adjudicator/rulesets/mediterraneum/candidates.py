"""Mare Mediterraneum order forms: the orders a player could give next, one complete line each,
written with the board's names. Proposed broadly here; the generic form code keeps only those the
validator accepts, and the validator rehearses each with the engine's own code (rehearsal.py), so
a line offered is one the engine carries out from the position the player sees, its own dice
aside. A note gives the line's price as the engine charges it (`prices.cost`)."""

from __future__ import annotations

from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.kit.odds import chances_note, with_odds
from adjudicator.rulesets.mediterraneum import orders as order_types
from adjudicator.rulesets.mediterraneum.board import Board, CardKind
from adjudicator.rulesets.mediterraneum.geography import sea_of, ship_neighbours, space_name
from adjudicator.rulesets.mediterraneum.model import HARBOUR, Army, Phase, Position, Ship, Status, city_of_space
from adjudicator.rulesets.mediterraneum.navy import CaptureOutcome, capture_odds, is_warship
from adjudicator.rulesets.mediterraneum.orders import WAREHOUSE, roman
from adjudicator.rulesets.mediterraneum.prices import cost
from adjudicator.rulesets.mediterraneum.war import (
    CityOutcome,
    FieldOutcome,
    city_need,
    city_odds,
    field_bonuses,
    field_odds,
)

Candidate = tuple[str, str]  # (order text, a note shown after it as a comment)


def form_candidates(board: Board, position: Position, colour: str) -> list[Candidate]:
    if position.winner is not None or colour not in position.players:
        return []
    if position.phase is Phase.AUCTION:
        return _auction(board, position)
    if colour != position.step:
        return []
    lines = _empire(board, position, colour) + _ships(board, position, colour) + _armies(board, position, colour)
    lines += _cards(board, position, colour)
    lines.append(("pass", t("do nothing this turn (M3.3)")))
    return list(dict.fromkeys(lines))


def _auction(board: Board, position: Position) -> list[Candidate]:
    auction = position.auctions[0]
    card = board.trade_cards[auction.card]
    if card.kind is CardKind.PROVINCE_AUCTION:
        cities = [c for c, s in position.cities.items() if s.owner == auction.drawer and s.status is Status.PROVINCE]
        return [
            (
                f"bid {roman(auction.min_bid)} for {board.cities[c].name}",
                t("the lowest bid; name the province (M11.14)"),
            )
            for c in cities
        ]
    return [(f"bid {roman(auction.min_bid)}", t("the lowest bid for %(card)s (M3.5)", card=card.name))]


def _empire(board: Board, position: Position, colour: str) -> list[Candidate]:
    player = position.players[colour]
    capital = position.capital(colour)
    lines: list[Candidate] = []

    def priced(text: str, order: order_types.Order, rule: str) -> None:
        lines.append((text, _costs(cost(board, position, colour, order), rule)))

    own = [c for c, s in position.cities.items() if s.owner == colour]
    if capital is None:
        for city in [c for c in own if position.cities[c].status is Status.PROVINCE]:
            priced(f"found empire at {board.cities[city].name}", order_types.Found(city), "M5.1")
    for city in own:
        priced(f"buy ship at {board.cities[city].name}", order_types.BuyShip(city), "M4.2")
    if capital is not None:
        for building in [b for b, n in position.decks.buildings.items() if n]:
            priced(f"build {board.buildings[building].name}", order_types.Build(building), "M7.1")
        priced(f"build {WAREHOUSE}", order_types.Build(WAREHOUSE), "M7.8")
        upkeep = t(
            "costs %(price)s, upkeep %(upkeep)s (M8.1)",
            price=roman(cost(board, position, colour, order_types.RaiseArmy())),
            upkeep=roman(board.prices["army_upkeep"]),
        )
        lines.append(("raise army", upkeep))
        if not player.patronised and position.decks.patronage:
            card = board.patronage[position.decks.patronage[0]]
            price = roman(cost(board, position, colour, order_types.Patron()))
            lines.append(("patron", t("%(card)s, costs %(price)s (M7.4)", card=card.name, price=price)))
        if player.patron:
            lines.append(("dismiss artist", t("for good (M7.5)")))
    for taken, state in position.cities.items():
        if state.status is Status.TAKEN and state.owner == colour and not position.armies_at(taken):
            priced(f"upgrade {board.cities[taken].name}", order_types.Upgrade(taken), "M8.6")
    return lines


def _ships(board: Board, position: Position, colour: str) -> list[Candidate]:
    lines: list[Candidate] = []
    capital = position.capital(colour)
    for ship in position.ships_of(colour):
        n = ship.number
        city = city_of_space(ship.at)
        if not ship.cargo and city is not None and position.cities[city].owner == colour:
            lines += [
                (
                    f"ship {n} load {board.goods[g].name}",
                    _costs(cost(board, position, colour, order_types.Load(n, g)), "M4.4"),
                )
                for g in board.produces(city)
            ]
            if city == capital and ship.at.startswith(HARBOUR):
                art = position.players[colour].art
                lines += [
                    (f"ship {n} load art {board.art[a].name}", t("to sell to another capital (M7.7)")) for a in art
                ]
        for step in ship_neighbours(board, ship.at):
            lines.append((f"ship {n} to {space_name(board, step)}", ""))
        if ship.cargo:
            if city is not None and ship.at.startswith(HARBOUR):
                wants = position.cities[city].want
                note = t("the city wants it (M4.5)") if ship.cargo in wants else t("if its owner buys it (M4.6)")
                lines.append((f"ship {n} sell", note))
                if city == capital:
                    lines.append((f"ship {n} store", t("into a warehouse (M7.8)")))
            lines.append((f"ship {n} dump", t("the cargo overboard (M4.7)")))
        lines += _captures(board, position, ship)
    return lines


def _captures(board: Board, position: Position, ship: Ship) -> list[Candidate]:
    if not is_warship(position, ship) or city_of_space(ship.at) is not None:
        return []
    sea = sea_of(board, ship.at)
    prey = [s for s in position.ships if s.owner != ship.owner and sea_of(board, s.at) == sea]
    named = {
        CaptureOutcome.CAPTURED: t("captured"),
        CaptureOutcome.PREY_SUNK: t("sunk"),
        CaptureOutcome.MISSED: t("missed"),
        CaptureOutcome.REPELLED: t("held off by a warship"),
        CaptureOutcome.SHIP_SUNK: t("your ship sunk"),
    }
    lines: list[Candidate] = []
    for target in prey:
        guards = sum(1 for s in position.ships_at(target.at) if s.owner == target.owner and is_warship(position, s))
        odds = chances_note(capture_odds(guards), named)
        attack = with_odds(t("a warship's attack (M9.4)"), odds)
        lines.append((f"ship {ship.number} capture {target.owner} ship {target.number}", attack))
    return lines


def _field_note(board: Board, position: Position, army: Army, defenders: list[Army], target: str) -> Msg:
    """A field battle's odds for this one army and the armies there now (M10.1, no tactic card)."""
    attack, defend = field_bonuses(board, position, [army], defenders, target)
    mine, theirs = army.owner, defenders[0].owner
    named = {
        FieldOutcome.DEFENDER_LOST: t("%(player)s loses an army", player=theirs),
        FieldOutcome.DEFENDER_RETREATS: t("%(player)s retreats", player=theirs),
        FieldOutcome.ATTACKER_RETREATS: t("%(player)s retreats", player=mine),
        FieldOutcome.ATTACKER_LOST: t("%(player)s loses an army", player=mine),
    }
    return chances_note(field_odds(attack, defend), named)


def _armies(board: Board, position: Position, colour: str) -> list[Candidate]:
    lines: list[Candidate] = []
    for army in position.armies_of(colour):
        n = army.number
        if army.at.startswith("ship:"):
            lines.append((f"army {n} land", t("ashore from the ship's coast or harbour (M9.2)")))
            continue
        land = board.cities[army.at].land if army.at in board.cities else army.at
        for other in board.lands[land].land:
            lines.append(
                (
                    f"army {n} to {board.lands[other].name}",
                    t("across a river: a roll (M8.3)") if other in board.lands[land].rivers else "",
                )
            )
            defenders = [a for a in position.armies_at(other) if a.owner != colour]
            if defenders:
                battle = with_odds(t("a field battle (M10.1)"), _field_note(board, position, army, defenders, other))
                lines.append((f"army {n} attack {board.lands[other].name}", battle))
        city = board.city_of(land)
        if city is not None and army.at == land and position.cities[city].owner != colour:
            named = {CityOutcome.TAKEN: t("taken"), CityOutcome.HELD: t("held"), CityOutcome.ARMY_LOST: t("army lost")}
            odds = chances_note(city_odds(city_need(board, position.cities[city], 0)), named)
            begun = t("from a turn begun here (M8.4)")
            lines.append((f"army {n} attack {board.cities[city].name}", with_odds(begun, odds)))
        if not army.cavalry:
            price = cost(board, position, colour, order_types.Mount(n))
            bought = t("a horse bought: cavalry, costs %(price)s (M9.6)", price=roman(price))
            lines.append((f"army {n} mount", bought if price else t("a horse: cavalry (M9.6)")))
        if city is not None:
            for ship in position.ships_of(colour):
                if city_of_space(ship.at) == city:
                    lines.append(
                        (
                            f"army {n} board ship {ship.number}",
                            t("at %(space)s (M9.1)", space=space_name(board, ship.at)),
                        )
                    )
    return lines


def _costs(price: int, rule: str) -> str:
    """A form note: what the line costs, with its rule."""
    return t("costs %(price)s (%(rule)s)", price=roman(price), rule=rule)


def _cards(board: Board, position: Position, colour: str) -> list[Candidate]:
    lines: list[Candidate] = []
    for card in position.players[colour].holding:
        kind = board.trade_cards[card].kind
        word = "gift to" if kind is CardKind.GIFT else "coup"
        rule = "M11.4" if kind is CardKind.GIFT else "M11.15"
        lines += [
            (f"{word} {other}", f"{board.trade_cards[card].name} ({rule})")
            for other in position.order
            if other != colour
        ]
    return lines
