"""Validation of military-phase orders (R7, R8) and the choices for the next turn (R3.2, R4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from adjudicator.core.i18n import t, tn
from adjudicator.core.names import NameIndex
from adjudicator.rulesets.mare_nostrum.checks import Context
from adjudicator.rulesets.mare_nostrum.components import (
    ROLE_ALIASES,
    ProvinceId,
    Role,
    SeaId,
    together,
)
from adjudicator.rulesets.mare_nostrum.geography import sea_route
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

HELEN = "Helen of Troy"

# ---- Military (R7, R8) ---------------------------------------------------------------


def check_sail(c: Context, order: Sail) -> Sail:
    origin = c.place(order.origin)
    destination = c.sea(order.destination)
    if origin in c.board.provinces:
        here = c.position.provinces[ProvinceId(origin)].port.get(c.civ, 0)
        reachable = c.board.provinces[ProvinceId(origin)].seas
        where = t("in port in %(province)s", province=c.board.place_name(origin))
    else:
        here = c.position.seas[SeaId(origin)].triremes.get(c.civ, 0)
        reachable = c.board.seas[SeaId(origin)].seas
        where = t("in %(sea)s", sea=c.board.place_name(origin))
    if order.count < 1:
        raise c.refuse("R7.2", t("move at least one trireme"))
    if here - c.moved_triremes[origin] < order.count:
        left = here - c.moved_triremes[origin]
        if c.arriving_triremes[SeaId(origin)]:
            why = tn(
                "you have %(count)s trireme(s) %(where)s that have not moved, not %(wanted)s; "
                "triremes arriving this turn do not move again (D13)",
                "you have %(count)s trireme(s) %(where)s that have not moved, not %(wanted)s; "
                "triremes arriving this turn do not move again (D13)",
                left,
                where=where,
                wanted=order.count,
            )
        else:
            why = tn(
                "you have %(count)s trireme(s) %(where)s that have not moved, not %(wanted)s",
                "you have %(count)s trireme(s) %(where)s that have not moved, not %(wanted)s",
                left,
                where=where,
                wanted=order.count,
            )
        raise c.refuse("R7.2", why)
    if destination not in reachable:
        raise c.refuse(
            "R7.2",
            t(
                "%(sea)s is not next to %(origin)s; triremes move one step",
                sea=c.board.place_name(destination),
                origin=c.board.place_name(origin),
            ),
        )
    c.moved_triremes[origin] += order.count
    c.arriving_triremes[destination] += order.count
    return replace(order, origin=origin, destination=destination)


def triremes_after_sailing(c: Context, sea: SeaId) -> tuple[int, int]:
    """The player's triremes in `sea` once his sail lines are done (R7.1): how many stayed
    there from the start of the turn, and how many may be there counting those sailing in."""
    stayed = c.position.seas[sea].triremes.get(c.civ, 0) - c.moved_triremes[sea]
    return stayed, stayed + c.arriving_triremes[sea]


def _waiting_for(c: Context, seas: Sequence[SeaId]) -> None:
    """Note the seas a line needs that only this turn's sails can fill."""
    pending = [c.board.seas[s].name for s in dict.fromkeys(seas) if triremes_after_sailing(c, s)[0] < 1]
    if pending:
        c.depends(t("depends on your triremes reaching %(seas)s first", seas=together(pending)))


def check_naval_attack(c: Context, order: NavalAttack) -> NavalAttack:
    target, sea = c.other_civ(order.target, "R8.3"), c.sea(order.sea)
    stayed, possible = triremes_after_sailing(c, sea)
    name = c.board.seas[sea].name
    if possible < 1 and stayed + c.moved_triremes[sea] > 0:
        raise c.refuse(
            "R7.2", t("your sail lines take all your triremes out of %(sea)s before the naval battles (R7.1)", sea=name)
        )
    if possible < 1:
        raise c.refuse(
            "R7.2",
            t(
                "you have no trireme in %(sea)s and none of your sail lines brings one there; sail one there first",
                sea=name,
            ),
        )
    _waiting_for(c, [sea])
    return replace(order, target=target, sea=sea)


def check_move(c: Context, order: Move) -> Move:
    origin = c.province(order.origin)
    destination = c.province(order.destination)
    seas = [c.sea(s) for s in order.via]
    attack = tuple(c.other_civ(text, "D7") for text in order.attack)
    if order.count < 1:
        raise c.refuse("R7.3", t("move at least one legion"))
    start, end = c.board.provinces[origin], c.board.provinces[destination]
    _check_legions_there(c, origin, order.count)
    if destination == origin:
        raise c.refuse("R7.3", t("a legion moves to another province"))
    if seas or destination not in start.land:
        if not start.coastal or not end.coastal:
            raise c.refuse(
                "R7.3",
                t(
                    "a sea route needs both %(origin)s and %(destination)s to have a coast; "
                    "leave out 'via' to move by land",
                    origin=start.name,
                    destination=end.name,
                )
                if destination in start.land
                else t(
                    "%(destination)s does not border %(origin)s by land, and a sea route needs both to have a coast",
                    origin=start.name,
                    destination=end.name,
                ),
            )
        _waiting_for(c, _check_sea_route(c, origin, destination, seas))
    if order.then is not None and order.then.consequence is Consequence.CONVERT:
        owner = c.board.capital_of(destination)
        if owner is not None and owner != c.civ:
            raise c.refuse(
                "R8.7",
                t(
                    "%(province)s is %(civ)s's capital; its influence can never be converted",
                    province=end.name,
                    civ=owner,
                ),
            )
    then = check_then(c, order.then, destination) if order.then else None
    c.moved_legions[origin] += order.count
    c.arriving_legions[destination] += order.count
    return replace(order, origin=origin, destination=destination, via=tuple(seas), attack=attack, then=then)


def _check_legions_there(c: Context, origin: ProvinceId, count: int) -> None:
    """R7.3, D13: legions that stood at `origin` when the turn began and have not moved yet.
    Only Helen of Troy (R8.9) can add one there before the player's turn."""
    here = c.position.provinces[origin].legions.get(c.civ, 0) - c.moved_legions[origin]
    if here >= count:
        return
    name = c.board.provinces[origin].name
    if here + 1 == count and _helen_may_give_legion(c, origin):
        c.depends(
            t(
                "depends on Helen of Troy turning an enemy legion entering %(province)s into yours first (R8.9)",
                province=name,
            )
        )
        return
    if c.arriving_legions[origin]:
        why = tn(
            "you have %(count)s legion(s) in %(province)s that have not moved, not %(wanted)s; "
            "legions arriving this turn do not move again (D13)",
            "you have %(count)s legion(s) in %(province)s that have not moved, not %(wanted)s; "
            "legions arriving this turn do not move again (D13)",
            here,
            province=name,
            wanted=count,
        )
    else:
        why = tn(
            "you have %(count)s legion(s) in %(province)s that have not moved, not %(wanted)s",
            "you have %(count)s legion(s) in %(province)s that have not moved, not %(wanted)s",
            here,
            province=name,
            wanted=count,
        )
    raise c.refuse("R7.3", why)


def _helen_may_give_legion(c: Context, province: ProvinceId) -> bool:
    """R8.9: in another player's turn, before this one's, an enemy legion entering one of the
    owner's provinces may become his, once per phase, while he has a legion in his stock."""
    return (
        HELEN in c.position.players[c.civ].cards
        and HELEN not in c.position.used
        and c.position.provinces[province].influence == c.civ
        and c.stock["legion"] > 0
    )


def _check_sea_route(c: Context, origin: ProvinceId, destination: ProvinceId, via: Sequence[SeaId]) -> Sequence[SeaId]:
    """R7.3: the chain of seas, each holding one of the player's triremes after his sails,
    that joins the two coasts (the one named, or the one that waits for the fewest sails)."""
    start, end = c.board.provinces[origin], c.board.provinces[destination]
    if via:
        if via[0] not in start.seas or via[-1] not in end.seas:
            raise c.refuse(
                "R7.3",
                t(
                    "the route must start on a sea of %(origin)s and end on a sea of %(destination)s",
                    origin=start.name,
                    destination=end.name,
                ),
            )
        for a, b in pairwise(via):
            if b not in c.board.seas[a].seas:
                raise c.refuse(
                    "R7.3",
                    t(
                        "%(sea)s and %(other)s are not next to each other; name an unbroken chain of seas",
                        sea=c.board.seas[a].name,
                        other=c.board.seas[b].name,
                    ),
                )
        empty = [c.board.seas[s].name for s in dict.fromkeys(via) if triremes_after_sailing(c, s)[1] < 1]
        if empty:
            raise c.refuse(
                "R7.3",
                t(
                    "you will have no trireme in %(seas)s when your legions move; "
                    "a legion sails only along seas that each hold one of your triremes",
                    seas=together(empty),
                ),
            )
        return via
    counts = {s: triremes_after_sailing(c, s) for s in c.board.seas}
    usable = frozenset(s for s, (_, possible) in counts.items() if possible > 0)
    sure = frozenset(s for s, (stayed, _) in counts.items() if stayed > 0)
    route = sea_route(c.board, origin, destination, usable, sure)
    if route is None:
        raise c.refuse(
            "R7.3",
            t(
                "%(destination)s does not border %(origin)s by land, and no chain of seas holding your triremes "
                "(now or after your sail lines) joins them",
                origin=start.name,
                destination=end.name,
            ),
        )
    return route


def check_then(c: Context, then: Then, province: ProvinceId) -> Then:
    """Canonical sack and occupy targets: `city SITE` (site optional), `caravan ICON`,
    `temple`, `market`."""
    if then.consequence is Consequence.SACK and then.target:
        return replace(then, target=_target(c, then.target, province))
    if then.consequence is Consequence.OCCUPY and then.targets:
        return replace(then, targets=tuple(_target(c, t, province) for t in then.targets))
    return then


def _target(c: Context, target: str, province: ProvinceId) -> str:
    kind, _, rest = target.partition(" ")
    if kind == "caravan":
        return f"caravan {c.commodity(rest)}"
    if kind == "city" and rest:
        local: NameIndex[str] = NameIndex("city site")
        for site in c.board.provinces[province].cities:
            local.add(site, site)
        where = t("in %(province)s", province=c.board.provinces[province].name)
        return f"city {c.find(local, rest, t('city site'), where)}"
    return target


def check_casualties(c: Context, order: Casualties) -> Casualties:
    if len(set(order.units)) != len(order.units):
        raise c.refuse("R8.2", t("name each kind of unit once"))
    return order


def check_helen(c: Context, order: Helen) -> Helen:
    c.own(HELEN, "R8.9")
    return replace(order, province=c.province(order.province)) if order.province is not None else order


def check_role(c: Context, order: RoleChoice) -> RoleChoice:
    roles: NameIndex[Role] = NameIndex("role")
    for role, aliases in ROLE_ALIASES.items():
        roles.add(role, role.label, aliases)
    role = c.find(roles, order.role, t("role"))
    c.holds_role(role, "R3.2")
    target = c.find(c.board.civ_names, order.civ, t("civilization"))
    if c.position.players[target].neutral:
        raise c.refuse("R3.2", t("%(civ)s is neutral and holds no role", civ=target))
    return replace(order, role=str(role), civ=target)


def check_artemis(c: Context, order: Artemis) -> Artemis:
    c.own("Temple of Artemis", "R4")
    return replace(order, commodity=c.commodity(order.commodity))
