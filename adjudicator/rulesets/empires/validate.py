"""Empires order validation when the orders arrive: names resolved to the board's ids, the
phase, who may give the order, and what the position the player sees already makes impossible
for good (a sail between seas that do not touch, a building where the board prints no site, a
tile not face up), asked of the same functions the engine asks; one result per line, never an
exception. Then his purchase or military lines are rehearsed with the engine's own turn
(rehearsal.py): his earlier lines taken to happen, what can then never work is refused, what
waits on something else is noted. A line accepted that will not be carried out as written (a
trade side on a used token, a conquest choice another line overrides) carries a note saying so.
What only another player's earlier turn or the dice decide is checked at resolution and
reported there as skipped, with its rule (E6.1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from adjudicator.core.i18n import t, term
from adjudicator.core.names import normalise
from adjudicator.language.problems import Rejection
from adjudicator.language.submission import OrderLine
from adjudicator.rulesets.empires import orders
from adjudicator.rulesets.empires.board import Board, CityKind, Title
from adjudicator.rulesets.empires.conquest import choice_dropped, conquest_choices
from adjudicator.rulesets.empires.military import sail_problem
from adjudicator.rulesets.empires.model import UNIT_STOCK, Phase, Position
from adjudicator.rulesets.empires.orders import MAX_COUNT, ORDER_PHASES
from adjudicator.rulesets.empires.presentation import listed
from adjudicator.rulesets.empires.purchase import BUILDINGS as BUILT_PIECES
from adjudicator.rulesets.empires.purchase import site_problem, tile_problem
from adjudicator.rulesets.empires.rehearsal import rehearse
from adjudicator.rulesets.empires.trade import side_played
from adjudicator.rulesets.kit.checking import LineChecks, check_line
from adjudicator.rulesets.kit.lookup import Refused
from adjudicator.rulesets.kit.payment import TAX

# E5.3: what a `take` line may name instead of a token, as players of each language write it
# (the catalogs' `choice` terms among them: tests/test_terms.py).
TAKE_CLASSES = {
    "good": "good", "goods": "good", "any": "any", "anything": "any",
    "towar": "good", "towary": "good", "towarow": "good", "cokolwiek": "any", "dowolny": "any",
    "aru": "good", "arut": "good", "barmi": "any", "barmit": "any",
    "marchandise": "good", "marchandises": "good", "ressource": "good", "nimporte": "any",
    "quelconque": "any", "mercancia": "good", "mercancias": "good", "cualquiera": "any", "cualquier": "any",
}  # fmt: skip
# E9.2: the titles as a `title` line names them, in every language (the catalogs' `title` terms among
# them: tests/test_terms.py); "trade" too, since the word for commerce is that language's `trade`.
TITLE_NAMES = {
    "commerce": Title.COMMERCE, "trade": Title.COMMERCE, "handel": Title.COMMERCE, "handlowy": Title.COMMERCE,
    "kereskedelmi": Title.COMMERCE, "kereskedelem": Title.COMMERCE, "comercio": Title.COMMERCE,
    "political": Title.POLITICAL, "politics": Title.POLITICAL, "polityczny": Title.POLITICAL,
    "politikai": Title.POLITICAL, "politique": Title.POLITICAL, "politico": Title.POLITICAL,
    "military": Title.MILITARY, "wojskowy": Title.MILITARY, "katonai": Title.MILITARY, "militaire": Title.MILITARY,
    "militar": Title.MILITARY,
}  # fmt: skip
# E1.3: the tax token as players of each language write it.
TAX_NAMES = frozenset(
    {"tax", "taxes", "podatek", "podatki", "podatkow", "ado", "impot", "impots", "impuesto", "impuestos"}
)
BUILDINGS = {"city", "market", "temple", "legendary"}


def take_class(text: str) -> str | None:
    """`good` or `any` when a `take` line names a class of tokens rather than one (E5.3)."""
    return TAKE_CLASSES.get(normalise(text))


def good_named(board: Board, text: str) -> str | None:
    """The token a name means (tax or a good), or None when it names none or several."""
    if normalise(text) in TAX_NAMES:
        return TAX
    match = board.goods.find(text)
    return next(iter(match.keys)) if len(match.keys) == 1 else None


# NOTE: the three titles of Mare Nostrum: Empires (E9), as a player reads them in a refusal.
TITLE_WORDS = {
    "commerce": t("Master of Commerce"),
    "political": t("Political Leader"),
    "military": t("Military Leader"),
}
PHASE_WORDS = {
    Phase.PRODUCTION: t("production"),
    Phase.TRADE: t("trade"),
    Phase.PURCHASE: t("purchase"),
    Phase.MILITARY: t("military"),
    Phase.CLAIMS: t("claims"),
}


@dataclass
class _Context(LineChecks):
    board: Board
    position: Position
    empire: str

    def note(self) -> str:
        return listed(self.notes, "; ")

    def refuse_as_engine(self, reason: str) -> None:
        """Refuse with the engine's own reason, which names its rule ("" lets the line pass)."""
        if reason:
            raise Refused(Rejection(self.line, "", reason))

    def province(self, text: str) -> str:
        place = self.find(self.board.places, text, t("province"))
        if place not in self.board.provinces:
            raise self.refuse("E7.3", t("%(sea)s is a sea; name a province", sea=self.board.seas[place].name))
        return place

    def sea(self, text: str) -> str:
        place = self.find(self.board.places, text, t("sea"))
        if place not in self.board.seas:
            raise self.refuse(
                "E7.2", t("%(province)s is a province; name a sea", province=self.board.provinces[place].name)
            )
        return place

    def empire_name(self, text: str, others_only: bool = False) -> str:
        name = self.find(self.board.empire_names, text, t("empire"))
        if name not in self.position.players:
            raise self.refuse("E2.1", t("%(empire)s does not play in this game", empire=name))
        if others_only and name == self.empire:
            raise self.refuse("E7.2", t("you cannot name yourself here"))
        return name

    def good(self, text: str) -> str:
        if normalise(text) in TAX_NAMES:
            return TAX
        return self.find(self.board.goods, text, t("good"), term_kind="card")

    def tokens(self, texts: Sequence[str]) -> tuple[str, ...]:
        if len(texts) > MAX_COUNT:
            raise self.refuse("E1.3", t("a line names at most %(most)s tokens; nobody holds more", most=MAX_COUNT))
        return tuple(self.good(t) for t in texts)

    def tile(self, text: str) -> str:
        return self.find(self.board.tile_names, text, t("hero or wonder"))

    def holds(self, title: Title, rule: str) -> None:
        holder = self.position.titles.get(title)
        if holder != self.empire:
            label = TITLE_WORDS[str(title)]
            if holder is None:
                raise self.refuse(rule, t("only the %(title)s (nobody) may give this order", title=label))
            raise self.refuse(
                rule, t("only the %(title)s (%(holder)s) may give this order", title=label, holder=holder)
            )

    def owns_effect(self, kind: str, rule: str, what: str) -> None:
        if not self.position.effects(self.board, self.empire, kind):
            raise self.refuse(rule, t("this order needs %(tile)s, which you do not own", tile=what))


def validate_orders(
    board: Board, position: Position, empire: str, lines: Sequence[OrderLine[orders.Order]], options: None = None
) -> list[OrderLine[orders.Order]]:
    """Each line checked, then his turn rehearsed. Empires has no options (`options` is taken for
    the ruleset's engine part)."""
    context = _Context(board, position, empire)
    checked = [check_line(context, line, _check_line) for line in lines]
    return _note_dropped_choices(board, rehearse(board, position, empire, checked))


def _check_line(c: _Context, order: orders.Order) -> orders.Order:
    _check_phase(c, order)
    return replace(_check(c, order), line=c.line)


def _note_dropped_choices(board: Board, lines: list[OrderLine[orders.Order]]) -> list[OrderLine[orders.Order]]:
    """E8.5: a line whose conquest choice another line overrides is told so (`conquest_choices`,
    as the engine reads them)."""
    _, dropped = conquest_choices([line.order for line in lines if line.ok and line.order is not None])
    notes = {lost.line: choice_dropped(board, lost, kept) for lost, kept in dropped}
    return [
        replace(line, note=listed([n for n in (line.note, notes[line.number]) if n], "; "))
        if line.ok and line.number in notes
        else line
        for line in lines
    ]


def _check_phase(c: _Context, order: orders.Order) -> None:
    phase = c.position.phase
    if c.position.winner:
        raise c.refuse("E10", t("the game is over: %(winner)s won", winner=c.position.winner))
    if isinstance(order, orders.TurnOrder):
        if phase not in (Phase.PURCHASE, Phase.MILITARY):
            raise c.refuse(
                "E3.3",
                t(
                    "'sequence' orders the purchase or military turns; it is the %(phase)s phase",
                    phase=PHASE_WORDS[phase],
                ),
            )
        return
    wanted = ORDER_PHASES[type(order)]
    if wanted is not phase:
        verb = order.to_text().split()[0]
        raise c.refuse(
            "E3.1",
            t(
                "'%(verb)s' is a %(wanted)s-phase order; it is round %(round)s, %(phase)s phase",
                verb=verb,
                wanted=PHASE_WORDS[wanted],
                round=c.position.round,
                phase=PHASE_WORDS[phase],
            ),
        )


def _check(c: _Context, order: orders.Order) -> orders.Order:
    match order:
        case orders.TradeSide():
            c.holds(Title.COMMERCE, "E5.1")
            _note_side(c, order)
            return order
        case orders.Offer():
            return replace(order, tokens=c.tokens(order.tokens))
        case orders.Take():
            choice = take_class(order.choice) or c.good(order.choice)
            source = c.empire_name(order.source, others_only=True) if order.source else None
            return replace(order, choice=choice, source=source)
        case orders.Give():
            c.holds(Title.COMMERCE, "E5.5")
            return replace(order, tokens=c.tokens(order.tokens))
        case orders.TurnOrder():
            title = Title.POLITICAL if c.position.phase is Phase.PURCHASE else Title.MILITARY
            c.holds(title, "E3.3")
            return replace(order, empires=tuple(c.empire_name(e) for e in order.empires))
        case orders.Build():
            return _check_build(c, order)
        case orders.Buy():
            tile = c.tile(order.tile)
            c.refuse_as_engine(tile_problem(c.board, c.position, tile))
            return replace(order, tile=tile, pay=c.tokens(order.pay))
        case orders.Copy():
            c.owns_effect("copy_ability", "E11.1", "Castor and Pollux")
            tile = c.tile(order.tile)
            owner = c.position.owner_of(tile)
            if owner in (None, c.empire):
                raise c.refuse(
                    "E11.1", t("%(tile)s is not owned by another player; copy a tile someone else owns", tile=tile)
                )
            return replace(order, tile=tile)
        case orders.Sail():
            origin, destination = c.sea(order.origin), c.sea(order.destination)
            c.refuse_as_engine(sail_problem(c.board, origin, destination))
            return replace(order, origin=origin, destination=destination)
        case orders.NavalAttack():
            return replace(order, enemy=c.empire_name(order.enemy, others_only=True), sea=c.sea(order.sea))
        case orders.Move():
            then = _check_conquest(c, replace(order.then, province=order.destination)) if order.then else None
            return replace(
                order,
                origin=c.province(order.origin),
                destination=c.province(order.destination),
                via=tuple(c.sea(s) for s in order.via),
                then=then,
            )
        case orders.Conquest():
            return _check_conquest(c, order)
        case orders.Standing():
            return _check_standing(c, order)
    raise c.refuse("", t("'%(order)s' is not an order of this game", order=order.to_text()))  # pragma: no cover


def _check_build(c: _Context, order: orders.Build) -> orders.Build:
    if order.count < 1:
        raise c.refuse("E6.1", t("the count starts at 1"))
    most = max(UNIT_STOCK.values())
    if order.count > most:
        raise c.refuse("E1.2", t("an empire has at most %(most)s of any piece; build %(most)s or fewer", most=most))
    place = c.sea(order.place) if order.piece == "trireme" else c.province(order.place)
    good = c.good(order.good) if order.good else None
    if good == TAX:
        raise c.refuse("E6.6", t("a caravan stands on a good, not on tax"))
    if order.piece in BUILT_PIECES:
        c.refuse_as_engine(site_problem(c.board, c.position, place, order.piece, good))
    return replace(order, place=place, good=good, pay=c.tokens(order.pay))


def _note_side(c: _Context, order: orders.TradeSide) -> None:
    """E5.1, E5.7: a side on no token he may still turn gives way to another (`side_played`)."""
    side, token = side_played(c.board, c.position, order.size)
    if side != order.size:
        c.notes.append(
            t(
                "E5.7: %(wanted)s is on no trade token you still hold; %(side)s (the %(token)s token) "
                "is played instead (ED4)",
                wanted=order.size,
                side=side,
                token="/".join(str(n) for n in c.board.trade_tokens[token]),
            )
        )


def _check_conquest(c: _Context, order: orders.Conquest) -> orders.Conquest:
    province = c.province(order.province)
    buildings = []
    for building in order.buildings:
        if building.startswith("caravan:"):
            good = c.good(building.split(":", 1)[1])
            buildings.append(f"caravan:{good}")
        else:
            buildings.append(building)
    if order.action == "sack" and order.for_good and c.board.provinces[province].city is not CityKind.LEGENDARY:
        raise c.refuse("E8.6", t("only a sacked legendary city pays a legendary good"))
    return replace(order, province=province, buildings=tuple(buildings))


def title_named(text: str) -> Title | None:
    """A title by the word a `title` line names it with, in any language (E9.2)."""
    return TITLE_NAMES.get(normalise(text))


def _check_standing(c: _Context, order: orders.Standing) -> orders.Standing:
    if order.key.startswith("title:"):
        title = title_named(order.key.split(":", 1)[1])
        if title is None:
            raise c.refuse(
                "E9.2",
                t(
                    "'%(title)s' is not a title; use %(titles)s",
                    title=order.key.split(":", 1)[1],
                    titles=listed([term("title", str(name)) for name in Title], " | "),
                ),
            )
        names = [c.empire_name(n.strip()) for n in order.value.split(",") if n.strip()]
        return replace(order, key=f"title:{title}", value=", ".join(names))
    if order.key == "legendary":
        city = c.province(order.place)
        if c.board.provinces[city].city is not CityKind.LEGENDARY:
            raise c.refuse("E4.3", t("%(province)s has no legendary city site", province=c.board.provinces[city].name))
        return replace(order, place=city)
    if order.key == "take":
        c.owns_effect("take_good", "E11.1", t("the Colossus"))
        good = c.good(order.value)
        if good == TAX:
            raise c.refuse("E11.1", t("the Colossus takes a good, not tax"))
        return replace(order, value=good)
    c.owns_effect("impose_peace", "E11.1", t("the Statue of Zeus"))
    return replace(order, value=c.empire_name(order.value, others_only=True))
