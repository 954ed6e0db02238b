"""The game's pieces and cards as data (R1, R6.2, R9): counts, costs, names and aliases."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Final, NewType

from adjudicator.core.i18n import Msg, t

Civ = NewType("Civ", str)
ProvinceId = NewType("ProvinceId", str)
SeaId = NewType("SeaId", str)

TAX: Final = "tax"


class Phase(StrEnum):
    SETUP = "setup"  # R2.4 advanced setup only; a basic game opens at trade
    TRADE = "trade"
    BUILD = "build"
    MILITARY = "military"


PHASE_NAMES: Final[MappingProxyType[str, Msg]] = MappingProxyType(
    {
        # NOTE: the name of a phase of the turn, as in "the setup phase".
        Phase.SETUP: t("setup"),
        # NOTE: the name of a phase of the turn, as in "the trade phase".
        Phase.TRADE: t("trade"),
        # NOTE: the name of a phase of the turn, as in "the build phase".
        Phase.BUILD: t("build"),
        # NOTE: the name of a phase of the turn, as in "the military phase".
        Phase.MILITARY: t("military"),
    }
)


class Role(StrEnum):
    COMMERCE = "commerce"
    POLITICAL = "political"
    MILITARY = "military"

    @property
    def label(self) -> str:
        return ROLE_TITLES[self]


ROLE_TITLES: Final = MappingProxyType(
    {
        Role.COMMERCE: "Commerce Director",
        Role.POLITICAL: "Political Leader",
        Role.MILITARY: "Military Leader",
    }
)
# The titles and words players read, in their language (the values above are data and order syntax).
ROLE_NAMES: Final[MappingProxyType[str, Msg]] = MappingProxyType(
    {
        Role.COMMERCE: t("Commerce Director"),
        Role.POLITICAL: t("Political Leader"),
        Role.MILITARY: t("Military Leader"),
    }
)
ROLE_ALIASES: Final = MappingProxyType(
    {
        Role.COMMERCE: ("commerce", "Commerce Director", "director", "trade"),
        Role.POLITICAL: ("political", "Political Leader", "politics", "build"),
        Role.MILITARY: ("military", "Military Leader", "war"),
    }
)


class Piece(StrEnum):
    """What a player can build (R6.2)."""

    INFLUENCE = "influence"
    CITY = "city"
    CARAVAN = "caravan"
    TEMPLE = "temple"
    MARKET = "market"
    FORTRESS = "fortress"
    LEGION = "legion"
    TRIREME = "trireme"


# A kind of piece, as a noun on its own ("legion in Roma", "destroying the temple").
PIECE_NAMES: Final[MappingProxyType[str, Msg]] = MappingProxyType(
    {
        Piece.INFLUENCE: t("influence"),
        Piece.CITY: t("city"),
        Piece.CARAVAN: t("caravan"),
        Piece.TEMPLE: t("temple"),
        Piece.MARKET: t("market"),
        Piece.FORTRESS: t("fortress"),
        Piece.LEGION: t("legion"),
        Piece.TRIREME: t("trireme"),
    }
)


class Unit(StrEnum):
    """What a player can lose in a battle (R8.2)."""

    LEGION = "legion"
    TRIREME = "trireme"
    FORTRESS = "fortress"


class Building(StrEnum):
    """Shared building tokens, limited per player count (R1.3)."""

    CARAVAN = "caravan"
    CITY = "city"
    MARKET = "market"
    TEMPLE = "temple"


# R1: every commodity and how many cards of it the game has.
COMMODITY_CARDS: Final = MappingProxyType(
    {
        "fish": 11,
        "grain": 11,
        "slaves": 11,
        "wine": 7,
        "metal": 7,
        "fruit": 7,
        "livestock": 7,
        "oil": 7,
        "gems": 5,
        "perfume": 5,
        "gold": 5,
        "papyrus": 5,
    }
)
TAX_CARDS: Final = 35
CARD_TOTALS: Final = MappingProxyType({TAX: TAX_CARDS, **COMMODITY_CARDS})

CARD_ALIASES: Final = MappingProxyType(
    {
        TAX: ("taxes", "tax card", "tax cards", "coin", "coins"),
        "fish": ("fishes",),
        "grain": ("grains", "wheat", "corn"),
        "slaves": ("slave",),
        "wine": ("wines",),
        "metal": ("metals", "ore", "iron"),
        "fruit": ("fruits",),
        "livestock": ("cattle", "cows", "sheep"),
        "oil": ("olive oil", "olives", "oils"),
        "gems": ("gem", "jewels", "jewellery"),
        "perfume": ("perfumes", "incense"),
        "gold": (),
        "papyrus": ("papyri",),
    }
)

# Issue 18: the cards as the Polish, Hungarian, French and Spanish rulebooks name them (pl l. 29
# and 320-340, hu l. 76 and 400-420, fr l. 650-675; es as Spanish players say), so a player may
# write "oferuj wino, zboże". Every form the catalogs give a card (its `card` term, which reports
# and forms show in the player's language) is among them: tests/test_terms.py.
CARD_ALIASES_ABROAD: Final = MappingProxyType(
    {
        TAX: ("podatek", "podatki", "podatków", "adó", "adókártya", "impôt", "impôts", "impuesto", "impuestos"),
        "fish": ("ryba", "ryby", "ryb", "hal", "poisson", "poissons", "pescado", "pescados"),
        "grain": ("zboże", "zboża", "zbóż", "gabona", "céréale", "céréales", "grano", "granos", "trigo"),
        "slaves": (
            "niewolnik", "niewolnicy", "niewolników", "rabszolga", "rabszolgák", "esclave", "esclaves", "esclavo",
            "esclavos",
        ),
        "wine": ("wino", "wina", "win", "bor", "vin", "vins", "vino", "vinos"),
        "metal": ("metale", "metali", "fém", "métal", "métaux", "metales"),
        "fruit": ("owoc", "owoce", "owoców", "gyümölcs", "fruta", "frutas"),
        "livestock": ("inwentarz", "inwentarze", "inwentarzy", "bydło", "háziállat", "bétail", "ganado"),
        "oil": ("oliwa", "oliwy", "oliw", "olaj", "huile", "huiles", "aceite", "aceites"),
        "gems": ("klejnot", "klejnoty", "klejnotów", "drágakő", "drágakövek", "gemme", "gemmes", "gema", "gemas"),
        "perfume": ("pachnidło", "pachnidła", "pachnideł", "perfumy", "illatszer", "parfum", "parfums"),
        "gold": ("złoto", "złota", "arany", "or", "oro"),
        "papyrus": ("papirus", "papirusy", "papirusów", "papirusz", "papiro", "papiros"),
    }
)  # fmt: skip

# R1: each player's own pieces.
UNIT_STOCK: Final = MappingProxyType({"legion": 8, "trireme": 5, "fortress": 8, "influence": 12})

# R1.3: shared building tokens by number of players.
BUILDING_SUPPLY: Final = MappingProxyType(
    {
        3: MappingProxyType({Building.CARAVAN: 18, Building.CITY: 8, Building.MARKET: 8, Building.TEMPLE: 4}),
        4: MappingProxyType({Building.CARAVAN: 23, Building.CITY: 10, Building.MARKET: 10, Building.TEMPLE: 5}),
        5: MappingProxyType({Building.CARAVAN: 28, Building.CITY: 12, Building.MARKET: 12, Building.TEMPLE: 6}),
    }
)
PLAYER_COUNTS: Final = tuple(BUILDING_SUPPLY)

# R6.2: what each piece costs before any hero or wonder changes it.
PIECE_COST: Final = MappingProxyType(
    {
        Piece.INFLUENCE: 3,
        Piece.CITY: 3,
        Piece.CARAVAN: 3,
        Piece.LEGION: 3,
        Piece.TRIREME: 3,
        Piece.FORTRESS: 3,
        Piece.TEMPLE: 6,
        Piece.MARKET: 6,
    }
)
HERO_COST: Final = 9
PYRAMIDS_COST: Final = 12

# R9: general heroes and wonders, with aliases players write.
GENERAL_HEROES: Final = MappingProxyType(
    {
        "Agamemnon": (),
        "Archimedes": (),
        "Solomon": ("Salomon",),
        "Helen of Troy": ("Helen", "Helena"),
        "Nebuchadnezzar": ("Nabuchodonosor", "Nebukadnezar"),
        "Ulysses": ("Odysseus", "Ulisses"),
    }
)
WONDERS: Final = MappingProxyType(
    {
        "Colossus": ("Colossus of Rhodes",),
        "Hanging Gardens": ("Hanging Gardens of Babylon", "Gardens"),
        "Temple of Artemis": ("Artemision",),
        "Statue of Zeus": ("Zeus", "Statue"),
        "Lighthouse": ("Lighthouse of Alexandria", "Pharos"),
        "Mausoleum": ("Mausoleum of Halicarnassus",),
        "Pyramids": ("Pyramid", "Great Pyramid"),
    }
)
PYRAMIDS: Final = "Pyramids"
CARDS_TO_WIN: Final = 4  # R10: heroes and wonders owned, the civilization hero included

# Demonyms players write in `power`, `sequence` and `from` (the board holds the names).
CIV_ALIASES: Final = MappingProxyType(
    {
        "Rome": ("Roman", "Romans", "Roma"),
        "Carthage": ("Carthaginian", "Carthaginians", "Carthago"),
        "Greece": ("Greek", "Greeks", "Hellas"),
        "Egypt": ("Egyptian", "Egyptians", "Aegyptus"),
        "Babylon": ("Babylonian", "Babylonians", "Babylonia"),
    }
)

# R2.4: points to spend in the advanced setup, and Greece's extra area (the Aegean coasts).
SETUP_POINTS: Final = 36
# R2.4: Greece may also set up on the provinces the -hu FAQ names as touching the Aegean.
SETUP_EXTRA_AREA: Final = MappingProxyType({"Greece": ("constantinopolis", "troas", "rhodus", "cnossus")})
# D23: a start caravan may stand on either icon of its province (-fr player aids), except
# Egypt's, which goes on papyrus only (-hu FAQ: the livestock icon is in Sinai).
FIXED_START_CARAVANS: Final = MappingProxyType({"alexandria": ("papyrus",)})

# R3.3: the fixed table order used for default sequences.
TABLE_ORDER: Final = ("Rome", "Greece", "Babylon", "Egypt", "Carthage")


def together(names: Sequence[str]) -> str:
    """`A`, `A and B`, `A and B and C`: the names with the language's "and"."""
    text: str = names[0] if names else ""
    for name in names[1:]:
        text = t("%(some)s and %(other)s", some=text, other=name)
    return text


def listed(parts: Sequence[str], semicolons: bool = False) -> str:
    """Parts of a table cell one after another, with commas (or semicolons), each in the reader's language."""
    text: str = parts[0] if parts else ""
    for part in parts[1:]:
        if semicolons:
            text = t("%(some)s; %(other)s", some=text, other=part)
        else:
            text = t("%(some)s, %(other)s", some=text, other=part)
    return text
