"""The ruleset registry and the seam between generic code and a game's rules.

Generic code (game, storage, intake, reports, CLI) talks to a ruleset only through a `Ruleset`
value; it never imports a ruleset package by name. Only `REGISTRY` does. Each ruleset package
declares its value in its `__init__.py`, naming its engine, codec and view parts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from adjudicator.core.dice import Dice
from adjudicator.core.errors import UsageError
from adjudicator.core.events import Event, RenamedField
from adjudicator.core.i18n import LANGUAGES, Msg, t, term
from adjudicator.core.names import Match, normalise
from adjudicator.rulesets.kit.options import OptionSpec
from adjudicator.rulesets.kit.players import Seated

if TYPE_CHECKING:
    from lark import Token, Transformer

    from adjudicator.language.parser import OrderParser
    from adjudicator.language.submission import OrderLine


def phase_label(prefix: str, turn: int, phase: str) -> Msg:
    # NOTE: a phase's label: the turn (T3) or round (R2) and the phase's name, as in "T3 build".
    return t("%(prefix)s%(turn)s %(phase)s", prefix=prefix, turn=turn, phase=term("phase", phase))


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    """Where a position stands, in words generic code can file and show."""

    turn: int
    phase: str
    step: str | None  # the civilization to move in stepwise mode
    winner: str | None
    prefix: str = "T"  # the ruleset's word for a turn, as labels and file names abbreviate it

    @property
    def label(self) -> Msg:
        """`T3 build`: English as text (files, logs), the phase named in the reader's language
        where shown (`T3 budowa`), the turn as the `phase` header reads it."""
        return phase_label(self.prefix, self.turn, self.phase)

    def is_named(self, turn: int, phase: str) -> bool:
        """Whether a `phase` header names this phase: `T3 build`, or the phase as any language
        calls it (`T3 budowa`, `T3 construction`), as the order forms write it."""
        if turn != self.turn:
            return False
        written = normalise(phase)
        return written == normalise(self.phase) or any(
            written == normalise(term("phase", self.phase).render(lang)) for lang in LANGUAGES
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's counts at a moment of the game, for the campaign site's chart: the measures
    the ruleset finds telling (Mare Nostrum: provinces, cities, …), in the order to show them."""

    civ: str
    counts: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class BoardResource:
    """Where a ruleset's shipped board file lives (package data)."""

    package: str
    path: str


class Later:
    """A function or class of a ruleset's own modules, imported the first time it is called: a
    command loads only the rules it uses (`state` reads a position and never imports the engine,
    the order language or the report views; issue 31). A declaration names its heavy parts this
    way, e.g. `later(__name__, "engine", "resolve_phase")`; tests/test_startup.py resolves every
    one, so a misspelt name fails a test rather than a game."""

    __slots__ = ("_target", "module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self._target: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        if self._target is None:
            self._target = getattr(import_module(self.module), self.name)
        return self._target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"later({self.module}.{self.name})"


def later(package: str, module: str, name: str) -> Any:
    """`package.module.name`, imported when first called (see `Later`). Typed Any so that it
    fills any part of a declaration; the part's type is checked where the function is defined
    and, for the declaration, by the tests that run every ruleset through every part."""
    return Later(f"{package}.{module}", name)


class Order(Protocol):
    """What generic code asks of an order: its canonical line (kit/orders.py `Written`)."""

    def to_text(self) -> str: ...


BoardT = TypeVar("BoardT")
PositionT = TypeVar("PositionT", bound=Seated)
OrderT = TypeVar("OrderT", bound=Order)
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True, kw_only=True)
class Engine(Generic[BoardT, PositionT, OrderT, OptionsT]):
    """The rules at play: the opening position, where a position stands and who it waits for,
    each player's lines checked, and the phase resolved. Each takes the ruleset's own options."""

    new_position: Callable[[BoardT, tuple[str, ...], Dice, OptionsT], tuple[PositionT, list[Event]]]
    phase_info: Callable[[PositionT], PhaseInfo]
    due: Callable[[PositionT, bool], tuple[str, ...]]
    validate: Callable[[BoardT, PositionT, str, Sequence[OrderLine[OrderT]], OptionsT], list[OrderLine[OrderT]]]
    resolve: Callable[
        [BoardT, PositionT, Mapping[str, Sequence[OrderT]], Dice, bool, OptionsT], tuple[PositionT, list[Event]]
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class Codec(Generic[BoardT, PositionT, OrderT, OptionsT]):
    """The ruleset's values to and from text and data: board, players, positions, options, orders."""

    parse_board: Callable[[Mapping[str, Any]], BoardT]
    players: Callable[[BoardT], tuple[str, ...]]
    find_player: Callable[[BoardT, str], Match[str]]
    position_from_data: Callable[[BoardT, Mapping[str, Any], Sequence[str] | None], PositionT]
    position_to_data: Callable[[PositionT], dict[str, Any]]
    options: OptionSpec[OptionsT]
    order_types: Callable[[], tuple[type[OrderT], ...]]  # what the transformer makes, and nothing else
    transformer: Callable[[], Transformer[Token, OrderT]]


@dataclass(frozen=True, slots=True, kw_only=True)
class View(Generic[BoardT, PositionT, OptionsT]):
    """What reports and order forms ask of the ruleset; handed the maps, it reads none."""

    terms: Callable[[BoardT], Mapping[str, Sequence[str]]]
    place_names: Callable[[BoardT], Mapping[str, str]]
    report_data: Callable[
        [BoardT, Mapping[str, Any], Mapping[str, str], OptionsT, Mapping[str, Mapping[str, Any]], Mapping[str, str]],
        dict[str, Any],
    ]
    colours: Callable[[BoardT], Mapping[str, tuple[str, str]]]  # player -> (his colour's name, the board's CSS)
    form_candidates: Callable[[BoardT, PositionT, str], list[tuple[str, str]]]
    standings: Callable[[BoardT, PositionT], list[Standing]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset(Generic[BoardT, PositionT, OrderT]):
    """A game's rules as a value: what it is called and cites, and its engine, codec and view
    parts. Generic code asks through the methods below, which hand each part the game's options
    as the ruleset reads them (`codec.options`); it never imports a ruleset package by name."""

    name: str
    aliases: tuple[str, ...]
    title: str
    grammar: str  # grammar/<grammar>.lark and grammar/<grammar>.errors.toml
    rules: str  # docs/<rules>: the rules in full, each clause headed by the number messages cite
    board: BoardResource
    player_counts: tuple[int, ...]
    turn_prefix: str  # "T" for turns, "R" for rounds: in labels (T3 build) and file names (007-T03-build)
    player_word: str  # what a player is called in messages: "civilization", "empire", "colour"
    players_rule: str  # the clause giving the player counts and who plays what, as messages cite it
    win_rule: str  # the clause that ends the game with a winner
    neutrals_rule: str | None  # the clause on neutral players; None where every seat is a player
    # Event fields its engine has renamed since games under way wrote their history, which is
    # read in today's names (game/event_records.py).
    renamed_event_fields: tuple[RenamedField, ...] = ()
    # The parts, each over the ruleset's own options type; Python cannot name "some type" here.
    engine: Engine[BoardT, PositionT, OrderT, Any]
    codec: Codec[BoardT, PositionT, OrderT, Any]
    view: View[BoardT, PositionT, Any]

    def parse_board(self, data: Mapping[str, Any]) -> BoardT:
        """A validated board; raises DataError (with the key) or BoardError (every problem)."""
        return self.codec.parse_board(data)

    def find_civ(self, board: BoardT, text: str) -> Match[str]:
        """A player's seat by name or alias (`Rome`, `Romans`)."""
        return self.codec.find_player(board, text)

    def civilizations(self, board: BoardT) -> tuple[str, ...]:
        """Every seat the board prints, whether played or not."""
        return self.codec.players(board)

    def terms(self, board: BoardT) -> Mapping[str, Sequence[str]]:
        """The game's own words that players read in their language, by kind (the catalog's
        context): "card" for cards and goods as reports name them, "phase" for the phases. Each
        is shown through `i18n.term`, and tools/catalogs.py gathers them from the shipped board."""
        return self.view.terms(board)

    def place_names(self, board: BoardT) -> Mapping[str, str]:
        """Place id -> display name, for reports."""
        return self.view.place_names(board)

    def report_data(
        self,
        board: BoardT,
        state: Mapping[str, Any],
        player_names: Mapping[str, str],
        options: Mapping[str, Any],
        maps: Mapping[str, Mapping[str, Any]],
        colours: Mapping[str, str],
    ) -> dict[str, Any]:
        """Plain data the ruleset's report templates use besides events and state; `options` are
        the game's (`check_options`), which can change what a player is told (a goal set); `maps`
        are the baked maps by the id of the board each was drawn for (reports/maps.py reads
        them, so that a ruleset opens no file), and a board with none is drawn schematic;
        `colours` each player's CSS in the game's palette (`colours`). With the colours, each
        player's mark (the second cue: a player told apart without his colour) and the ink that
        reads on his colour, for every map template."""
        from adjudicator.rulesets.kit.palette import ink, player_marks

        data = self.view.report_data(board, state, player_names, self.codec.options.read(options), maps, colours)
        inks = {player: ink(css) for player, css in colours.items()}
        return data | {"colours": dict(colours), "marks": player_marks(colours), "inks": inks}

    def colours(self, board: BoardT, palette: str) -> dict[str, str]:
        """Each player's CSS colour in the game's palette (kit/palette.py): the maps, their
        legends and the site's charts draw him in it."""
        from adjudicator.rulesets.kit.palette import player_colours

        return player_colours(self.view.colours(board), palette)

    def check_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The ruleset's options with defaults filled in; raises DataError naming a bad key."""
        return self.codec.options.check(data)

    def new_position(
        self, board: BoardT, civs: Sequence[str], dice: Dice, options: Mapping[str, Any]
    ) -> tuple[PositionT, list[Event]]:
        """The opening position for these players, ready for the first phase."""
        return self.engine.new_position(board, tuple(civs), dice, self.codec.options.read(options))

    def position_from_data(
        self, board: BoardT, data: Mapping[str, Any], playing: Sequence[str] | None = None
    ) -> PositionT:
        """A position in the stable shape; with `playing`, the others are neutral."""
        return self.codec.position_from_data(board, data, playing)

    def position_to_data(self, position: PositionT) -> dict[str, Any]:
        return self.codec.position_to_data(position)

    def phase_info(self, position: PositionT) -> PhaseInfo:
        return self.engine.phase_info(position)

    def playing(self, position: PositionT) -> tuple[str, ...]:
        return position.playing

    def due(self, position: PositionT, stepwise: bool) -> tuple[str, ...]:
        """Whose orders the next adjudication needs (everyone, or in stepwise mode the player
        to move, or the leader who fixes the sequence first)."""
        return self.engine.due(position, stepwise)

    def parser(self) -> OrderParser[OrderT]:
        """The order language of this game: its grammar, building its order types. Built anew
        (about 55 ms): a caller that parses often keeps one (game.py does, per process)."""
        from adjudicator.language.parser import OrderParser

        return OrderParser(self.grammar, self.codec.transformer(), self.codec.order_types())

    def validate(
        self,
        board: BoardT,
        position: PositionT,
        civ: str,
        lines: Sequence[OrderLine[OrderT]],
        options: Mapping[str, Any],
    ) -> list[OrderLine[OrderT]]:
        """Each line with its names resolved, or with the problem that stops it; `options` are the
        game's (`check_options`), which can change what an order may do (an empty ship's second
        space), so that a receipt says what the engine will do in this game."""
        return self.engine.validate(board, position, civ, lines, self.codec.options.read(options))

    def resolve(
        self,
        board: BoardT,
        position: PositionT,
        orders: Mapping[str, Sequence[OrderT]],
        dice: Dice,
        stepwise: bool,
        options: Mapping[str, Any],
    ) -> tuple[PositionT, list[Event]]:
        """The engine: the phase (or step) the position names, resolved. Pure."""
        return self.engine.resolve(board, position, orders, dice, stepwise, self.codec.options.read(options))

    def form_candidates(self, board: BoardT, position: PositionT, civ: str) -> list[tuple[str, str]]:
        """Orders to offer on the player's form for the phase the position names, each with a
        note: (order text, note). Proposed broadly; the form keeps those `validate` accepts."""
        return self.view.form_candidates(board, position, civ)

    def standings(self, board: BoardT, position: PositionT) -> list[Standing]:
        """Each playing seat's counts in this position, the same measures for all."""
        return self.view.standings(board, position)


# Each ruleset by its name: the package and the object in it. A package is imported only when a
# game or command asks for that ruleset, so a 2003 game's commands never load the other two.
_PACKAGES = {
    "mare-nostrum": ("adjudicator.rulesets.mare_nostrum", "MARE_NOSTRUM"),
    "empires": ("adjudicator.rulesets.empires", "EMPIRES"),
    "mediterraneum": ("adjudicator.rulesets.mediterraneum", "MEDITERRANEUM"),
}


class _Registry(Mapping[str, "Ruleset[Any, Any, Any]"]):
    """The rulesets by name, each imported on first use."""

    def __getitem__(self, name: str) -> Ruleset[Any, Any, Any]:
        module, attribute = _PACKAGES[name]
        ruleset: Ruleset[Any, Any, Any] = getattr(import_module(module), attribute)
        return ruleset

    def __iter__(self) -> Iterator[str]:
        return iter(_PACKAGES)

    def __len__(self) -> int:
        return len(_PACKAGES)


REGISTRY: Mapping[str, Ruleset[Any, Any, Any]] = _Registry()


def find_ruleset(name: str | None) -> Ruleset[Any, Any, Any]:
    """A ruleset by name or alias (`mare-nostrum`, `Mare Nostrum`, `mn`); None is the first one."""
    if name is None:
        return next(iter(REGISTRY.values()))
    wanted = normalise(name)
    for key in REGISTRY:  # a game file names its ruleset exactly: one import
        if normalise(key) == wanted:
            return REGISTRY[key]
    for ruleset in REGISTRY.values():
        if wanted in {normalise(n) for n in (ruleset.name, ruleset.title, *ruleset.aliases)}:
            return ruleset
    known = ", ".join(REGISTRY)
    raise UsageError(f"unknown ruleset '{name}'; the adjudicator knows {known}")
