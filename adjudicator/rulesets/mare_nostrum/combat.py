"""Battles (R8.1-R8.3, R8.8): one round, a die per legion or trireme, fortresses an
automatic 6, one loss per full 5 points of the other side, casualties in the owner's order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import partial

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, EventValue, event
from adjudicator.core.i18n import Msg, t
from adjudicator.rulesets.kit.odds import Odds, dice_sum, mapped, odds_note
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import Civ, ProvinceId, SeaId, Unit
from adjudicator.rulesets.mare_nostrum.working import Working, WorkingProvince

DEFAULT_CASUALTIES = (Unit.LEGION, Unit.FORTRESS)  # D4
FORTRESS_VALUE = 6
LAND_HERO, SEA_HERO = "Hannibal", "Pericles"  # R8.1: +1 to each of his owner's legion, or trireme, dice
POINTS_PER_LOSS = 5


def _roll(dice: Dice, count: int, bonus: int, purpose: str) -> list[int]:
    return [dice.roll(purpose) + bonus for _ in range(count)]


def side_total(rolls: Sequence[int], fortresses: int) -> int:
    """R8.1: a side's dice, each with its hero's bonus, and a 6 for each fortress."""
    return sum(rolls) + FORTRESS_VALUE * fortresses


def loss_count(units: int, enemy_total: int) -> int:
    """R8.2: one unit lost for each full 5 points of the enemy's total, no more than it has."""
    return min(units, enemy_total // POINTS_PER_LOSS)


def battle_odds(
    attacker: Civ, defender: Civ, dice: Mapping[Civ, int], fortresses: Mapping[Civ, int], bonus: Mapping[Civ, int]
) -> Msg:
    """The note of a battle's odds: each side's losses (`battle_losses`)."""
    losses = battle_losses(attacker, defender, dice, fortresses, bonus)
    return odds_note([(attacker, losses[attacker]), (defender, losses[defender])])


def battle_losses(
    attacker: Civ, defender: Civ, dice: Mapping[Civ, int], fortresses: Mapping[Civ, int], bonus: Mapping[Civ, int]
) -> dict[Civ, Odds[int]]:
    """Each side's losses, exactly, for these units (R8.1-R8.2): `dice` legions or triremes a side,
    its fortresses (land only) and its hero's bonus a die (Hannibal, Pericles)."""
    totals = {
        civ: mapped(dice_sum(dice[civ], per_die=bonus[civ]), partial(_with_fortresses, fortresses[civ]))
        for civ in (attacker, defender)
    }
    return {
        civ: mapped(totals[enemy], partial(loss_count, dice[civ] + fortresses[civ]))
        for civ, enemy in ((attacker, defender), (defender, attacker))
    }


def _with_fortresses(fortresses: int, rolled: int) -> int:
    return side_total([rolled], fortresses)


def _choose_losses(units: Mapping[Unit, int], losses: int, policy: Sequence[Unit]) -> Counter[Unit]:
    """R8.2: the owner's order (then the default order) decides which units go first."""
    order = [*policy, *(u for u in DEFAULT_CASUALTIES if u not in policy)]
    removed: Counter[Unit] = Counter()
    for unit in order:
        take = min(units.get(unit, 0), losses - sum(removed.values()))
        if take > 0:
            removed[unit] = take
    return removed


def fight_land(
    w: Working,
    board: Board,
    pid: ProvinceId,
    attacker: Civ,
    defender: Civ,
    dice: Dice,
    policies: Mapping[Civ, Sequence[Unit]],
    events: list[Event],
    cause: str,
) -> None:
    """One land battle round between two civilizations in a province (R8.1-R8.2)."""
    province = w.provinces[pid]
    name = board.provinces[pid].name
    sides = (attacker, defender)
    rolls: dict[Civ, list[int]] = {}
    totals: dict[Civ, int] = {}
    bonus = {civ: 1 if w.has(civ, LAND_HERO) else 0 for civ in sides}
    first_roll = dice.used
    for civ in sides:  # attacker's dice first, then the defender's (DESIGN.md, "Dice")
        rolls[civ] = _roll(
            dice, province.legions[civ], bonus[civ], t("battle in %(place)s: %(civ)s legion", place=name, civ=civ)
        )
        totals[civ] = side_total(rolls[civ], province.fortresses[civ])
    losses: dict[Civ, Counter[Unit]] = {}
    for civ, enemy in ((attacker, defender), (defender, attacker)):
        units = {Unit.LEGION: province.legions[civ], Unit.FORTRESS: province.fortresses[civ]}
        losses[civ] = _choose_losses(units, loss_count(sum(units.values()), totals[enemy]), policies.get(civ, ()))
    for civ in sides:
        province.legions[civ] -= losses[civ][Unit.LEGION]
        province.fortresses[civ] -= losses[civ][Unit.FORTRESS]
    events.append(
        event(
            "land_battle",
            province=pid,
            cause=cause,
            **_dice_fields(attacker, defender, rolls, bonus, totals, first_roll),
            attacker_fortresses=province.fortresses[attacker] + losses[attacker][Unit.FORTRESS],
            defender_fortresses=province.fortresses[defender] + losses[defender][Unit.FORTRESS],
            attacker_losses={str(u): n for u, n in losses[attacker].items()},
            defender_losses={str(u): n for u, n in losses[defender].items()},
            rule="R8.1",
        )
    )
    for civ in sides:
        enemies_left = bool(province.military() - {civ})
        if enemies_left and (civ in province.occupied.values() or province.converting == civ):
            province.occupied = {k: o for k, o in province.occupied.items() if o != civ}
            if province.converting == civ:
                province.converting = None
            events.append(event("occupation_ended", province=pid, player=civ, rule="R8.8"))
    tidy(province)


def fight_sea(
    w: Working, sid: SeaId, attacker: Civ, defender: Civ, dice: Dice, board: Board, events: list[Event]
) -> None:
    """A naval battle (R8.1-R8.3): triremes only; seas are never at war (R8.4)."""
    fleets = w.seas[sid]
    name = board.seas[sid].name
    bonus = {c: 1 if w.has(c, SEA_HERO) else 0 for c in (attacker, defender)}
    first_roll = dice.used
    rolls = {
        c: _roll(dice, fleets[c], bonus[c], t("battle in %(place)s: %(civ)s trireme", place=name, civ=c))
        for c in (attacker, defender)
    }
    totals = {c: side_total(r, 0) for c, r in rolls.items()}
    losses = {
        attacker: loss_count(fleets[attacker], totals[defender]),
        defender: loss_count(fleets[defender], totals[attacker]),
    }
    for civ, lost in losses.items():
        fleets[civ] -= lost
    events.append(
        event(
            "naval_battle",
            sea=sid,
            **_dice_fields(attacker, defender, rolls, bonus, totals, first_roll),
            attacker_losses=losses[attacker],
            defender_losses=losses[defender],
            rule="R8.1",
        )
    )


def _dice_fields(attacker: Civ, defender: Civ, rolls: Mapping[Civ, list[int]], bonus: Mapping[Civ, int],
                 totals: Mapping[Civ, int], first_roll: int) -> dict[str, EventValue]:  # fmt: skip
    """What every battle event tells of its dice: each die, the hero bonus, the totals, and
    the number of the first roll (the attacker's dice come first)."""
    return {
        "attacker": attacker, "defender": defender,
        "attacker_dice": rolls[attacker], "defender_dice": rolls[defender],
        "attacker_bonus": bonus[attacker], "defender_bonus": bonus[defender],
        "attacker_total": totals[attacker], "defender_total": totals[defender],
        "first_roll": first_roll,
    }  # fmt: skip


def tidy(province: WorkingProvince) -> None:
    """Occupation and conversion need legions standing there (R8.6, R8.7): drop what no
    legion holds any more, and markers on buildings that were sacked."""
    if province.converting is not None and province.legions[province.converting] < 1:
        province.converting = None
    existing = {f"city:{s}" for s in province.cities} | {f"caravan:{i}" for i in province.caravans}
    existing |= {"temple"} if province.temple else set()
    existing |= {"market"} if province.market else set()
    kept: dict[str, Civ] = {}
    for key, civ in sorted(province.occupied.items()):
        room = province.legions[civ] - (1 if province.converting == civ else 0)
        if key in existing and sum(1 for o in kept.values() if o == civ) < room:
            kept[key] = civ
    province.occupied = kept
