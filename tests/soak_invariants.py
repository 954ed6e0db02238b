"""What no adjudication may break, whatever the players wrote: checked by the soak
(tests/soak.py) after every phase. Mare Nostrum 2003 (RULES.md R1-R10) on the `state --json`
shape (`position_problems`, `transition_problems`); Mare Nostrum: Empires on its position
(`empires_position_problems`, also played by tests/test_empires_engine.py); Mare Mediterraneum on
its position (`mediterraneum_position_problems`, docs/rules-mediterraneum.md); and for every
ruleset the seats' ledger against the history (`seat_problems`, issue 32)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from adjudicator.game.seats import Tenure
from adjudicator.rulesets.empires import model as empires
from adjudicator.rulesets.empires.board import Board as EmpiresBoard
from adjudicator.rulesets.mare_nostrum.components import BUILDING_SUPPLY, CARD_TOTALS, UNIT_STOCK
from adjudicator.rulesets.mediterraneum import model as mm
from adjudicator.rulesets.mediterraneum.board import COAST, CardKind
from adjudicator.rulesets.mediterraneum.board import Board as MediterraneumBoard
from tests.random_play import BOARD


def position_problems(data: Mapping[str, Any], finite_bank: bool = True) -> list[str]:
    """What a position in the `state --json` shape breaks of RULES.md's limits, one line each."""
    players, provinces = data["players"], data["provinces"]
    playing = [civ for civ, player in players.items() if not player["neutral"]]
    problems = _piece_problems(data) + _card_problems(data, finite_bank) + _supply_problems(data, len(playing))
    for pid, province in provinces.items():
        problems += [f"{pid}: {p}" for p in _province_problems(pid, province, players)]
    owners = Counter(card for player in players.values() for card in player["cards"])
    problems += [f"R6.6: {card} has {n} owners" for card, n in owners.items() if n > 1]
    for role, civ in data["roles"].items():
        if civ is not None and civ not in playing:
            problems.append(f"R3: the {role} role is held by {civ}, who is not a player")
    winner = data.get("winner")
    if winner and "Pyramids" not in players[winner]["cards"] and len(players[winner]["cards"]) < 4:
        problems.append(f"R10: {winner} won with {players[winner]['cards']}")
    return problems


def _piece_problems(data: Mapping[str, Any]) -> list[str]:
    """R1: each player's pieces on the board and in stock make 8 legions, 5 triremes, 8 fortresses, 12 influence."""
    problems = []
    provinces, seas = data["provinces"].values(), data["seas"].values()
    for civ, player in data["players"].items():
        on_board = {
            "legion": sum(p["legions"].get(civ, 0) for p in provinces),
            "trireme": sum(p["port"].get(civ, 0) for p in provinces) + sum(s["triremes"].get(civ, 0) for s in seas),
            "fortress": sum(p["fortresses"].get(civ, 0) for p in provinces),
            "influence": sum(1 for p in provinces if p["influence"] == civ),
        }
        for kind, total in UNIT_STOCK.items():
            stock = player["stock"].get(kind, 0)
            if stock < 0 or on_board[kind] + stock != total:
                problems.append(f"R1: {civ} has {on_board[kind]} {kind} on the board and {stock} in stock, of {total}")
    return problems


def _card_problems(data: Mapping[str, Any], finite_bank: bool) -> list[str]:
    """R1: 35 tax and 88 commodity cards (and those added when the bank is not finite): the
    bank and the hands hold them all, none twice."""
    problems = []
    extra = data.get("extra_cards", {})
    if (extra and finite_bank) or any(n < 0 for n in extra.values()):
        problems.append(f"R1: cards were added to a {'finite ' if finite_bank else ''}bank: {extra}")
    hands: Counter[str] = Counter()
    for civ, player in data["players"].items():
        for card, n in player["hand"].items():
            if card not in CARD_TOTALS or n < 0:
                problems.append(f"R1: {civ} holds {n} {card}")
            hands[card] += n
    for card, printed in CARD_TOTALS.items():
        bank, total = data["bank"].get(card, 0), printed + extra.get(card, 0)
        if bank < 0 or hands[card] + bank != total:
            problems.append(f"R1: {hands[card]} {card} in hands and {bank} in the bank, of {total}")
    return problems


def _supply_problems(data: Mapping[str, Any], players: int) -> list[str]:
    """R1.3: the shared building tokens left plus those on the board make the supply for the player count."""
    provinces = data["provinces"].values()
    used = {
        "caravan": sum(len(p["caravans"]) for p in provinces),
        "city": sum(len(p["cities"]) for p in provinces),
        "market": sum(1 for p in provinces if p["market"]),
        "temple": sum(1 for p in provinces if p["temple"]),
    }
    problems = []
    for kind, total in BUILDING_SUPPLY[players].items():
        left = data["supply"].get(str(kind), 0)
        if left < 0 or left + used[str(kind)] != total:
            problems.append(f"R1.3: {used[str(kind)]} {kind}s on the board and {left} in the supply, of {total}")
    return problems


def _province_problems(pid: str, p: Mapping[str, Any], players: Mapping[str, Any]) -> list[str]:
    info = BOARD.provinces[pid]
    problems = []
    if p["influence"] is not None and p["influence"] not in players:
        problems.append(f"influence of unknown {p['influence']}")
    if len(set(p["cities"])) != len(p["cities"]) or not set(p["cities"]) <= set(info.cities):
        problems.append(f"R6.5: cities {p['cities']} on the sites {list(info.cities)}")
    if len(set(p["caravans"])) != len(p["caravans"]) or not set(p["caravans"]) <= set(info.commodities):
        problems.append(f"R6.5: caravans {p['caravans']} on the icons {list(info.commodities)}")
    for table in ("legions", "fortresses", "port"):
        if any(n <= 0 or civ not in players for civ, n in p[table].items()):
            problems.append(f"{table} {p[table]}")
    for civ, n in p["fortresses"].items():
        if n > (2 if "Statue of Zeus" in players[civ]["cards"] else 1):
            problems.append(f"R6.5: {n} fortresses of {civ}")
    if p["port"] and not info.coastal:
        problems.append(f"R6.5: triremes in the port of an inland province: {p['port']}")
    armed = sorted({civ for table in ("legions", "fortresses") for civ, n in p[table].items() if n > 0})
    if p["at_war"] != (len(armed) >= 2):
        problems.append(f"R8.4: at_war is {p['at_war']} with legions/fortresses of {armed or 'nobody'}")
    occupiers = Counter(p["occupied"].values())
    for civ, n in occupiers.items():
        if n > p["legions"].get(civ, 0):
            problems.append(f"R8.6: {civ} occupies {n} buildings with {p['legions'].get(civ, 0)} legions")
    for key in p["occupied"]:
        kind, _, what = key.partition(":")
        held = {"city": what in p["cities"], "caravan": what in p["caravans"], "temple": p["temple"]}
        if not held.get(kind, p["market"] if kind == "market" else False):
            problems.append(f"R8.6: occupation of {key}, which is not built")
    converting = p["converting"]
    if converting is not None and (not p["legions"].get(converting) or converting == p["influence"]):
        problems.append(f"R8.7: {converting} converts without a legion there, or its own marker")
    return problems


def transition_problems(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What one adjudication may not do, whatever the orders: lose a hero or wonder, make or
    destroy cards in the trade (R5), build under another player's units (R6.3), or leave more
    than R6.8 allows after the build phase."""
    problems = _building_problems(before, after) if before["phase"] == "build" else []
    for civ, player in before["players"].items():
        lost = [card for card in player["cards"] if card not in after["players"][civ]["cards"]]
        if lost:
            problems.append(f"R6.6: {civ} lost {lost}")
    if before["phase"] == "trade" and after["phase"] == "build":
        held = sum(sum(p["hand"].values()) for p in before["players"].values())
        now = sum(sum(p["hand"].values()) for p in after["players"].values())
        if held != now:
            problems.append(f"R5: the trade changed the cards in hands from {held} to {now}")
    if before["phase"] == "build" and after["phase"] == "military" and not after.get("winner"):
        for civ, player in after["players"].items():
            tax = player["hand"].get("tax", 0)
            goods = sum(n for card, n in player["hand"].items() if card != "tax")
            if tax > 2 or goods > ("Hanging Gardens" in player["cards"]):
                problems.append(f"R6.8: {civ} keeps {player['hand']} after the build phase")
    return problems


def _building_problems(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """R6.3: nothing new of a player's (building, unit, influence) appears in a province where
    another player's legions or fortresses stood as the build phase opened, outside his capital.
    Units do not move in a build phase, so the opening position is each player's turn's."""
    problems = []
    capitals = {civ.capital: name for name, civ in BOARD.civilizations.items()}
    for pid, old in before["provinces"].items():
        new = after["provinces"][pid]
        armed = {civ for table in ("legions", "fortresses") for civ, n in old[table].items() if n > 0}
        grown = {
            civ
            for table in ("legions", "fortresses", "port")
            for civ, n in new[table].items()
            if n > old[table].get(civ, 0)
        }
        owner = new["influence"]
        if set(new["cities"]) - set(old["cities"]) or set(new["caravans"]) - set(old["caravans"]):
            grown.add(owner)
        if (new["temple"] and not old["temple"]) or (new["market"] and not old["market"]):
            grown.add(owner)
        if owner != old["influence"]:
            grown.add(owner)
        for civ in grown - {None}:
            if armed - {civ} and capitals.get(pid) != civ:
                problems.append(f"R6.3: {civ} built in {pid} under the units of {sorted(armed - {civ})}")
    return problems


def empires_position_problems(board: EmpiresBoard, position: empires.Position) -> list[str]:
    """What an Empires position breaks of docs/rules-empires.md's limits, one line each: no
    negative stock, supply or holding, no legendary good twice, caravans and cities on their
    sites, occupations by standing legions of built buildings, no more legions bound than stand."""
    found = []
    for empire in position.playing:
        for piece, left in position.stock(empire).items():
            if left < 0:
                found.append(f"{empire} has {left} {piece} in stock")
        player = position.players[empire]
        if any(n < 0 for n in (*player.resources.values(), *player.legendary.values())):
            found.append(f"{empire} holds a negative count")
    for kind, left in position.supply().items():
        if left < 0 or left > empires.BUILDING_SUPPLY[kind]:
            found.append(f"supply of {kind} is {left}")
    legendary = Counter(position.legendary_pile)
    for player in position.players.values():
        legendary.update(player.legendary)
    if any(n > 1 for n in legendary.values()):
        found.append(f"legendary goods duplicated: {legendary}")
    for pid, province in position.provinces.items():
        site = board.provinces[pid]
        free = list(site.caravans)
        for good in province.caravans:
            if good not in free:
                found.append(f"{pid}: a caravan on {good} without a site")
            else:
                free.remove(good)
        if province.city and site.city is None:
            found.append(f"{pid}: a city without a site")
        for building, who in province.occupied.items():
            if building not in province.buildings() or not province.legions.get(who):
                found.append(f"{pid}: {building} occupied by {who} without a building or a legion")
        for empire in province.legions:
            if province.stationed(empire) > province.legions[empire]:
                found.append(f"{pid}: {empire} has more legions bound than standing")
    return found


def mediterraneum_position_problems(
    board: MediterraneumBoard, position: mm.Position, capitals: Collection[str] = ()
) -> list[str]:
    """What a Mare Mediterraneum position breaks of docs/rules-mediterraneum.md's limits, one line
    each: money, the pieces' limits (M1.3) and numbers, one cargo a ship, every card where one
    card can be, cities and capitals, State cards, warehouses and where armies stand. `capitals`:
    the cities that were ever capitals in the game (a lost or bankrupt capital keeps its
    warehouses, MD19, MD24); without it, warehouses are allowed in capitals only."""
    found = [f"M3.6: {c} has {p.money} MILIA" for c, p in position.players.items() if p.money < 0]
    found += [f"players {sorted(position.players)} are not the seating order {position.order}"] * (
        set(position.players) != set(position.order) or len(set(position.order)) != len(position.order)
    )
    found += _mm_piece_problems(board, position) + _mm_card_problems(board, position)
    found += _mm_city_problems(board, position, set(capitals))
    return found


def _mm_piece_problems(board: MediterraneumBoard, position: mm.Position) -> list[str]:
    limits, found = board.limits, []
    for where, n in Counter(s.at for s in position.ships).items():
        city = mm.city_of_space(where)
        if (city is None and where not in board.seas) or (city is not None and city not in board.cities):
            found.append(f"M1.2: a ship at {where}, which is no space")
        elif city is None and n > limits["ships_per_sea"]:
            found.append(f"M1.3: {n} ships in {where}")
        elif where.startswith(COAST) and n > limits["ships_per_coast"]:
            found.append(f"M1.3: {n} ships at {where}")
    for land, n in Counter(a.at for a in position.armies if a.at in board.lands).items():
        if n > limits["armies_per_land"]:
            found.append(f"M1.3: {n} armies in {land}")
    for colour in position.order:
        ships, armies = position.ships_of(colour), position.armies_of(colour)
        for kind, pieces, limit in (("ship", ships, "ships_per_player"), ("army", armies, "armies_per_player")):
            numbers = [p.number for p in pieces]
            if len(set(numbers)) != len(numbers) or any(n < 1 for n in numbers):
                found.append(f"M4.2/M8.1: {colour}'s {kind} numbers {sorted(numbers)}")
            if len(pieces) > limits[limit]:
                found.append(f"M1.3: {colour} has {len(pieces)} {kind} pieces")
        own_ships = {s.number for s in ships}
        for army in armies:
            where = army.at
            aboard = where.startswith("ship:") and where.removeprefix("ship:").isdigit()
            if aboard and int(where.removeprefix("ship:")) not in own_ships:
                found.append(f"M9.1: {colour}'s army {army.number} is aboard ship {where}, which he has not")
            elif where in board.cities and (
                position.cities[where].owner != colour or position.cities[where].status is not mm.Status.TAKEN
            ):
                found.append(f"MD23: {colour}'s army {army.number} is inside {where}, not a city he took")
            elif not aboard and where not in board.lands and where not in board.cities:
                found.append(f"M8: {colour}'s army {army.number} stands at {where}, which is no land")
    unknown = {s.owner for s in position.ships} | {a.owner for a in position.armies}
    found += [f"ships or armies of {c}, who is not a player" for c in sorted(unknown - set(position.order))]
    for ship in position.ships:
        cargo = ship.cargo
        if cargo and cargo.removeprefix("art:") not in (board.art if cargo.startswith("art:") else board.goods):
            found.append(f"M4.4: {ship.owner}'s ship {ship.number} carries '{cargo}' (one good or artwork)")
    return found


def _mm_card_problems(board: MediterraneumBoard, position: mm.Position) -> list[str]:
    """Every trade card once (copies counted): in the deck, the discard pile, a hand (gift or coup
    held, tactic won), as a want card beside a capital, face up as the storm, or opening an
    auction; every State card once; every art card at most once (a destroyed or sunk work leaves
    the game, M11.7, M11.9); every patronage card at most once."""
    decks, found = position.decks, []
    trade = Counter([*decks.trade, *decks.trade_discard, *([position.storm] if position.storm else [])])
    want_card = {card.good: card.id for card in board.trade_cards.values() if card.kind is CardKind.WANT}
    for player in position.players.values():
        trade.update([*player.holding, *player.tactics])
        trade.update(want_card.get(good, f"want card for {good}") for good in player.want_cards)
    trade.update(auction.card for auction in position.auctions)
    for card in sorted(set(trade) | set(board.trade_cards)):
        copies = board.trade_cards[card].count if card in board.trade_cards else 0
        if trade[card] != copies:
            found.append(f"M11.1: {trade[card]} of the {copies} trade cards {card}")
    states = Counter([*decks.states, *(p.state for p in position.players.values() if p.state)])
    if states != Counter(list(board.states)):
        found.append(f"M5.1: State cards {dict(states - Counter(list(board.states)))} too many, "
                     f"{dict(Counter(list(board.states)) - states)} missing")  # fmt: skip
    for colour, player in position.players.items():
        if position.capital(colour) is not None and player.state is None:
            found.append(f"M5.1: {colour} has an empire and no State card")
    art = Counter([*decks.art, *(a for p in position.players.values() for a in p.art)])
    art.update(s.cargo.removeprefix("art:") for s in position.ships if s.cargo.startswith("art:"))
    art.update(a.lot for a in position.auctions if a.lot in board.art)
    found += [f"M7.6: art card {a} is in {n} places" for a, n in art.items() if n > 1 or a not in board.art]
    patrons = Counter([*decks.patronage, *(p.patron for p in position.players.values() if p.patron)])
    found += [
        f"M7.4: patronage card {c} is in {n} places" for c, n in patrons.items() if n > 1 or c not in board.patronage
    ]
    for colour, player in position.players.items():
        if player.patron and not player.patronised:
            found.append(f"M7.4: {colour} holds a patronage card without having bought one")
    for building, left in decks.buildings.items():
        built = sum(s.buildings.count(building) for s in position.cities.values())
        if left < 0 or building not in board.buildings or built + left != board.buildings[building].count:
            found.append(f"M7.1: {built} {building} built and {left} in the supply")
    return found


def _mm_city_problems(board: MediterraneumBoard, position: mm.Position, capitals: set[str]) -> list[str]:
    found = []
    for colour in position.order:
        held = [c for c, s in position.cities.items() if s.owner == colour and s.status is mm.Status.CAPITAL]
        if len(held) > 1:
            found.append(f"M5.1: {colour} has the capitals {held}")
    for cid, city in position.cities.items():
        if city.owner is not None and city.owner not in position.players:
            found.append(f"M1.1: {cid} is held by {city.owner}, who is not a player")
        if (city.owner is None) != (city.status is None):
            found.append(f"M8.5: {cid} has the owner {city.owner} and the status {city.status}")
        if city.dormant and city.status is mm.Status.CAPITAL:
            found.append(f"MD19: {cid} is a capital and dormant")
        if any(g not in board.goods for g in city.want):
            found.append(f"M2.1: {cid} wants {city.want}")
        if city.warehouses and city.status is not mm.Status.CAPITAL and cid not in capitals:
            found.append(f"M7.8: warehouses in {cid}, which is no capital and never was")
        for house in city.warehouses:
            if len(house) > board.limits["warehouse_goods"]:
                found.append(f"M7.8: a warehouse of {cid} holds {list(house)}")
            if any(g not in board.goods or g in board.produces(cid) for g in house):
                found.append(f"M7.8: a warehouse of {cid} holds {list(house)}, of its own land's goods or none")
    return found


class SeatPhase(NamedTuple):
    """What an adjudicated phase's history says of its seats (issue 32): whose orders were due
    (an open seat's never are), whose of those did not come, and each held seat's player."""

    due: list[str]
    missed: list[str]
    seats: dict[str, str]


@dataclass
class SeatRecord:
    """A seat's holder's record, as the soak counts it: phases owed and played, owed and missed,
    and missed since his last orders."""

    played: int = 0
    missed: int = 0
    in_row: int = 0


def seat_problems(
    tenures: Sequence[Tenure], phases: Mapping[int, SeatPhase], open_after: int, open_after_total: int
) -> list[str]:
    """What seats.toml breaks of the history, one line each: each tenure's `played` and `missed`
    are the phases whose `due` named his seat while he held it (from `since` to `until`, his
    address the phase's holder), `in_row` the misses since his last orders; a phase's missed
    players are among its due ones, and those among its holders; a seat opens by the count exactly
    at the phase its holder's misses reach `open_after` in a row or `open_after_total` in all
    (0: never), so he owes nothing after it and holds it no longer; one holder a seat at a time."""
    found = []
    for number, phase in sorted(phases.items()):
        if not set(phase.missed) <= set(phase.due) or not set(phase.due) <= set(phase.seats):
            found.append(f"phase {number}: missed {phase.missed}, due {phase.due}, held {sorted(phase.seats)}")
    holding = Counter(t.civ for t in tenures if t.holding)
    found += [f"{civ} has {n} holders" for civ, n in holding.items() if n > 1]
    for t in tenures:
        who = f"{t.civ}'s {t.email} (from phase {t.since}{f' to {t.until}' if not t.holding else ''})"
        played = missed = in_row = 0
        reached = 0
        for number, phase in sorted(phases.items()):
            if t.civ not in phase.due or number < t.since or (not t.holding and number > t.until):
                continue
            if phase.seats.get(t.civ) != t.email:
                found.append(f"{who}: phase {number} names {phase.seats.get(t.civ)} as the holder")
            if reached:
                found.append(f"{who}: phase {number} owed his orders after his seat opened at phase {reached}")
            if t.civ in phase.missed:
                missed, in_row = missed + 1, in_row + 1
                if (open_after and in_row >= open_after) or (open_after_total and missed >= open_after_total):
                    reached = reached or number
            else:
                played, in_row = played + 1, 0
        if (t.played, t.missed, t.in_row) != (played, missed, in_row):
            found.append(
                f"{who}: the ledger counts {t.played} played, {t.missed} missed, {t.in_row} in a row; "
                f"the history {played}, {missed}, {in_row}"
            )
        if reached and (t.holding or t.until != reached):
            found.append(f"{who}: his misses reached [seats]' count at phase {reached}, but his seat did not open then")
    return found
