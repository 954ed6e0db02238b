"""Validation of military-phase orders (R7, R8) and the choices for the next turn (R3.2, R4)."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.names import NameIndex
from adjudicator.rulesets.mare_nostrum.checks import Context
from adjudicator.rulesets.mare_nostrum.components import (
    ROLE_ALIASES,
    ProvinceId,
    Role,
    SeaId,
)
from adjudicator.rulesets.mare_nostrum.orders import (
    Artemis,
    Casualties,
    Consequence,
    Helen,
    Move,
    NavalAttack,
    RoleChoice,
    Sail,
    Then,
)

# ---- Military (R7, R8) ---------------------------------------------------------------


def check_sail(c: Context, order: Sail) -> Sail:
    origin = c.place(order.origin)
    destination = c.sea(order.destination)
    if origin in c.board.provinces:
        here = c.position.provinces[ProvinceId(origin)].port.get(c.civ, 0)
        reachable = c.board.provinces[ProvinceId(origin)].seas
        where = f"in port in {c.board.place_name(origin)}"
    else:
        here = c.position.seas[SeaId(origin)].triremes.get(c.civ, 0)
        reachable = c.board.seas[SeaId(origin)].seas
        where = f"in {c.board.place_name(origin)}"
    if order.count < 1:
        raise c.refuse("R7.2", "move at least one trireme")
    if here - c.moved_triremes[origin] < order.count:
        left = here - c.moved_triremes[origin]
        raise c.refuse("R7.2", f"you have {left} trireme(s) {where} that have not moved, not {order.count}")
    if destination not in reachable:
        raise c.refuse(
            "R7.2",
            f"{c.board.place_name(destination)} is not next to {c.board.place_name(origin)}; triremes move one step",
        )
    c.moved_triremes[origin] += order.count
    return replace(order, origin=origin, destination=destination)


def check_naval_attack(c: Context, order: NavalAttack) -> NavalAttack:
    return replace(order, target=c.other_civ(order.target, "R8.3"), sea=c.sea(order.sea))


def check_move(c: Context, order: Move) -> Move:
    origin = c.province(order.origin)
    destination = c.province(order.destination)
    seas = [c.sea(s) for s in order.via]
    attack = tuple(c.other_civ(text, "D7") for text in order.attack)
    if order.count < 1:
        raise c.refuse("R7.3", "move at least one legion")
    here = c.position.provinces[origin].legions.get(c.civ, 0) - c.moved_legions[origin]
    if here < order.count:
        raise c.refuse(
            "R7.3",
            f"you have {here} legion(s) in {c.board.provinces[origin].name} that have not moved, not {order.count}",
        )
    start, end = c.board.provinces[origin], c.board.provinces[destination]
    if destination == origin:
        raise c.refuse("R7.3", "a legion moves to another province")
    if destination not in start.land and (seas or not start.coastal or not end.coastal):
        if not start.coastal or not end.coastal:
            raise c.refuse(
                "R7.3",
                f"{end.name} does not border {start.name} by land, and a sea route needs both to have a coast",
            )
        if seas and (seas[0] not in start.seas or seas[-1] not in end.seas):
            raise c.refuse("R7.3", f"the route must start on a sea of {start.name} and end on a sea of {end.name}")
    if order.then is not None and order.then.consequence is Consequence.CONVERT:
        owner = c.board.capital_of(destination)
        if owner is not None and owner != c.civ:
            raise c.refuse("R8.7", f"{end.name} is {owner}'s capital; its influence can never be converted")
    c.moved_legions[origin] += order.count
    then = check_then(c, order.then, destination) if order.then else None
    return replace(order, origin=origin, destination=destination, via=tuple(seas), attack=attack, then=then)


def check_then(c: Context, then: Then, province: ProvinceId) -> Then:
    """Canonical sack targets: `city SITE` (site optional), `caravan ICON`, `temple`, `market`."""
    if then.consequence is not Consequence.SACK or not then.target:
        return then
    kind, _, rest = then.target.partition(" ")
    if kind == "caravan":
        return replace(then, target=f"caravan {c.commodity(rest)}")
    if kind == "city" and rest:
        local: NameIndex[str] = NameIndex("city site")
        for site in c.board.provinces[province].cities:
            local.add(site, site)
        return replace(
            then, target=f"city {c.find(local, rest, 'city site', f'in {c.board.provinces[province].name}')}"
        )
    return then


def check_casualties(c: Context, order: Casualties) -> Casualties:
    if len(set(order.units)) != len(order.units):
        raise c.refuse("R8.2", "name each kind of unit once")
    return order


def check_helen(c: Context, order: Helen) -> Helen:
    c.own("Helen of Troy", "R8.9")
    return replace(order, province=c.province(order.province)) if order.province is not None else order


def check_role(c: Context, order: RoleChoice) -> RoleChoice:
    roles: NameIndex[Role] = NameIndex("role")
    for role, aliases in ROLE_ALIASES.items():
        roles.add(role, role.label, aliases)
    role = c.find(roles, order.role, "role")
    c.holds_role(role, "R3.2")
    target = c.find(c.board.civ_names, order.civ, "civilization")
    if c.position.players[target].neutral:
        raise c.refuse("R3.2", f"{target} is neutral and holds no role")
    return replace(order, role=str(role), civ=target)


def check_artemis(c: Context, order: Artemis) -> Artemis:
    c.own("Temple of Artemis", "R4")
    return replace(order, commodity=c.commodity(order.commodity))
