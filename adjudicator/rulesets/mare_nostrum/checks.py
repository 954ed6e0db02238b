"""What validating one player's lines needs: the context, name lookups and refusals."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from adjudicator.core.i18n import t, term
from adjudicator.core.names import NameIndex
from adjudicator.rulesets.kit.checking import LineChecks
from adjudicator.rulesets.mare_nostrum.board import Board
from adjudicator.rulesets.mare_nostrum.components import (
    CARD_ALIASES,
    CARD_ALIASES_ABROAD,
    GENERAL_HEROES,
    ROLE_NAMES,
    SETUP_POINTS,
    TAX,
    WONDERS,
    Civ,
    ProvinceId,
    Role,
    SeaId,
    listed,
)
from adjudicator.rulesets.mare_nostrum.model import Position
from adjudicator.rulesets.mare_nostrum.orders import (
    CardCount,
)

TAKE_CLASSES = {
    "commodity": "commodity",
    "commodities": "commodity",
    "tax": TAX,
    "any": "any",
    "anything": "any",
    # issue 18: the classes as players of the other languages write them
    "towar": "commodity", "towary": "commodity", "towarów": "commodity", "dowolna": "any", "dowolną": "any",
    "cokolwiek": "any", "áru": "commodity", "árut": "commodity", "árukártya": "commodity", "bármi": "any",
    "bármit": "any", "marchandise": "commodity", "marchandises": "commodity", "ressource": "commodity",
    "quelconque": "any", "nimporte": "any", "mercancía": "commodity", "mercancías": "commodity",
    "cualquiera": "any", "cualquier": "any",
}  # fmt: skip


@functools.cache
def card_index() -> NameIndex[str]:
    """Built once: the card names never change. Callers only look up (never `add`)."""
    index: NameIndex[str] = NameIndex("card")
    for card, aliases in CARD_ALIASES.items():
        index.add(card, card, (*aliases, *CARD_ALIASES_ABROAD[card]))
    return index


@functools.cache
def take_index() -> NameIndex[str]:
    """Card names plus the classes a `take` may name (commodity, tax, any)."""
    index: NameIndex[str] = NameIndex("card")
    for card, aliases in CARD_ALIASES.items():
        index.add(card, card, (*aliases, *CARD_ALIASES_ABROAD[card]))
    for word, meaning in TAKE_CLASSES.items():
        index.add(meaning, word)
    return index


def hero_index(board: Board) -> NameIndex[str]:
    return _hero_index(tuple(board.heroes))


@functools.cache
def _hero_index(civilization_heroes: tuple[str, ...]) -> NameIndex[str]:
    """Built once per board: every validation needs it (a form validates hundreds of lines)."""
    index: NameIndex[str] = NameIndex("hero or wonder")
    for hero in civilization_heroes:
        index.add(hero, hero, (hero.split()[-1],) if " " in hero else ())
    for table in (GENERAL_HEROES, WONDERS):
        for card, aliases in table.items():
            index.add(card, card, aliases)
    return index


@dataclass
class Context(LineChecks):
    """What validating one player's lines needs, plus what his earlier lines used up.

    Earlier accepted lines are taken to happen: a line is refused when, after them, it can
    never work; when it works only if something else happens first, it gets a note."""

    board: Board
    position: Position
    civ: Civ
    cards: NameIndex[str] = field(default_factory=card_index)
    heroes: NameIndex[str] = field(init=False)
    moved_legions: Counter[ProvinceId] = field(default_factory=Counter)  # by origin (D13)
    arriving_legions: Counter[ProvinceId] = field(default_factory=Counter)
    moved_triremes: Counter[str] = field(default_factory=Counter)  # by origin, port or sea (R7.2)
    arriving_triremes: Counter[SeaId] = field(default_factory=Counter)
    bought: list[str] = field(default_factory=list)
    influence_placed: list[ProvinceId] = field(default_factory=list)
    built: Counter[str] = field(default_factory=Counter)  # pieces and buildings by kind (R1, R1.3)
    planned: dict[tuple[ProvinceId, str], int] = field(default_factory=dict)  # spot -> line (R6.5)
    planned_fortresses: Counter[ProvinceId] = field(default_factory=Counter)
    # The purse after his earlier lines, as the engine will find it (R6.1, R6.7, R2.4): the hand
    # after Cleopatra's exchanges and the sets he names, the prices of the purchases the engine
    # pays with sets of its choosing, and the setup points left.
    costs: list[int] = field(default_factory=list)
    points: int = SETUP_POINTS
    exchanged: int = 0  # the line of Cleopatra's exchange, once accepted (R6.7)

    def __post_init__(self) -> None:
        self.heroes = hero_index(self.board)

    @functools.cached_property
    def stock(self) -> dict[str, int]:
        """R1: the player's pieces off the board at the start of the phase."""
        return self.position.stock(self.civ)

    @functools.cached_property
    def hand(self) -> Counter[str]:
        """His tax and commodity cards as his earlier lines leave them (exchanged, spent)."""
        return Counter(self.position.players[self.civ].hand)

    @property
    def owned(self) -> tuple[str, ...]:
        """His heroes and wonders, with those his earlier lines buy."""
        return (*self.position.players[self.civ].cards, *self.bought)

    @functools.cached_property
    def supply(self) -> dict[str, int]:
        """R1.3: the shared building tokens left at the start of the phase."""
        return self.position.supply()

    def note(self) -> str:
        return listed(self.notes, semicolons=True)

    def province(self, text: str) -> ProvinceId:
        place = self.find(self.board.places, text, t("province"))
        if place not in self.board.provinces:
            raise self.refuse(
                "R7.2" if place in self.board.seas else "",
                t("%(sea)s is a sea; name a province", sea=self.board.place_name(place)),
            )
        return ProvinceId(place)

    def sea(self, text: str) -> SeaId:
        place = self.find(self.board.places, text, t("sea"))
        if place not in self.board.seas:
            raise self.refuse(
                "R7.2", t("%(province)s is a province; name a sea", province=self.board.place_name(place))
            )
        return SeaId(place)

    def site(self, province: ProvinceId, text: str) -> str:
        """A printed city site of one province."""
        info = self.board.provinces[province]
        local: NameIndex[str] = NameIndex("city site")
        for site in info.cities:
            local.add(site, site)
        where = t("in %(province)s (sites: %(sites)s)", province=info.name, sites=", ".join(info.cities) or t("none"))
        return self.find(local, text, t("city site"), where)

    def place(self, text: str) -> str:
        return self.find(self.board.places, text, t("province or sea"))

    def other_civ(self, text: str, rule: str) -> Civ:
        civ = self.find(self.board.civ_names, text, t("civilization"))
        if civ == self.civ:
            raise self.refuse(rule, t("you cannot name yourself here"))
        return civ

    def card(self, text: str) -> str:
        match = self.cards.find(text)
        if not match.keys and self.heroes.find(text).keys:
            raise self.refuse(
                "R1", t("%(card)s is a hero or wonder card; only tax and commodity cards are meant here", card=text)
            )
        return self.find(self.cards, text, t("card"), term_kind="card")

    def commodity(self, text: str) -> str:
        card = self.card(text)
        if card == TAX:
            raise self.refuse("R1", t("tax is not a commodity; name a commodity card"))
        return card

    def card_list(self, cards: Sequence[CardCount], rule: str, check_hand: bool = True) -> tuple[CardCount, ...]:
        """The cards with canonical names, counts merged in first-seen order."""
        wanted: Counter[str] = Counter()
        for item in cards:
            if item.count < 1:
                raise self.refuse(rule, t("'%(cards)s' names no card; counts start at 1", cards=item.to_text()))
            wanted[self.card(item.card)] += item.count
        hand = self.hand
        for card, count in wanted.items():
            if check_hand and count > hand.get(card, 0):
                raise self.refuse(
                    rule,
                    t(
                        "you name %(cards)s but hold %(held)s",
                        cards=t("%(count)s %(thing)s", count=count, thing=term("card", card, count)),
                        held=hand.get(card, 0),
                    ),
                )
        return tuple(CardCount(card, count) for card, count in wanted.items())

    def ranked_cards(self, cards: Sequence[CardCount], rule: str, check_hand: bool = True) -> tuple[CardCount, ...]:
        """Like `card_list` but keeping the ranking as written (repeats stay apart)."""
        self.card_list(cards, rule, check_hand)
        return tuple(CardCount(self.card(item.card), item.count) for item in cards)

    def own(self, card: str, rule: str) -> None:
        if card not in self.position.players[self.civ].cards and card not in self.bought:
            raise self.refuse(rule, t("this order needs %(card)s, which you do not own", card=card))

    def holds_role(self, role: Role, rule: str) -> None:
        holder = self.position.roles.get(role)
        if holder != self.civ:
            raise self.refuse(
                rule,
                t(
                    "only the %(role)s (%(holder)s) may give this order",
                    role=ROLE_NAMES[role],
                    holder=holder or t("nobody"),
                ),
            )
