"""Roles (R3): who leads commerce, politics and war, and the tie rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.core.dice import Dice
from adjudicator.core.events import Event, event
from adjudicator.core.i18n import t
from adjudicator.rulesets.mare_nostrum.components import ROLE_NAMES, TABLE_ORDER, Civ, Role
from adjudicator.rulesets.mare_nostrum.model import Position

ROLE_BONUS_HERO = {Role.COMMERCE: "Agamemnon", Role.POLITICAL: "Solomon", Role.MILITARY: "Archimedes"}


def role_counts(position: Position) -> dict[Role, dict[Civ, int]]:
    """R3.1: each playing civilization's count for each role, heroes' +2 included."""
    counts = {role: {civ: 0 for civ in position.playing} for role in Role}
    for province in position.provinces.values():
        owner = province.influence
        for key in (
            *(f"city:{s}" for s in province.cities),
            *(f"caravan:{i}" for i in province.caravans),
            *(("temple",) if province.temple else ()),
            *(("market",) if province.market else ()),
        ):
            controller = province.occupied.get(key, owner)
            if controller not in counts[Role.COMMERCE]:
                continue
            role = Role.POLITICAL if key.startswith("city:") or key == "temple" else Role.COMMERCE
            counts[role][controller] += 1
        for table in (province.legions, province.fortresses, province.port):
            for civ, n in table.items():
                if civ in counts[Role.MILITARY]:
                    counts[Role.MILITARY][civ] += n
    for sea in position.seas.values():
        for civ, n in sea.triremes.items():
            if civ in counts[Role.MILITARY]:
                counts[Role.MILITARY][civ] += n
    for role, hero in ROLE_BONUS_HERO.items():
        owner = position.owner_of(hero)
        if owner in counts[role]:
            counts[role][owner] += 2
    return counts


def table_order_from(first: Civ | None, civs: Sequence[Civ]) -> tuple[Civ, ...]:
    """R3.3: the fixed table order, starting with `first` and going round."""
    ordered = [Civ(c) for c in TABLE_ORDER if c in civs] + sorted(c for c in civs if c not in TABLE_ORDER)
    if first in ordered:
        start = ordered.index(first)
        ordered = ordered[start:] + ordered[:start]
    return tuple(ordered)


def break_tie_by_dice(tied: Sequence[Civ], purpose: str, dice: Dice) -> tuple[Civ, list[Event]]:
    """Each tied civilization rolls a die (table order); the highest wins, ties roll again."""
    events: list[Event] = []
    contenders = list(table_order_from(None, tied))
    while len(contenders) > 1:
        rolls = {civ: dice.roll(t("%(purpose)s: %(civ)s", purpose=purpose, civ=civ)) for civ in contenders}
        for civ, value in rolls.items():
            events.append(event("tie_roll", purpose=purpose, player=civ, value=value))
        best = max(rolls.values())
        contenders = [civ for civ in contenders if rolls[civ] == best]
    return contenders[0], events


def assign_start_roles(
    position: Position, printed: Mapping[Role, Civ], dice: Dice
) -> tuple[dict[Role, Civ | None], list[Event]]:
    """R2.3: printed roles where their holder plays; the rest by R3.1 among civilizations
    without a role yet, so nobody starts with two; ties broken by dice."""
    roles: dict[Role, Civ | None] = {role: None for role in Role}
    events: list[Event] = []
    for role in Role:
        holder = printed.get(role)
        if holder in position.playing:
            roles[role] = holder
            events.append(
                event("role_assigned", role=str(role), player=holder, reason=t("printed on the player aid (R2.1)"))
            )
    counts = role_counts(position)
    for role in Role:
        if roles[role] is not None:
            continue
        free = [civ for civ in position.playing if civ not in roles.values()]
        best = max(counts[role][civ] for civ in free)
        tied = [civ for civ in free if counts[role][civ] == best]
        if len(tied) == 1:
            winner, reason = tied[0], t("highest count %(count)s (R3.1)", count=best)
        else:
            purpose = t("R2.3 tie for %(role)s", role=ROLE_NAMES[role])
            winner, tie_events = break_tie_by_dice(tied, purpose, dice)
            events += tie_events
            others = ", ".join(c for c in tied if c != winner)
            reason = t("count %(count)s tied with %(civs)s; won the dice (R2.3)", count=best, civs=others)
        roles[role] = winner
        events.append(event("role_assigned", role=str(role), player=winner, reason=reason))
    return roles, events


def assign_turn_roles(
    position: Position, choices: Mapping[Role, Civ], dice: Dice
) -> tuple[dict[Role, Civ | None], list[Event]]:
    """R3.1-R3.2 at the start of a turn: the largest count takes the role; the holder keeps
    it on a tie; a tie among others goes to the holder's choice, else to the tied power
    earliest in the last sequence, else alphabetically (no holder at all: dice)."""
    counts = role_counts(position)
    roles: dict[Role, Civ | None] = {}
    events: list[Event] = []
    for role in Role:
        holder = position.roles.get(role)
        best = max(counts[role].values(), default=0)
        tied = [civ for civ in position.playing if counts[role][civ] == best]
        if holder in tied:
            winner = holder
            reason = t("keeps it on a tie (R3.2)") if len(tied) > 1 else t("highest count %(count)s (R3.1)", count=best)
        elif len(tied) == 1:
            winner, reason = tied[0], t("highest count %(count)s (R3.1)", count=best)
        elif choices.get(role) in tied:
            winner, reason = choices[role], t("tied at %(count)s; chosen by %(civ)s (R3.2)", count=best, civ=holder)
        elif holder is not None:
            ordered = [c for c in position.sequence if c in tied] or sorted(tied)
            winner, reason = ordered[0], t("tied at %(count)s; earliest in the last sequence (R3.2)", count=best)
        else:
            purpose = t("R3.2 tie for %(role)s", role=ROLE_NAMES[role])
            winner, tie_events = break_tie_by_dice(tied, purpose, dice)
            events += tie_events
            reason = t("tied at %(count)s; won the dice", count=best)
        roles[role] = winner
        events.append(event("role_assigned", role=str(role), player=winner, previous=holder, count=best, reason=reason))
    return roles, events
