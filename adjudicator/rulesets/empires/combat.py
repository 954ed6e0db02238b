"""Battles (E8.1-E8.4): one roll, a die per unit, the faces summed, one hit per full 5; a
fortress adds 5 and cancels one enemy hit; heroes add to dice and totals (E11.1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.empires.board import Board, Effect
from adjudicator.rulesets.empires.model import Position, ProvinceState, SeaState
from adjudicator.rulesets.kit.odds import Odds, dice_sum, mapped, odds_note

FORTRESS_POINTS = 5  # E8.3
POINTS_PER_HIT = 5  # E8.2


@dataclass(frozen=True, slots=True)
class Side:
    empire: str
    units: int  # legions or triremes
    fortress: bool = False


def _applies(effect: Effect, unit: str, side: str, own: bool) -> bool:
    if effect.parameters.get("unit", unit) != unit:
        return False
    if effect.parameters.get("side", "any") not in ("any", side):
        return False
    return effect.parameters.get("where", "any") != "own" or own


@dataclass(frozen=True, slots=True)
class SideDice:
    """What one side rolls (E8.1, E8.3, E11.1): so many dice of the board's faces, each with a
    hero's bonus, and points added to the total (battle bonuses, a fortress's 5)."""

    count: int
    faces: tuple[int, ...]
    per_die: int
    fixed: int
    notes: tuple[Msg, ...]


def side_dice(board: Board, position: Position, side: Side, role: str, place: str, unit: str) -> SideDice:
    """One side's dice as E8.1, its heroes' bonuses and its fortress make them."""
    own = position.provinces[place].influence == side.empire if place in position.provinces else False
    count = side.units + sum(
        1 for e in position.effects(board, side.empire, "extra_die") if side.units and _applies(e, unit, role, own)
    )
    bonus = sum(
        int(e.parameters.get("amount", 0))
        for e in position.effects(board, side.empire, "die_bonus")
        if _applies(e, unit, role, own)
    )
    notes = [t("+%(amount)s a die", amount=bonus)] if bonus and count else []
    fixed = 0
    for effect in position.effects(board, side.empire, "battle_bonus"):
        if _applies(effect, unit, role, own) and side.units:
            fixed += int(effect.parameters.get("amount", 0))
            notes.append(t("+%(amount)s battle bonus", amount=effect.parameters.get("amount", 0)))
    if side.fortress:
        fixed += FORTRESS_POINTS  # its note is the battle's: it may cancel a hit too (`_fortress_note`)
    faces = board.land_dice if unit == "legion" else board.sea_dice
    return SideDice(count, tuple(faces), bonus, fixed, tuple(notes))


def hits(total: int, fortress: bool) -> int:
    """E8.2, E8.3: one hit for each full 5 points, one fewer against a fortress."""
    return max(0, total // POINTS_PER_HIT - (1 if fortress else 0))


def units_lost(side: Side, hits_on_it: int) -> int:
    """ED13, ED14: units a side loses to so many hits: its legions or triremes, then its fortress."""
    return min(hits_on_it, side.units) + (1 if side.fortress and hits_on_it > side.units else 0)


def _roll_side(
    board: Board, position: Position, side: Side, role: str, place: str, unit: str, dice: Dice
) -> tuple[list[int], int, list[Msg]]:
    """(faces, total, notes) for one side: E8.1 with its heroes' bonuses and a fortress."""
    rolled = side_dice(board, position, side, role, place, unit)
    name = board.provinces[place].name if place in board.provinces else board.seas[place].name
    if role == "attack":
        purpose = t("E8.1 attack die for %(empire)s in %(place)s", empire=side.empire, place=name)
    else:
        purpose = t("E8.1 defence die for %(empire)s in %(place)s", empire=side.empire, place=name)
    faces = [rolled.faces[dice.roll(purpose) - 1] for _ in range(rolled.count)]
    return faces, sum(faces) + rolled.per_die * len(faces) + rolled.fixed, list(rolled.notes)


def battle_odds(board: Board, position: Position, attacker: Side, defender: Side, place: str) -> Msg:
    """The note of a battle's odds: each side's losses (`battle_losses`)."""
    lost = battle_losses(board, position, attacker, defender, place)
    return odds_note([(attacker.empire, lost[attacker.empire]), (defender.empire, lost[defender.empire])])


def battle_losses(board: Board, position: Position, attacker: Side, defender: Side, place: str) -> dict[str, Odds[int]]:
    """Each side's losses, exactly, for these units (E8.1-E8.3, ED13)."""
    unit = "trireme" if place in position.seas else "legion"
    totals = {
        side.empire: dice_sum(d.count, d.faces, d.per_die, d.fixed)
        for side, role in ((attacker, "attack"), (defender, "defence"))
        for d in [side_dice(board, position, side, role, place, unit)]
    }
    return {
        side.empire: mapped(totals[enemy.empire], partial(_lost_to, side))
        for side, enemy in ((attacker, defender), (defender, attacker))
    }


def _lost_to(side: Side, enemy_total: int) -> int:
    """What a side loses to the enemy's total: its fortress cancels one hit (E8.3)."""
    return units_lost(side, hits(enemy_total, side.fortress))


def fight(
    board: Board, position: Position, attacker: Side, defender: Side, place: str, dice: Dice
) -> tuple[int, int, Event]:
    """E8.1-E8.3: (hits on the attacker, hits on the defender, the battle event)."""
    unit = "trireme" if place in position.seas else "legion"
    first_roll = dice.used  # the report cites each die by its number (verify-dice)
    a_faces, a_total, a_notes = _roll_side(board, position, attacker, "attack", place, unit, dice)
    d_faces, d_total, d_notes = _roll_side(board, position, defender, "defence", place, unit, dice)
    on_defender = hits(a_total, defender.fortress)
    on_attacker = hits(d_total, attacker.fortress)
    a_notes += _fortress_note(attacker, defender, d_total)
    d_notes += _fortress_note(defender, attacker, a_total)
    battle = event(
        "battle",
        place=place,
        at="sea" if unit == "trireme" else "land",
        attacker=attacker.empire,
        defender=defender.empire,
        attacker_dice=a_faces,
        defender_dice=d_faces,
        attacker_total=a_total,
        defender_total=d_total,
        attacker_notes=a_notes,
        defender_notes=d_notes,
        attacker_hits=on_defender,
        defender_hits=on_attacker,
        first_roll=first_roll,
        rule="E8.2",
    )
    return on_attacker, on_defender, battle


def _fortress_note(side: Side, enemy: Side, enemy_total: int) -> list[Msg]:
    """E8.3: a fortress's +5, and the enemy hit it cancels when the enemy scored one."""
    if not side.fortress:
        return []
    if enemy_total >= POINTS_PER_HIT:
        return [
            t("+%(amount)s fortress, which cancels one of %(enemy)s's hits", amount=FORTRESS_POINTS, enemy=enemy.empire)
        ]
    return [t("+%(amount)s fortress", amount=FORTRESS_POINTS)]


def land_losses(province: ProvinceState, empire: str, hits: int) -> tuple[ProvinceState, int, bool]:
    """ED13, ED14: hits fall on free legions, then occupying ones, the converting one last; a
    hit left with no legion destroys the fortress. (province, legions lost, fortress lost)."""
    legions = province.legions.get(empire, 0)
    lost = min(hits, legions)
    fortress_lost = hits > legions and province.fortress == empire
    changed = province.without_legions(empire, lost)
    return (replace(changed, fortress=None) if fortress_lost else changed), lost, fortress_lost


def sea_losses(sea: SeaState, empire: str, hits: int) -> tuple[SeaState, int]:
    lost = min(hits, sea.triremes.get(empire, 0))
    return sea.with_ships(empire, -lost), lost
