"""Order forms: the orders a player could give next, one per line, each a complete order that
is accepted when he removes the `#` before it. This module proposes candidates broadly; the
generic form code keeps only those the validator accepts in the position (so a form never
offers an order that would be refused)."""

from __future__ import annotations

from collections.abc import Container, Mapping

from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.kit.odds import with_odds
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.build import card_cost, discount_card, frees_influence, piece_cost
from adjudicator.rulesets.mare_nostrum.combat import LAND_HERO, SEA_HERO, battle_odds
from adjudicator.rulesets.mare_nostrum.components import (
    GENERAL_HEROES,
    SETUP_POINTS,
    WONDERS,
    Civ,
    Phase,
    Piece,
    Role,
)
from adjudicator.rulesets.mare_nostrum.model import Position

Candidate = tuple[str, str]  # (order text, a note shown after it as a comment: a message, or "")
_PLAIN_PIECES = (Piece.LEGION, Piece.TRIREME, Piece.FORTRESS, Piece.TEMPLE, Piece.MARKET, Piece.INFLUENCE)


def form_candidates(board: Board, position: Position, civ: str) -> list[Candidate]:
    """Orders worth offering `civ` in the phase the position names (before validation)."""
    me = Civ(civ)
    if position.winner is not None or me not in position.playing:
        return []
    phase = position.phase
    if phase is Phase.TRADE:
        return _trade(board, position, me)
    if phase in (Phase.BUILD, Phase.SETUP):
        return _build(board, position, me)
    if phase is Phase.MILITARY:
        return _military(board, position, me)
    return []


def _names(board: Board) -> dict[str, str]:
    return {**{p.id: p.name for p in board.provinces.values()}, **{s.id: s.name for s in board.seas.values()}}


def _others(position: Position, me: Civ) -> list[Civ]:
    return [c for c in position.playing if c != me]


def _trade(board: Board, position: Position, me: Civ) -> list[Candidate]:
    hand = position.players[me].hand
    held = [card for card, count in sorted(hand.items()) if count]
    lines: list[Candidate] = []
    if position.roles.get(Role.COMMERCE) == me:
        lines += [(f"trade {n}", t("the trade size: you are Commerce Director (R5.1)")) for n in (3, 2, 1)]
    if held:
        lines.append((f"offer {', '.join(held)}", t("ranked: the first N are offered (R5.2)")))
    lines += [
        ("take commodity", t("the best commodity for you (R5.3)")),
        ("take tax", t("a tax card")),
        ("take any", t("whatever is best for you")),
    ]
    lines += [(f"take any from {civ}", t("from this player first")) for civ in _others(position, me)]
    if position.roles.get(Role.COMMERCE) == me:
        lines += [(f"give {card}", t("your compensation card if needed (R5.5)")) for card in held]
    if "Ulysses" in position.players[me].cards:
        lines += [(f"ulysses {civ}", t("force this player, once (R5.6)")) for civ in _others(position, me)]
    return lines


def _build(board: Board, position: Position, me: Civ) -> list[Candidate]:
    names = _names(board)
    # a piece dearer than the whole hand (or R2.4's setup points) is never offered; what the hand
    # cannot pay with sets the validator refuses (R6.1), so the form keeps only what it can buy
    purse = SETUP_POINTS if position.phase is Phase.SETUP else position.players[me].hand_size
    owned = position.players[me].cards
    free = position.phase is Phase.BUILD and frees_influence(owned, position.used)
    lines: list[Candidate] = []
    if position.phase is Phase.BUILD and position.roles.get(Role.POLITICAL) == me:
        order = ", ".join(position.playing)
        lines.append((f"sequence {order}", t("the build order: you are Political Leader (R3.3)")))
    for pid, province in sorted(board.provinces.items()):
        if pid not in _reach(board, position, me):
            continue
        name = names[pid]
        offers = [(piece, f"build {piece} in {name}") for piece in _PLAIN_PIECES]
        offers += [(Piece.CITY, f"build city in {name} at {site}") for site in province.cities]
        offers += [(Piece.CARAVAN, f"build caravan on {c} in {name}") for c in sorted(set(province.commodities))]
        for piece, text in offers:
            cost = piece_cost(piece, owned, free)
            if cost <= purse:
                lines.append((text, _price_note(piece, cost, owned, free)))
    hero = board.civilizations[me].hero if me in board.civilizations else ""
    for card in sorted({*GENERAL_HEROES, *WONDERS, *([hero] if hero else [])}):
        if (cost := card_cost(card)) <= purse:
            lines.append((f"buy {card}", t("costs %(cost)s (R6.6)", cost=cost)))
    if position.phase is Phase.BUILD:
        lines.append(("keep 2 tax", t("kept at the end of the phase (R6.8)")))
    return lines


def _battle_note(
    what: Msg,
    position: Position,
    me: Civ,
    enemy: Civ,
    units: Mapping[Civ, int],
    fortresses: Mapping[Civ, int] | None = None,
    arriving: int = 0,
) -> Msg:
    """A battle and its odds (R8.1-R8.2) for the units there now, his arriving legions with them."""
    hero = SEA_HERO if fortresses is None else LAND_HERO
    dice = {me: units.get(me, 0) + arriving, enemy: units.get(enemy, 0)}
    forts = {civ: (fortresses or {}).get(civ, 0) for civ in (me, enemy)}
    bonus = {civ: int(hero in position.players[civ].cards) for civ in (me, enemy)}
    return with_odds(what, battle_odds(me, enemy, dice, forts, bonus))


def _price_note(piece: Piece, cost: int, owned: Container[str], free: bool) -> Msg:
    """The price as the engine will charge it, naming the card that lowers it."""
    if free and piece is Piece.INFLUENCE:
        return t("free: Hammurabi's first influence marker of the phase (R6.2)")
    if card := discount_card(piece, owned):
        return t("costs %(cost)s with %(card)s (R6.2)", cost=cost, card=card)
    return t("costs %(cost)s (R6.2)", cost=cost)


def _reach(board: Board, position: Position, me: Civ) -> set[str]:
    """Where a build-phase order of the player could stand: his provinces and their neighbours
    by land or by a shared sea (R6.3, R6.4); everywhere in the advanced setup (R2.4)."""
    if position.phase is Phase.SETUP:
        return set(board.provinces)
    mine = {pid for pid, state in position.provinces.items() if state.influence == me}
    reach: set[str] = set(mine)
    for pid in mine:
        province = board.provinces[pid]
        reach.update(province.land)
        reach.update(q.id for q in board.provinces.values() if set(q.seas) & set(province.seas))
    return reach


def _military(board: Board, position: Position, me: Civ) -> list[Candidate]:
    names = _names(board)
    lines: list[Candidate] = []
    if position.roles.get(Role.MILITARY) == me:
        lines.append(
            (f"sequence {', '.join(position.playing)}", t("the military order: you are Military Leader (R3.3)"))
        )
    for pid, state in sorted(position.provinces.items()):
        province = board.provinces[pid]
        if count := state.port.get(me, 0):
            unit = "trireme" if count == 1 else "triremes"
            lines += [(f"sail {count} {unit} from {names[pid]} to {names[s]}", "") for s in province.seas]
        if count := state.legions.get(me, 0):
            unit = "legion" if count == 1 else "legions"
            for other in province.land:
                lines.append((f"move {count} {unit} from {names[pid]} to {names[other]}", ""))
                there = position.provinces[other]
                lines += [
                    (
                        f"move {count} {unit} from {names[pid]} to {names[other]} attack {enemy}",
                        _battle_note(t("a battle (R8)"), position, me, enemy, there.legions, there.fortresses, count),
                    )
                    for enemy in sorted(there.military() - {me})
                ]
    for sid, sea in sorted(position.seas.items()):
        if count := sea.triremes.get(me, 0):
            unit = "trireme" if count == 1 else "triremes"
            lines += [(f"sail {count} {unit} from {names[sid]} to {names[s]}", "") for s in board.seas[sid].seas]
            naval = t("a naval battle (R8)")
            lines += [
                (f"attack {enemy} in {names[sid]}", _battle_note(naval, position, me, enemy, sea.triremes))
                for enemy in sorted(c for c, n in sea.triremes.items() if n and c != me)
            ]
    lines.append(("casualties legion, fortress", t("the order of your losses (R8.2)")))
    return lines
