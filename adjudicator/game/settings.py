"""game.toml: a game's settings, every table and key checked when it is read (the players'
civilizations are checked against the board and the position by `Game.load`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from adjudicator.core import dice as dice_chain
from adjudicator.core.errors import UsageError
from adjudicator.core.fields import Fields
from adjudicator.core.i18n import SOURCE, check_language
from adjudicator.game.destinations import Destination, parse_destinations
from adjudicator.game.players import Player, parse_player
from adjudicator.game.schedule import Schedule, example_moment
from adjudicator.game.seats import SeatRules
from adjudicator.game.settings_check import check_mail_tables, check_players
from adjudicator.game.storage import check_game_id
from adjudicator.rulesets import Ruleset, find_ruleset
from adjudicator.rulesets.kit.palette import DEFAULT_PALETTE, PALETTES


class Mode(StrEnum):
    """How the sequential phases run (game.toml `mode`): every order due together, or each
    player in turn, adjudicated as soon as the player to move has sent his."""

    BATCH = "batch"
    STEPWISE = "stepwise"


SETTINGS_TABLES = frozenset({"game", "dice", "player", "schedule", "seats", "intake", "delivery", "notify", "options"})

GAME_KEYS = frozenset({"id", "ruleset", "board", "mode", "created", "rules_url", "map_url", "site", "lang", "palette"})

DICE_KEYS = frozenset({"commitment", "chain_length"})


@dataclass(frozen=True, slots=True)
class Settings:
    """game.toml: everything about a game that is not its position."""

    id: str
    ruleset: str
    board: str | None  # a board file (relative to the game directory), None for the shipped one
    mode: Mode
    commitment: str
    players: tuple[Player, ...]
    created: datetime
    schedule: Schedule = field(default_factory=Schedule)
    seats: SeatRules = field(default_factory=SeatRules)  # when a seat's missed phases warn, and open it
    options: Mapping[str, Any] = field(default_factory=dict)  # the ruleset's, checked by it
    rules_url: str = ""  # where players read the rules online (the `help` answer links it)
    map_url: str = ""  # where reports/ is published: BBCode and Markdown reports show map.png from there
    site: str = ""  # the campaign site's folder (relative to the game directory), rebuilt after each phase
    lang: str = SOURCE  # the language of the public reports, and of each player who has not chosen one
    notify: tuple[Destination, ...] = ()  # [[notify]]: the chat destinations of this game's own
    palette: str = DEFAULT_PALETTE  # the players' colours on maps and charts (rulesets/kit/palette.py)

    @property
    def stepwise(self) -> bool:
        return self.mode is Mode.STEPWISE

    def language_of(self, civ: str | None) -> str:
        """The language a player reads: his own, else the game's."""
        player = self.player(civ) if civ else None
        return player.lang if player is not None and player.lang else self.lang

    def zone_of(self, civ: str | None) -> str:
        """The time zone a player's deadlines are shown in: his own, else the game's."""
        player = self.player(civ) if civ else None
        return player.timezone if player is not None and player.timezone else self.schedule.zone

    def local(self, moment: datetime, civ: str | None = None) -> str:
        """A moment as a player reads it (his language and zone), or as the public reports do."""
        return self.schedule.local(moment, self.language_of(civ), self.zone_of(civ))

    def player(self, civ: str) -> Player | None:
        return next((p for p in self.players if p.civ == civ), None)

    def open_seats(self) -> tuple[str, ...]:
        """The civilizations nobody holds now: they play default orders and are waited for by nobody."""
        return tuple(p.civ for p in self.players if p.open)

    def holders(self) -> tuple[Player, ...]:
        """The players who hold a seat: whom mail goes to."""
        return tuple(p for p in self.players if not p.open)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": {
                "id": self.id,
                "ruleset": self.ruleset,
                "board": self.board,
                "mode": str(self.mode),
                "created": self.created,
                **({"rules_url": self.rules_url} if self.rules_url else {}),
                **({"map_url": self.map_url} if self.map_url else {}),
                **({"site": self.site} if self.site else {}),
                **({"lang": self.lang} if self.lang != SOURCE else {}),
                **({"palette": self.palette} if self.palette != DEFAULT_PALETTE else {}),
            },
            "dice": {"commitment": self.commitment, "chain_length": dice_chain.CHAIN_LENGTH},
            "player": [p.to_data() for p in self.players],
        }
        data["schedule"] = self.schedule.to_data()
        if self.seats != SeatRules():
            data["seats"] = self.seats.to_data()
        if self.options:
            data["options"] = dict(self.options)
        if self.notify:
            data["notify"] = [d.to_data() for d in self.notify]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Settings:
        """Every table and key of game.toml checked; the players' civs are checked against the
        board and the position by `Game.load` (`with_players_of`)."""
        root = Fields(data)
        root.only(SETTINGS_TABLES)
        game, dice = root.table("game"), root.table("dice")
        game.only(GAME_KEYS)
        dice.only(DICE_KEYS)
        mode = game.text("mode", Mode.BATCH)
        if mode not in tuple(Mode):
            raise game.error("mode", f"'{mode}' is not a mode; use batch or stepwise")
        try:
            ruleset = find_ruleset(game.text("ruleset"))
        except UsageError as error:
            raise game.error("ruleset", str(error)) from None
        try:
            game_id = check_game_id(game.text("id"))
        except UsageError as error:
            raise game.error("id", str(error)) from None
        created = game.data.get("created")
        if created is not None and not (isinstance(created, datetime) and created.tzinfo):
            raise game.error("created", f"write a date and time with its offset, e.g. {example_moment(':00Z')}")
        if dice.integer("chain_length", dice_chain.CHAIN_LENGTH) != dice_chain.CHAIN_LENGTH:
            raise dice.error(
                "chain_length",
                f"this adjudicator's dice chain has {dice_chain.CHAIN_LENGTH} links; "
                f"put back chain_length = {dice_chain.CHAIN_LENGTH}",
            )
        check_mail_tables(root)
        return cls(
            id=game_id,
            ruleset=ruleset.name,
            board=game.text("board", None),
            mode=Mode(mode),
            commitment=dice.text("commitment"),
            players=tuple(parse_player(f) for f in root.tables("player")),
            created=created if isinstance(created, datetime) else datetime.now(UTC),
            schedule=Schedule.from_fields(root.table("schedule", {})),
            seats=SeatRules.from_fields(root.table("seats", {})),
            options=ruleset.check_options(root.table("options", {}).data),
            rules_url=game.line("rules_url", ""),  # shown in answers and reports: one line each
            map_url=game.line("map_url", ""),
            site=game.text("site", ""),
            lang=game.checked("lang", check_language, SOURCE),
            notify=parse_destinations(root.tables("notify", [])),
            palette=_palette(game),
        )

    def with_players_of(self, ruleset: Ruleset[Any, Any, Any], board: Any, position: Any) -> Settings:
        """The settings with each player's civ as the board spells it, once they were checked
        against the board and against who plays in the position (a neutral has no player)."""
        return replace(self, players=check_players(self.players, ruleset, board, ruleset.playing(position)))


def _palette(game: Fields) -> str:
    palette: str = game.text("palette", DEFAULT_PALETTE)
    if palette not in PALETTES:
        raise game.error(
            "palette",
            f"'{palette}' is not a palette; use distinct (players told apart without colour vision too) or classic",
        )
    return palette
