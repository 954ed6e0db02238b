"""What no adjudication may break, whatever the players wrote: checked by the soak
(tests/soak.py) after every phase. Mare Nostrum 2003 (RULES.md R1-R10) on the `state --json`
shape (`position_problems`, `transition_problems`); Mare Nostrum: Empires on its position
(`empires_position_problems`, also played by tests/test_empires_engine.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from adjudicator.rulesets.empires import model as empires
from adjudicator.rulesets.empires.board import Board as EmpiresBoard
from adjudicator.rulesets.mare_nostrum.components import BUILDING_SUPPLY, CARD_TOTALS, UNIT_STOCK
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
