"""The soak test (issue 11): random whole games played through the functions the CLI calls.

One seed makes one game: its parameters (Mare Nostrum 2003 or, one game in four, Mare Nostrum:
Empires, or one in five Mare Mediterraneum; 3 to 5 players, 2 to 6 for Mediterraneum, batch or
stepwise, for 2003 the basic or the advanced setup or an imported position with empty hands and
roles each turn or each phase, for Mediterraneum the opening or an imported mid-game position and
some of its options, how many turns) and every order (for Empires and Mediterraneum, a part of
each player's order form, and for Mediterraneum often a trader's and conqueror's plan), junk line,
absurd count, missing player, empty or replaced submission and intake path (`submit`, `collect
--from` with forum posts and mails). In one game in three one or two players drop out: their
seats open by game.toml's [seats] count or the moderator's `seat --open`, a substitute takes each
open seat some phases later with a new secret, and the players who left are refused (issue 32).
After every adjudication the position is checked against the limits the rules set
(`position_problems` and `transition_problems` for 2003, `empires_position_problems` for Empires,
`mediterraneum_position_problems` for Mediterraneum), the seats' ledger against the history
(`seat_problems`) and the soak's own count, every report is rendered again in every format and
for every player, the history is replayed, and now and then the phase is rolled back and
adjudicated again, which must give the same files.

Nothing may escape but the project's own errors where a command legitimately refuses (each
call names the refusals it allows, and they are counted); a crash, a hang (each command has
a time budget, and so has the game) or a broken invariant fails the game with its seed, its
parameters and the phase, so it can be rerun alone:

    ADJUDICATOR_SOAK_SEED=1234 python -m pytest tests/test_soak.py
    python -m tests.soak --seed 1234 --keep /tmp/soak       # and keep the game folder

A long run: `python -m tests.soak --games 500 --jobs 2` (see docs/performance.md); the games of one
ruleset among them: `python -m tests.soak --games 200 --ruleset mediterraneum`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import email
import email.policy
import functools
import hashlib
import html
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from types import FrameType, MappingProxyType
from typing import Any, NoReturn
from unittest import mock

from adjudicator import commands
from adjudicator.core.dice_proof import check_published
from adjudicator.core.errors import AdjudicatorError, UsageError
from adjudicator.core.keywords import words_for
from adjudicator.game import seats
from adjudicator.game.directory import GameDirectory
from adjudicator.game.directory import order_page_name as page_name
from adjudicator.game.game import Game
from adjudicator.game.history import adjudicated_slugs
from adjudicator.game.storage import compact, read_toml
from adjudicator.game.submissions import SubmissionError, check_submission, submitted
from adjudicator.language.parser import written_in
from adjudicator.language.submission import parse_submission
from adjudicator.reports.phase import FORMATS
from adjudicator.reports.site import build_site, site_folder
from adjudicator.rulesets.mare_nostrum.components import CARD_TOTALS, UNIT_STOCK
from tests.random_play import (
    BUYABLE,
    empires_huge_lines,
    empires_orders,
    huge_lines,
    junk_lines,
    mediterraneum_huge_lines,
    mediterraneum_orders,
    purposeful_lines,
    random_orders,
)
from tests.soak_invariants import (
    SeatPhase,
    SeatRecord,
    empires_position_problems,
    mediterraneum_position_problems,
    position_problems,
    seat_problems,
    transition_problems,
)
from tests.test_views_agree import explicit_against_default, form_against_engine, receipt_against_engine

CIVS = ("Rome", "Carthage", "Greece", "Babylon", "Egypt")
EMPIRES = "empires"  # the ruleset of one game in four; the others are "mare-nostrum" (2003)
EMPIRES_CIVS = ("Rome", "Greece", "Carthage", "Egypt", "Babylon")  # the first 3, 4 or 5 play (E2.1)
MEDITERRANEUM = "mediterraneum"  # the ruleset of one game in five
COLOURS = ("Red", "Blue", "Green", "Yellow", "White", "Black")  # Mediterraneum's players, 2 to 6 of them (M1.1)
MEDITERRANEUM_OPTIONS = ("goals=short", "tax_passes=2", "fast_empty_ships=true")  # each now and then (M12.4)
RULESET_LETTERS = {EMPIRES: "E", MEDITERRANEUM: "M"}  # in the progress lines
MEDITERRANEUM_PHASES = 60  # about the phases (one a player's turn) an opening game plays: its rounds follow
HOSTILE_NAME = "<script>alert(1)</script> [url=http://x.invalid]Anna[/url] **Bela** {{ 7*7 }}"
CALL_SECONDS = float(os.environ.get("ADJUDICATOR_SOAK_CALL_SECONDS", "30"))  # any one command
GAME_SECONDS = float(os.environ.get("ADJUDICATOR_SOAK_GAME_SECONDS", "240"))  # one whole game
# The share of phases whose forms and receipts are adjudicated against the engine (issue 28).
VIEWS_SHARE = float(os.environ.get("ADJUDICATOR_SOAK_VIEWS", "0.15"))
REPLAY_EVERY_PHASE = os.environ.get("ADJUDICATOR_SOAK_REPLAY", "turn") == "phase"  # else as each turn starts
PAGE_LINE = re.compile(r'data-line="([^"]*)"')  # an order line of a player's order page, HTML-escaped
FORM_ORDER = re.compile(r"^# \S")  # below a form's headers, a line that is an order once its '#' goes
FORM_RULE = "\n# " + "-" * 70 + "\n"  # under the form's first line, in every language
FORM_END = re.compile(r"\n(?:" + "|".join(words_for("end")) + r")\n")  # the form's last line: `end`, `koniec`…
LANGS = ("en", "en", "pl", "hu", "fr", "es")  # a game's language: LANGS[seed % 6], or `--lang`
REQUESTS = ("status", "orders", "help", "rules R6.4")  # requests a mail may hold besides its orders
EMPIRES_REQUESTS = ("status", "orders", "help", "rules E6.4")
MEDITERRANEUM_REQUESTS = ("status", "orders", "help", "rules M4.5")
SEAT_BEHAVIOURS = (  # the summary's line on seats
    "seat opened by count",
    "seat opened by moderator",
    "substitute seated",
    "former player refused",
    "seat request refused",
    "player warned",
    "run went on: a phase owing nobody's orders",
    "rollback gave a seat back",
)
BEHAVIOURS = {  # what a player does in a phase, with its weight
    "orders": 34,
    "junk": 14,
    "huge": 10,
    "missing": 12,
    "replace": 8,
    "empty": 8,
    "withdraw": 4,
    "wrong": 4,
    "check": 6,
}


def form_of(text: str) -> tuple[str, list[str]] | None:
    """A private report's order form, from its first line to its `end`, and its order lines below
    the headers (in the reader's keywords), each still behind its '#'; None for a report without one."""
    rule = text.find(FORM_RULE)
    closing = FORM_END.search(text, rule) if rule >= 0 else None
    if closing is None:
        return None
    form = text[text.rindex("\n", 0, rule) + 1 : closing.end()]
    lines = form.splitlines()[:-1]  # without `end`
    headers = [i for i, line in enumerate(lines) if line and not line.startswith("#")]
    return form, [line for line in lines[headers[-1] + 1 :] if FORM_ORDER.match(line)] if headers else []


# ---- parameters and failures ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Params:
    """Everything about a game that its seed decides before the first order."""

    seed: int
    civs: tuple[str, ...]
    mode: str  # batch | stepwise
    setup: str  # basic | advanced | position (a basic position imported with some hands emptied)
    roles_each: str  # turn | phase
    finite_bank: bool  # False: cards are added when the bank runs short (R1)
    turns: int
    hostile_name: bool  # one player's name is markup and template syntax
    site: bool  # the game keeps a campaign site ([game] site), rebuilt at each adjudication
    ruleset: str = "mare-nostrum"  # or EMPIRES: no options, so setup basic, roles_each and finite_bank unused
    options: tuple[str, ...] = ()  # MEDITERRANEUM's `--option`s; its setup is basic (the opening) or position
    lang: str = "en"  # the game's and its players' language: orders written with its keywords (issue 18)
    # Issue 32, in one game in three: who opens the dropouts' seats ("count": their misses, by game.toml's
    # [seats], which such a game writes; "moderator": `seat --open`, at a moment of his own), the dropouts
    # (they send nothing from phase `drop_at` on), and the game's [seats]. Every seat that opens, a
    # dropout's or any other player's, is given to a substitute some phases later.
    seats: str = ""
    dropouts: tuple[str, ...] = ()
    drop_at: int = 0
    warn_after: int = 2
    open_after: int = 0
    open_after_total: int = 0

    @classmethod
    def from_seed(cls, seed: int, lang: str | None = None) -> Params:
        """A seed's game; its language is not drawn (so no other draw moved) but the seed's turn
        in LANGS, unless one is given; its seats are drawn apart (`with_seats`)."""
        return cls.with_seats(dataclasses.replace(cls._drawn(seed), lang=lang or LANGS[seed % len(LANGS)]))

    @classmethod
    def with_seats(cls, params: Params) -> Params:
        """One game in three has players who drop out, from draws of their own (so every other
        parameter stays what it was): one or two of its players (never all) fall silent from an
        early phase on; their seats open by the count of phases missed (`open_after` 2 or 3, and
        now and then `open_after_total`), or the moderator opens them (and the count may come
        first, when `open_after` is set)."""
        rng = random.Random(f"soak-seats-7/{params.seed}")  # a stream that puts seats in each ruleset's CI games
        if rng.random() >= 1 / 3:
            return params
        rule = rng.choice(("count", "moderator"))
        dropouts = tuple(rng.sample(params.civs, min(rng.choice((1, 1, 2)), len(params.civs) - 1)))
        return dataclasses.replace(
            params, seats=rule, dropouts=dropouts, drop_at=rng.randint(1, 4), warn_after=rng.choice((0, 1, 2, 2)),
            open_after=rng.choice((2, 3)) if rule == "count" else rng.choice((0, 0, 3)),
            open_after_total=rng.choice((0, 0, 4, 5)),
        )  # fmt: skip

    @property
    def seats_text(self) -> str:
        """What `__str__` leaves out (it names a game as it was before seats came)."""
        if not self.seats:
            return ""
        rules = f"warn_after {self.warn_after}, open_after {self.open_after}, open_after_total {self.open_after_total}"
        return (
            f"; {', '.join(self.dropouts)} drop{'s' if len(self.dropouts) == 1 else ''} out from phase "
            f"{self.drop_at}, seats opened by {self.seats} ([seats] {rules})"
        )

    @classmethod
    def _drawn(cls, seed: int) -> Params:
        rng = random.Random(f"soak-params/{seed}")
        params = cls(
            seed=seed,
            civs=tuple(rng.sample(CIVS, rng.choice((3, 4, 5)))),
            mode=rng.choice(("batch", "stepwise")),
            setup=rng.choices(("basic", "advanced", "position"), (5, 3, 2))[0],
            roles_each=rng.choices(("turn", "phase"), (2, 1))[0],
            finite_bank=rng.random() < 0.75,
            turns=rng.randint(2, 4),
            hostile_name=rng.random() < 0.3,
            site=rng.random() < 0.4,
        )
        # drawn last, so that every earlier draw, and so every 2003 game, stays what it was: one
        # draw in four makes an Empires game, as before Mediterraneum came; one in five makes a
        # Mediterraneum game of what was a 2003 game (of seeds 1-20: 2, 3, 8, 13, 15, 16 and 17), whose
        # own parameters are drawn after it. Every other game, Empires or 2003, is what it was.
        ruleset = rng.random()
        if ruleset >= 0.45:
            return params
        if ruleset >= 0.25:
            return cls.mediterraneum_params(params, rng)
        empires = tuple(rng.sample(EMPIRES_CIVS[: len(params.civs)], len(params.civs)))  # in any order
        return dataclasses.replace(
            params, ruleset=EMPIRES, civs=empires, setup="basic", roles_each="turn", finite_bank=True
        )

    @classmethod
    def mediterraneum_params(cls, params: Params, rng: random.Random) -> Params:
        """2 to 6 colours; the opening, with rounds enough for empires to be founded (a player has
        X after some five turns of tax and trade), or a position imported in the middle of a game
        (`Soak.mediterraneum_position`: empires, ships with cargo, armies, maybe an auction), played
        for a few rounds; now and then each option."""
        colours = tuple(rng.sample(COLOURS, rng.choices((2, 3, 4, 5, 6), (2, 3, 3, 2, 1))[0]))
        setup = "position" if rng.random() < 0.4 else "basic"
        if setup == "basic":
            rounds = rng.randint(7, max(8, MEDITERRANEUM_PHASES // len(colours)))
        else:  # the position opens at a round of 3 to 6 (`Soak.mediterraneum_position`), before the last
            rounds = rng.randint(4, 6) + rng.randint(1, max(2, 30 // len(colours)))
        options = tuple(option for option in MEDITERRANEUM_OPTIONS if rng.random() < 0.2)
        return dataclasses.replace(
            params, ruleset=MEDITERRANEUM, civs=colours, setup=setup, roles_each="turn", finite_bank=True,
            turns=rounds, options=options,
        )  # fmt: skip

    @property
    def empires(self) -> bool:
        return self.ruleset == EMPIRES

    @property
    def mediterraneum(self) -> bool:
        return self.ruleset == MEDITERRANEUM

    def __str__(self) -> str:
        players = f"{len(self.civs)} players ({', '.join(self.civs)}), mode {self.mode}"
        extras = f"{', a hostile player name' if self.hostile_name else ''}{', a campaign site' if self.site else ''}"
        extras += f", in {self.lang}" if self.lang != "en" else ""
        if self.mediterraneum:
            options = "".join(f", --option {option}" for option in self.options)
            return f"Mediterraneum, {players}, setup {self.setup}, {self.turns} rounds{options}{extras}"
        if self.empires:
            return f"Empires, {players}, {self.turns} rounds{extras}"
        return (
            f"{players}, setup {self.setup}, roles_each {self.roles_each}"
            f"{'' if self.finite_bank else ', finite_bank false'}, {self.turns} turns{extras}"
        )


class SoakFailure(AssertionError):
    """A game broke: the message says how to rerun it alone; `signature` groups like failures."""

    def __init__(self, params: Params, where: str, kind: str, detail: str, actions: list[str]) -> None:
        self.seed = params.seed
        self.result: GameResult | None = None  # what the game did up to the failure
        self.signature = kind + _particulars(kind, detail)
        recent = "\n".join(f"    {a}" for a in actions)
        super().__init__(
            f"soak game seed={params.seed} failed: {kind}\n"
            f"  parameters: {params}{params.seats_text}\n"
            f"  phase: {where}\n"
            f"  rerun alone: ADJUDICATOR_SOAK_SEED={params.seed} python -m pytest tests/test_soak.py\n"
            f"           or: python -m tests.soak --seed {params.seed} --keep /tmp/soak-{params.seed}\n"
            f"  last actions:\n{recent}\n" + _indent(detail)
        )


class SoakTimeout(BaseException):
    """Raised by the alarm inside a command that ran past its budget (a hang)."""


def _refusal_kind(action: str, error: AdjudicatorError) -> str:
    """A refusal with its particulars (names, numbers) blurred, to count refusals of a kind."""
    message = re.sub(r"\d+", "#", re.sub("|".join(CIVS) + r"|\b(" + "|".join(COLOURS) + r")\b", "CIV", str(error)))
    return f"{type(error).__name__} from {action.split(' ')[0]}: {message}"[:120]


def _particulars(kind: str, detail: str) -> str:
    """What tells failures of one kind apart: the exception, or the rules broken."""
    if kind == "broken invariant":
        return ": " + ", ".join(sorted(set(re.findall(r"\b(?:R|M|MD)\d+(?:\.\d+)?", detail))))
    if kind in ("crash", "hang", "unexpected refusal", "replay differs"):
        return ": " + re.sub(r"\d+", "#", re.sub(r"^[\w.]*SoakTimeout: ", "", _last_line(detail)))[:160]
    return ""


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def _indent(text: str) -> str:
    return "\n".join("  | " + line for line in text.rstrip().splitlines())


def _traceback_tail(error: BaseException, lines: int = 14) -> str:
    return "\n".join("".join(traceback.format_exception(error)).rstrip().splitlines()[-lines:])


@contextlib.contextmanager
def alarm(seconds: float, what: str) -> Iterator[None]:
    """Interrupt the block after `seconds` with SoakTimeout (main thread only; elsewhere no limit)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: FrameType | None) -> None:
        raise SoakTimeout(f"{what} ran for more than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---- one game -------------------------------------------------------------------------------


@dataclass
class GameResult:
    seed: int
    params: str
    ruleset: str = "mare-nostrum"
    seconds: float = 0.0
    cpu: float = 0.0  # processor seconds, which other work on the machine does not inflate
    adjudications: int = 0
    turns: int = 0
    winner: str | None = None
    refusals: Counter[str] = field(default_factory=Counter)
    behaviours: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)  # Mediterraneum: what the phases did (founded, …)
    failure: str | None = None
    signature: str | None = None


def _identity(text: str | None) -> str | tuple[str, ...] | None:
    """Which submission a text is: its `# soak` marker line, which storing keeps whatever else
    it cleans; else (`no orders`) its lines without passwords, comments and trailing blanks."""
    if text is None:
        return None
    marker = re.search(r"^# soak (\S+)", text, re.M)
    if marker:
        return marker.group(1)
    kept = [line.rstrip() for line in text.splitlines() if not re.match(r"\s*(#|(password|pass|secret)\b)", line, re.I)]
    while kept and not kept[-1]:
        kept.pop()
    return tuple(kept)


class Soak:
    """Plays one game from its seed, checking everything after every adjudication."""

    def __init__(self, params: Params, folder: Path) -> None:
        self.p = params
        self.folder = folder
        self.path = folder / f"soak-{params.seed}"
        self.rng = random.Random(params.seed)
        self.secrets = {civ: f"pw-{params.seed}-{civ.lower()}-Qx7" for civ in params.civs}
        self.result = GameResult(params.seed, str(params) + params.seats_text, params.ruleset)
        self.actions: list[str] = []
        self.where = "creating the game"
        self.posted = 0
        self.texts = 0
        self.past_deadline = False  # the current phase's deadline has passed
        self.started = time.monotonic()
        self.capitals: set[str] = set()  # Mediterraneum: the cities that were capitals (warehouses stay, MD24)
        # seats (issue 32): who holds each seat and his record there, the seats open, the players who left
        self.seat_rng = random.Random(f"soak-seat-play/{params.seed}")  # the other draws stay as they were
        self.emails = {civ: f"{civ.lower()}@example.org" for civ in params.civs}  # each seat's holder, or last one
        self.records = {civ: SeatRecord() for civ in params.civs}  # the holder's record (the last one's, when open)
        self.open: set[str] = set()
        self.former: list[tuple[str, str, str]] = []  # (civ, address, secret) of each player who left a seat
        self.count_opened: dict[str, int] = {}  # an open seat the count opened: the phase whose adjudication did
        self.moderator_opens: dict[str, int] = {}  # a dropout's seat: the phase the moderator opens it in
        self.substitute_at: dict[str, int] = {}  # an open seat: the phase the moderator gives it to a substitute in
        self.seat_phases: dict[int, SeatPhase] = {}  # each adjudicated phase's due, missed and seats, from history
        self.substitutes = 0  # sub-1@example.org, sub-2@…

    # -- plumbing

    def fail(self, kind: str, detail: str) -> NoReturn:
        failure = SoakFailure(self.p, self.where, kind, detail, self.actions[-10:])
        failure.result = self.result
        raise failure from None  # the message holds the traceback's end already

    def call(
        self,
        action: str,
        run: Callable[..., Any],
        *args: Any,
        refusals: tuple[type[AdjudicatorError], ...] = (),
        **kwargs: Any,
    ) -> Any:
        """Run one command; return its result, or the refusal (of the kinds named) it made."""
        self.actions.append(action)
        try:
            with alarm(CALL_SECONDS, action):
                return run(*args, **kwargs)
        except AdjudicatorError as error:
            if isinstance(error, refusals):
                self.result.refusals[_refusal_kind(action, error)] += 1
                return error
            self.fail("unexpected refusal", f"{action} refused: {type(error).__name__}: {error}")
        except SoakTimeout as timeout:
            self.fail("hang", f"{timeout}; it was interrupted here:\n{_traceback_tail(timeout, 24)}")
        except Exception as error:
            self.fail("crash", f"{action} raised:\n{_traceback_tail(error)}")

    def game(self) -> Game:
        return Game.load(self.path)

    # -- the game

    def play(self) -> GameResult:
        try:
            return self.play_game()
        except (SoakFailure, SoakTimeout):
            raise
        except Exception as error:  # in a step outside the commands, e.g. the ruleset's `due`
            self.fail("crash", f"between commands:\n{_traceback_tail(error)}")

    def play_game(self) -> GameResult:
        self.create()
        game = self.game()
        while True:
            info = game.phase_info
            self.where = f"phase {game.phase_number} ({info.label}{f', step {info.step}' if info.step else ''})"
            if info.winner is not None:
                refused = self.call("adjudicate --force (game won)", self.adjudicate, True, refusals=(UsageError,))
                if not isinstance(refused, UsageError):
                    self.fail("adjudicated after the game was won", f"{info.winner} had won (R10)")
                break
            if info.turn > self.p.turns:
                break
            game = self.play_phase(game)
            if time.monotonic() - self.started > GAME_SECONDS:
                self.fail("slow game", f"the game ran past its budget of {GAME_SECONDS:g} s")
        self.where = f"the end of the game (phase {game.phase_number}, {info.label})"
        self.final_checks()
        self.result.turns = info.turn
        self.result.winner = info.winner
        return self.result

    def create(self) -> None:
        players = []
        for index, civ in enumerate(self.p.civs):
            name = HOSTILE_NAME if self.p.hostile_name and index == 0 else f"{civ} player"
            players.append(f"{civ}:{civ.lower()}@example.org:{self.secrets[civ]}:{name}")
        if self.p.empires:  # no options, and no position to import (its shape is the 2003 one)
            position, options = None, []
        elif self.p.mediterraneum:
            options = list(self.p.options)
            position = self.mediterraneum_position() if self.p.setup == "position" else None
        else:
            position = self.imported_position(players) if self.p.setup == "position" else None
            options = [f"roles_each={self.p.roles_each}"] + ([] if self.p.finite_bank else ["finite_bank=false"])
            if self.p.setup == "advanced":
                options.append("setup=advanced")
        root = hashlib.sha256(f"soak/{self.p.seed}".encode()).digest()
        with mock.patch("adjudicator.core.dice.new_root", return_value=root):  # reproducible dice
            self.call(
                f"new {self.path.name} --ruleset {self.p.ruleset} --mode {self.p.mode}"
                + "".join(f" --option {option}" for option in options),
                functools.partial(commands.create_game, self.path, players, position=position, mode=self.p.mode),
                board=None, game_id=None, ruleset=self.p.ruleset, options=options,
                site=Path("site") if self.p.site else None, lang=self.p.lang,
            )  # fmt: skip
        for path in sorted((self.path / "outbox").glob("*.welcome.*.eml")):  # T1's forms
            body = email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_content()
            self.paste_back(self.game(), str(body), path.name)
        if self.p.seats:
            self.write_seats()

    def imported_position(self, players: list[str]) -> Path:
        """A basic opening, exported with `state --json`, with some players' hands emptied, legions
        on their lands, and maybe one player rich in tax and owning two wonders (R10 in reach)."""
        template = self.folder / "template"
        create = functools.partial(commands.create_game, template, players, position=None, mode="batch")
        self.call("new template (for --position)", create, board=None, game_id=None, ruleset="mare-nostrum")
        data = json.loads(self.call("state template --json", commands.state, template, True).text)
        hands = {civ: data["players"][civ] for civ in self.p.civs}
        for civ in self.rng.sample(self.p.civs, self.rng.randint(1, len(self.p.civs))):
            hands[civ]["hand"] = {}
        if self.rng.random() < 0.6:
            rich = self.rng.choice(self.p.civs)
            others = sum(player["hand"].get("tax", 0) for civ, player in hands.items() if civ != rich)
            hands[rich]["hand"] = {"tax": min(14, CARD_TOTALS["tax"] - others)}
            hands[rich]["cards"] += self.rng.sample(["Colossus", "Statue of Zeus", "Mausoleum", "Solomon"], 2)
        self.add_armies(data)
        for key in ("bank", "supply"):
            data.pop(key, None)  # derived again from the hands and the board
        for player in data["players"].values():
            player.pop("stock", None)
        path = self.folder / "position.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    def mediterraneum_position(self) -> Path:
        """A Mediterraneum game in its middle, made from a real opening (the ruleset's
        `new_position`, written with `position_to_data`): money; for some players an empire with
        its State card, buildings, warehouses with goods, art, an artist, a tactic, gift, coup or
        want card, armies (some next to cities, one inside a city it took, one aboard); ships
        with goods or art aboard; the tax stone on the chart; the trade cards that open auctions
        and hurt on top of the deck; maybe a storm and an auction waiting for bids."""
        from adjudicator.core.dice import ChainDice
        from adjudicator.game.game import default_board_path, load_board
        from adjudicator.rulesets import find_ruleset
        from adjudicator.rulesets.mediterraneum import model as mm
        from adjudicator.rulesets.mediterraneum.board import COAST, BuildingKind, CardKind

        rng, ruleset = self.rng, find_ruleset(MEDITERRANEUM)
        board = load_board(ruleset, default_board_path(ruleset))
        chosen = ruleset.check_options(dict(option.split("=") for option in self.p.options))
        root = hashlib.sha256(f"soak-position/{self.p.seed}".encode()).digest()
        dice = ChainDice(f"soak-position/{self.p.seed}", 0, root, root=root)
        opening, _ = ruleset.new_position(board, list(self.p.civs), dice, chosen)
        order, decks = opening.order, opening.decks
        trade, art, states, patronage = list(decks.trade), list(decks.art), list(decks.states), list(decks.patronage)
        supply, cities = dict(decks.buildings), dict(opening.cities)
        players = dict(opening.players)
        ships: list[mm.Ship] = []
        armies: list[mm.Army] = []
        turn = rng.randint(3, max(3, min(6, self.p.turns - 1)))
        count = (turn - 1) * len(order) + 1
        auction = rng.random() < 0.35
        empires = [order[0]] if auction else []  # the player to move drew the auction card
        empires += [c for c in order[1:] if rng.random() < 0.6]

        def take(pile: list[str], kinds: tuple[CardKind, ...]) -> str | None:
            found = [c for c in pile if board.trade_cards[c].kind in kinds]
            if not found:
                return None
            card = rng.choice(found)
            pile.remove(card)
            return card

        def free_lands(colour: str, lands: list[str]) -> list[str]:
            return [
                land
                for land in lands
                if sum(1 for a in armies if a.at == land) < board.limits["armies_per_land"]
                and all(a.owner == colour for a in armies if a.at == land)
            ]

        for colour in order:
            player = dataclasses.replace(players[colour], money=rng.randint(0, 30))
            own = list(player.residences)
            if colour in empires:
                capital = rng.choice(own)
                land = board.cities[capital].land
                built: list[str] = []
                for building in rng.sample(sorted(b for b, n in supply.items() if n), rng.randint(0, 3)):
                    kind = board.buildings[building]
                    if kind.kind in (BuildingKind.DEFENCE, BuildingKind.TEMPLE) and any(
                        board.buildings[b].kind is kind.kind for b in built
                    ):
                        continue
                    built.append(building)
                    supply[building] -= 1
                goods = [g for g in board.goods if g not in board.produces(capital)]
                houses = tuple(
                    tuple(rng.sample(goods, rng.randint(0, board.limits["warehouse_goods"])))
                    for _ in range(rng.randint(0, 2))
                )
                cities[capital] = dataclasses.replace(
                    cities[capital], status=mm.Status.CAPITAL, buildings=tuple(built), warehouses=houses
                )
                held = take(trade, (CardKind.GIFT, CardKind.COUP)) if rng.random() < 0.4 else None
                tactic = take(trade, (CardKind.TACTIC,)) if rng.random() < 0.4 else None
                want = take(trade, (CardKind.WANT,)) if rng.random() < 0.3 else None
                if want and board.trade_cards[want].good in board.produces(capital):
                    trade.append(want)  # back under the deck: a want of his own land's good is paid at once
                    want = None
                patron = patronage.pop(0) if patronage and rng.random() < 0.4 else None
                player = dataclasses.replace(
                    player, state=states.pop(0), founded_at=max(1, count - len(order) * rng.randint(1, 2)),
                    art=tuple(art.pop(0) for _ in range(min(len(art), rng.randint(0, 3)))),
                    patron=patron, patronised=patron is not None, holding=(held,) if held else (),
                    tactics=(tactic,) if tactic else (), want_cards=(board.trade_cards[want].good,) if want else (),
                )  # fmt: skip
                near = free_lands(colour, [land, *board.lands[land].land])
                for _ in range(rng.randint(1, 3)):
                    if near:
                        where = rng.choice(near)
                        number = mm.lowest_free(a.number for a in armies if a.owner == colour)
                        armies.append(mm.Army(colour, number, where, since=count - len(order)))
                        near = free_lands(colour, near)
                unowned = [c for c, s in cities.items() if s.owner is None]
                if rng.random() < 0.3 and unowned:  # a city his army took, the army still inside (MD23)
                    city = rng.choice(unowned)
                    cities[city] = dataclasses.replace(cities[city], owner=colour, status=mm.Status.TAKEN)
                    number = mm.lowest_free(a.number for a in armies if a.owner == colour)
                    armies.append(mm.Army(colour, number, city, since=count - len(order)))
                    own.append(city)
            for _ in range(rng.randint(0, 3)):
                city = rng.choice(own)
                spaces = [f"{COAST}:{city}", f"{mm.HARBOUR}:{city}", board.cities[city].sea]
                room = [
                    s for s in spaces
                    if s.startswith(mm.HARBOUR)
                    or sum(1 for x in ships if x.at == s)
                    < board.limits["ships_per_coast" if s.startswith(COAST) else "ships_per_sea"]
                ]  # fmt: skip
                cargo = rng.choice(["", "", *board.produces(city), *board.goods])
                if art and rng.random() < 0.1:
                    cargo = f"art:{art.pop(0)}"
                number = mm.lowest_free(s.number for s in ships if s.owner == colour)
                ships.append(mm.Ship(colour, number, rng.choice(room), cargo))
                mine = [a for a in armies if a.owner == colour and a.at in board.lands]
                if mine and mm.city_of_space(ships[-1].at) and rng.random() < 0.3:
                    armies[armies.index(mine[0])] = dataclasses.replace(mine[0], at=f"ship:{number}")
            players[colour] = player
        standing = [a for a in armies if a.at in board.lands]
        if len(empires) > 1 and standing and rng.random() < 0.7:  # enemies next door: a field battle (M10)
            target = rng.choice(standing)
            enemy = rng.choice([c for c in empires if c != target.owner])
            lands = free_lands(enemy, list(board.lands[target.at].land))
            if lands and sum(1 for a in armies if a.owner == enemy) < board.limits["armies_per_player"]:
                number = mm.lowest_free(a.number for a in armies if a.owner == enemy)
                armies.append(mm.Army(enemy, number, rng.choice(lands), since=count - len(order)))
        hurting = (
            CardKind.ART_AUCTION, CardKind.TACTIC, CardKind.PROVINCE_AUCTION, CardKind.GIFT, CardKind.COUP,
            CardKind.STORM, CardKind.PIRATES, CardKind.EARTHQUAKE, CardKind.WANT, CardKind.ART_DESTRUCTION,
        )  # fmt: skip
        top = [c for c in trade if board.trade_cards[c].kind in hurting]
        top = rng.sample(top, min(len(top), 8))
        for card in top:
            trade.remove(card)
        trade = top + trade
        storm = take(trade, (CardKind.STORM,)) if rng.random() < 0.3 else None
        auctions: tuple[mm.Auction, ...] = ()
        if auction:
            provinces = [c for c, s in cities.items() if s.owner == order[0] and s.status is mm.Status.PROVINCE]
            kinds = (CardKind.ART_AUCTION, CardKind.TACTIC) + ((CardKind.PROVINCE_AUCTION,) if provinces else ())
            card = take(trade, kinds)
            if card is not None:
                kind = board.trade_cards[card].kind
                lot = art.pop(0) if kind is CardKind.ART_AUCTION and art else card if kind is CardKind.TACTIC else ""
                if kind is not CardKind.ART_AUCTION or lot:
                    auctions = (mm.Auction(card, order[0], lot, board.trade_cards[card].min_bid),)
                else:
                    trade.append(card)
        position = dataclasses.replace(
            opening, turn=turn, count=count, players=MappingProxyType(players), cities=MappingProxyType(cities),
            ships=tuple(ships), armies=tuple(armies), storm=storm, auctions=auctions,
            phase=mm.Phase.AUCTION if auctions else mm.Phase.TURN,
            stone=rng.randrange(len(board.tax_chart)) if empires else None, stone_owner=empires[0] if empires else None,
            decks=dataclasses.replace(
                decks, trade=tuple(trade), art=tuple(art), states=tuple(states), patronage=tuple(patronage),
                buildings=MappingProxyType(supply),
            ),
        )  # fmt: skip
        path = self.folder / "position.json"
        path.write_text(json.dumps(ruleset.position_to_data(position)), encoding="utf-8")
        return path

    def add_armies(self, data: dict[str, Any]) -> None:
        """Legions on the players' lands, and a province or two already at war (R8.4), so that
        battles come early even in short games."""
        provinces = data["provinces"]

        def add(civ: str, place: str, count: int) -> bool:
            on_board = sum(p["legions"].get(civ, 0) for p in provinces.values())
            count = min(count, UNIT_STOCK["legion"] - on_board)
            if count > 0:
                provinces[place]["legions"][civ] = provinces[place]["legions"].get(civ, 0) + count
            return count > 0

        for civ in self.p.civs:
            held = sorted(p for p, province in provinces.items() if province["influence"] == civ)
            for place in self.rng.sample(held, min(len(held), 2)):
                add(civ, place, self.rng.randint(1, 3))
        for place in self.rng.sample(sorted(p for p, s in provinces.items() if s["legions"]), 2):
            owner = next(iter(provinces[place]["legions"]))
            enemy = self.rng.choice([c for c in CIVS if c != owner])
            if add(enemy, place, self.rng.randint(1, 2)):
                provinces[place]["at_war"] = True

    def play_phase(self, game: Game) -> Game:
        """Orders from some players, by all the ways in; then adjudicate; the game after it. An
        open seat's orders are waited for by nobody (`Game.due`), and nobody sends them: only the
        player who left it may, with his old secret, to be refused; a dropout sends nothing."""
        if self.moderator_opens or self.substitute_at:
            game = self.moderate(game, after_sends=False)
        due = set(game.due())
        on_file = set(submitted(game))
        self.past_deadline = self.rng.random() < 0.1  # mails come late; missing players do not hold it up
        if self.past_deadline:
            self.result.behaviours["deadline passed"] += 1
            self.call("deadline 2020-01-01T00:00", commands.set_deadline, self.path, "2020-01-01T00:00")
        posts: list[Post] = []  # forum posts and mails, collected together after the direct submissions
        for civ in game.playing():
            if civ in self.open:
                if self.seat_rng.random() < 0.25:
                    self.send_as_former(game, civ, posts)
                continue
            if self.silent(game, civ):
                self.result.behaviours["dropout silent"] += 1
                continue
            if self.rng.random() < (0.88 if civ in due and civ not in on_file else 0.15):
                self.send(game, civ, posts)
            if any(left == civ for left, _, _ in self.former) and self.seat_rng.random() < 0.08:
                self.send_as_former(game, civ, posts)  # beside his substitute
        if posts:
            self.collect(game, posts)
        if self.moderator_opens:
            game = self.moderate(game, after_sends=True)
            due = set(game.due())
        return self.adjudicate_and_check(game, due)

    # -- orders

    def send(self, game: Game, civ: str, posts: list[Post]) -> None:
        """One player's doings in a phase, as his behaviour for it says."""
        behaviour = self.rng.choices(list(BEHAVIOURS), list(BEHAVIOURS.values()))[0]
        self.result.behaviours[behaviour] += 1
        if behaviour == "missing":
            return
        if behaviour == "wrong":  # orders for another game or phase: refused, nothing stored
            self.submit(game, civ, self.orders_text(game, civ, "orders", wrong=True), must_refuse=True)
            return
        if behaviour == "check":
            file, text = self.folder / "check.txt", self.orders_text(game, civ, "junk")
            file.write_text(text, encoding="utf-8")
            # refused as `submit` refuses it: no order among its lines, or a junk `pass pass` line (a password)
            refused = self.is_empty(game, text) or self.foreign_secret(game, civ, text)
            wrong = (SubmissionError,) if refused else ()
            self.call(
                f"check check.txt ({civ})", commands.check_orders, self.path, str(file), None, True, refusals=wrong
            )
        kinds = {
            "replace": ["orders", "orders"],
            "empty": ["orders", "empty"] if self.rng.random() < 0.6 else ["empty"],
            "withdraw": ["orders", "withdraw"],
            "check": ["orders"],
        }.get(behaviour, [behaviour])
        for kind in kinds:
            mails = 30 if self.past_deadline else 8
            channel = self.rng.choices(("submit", "submit --power", "post", "mail"), (50, 15, 27, mails))[0]
            if channel == "mail" and kind != "orders":
                channel = "post"
            self.result.behaviours[f"by {channel}"] += 1
            if kind == "empty":
                text = self.rng.choice(EMPTY_TEXTS).format(civ=civ, secret=self.secrets[civ], marker=self.marker())
            elif kind == "withdraw":  # no marker: the same words in many phases (`collect` must take each)
                text = f"power {civ}\nno orders\n"
            else:
                text = self.orders_text(game, civ, kind, power_line=channel != "submit --power", mail=channel == "mail")
            if channel == "submit":
                self.submit(game, civ, text)
            elif channel == "submit --power":
                self.submit(game, civ, text, power=civ)
            elif channel == "mail" and self.rng.random() < 0.2:
                posts.append(Post(civ, text.replace(self.secrets[civ], "not-the-password"), "mail", counts=False))
            elif channel == "mail" and self.past_deadline:  # kept aside as late; `accept-late` may take it
                posts.append(Post(civ, text, "late mail", counts=False))
            else:
                posts.append(Post(civ, text, channel, counts=not self.foreign_secret(game, civ, text)))

    def orders_text(
        self,
        game: Game,
        civ: str,
        kind: str,
        *,
        power_line: bool = True,
        wrong: bool = False,
        mail: bool = False,
        secret: str | None = None,
    ) -> str:
        """`secret`: the password line's (a former player's), instead of the seat's holder's."""
        rng, info = self.rng, game.phase_info
        header = [rng.choice((f"power {civ}", f"POWER {civ.upper()}", f"Power: {civ.lower()}"))] if power_line else []
        if mail or secret is not None or rng.random() < 0.1:
            header.append(f"password {secret or self.secrets[civ]}")
        if rng.random() < 0.2 and not wrong:
            header.append(f"game {game.settings.id}")
        if rng.random() < 0.15 and not wrong:
            header.append(f"phase {info.prefix}{info.turn} {info.phase}")
        if wrong:
            header.append(rng.choice((f"game other-{self.p.seed}", f"phase {info.prefix}{info.turn + 7} {info.phase}")))
        # Empires, Mediterraneum: a part of the player's form (the orders he could give) and some wrong lines
        if self.p.mediterraneum:
            body, requests = mediterraneum_orders(rng, game, civ), MEDITERRANEUM_REQUESTS
        else:
            body = empires_orders(rng, game, civ) if self.p.empires else self.orders_2003(game, civ)
            requests = EMPIRES_REQUESTS if self.p.empires else REQUESTS
        extra = junk_lines(rng, rng.randint(1, 8)) if kind == "junk" else []
        if kind == "huge" and self.p.mediterraneum:
            extra += mediterraneum_huge_lines(rng, game, civ)
        elif kind == "huge":
            extra += empires_huge_lines(rng, game, civ) if self.p.empires else huge_lines(rng, game.position, civ)
        for line in extra:
            body.insert(rng.randint(0, len(body)), line)
        if mail and rng.random() < 0.3:  # a request to the judge, answered in the receipt
            body.insert(rng.randint(0, len(body)), rng.choice(requests))
        if rng.random() < 0.1:
            body += ["--", "Sent from my phone", "build 3 legions in Roma"]
        clicked = self.page_lines(game, civ) if kind not in ("junk", "huge") and not wrong else None
        if clicked is not None:  # his orders clicked together on his order page, in his language already
            header, body = [line for line in header if not line.startswith(("game", "phase"))], []
        lines = [self.in_language(game, line) for line in [*header, *body]]
        return "\n".join([self.marker(), *lines, *(clicked or [])]) + "\n"

    def page_lines(self, game: Game, civ: str) -> list[str] | None:
        """In two games of three, now and then: a few lines of his order page as he would click
        them (the page's own lines, read from its HTML), when the page is for the phase now open."""
        if self.p.seed % 3 == 0 or self.rng.random() < 0.4:
            return None
        done = adjudicated_slugs(game)
        if not done or int(done[-1][:3]) + 1 != game.phase_number:
            return None
        page = game.directory.page_file(done[-1], page_name(civ))
        if not page.is_file():
            return None
        offered = [html.unescape(line) for line in PAGE_LINE.findall(page.read_text(encoding="utf-8"))]
        if not offered:
            return None
        self.result.behaviours["lines clicked on the order page"] += 1
        return self.rng.sample(offered, min(len(offered), self.rng.randint(1, 3)))

    def in_language(self, game: Game, line: str) -> str:
        """A line as a player of the game's language writes it: mostly with its keywords (with or
        without their accents), now and then in English, which is read in every language."""
        if self.p.lang == "en" or self.rng.random() < 0.15:
            return line
        self.result.behaviours[f"line written in {self.p.lang}"] += 1
        written = written_in(game.parser, line, self.p.lang)
        if self.rng.random() < 0.3:  # typed without accents
            written = "".join(c for c in unicodedata.normalize("NFKD", written) if not unicodedata.combining(c))
        return written

    def orders_2003(self, game: Game, civ: str) -> list[str]:
        """Random orders, maybe a plan's, and a wonder or hero bought when R10 is in reach."""
        rng, info = self.rng, game.phase_info
        body = random_orders(rng, game.position, civ).splitlines()
        if rng.random() < 0.7:
            body += purposeful_lines(rng, game.position, civ)
        players = game.state_data()["players"]
        if info.phase == "build" and sum(players[civ]["hand"].values()) >= 9 and rng.random() < 0.6:  # R10 in reach
            owned = {card for p in players.values() for card in p["cards"]}
            body.append(f"buy {rng.choice([c for c in BUYABLE if c not in owned] or BUYABLE)}")
        return body

    def marker(self) -> str:
        """A comment line naming this text, to tell which text is on file."""
        self.texts += 1
        return f"# soak {self.p.seed}-{self.texts}"

    def stored(self, game: Game, civ: str) -> str | None:
        path = game.directory.orders_folder(game.slug) / f"{civ}.txt"
        return path.read_text(encoding="utf-8") if path.exists() else None

    def foreign_secret(self, game: Game, civ: str, text: str) -> bool:
        """The text's password header holds another secret than the player's (a junk line such
        as `pass pass` is one): `check`, `submit` and `collect` refuse it alike (issue 29)."""
        password = parse_submission(text, game.parser, headers_only=True).password
        return password is not None and password != self.secrets[civ]

    def is_empty(self, game: Game, text: str) -> bool:
        """No order line at all (only headers, blanks, comments, quotes), or none that is an
        order (an Empires text may hold only junk when the player took nothing from his form)."""
        submission = parse_submission(text, game.parser)
        return not submission.no_orders and all(line.order is None for line in submission.lines)

    def submit(
        self,
        game: Game,
        civ: str,
        text: str,
        power: str | None = None,
        must_refuse: bool = False,
        why: str = "orders for another game or phase were stored",
    ) -> None:
        file = self.folder / "orders.txt"
        file.write_text(text, encoding="utf-8")
        before = self.stored(game, civ)
        empty = self.is_empty(game, text)
        must_refuse = must_refuse or self.foreign_secret(game, civ, text)  # `pass pass`: a password, and wrong
        allowed = (SubmissionError,) if empty or must_refuse else ()
        how = f"submit orders.txt{f' --power {power}' if power else ''} ({civ}{', no order lines' if empty else ''})"
        outcome = self.call(how, commands.submit_orders, self.path, str(file), power, True, refusals=allowed)
        if must_refuse and not isinstance(outcome, SubmissionError):
            self.fail(why, f"{how}:\n{text}")
        sent = Post(civ, text, "submit", counts=not must_refuse, empty=empty)
        self.expect_stored(civ, [sent], before, self.stored(game, civ), how)

    def expect_stored(
        self, civ: str, sent: list[Post], before: str | None, after: str | None, how: str, kind: str = ""
    ) -> None:
        """The orders on file after `sent`: the last text that counts. A text without order lines
        never replaces orders on file (it is refused, or stored only where nothing was)."""
        acceptable = [_identity(before)]
        for post in sent:
            if post.counts and post.empty:
                acceptable += [_identity(post.text) for state in acceptable if state is None]
            elif post.counts:
                acceptable = [_identity(post.text)]
        now = _identity(after)
        if now in acceptable:
            return
        texts = "\n---\n".join(post.text for post in sent)
        if any(post.empty and now == _identity(post.text) for post in sent):
            self.fail("an empty submission replaced the orders on file", f"{how}\nbefore:\n{before}\nnow:\n{after}")
        self.fail(
            kind or "the orders on file are not the last submission", f"{how}\nsent:\n{texts}\n\non file:\n{after}"
        )

    def collect(self, game: Game, posts: list[Post]) -> None:
        """Forum posts (.txt) and mails (.eml) collected from one folder (in the order of their names)."""
        folder = self.folder / f"posts-{game.phase_number:03d}-{self.posted}"
        folder.mkdir()
        names: set[str] = set()
        for post in posts:
            self.posted += 1
            post.empty = post.kind == "post" and self.is_empty(game, post.text)
            post.file = f"{self.posted:04d}-{post.civ}.{'eml' if post.kind.endswith('mail') else 'txt'}"
            if post.kind == "post" and f"{post.civ.lower()}.txt" not in names and self.rng.random() < 0.5:
                post.file = f"{post.civ.lower()}.txt"  # as a moderator names them, phase after phase
            names.add(post.file)
            if post.kind.endswith("mail"):
                (folder / post.file).write_bytes(self.mail(game, post))
            else:
                (folder / post.file).write_text(post.text, encoding="utf-8")
        before = {civ: self.stored(game, civ) for civ in {post.civ for post in posts}}
        how = f"collect --from {folder.name} ({', '.join(f'{p.civ} {p.kind}' for p in posts)})"
        allowed = (SubmissionError,) if any(post.empty for post in posts) else ()
        outcome = self.call(how, commands.collect_mail, self.path, False, folder, refusals=allowed)
        said = (
            f"{how}: {'refused: ' if isinstance(outcome, AdjudicatorError) else ''}{getattr(outcome, 'text', outcome)}"
        )
        for civ, earlier in before.items():
            mine = sorted((p for p in posts if p.civ == civ), key=lambda p: p.file)  # `collect` goes by name
            skipped = any(f"{p.file}: already collected" in said for p in mine)  # the text was collected before
            kind = "collect --from skipped a new post as 'already collected'" if skipped else ""
            self.expect_stored(civ, mine, earlier, self.stored(game, civ), said, kind)
            late = [p for p in mine if p.kind == "late mail"]
            if late and self.rng.random() < 0.6:
                earlier = self.stored(game, civ)
                self.result.behaviours["accept-late"] += 1
                self.call(f"accept-late {civ}", commands.accept_late, self.path, civ)
                taken = Post(civ, late[-1].text, "late mail", counts=True)
                self.expect_stored(civ, [taken], earlier, self.stored(game, civ), f"accept-late {civ}")

    def mail(self, game: Game, post: Post) -> bytes:
        message = EmailMessage()
        message["From"] = f"{post.civ} player <{post.sender or self.emails[post.civ]}>"
        message["To"] = f"moderator@{game.settings.id}.invalid"
        message["Subject"] = f"[{game.settings.id}] orders"
        message["Message-ID"] = f"<soak-{self.p.seed}-{self.posted}@example.org>"
        message.set_content(post.text)
        return bytes(message)

    # -- adjudication and what must hold after it

    def adjudicate(self, force: bool, dice: str | None = None, all_defaults: bool = True) -> Any:
        return commands.adjudicate_phase(self.path, dice, force, all_defaults=all_defaults)

    def adjudicated(self, action: str, force: bool, dice: str | None) -> None:
        """Adjudicate, which must resolve the phase and make all its reports."""
        self.result.behaviours["--dice"] += dice is not None
        outcome = self.call(action + (" --dice …" if dice else ""), self.adjudicate, force, dice)
        if not outcome.ok:
            self.fail("the phase's reports could not be made", outcome.text + self.logged())
        if "Warning:" in outcome.text:
            self.fail("the campaign site was not updated", outcome.text + self.logged())

    def logged(self) -> str:
        """The crash logs the commands wrote into the game's logs/ folder (internal errors)."""
        logs = sorted((self.path / "logs").glob("*")) if (self.path / "logs").is_dir() else []
        return "".join(f"\n{log.name}:\n{log.read_text(encoding='utf-8', errors='replace')[-3000:]}" for log in logs)

    def adjudicate_and_check(self, game: Game, due: set[str]) -> Game:
        number, before = game.phase_number, game.state_data()
        on_file = set(submitted(game))
        # what the phase's history must record: whose orders were due (never an open seat's), whose missed
        owed = [civ for civ in game.ruleset.due(game.position, game.settings.stepwise) if civ not in self.open]
        held = {civ: self.emails[civ] for civ in self.p.civs if civ not in self.open}
        expected = SeatPhase(owed, [civ for civ in owed if civ not in on_file], held)
        missing = sorted(due - on_file)
        if missing and not self.past_deadline and self.rng.random() < 0.3:
            waiting = f"adjudicate (no --force; {', '.join(missing)} missing)"
            if not isinstance(self.call(waiting, self.adjudicate, False, refusals=(UsageError,)), UsageError):
                self.fail("adjudicate went ahead without --force", f"{missing} had no orders and no deadline was set")
        force = (bool(missing) and not self.past_deadline) or self.rng.random() < 0.1
        if force and due and set(missing) >= due and not self.past_deadline:  # issue 29: --force typed twice
            blind = self.call(
                "adjudicate --force (nobody's orders)", self.adjudicate, True, None, False, refusals=(UsageError,)
            )
            if not isinstance(blind, UsageError):
                self.fail("adjudicate --force went ahead with nobody's orders", "it needs --all-defaults")
        # now and then rolls made on an external dice server (`--dice`), more than the phase needs
        dice = ",".join(str(self.rng.randint(1, 6)) for _ in range(300)) if self.rng.random() < 0.08 else None
        hands_off = self.p.mode == "batch" and dice is None and (not missing or self.past_deadline)
        if hands_off and self.rng.random() < 0.6:  # `adjudicator run` finds the phase due and does it
            self.result.behaviours["run"] += 1
            outcome = self.call("run", commands.run_games, self.path, False, 60.0, print)
            if not outcome.ok or f"{game.phase_info.label} adjudicated" not in outcome.text:
                self.fail("run did not adjudicate a phase that was due", outcome.text + self.logged())
            if "warning:" in outcome.text:
                self.fail("run warned", outcome.text + self.logged())
        else:
            self.adjudicated(f"adjudicate{' --force' if force else ''}", force, dice)
        # `run` goes on while the next phase is due: one that owes nobody's orders (an open seat's turn) too
        later = range(number + 1, self.game().phase_number)
        self.result.adjudications += 1 + len(later)
        histories = [self.history(number)] + [self.history(n) for n in later]
        if self.p.mediterraneum:  # the cities that were capitals as each phase opened (MD19, MD24)
            self.capitals |= {
                c
                for h in histories[1:]
                for c, city in h["position"]["cities"].items()
                if city.get("status") == "capital"
            }
        game = self.check_phase(number, before, len(later))
        if self.p.mediterraneum:  # what was exercised, for the summary
            self.result.events.update(str(e.get("kind")) for h in histories for e in h.get("events", []))
        self.check_seats(game, number, expected, histories[0])
        for n, history in zip(later, histories[1:], strict=True):
            self.result.behaviours["run went on: a phase owing nobody's orders"] += 1
            held = {civ: self.emails[civ] for civ in self.p.civs if civ not in self.open}
            self.check_seats(game, n, SeatPhase([], [], held), history)
        # (a redo of the first phase alone would not go on through the others `run` did)
        if self.rng.random() < 0.12 and not later:
            game = self.rollback_and_redo(number, force, dice, expected)
        return game

    # -- seats (issue 32)

    def write_seats(self) -> None:
        """game.toml's [seats], as the moderator writes it after `new`; in a game whose moderator
        opens the dropouts' seats, the phase he does it in, for each."""
        rules = (
            f"warn_after = {self.p.warn_after}\nopen_after = {self.p.open_after}\n"
            f"open_after_total = {self.p.open_after_total}\n"
        )
        with (self.path / "game.toml").open("a", encoding="utf-8") as settings:
            settings.write(f"\n[seats]\n{rules}")
        self.actions.append("game.toml: [seats] " + rules.replace("\n", "; "))
        if self.p.seats == "moderator":
            self.moderator_opens = {civ: self.p.drop_at + self.seat_rng.randint(0, 3) for civ in self.p.dropouts}

    def silent(self, game: Game, civ: str) -> bool:
        """A dropout sends nothing from phase `drop_at` on, as long as the seat is his."""
        return (
            civ in self.p.dropouts
            and game.phase_number >= self.p.drop_at
            and self.emails[civ] == f"{civ.lower()}@example.org"
        )

    def moderate(self, game: Game, after_sends: bool) -> Game:
        """What the moderator does with seats at this moment of a phase: before the players
        send, he gives each seat open for long enough to a substitute; before or after, he opens
        a dropout's seat when its moment has come (one the count opened already: he is refused)."""
        number = game.phase_number
        if not after_sends:
            for civ in sorted(c for c, when in self.substitute_at.items() if when <= number):
                self.seat_substitute(civ)
        for civ in sorted(c for c, when in self.moderator_opens.items() if when <= number):
            if not after_sends and self.seat_rng.random() < 0.5:
                continue  # after the players' mails
            del self.moderator_opens[civ]
            if civ not in self.open:
                self.open_by_moderator(civ)
            elif self.seat_rng.random() < 0.5:
                self.refused_seat(f"seat {civ} --open (open already)", civ, None)
        return self.game()

    def seat_left(self, civ: str, number: int, counted: int = 0) -> None:
        """The model, once the holder of `civ` has left it (at phase `number`): the seat open, his
        secret no longer his, and the phase the moderator gives it to a substitute in. `counted`:
        the phase whose adjudication opened it by the count (0: the moderator opened it)."""
        self.open.add(civ)
        self.count_opened[civ] = counted
        self.former.append((civ, self.emails[civ], self.secrets[civ]))
        self.substitute_at[civ] = number + self.seat_rng.randint(1, 4)

    def open_by_moderator(self, civ: str) -> None:
        left = self.emails[civ]
        self.call(f"seat {civ} --open", commands.seat_player, self.path, civ, None, True)
        self.result.behaviours["seat opened by moderator"] += 1
        game = self.game()
        self.seat_left(civ, game.phase_number)
        ledger = seats.load(game.directory)
        gone = ledger.left(civ)
        if civ not in game.settings.open_seats() or civ in game.due() or ledger.holder(civ) is not None:
            self.fail("seat --open left the seat held", f"open seats {game.settings.open_seats()}, due {game.due()}")
        if not gone or gone[0].email != left:
            self.fail("seat --open lost the record of the player who left", f"{civ}: {gone}")
        self.check_ledger(game)

    def refused_seat(self, action: str, civ: str, player: str | None) -> None:
        """A request `seat` must refuse, changing nothing."""
        directory = GameDirectory(self.path)
        files = (directory.game_file, directory.secrets_file, seats.seats_file(directory))
        before = [path.read_bytes() if path.exists() else b"" for path in files]
        refused = self.call(
            action, commands.seat_player, self.path, civ, player, player is None, refusals=(UsageError,)
        )
        if not isinstance(refused, UsageError):
            self.fail("seat did what it must refuse", action)
        if [path.read_bytes() if path.exists() else b"" for path in files] != before:
            self.fail("a refused seat request changed the game's files", action)
        self.result.behaviours["seat request refused"] += 1

    def seat_substitute(self, civ: str) -> None:
        """A substitute with a fresh address takes the open seat of `civ`: from the phase now open
        his orders are due, with the new secret (secrets.toml has it), and he plays as any player.
        Now and then the moderator first mistypes: an address that plays already, a seat still held."""
        held = [c for c in self.p.civs if c not in self.open]
        if held and self.seat_rng.random() < 0.25:
            other = self.seat_rng.choice(held)
            if self.seat_rng.random() < 0.5:
                self.refused_seat(f"seat {civ} --player {self.emails[other]} (plays)", civ, self.emails[other])
            else:
                self.refused_seat(f"seat {other} --player (held)", other, "someone@example.org")
        del self.substitute_at[civ]
        self.substitutes += 1
        address = f"sub-{self.substitutes}@example.org"
        name = (
            HOSTILE_NAME if self.p.hostile_name and self.seat_rng.random() < 0.3 else f"Substitute {self.substitutes}"
        )
        seated = self.call(
            f"seat {civ} --player {address}", commands.seat_player, self.path, civ, f"{address}:{name}", False
        )
        self.result.behaviours["substitute seated"] += 1
        game = self.game()
        secret = read_toml(game.directory.secrets_file).get("players", {}).get(civ)
        player = game.settings.player(civ)
        if secret is None or secret not in seated.text or player is None or player.open or player.email != address:
            self.fail("seat --player did not seat the substitute", f"{civ}: {player}, secret {secret is not None}")
        if (civ in game.due()) != (civ in game.ruleset.due(game.position, game.settings.stepwise)):
            self.fail("a substitute's orders are not due", f"{civ} is not in {game.due()}")
        self.open.discard(civ)
        self.count_opened.pop(civ, None)
        self.emails[civ], self.secrets[civ], self.records[civ] = address, secret, SeatRecord()
        holder = seats.load(game.directory).holder(civ)
        if holder is None or holder.since != game.phase_number:
            self.fail("the substitute's tenure does not start with the phase now open", f"{civ}: {holder}")
        self.check_ledger(game)

    def send_as_former(self, game: Game, civ: str, posts: list[Post]) -> None:
        """A player who left the seat of `civ` (it is open, or a substitute holds it) sends orders
        with his old secret, as a submission or a mail from his address: refused either way."""
        _, address, secret = next(f for f in reversed(self.former) if f[0] == civ)
        text = self.orders_text(game, civ, "orders", mail=True, secret=secret)
        self.result.behaviours["former player refused"] += 1
        if self.seat_rng.random() < 0.5:
            why = "orders with a former player's secret (or for an open seat) were stored"
            self.submit(game, civ, text, must_refuse=True, why=why)
        else:
            posts.append(Post(civ, text, "mail", counts=False, sender=address))

    def check_seats(self, game: Game, number: int, expected: SeatPhase, history: dict[str, Any]) -> list[str]:
        """After phase `number`: its history names whose orders were due (not an open seat's),
        whose did not come, and who held each seat; each holder's record follows, a warning goes
        out when a run of missed phases reaches `warn_after`, and a seat opens exactly when
        [seats] says. Returns the seats the count opened."""
        recorded = SeatPhase(
            list(history.get("due", [])), list(history.get("missed", [])), dict(history.get("seats", {}))
        )
        if recorded != expected:
            self.fail("the history's seats are not the phase's", f"history: {recorded}\nexpected: {expected}")
        self.seat_phases[number] = recorded
        p, opened, warned = self.p, [], []
        for civ in recorded.due:
            record = self.records[civ]
            if civ not in recorded.missed:
                record.played, record.in_row = record.played + 1, 0
                continue
            record.missed, record.in_row = record.missed + 1, record.in_row + 1
            if (p.open_after and record.in_row >= p.open_after) or (
                p.open_after_total and record.missed >= p.open_after_total
            ):
                opened.append(civ)
            elif p.warn_after and record.in_row == p.warn_after:
                warned.append(civ)
        if set(game.settings.open_seats()) != self.open | set(opened):
            self.fail(
                "a seat opened at another count than [seats] says",
                f"open seats {sorted(game.settings.open_seats())}, expected {sorted(self.open | set(opened))}; "
                f"records {self.records}",
            )
        for civ in warned:
            self.result.behaviours["player warned"] += 1
            if not any((game.directory.outbox).rglob(f"*.{number:03d}.seat-warn-{civ}.*")):
                self.fail("no warning went out", f"{civ} missed {self.records[civ].in_row} phases in a row")
        for civ in opened:
            self.result.behaviours["seat opened by count"] += 1
            self.seat_left(civ, game.phase_number, number)
        self.check_ledger(game)
        return opened

    def rolled_back(self, to: int) -> list[str]:
        """The model after `rollback --to to` (game/seating.after_rollback): each seat still open
        that an adjudication of phase `to` or later opened by the count is its player's again (his
        address, his secret, a dropout silent again), and every holder's record is counted again
        from the phases left. A seat the moderator opened stays open; one a substitute took since
        is his (it is not open, so nothing gives it back). Returns the seats given back."""
        given = sorted(civ for civ in self.open if self.count_opened.get(civ, 0) >= to)
        for civ in given:
            self.open.discard(civ)
            del self.count_opened[civ]
            self.substitute_at.pop(civ, None)
            left = max(i for i, (gone, _, _) in enumerate(self.former) if gone == civ)
            _, self.emails[civ], self.secrets[civ] = self.former.pop(left)
        self.seat_phases = {n: phase for n, phase in self.seat_phases.items() if n < to}
        for civ in self.p.civs:
            record = self.records[civ] = SeatRecord()
            for _, phase in sorted(self.seat_phases.items()):
                if civ not in phase.due or phase.seats.get(civ) != self.emails[civ]:
                    continue  # not owed, or owed by another holder of the seat
                if civ in phase.missed:
                    record.missed, record.in_row = record.missed + 1, record.in_row + 1
                else:
                    record.played, record.in_row = record.played + 1, 0
        return given

    def check_ledger(self, game: Game) -> None:
        """seats.toml agrees with the history (`seat_problems`) and with the model: each seat's
        holder and record, no holder for an open seat, and secrets.toml the holders' secrets."""
        ledger = seats.load(game.directory)
        found = seat_problems(ledger.tenures, self.seat_phases, self.p.open_after, self.p.open_after_total)
        secrets = read_toml(game.directory.secrets_file).get("players", {})
        for civ in self.p.civs:
            holder, record = ledger.holder(civ), self.records[civ]
            if civ in self.open:
                if holder is not None or civ in secrets:
                    found.append(f"{civ}'s seat is open, but held by {holder} or its secret kept")
            elif holder is None or (holder.email, holder.played, holder.missed, holder.in_row) != (
                self.emails[civ],
                record.played,
                record.missed,
                record.in_row,
            ):
                found.append(f"{civ}: the ledger has {holder}, the soak {self.emails[civ]} with {record}")
            elif secrets.get(civ) != self.secrets[civ]:
                found.append(f"{civ}: secrets.toml does not hold the holder's secret")
        if found:
            self.fail("the seats' ledger is wrong", "\n".join(found))

    def history(self, number: int) -> dict[str, Any]:
        return read_toml(next(self.path.joinpath("history").glob(f"{number:03d}-*.toml")))

    def check_phase(self, number: int, before: dict[str, Any], later: int = 0) -> Game:
        """The position, the reports and the other views of the game just after phase `number`
        (and the `later` phases `run` went on through)."""
        game = self.game()
        if game.phase_number != number + 1 + later:
            self.fail("the phase number did not advance by one", f"{number} -> {game.phase_number}")
        after = game.state_data()
        if self.p.empires:
            problems = empires_position_problems(game.board, game.position)
        elif self.p.mediterraneum:  # a capital lost (MD24) or gone bankrupt (MD19) keeps its warehouses
            self.capitals |= {city for city, state in before["cities"].items() if state.get("status") == "capital"}
            problems = mediterraneum_position_problems(game.board, game.position, self.capitals)
        else:
            problems = position_problems(after, self.p.finite_bank)
            problems += [] if later else transition_problems(before, after)
        if problems:
            self.fail("broken invariant", "\n".join(problems))
        if game.phase_info.winner is None and self.rng.random() < VIEWS_SHARE:
            self.check_views(game)
        self.check_reports(game, number, every=self.rng.random() < 0.1)
        shown = json.loads(self.call("state --json", commands.state, self.path, True).text)
        if shown != json.loads(json.dumps(after)):
            self.fail("state --json differs from the loaded state", json.dumps(shown)[:2000])
        if self.rng.random() < 0.25:
            self.call("state", commands.state, self.path, False)
            self.call("status", commands.status, self.path)
        if self.logged():
            self.fail("an internal error was logged", self.logged())
        if REPLAY_EVERY_PHASE or after["phase"] == "trade" or self.round_starts(after):  # or as each turn starts
            self.replay()
        return game

    def check_views(self, game: Game) -> None:
        """Issue 28: the forms, the receipts and the `take` classes say what the engine does."""
        found = form_against_engine(game, self.p.seed) + receipt_against_engine(game, self.p.seed, self.rng)
        found += explicit_against_default(game, self.p.seed)
        if found:
            self.fail("views disagree", "\n".join(map(str, found[:10])))

    def round_starts(self, after: dict[str, Any]) -> bool:
        """Mediterraneum: a round (one turn a player) starts, every other round (replays grow long)."""
        return (
            self.p.mediterraneum
            and after["phase"] == "turn"
            and after["step"] == after["order"][0]
            and (after["turn"] % 2 == 0 or len(after["order"]) > 3)
        )

    def replay(self) -> None:
        replayed = self.call("replay", commands.replay_game, self.path)
        if not replayed.ok:
            self.fail("replay differs", replayed.text)

    def check_reports(self, game: Game, number: int, every: bool) -> None:
        """The reports written at adjudication hold no player text as markup, and `report` renders
        them again to the same text: every format and player's report, or one of each."""
        slug = next(game.directory.history.glob(f"{number:03d}-*.toml")).stem
        folder = game.directory.reports / slug
        markup = {"bbcode": ("[url=", "[img]"), "html": ("<script>",), "md": ("<script>",)}
        for fmt in FORMATS:
            leaked = [m for m in markup.get(fmt, ()) if m in (folder / f"public.{fmt}").read_text(encoding="utf-8")]
            if leaked:
                self.fail("player text got through as markup", f"{folder.name}/public.{fmt} holds {leaked}")
        formats = list(FORMATS) if every else [self.rng.choice(FORMATS)]
        civs = list(game.playing()) if every else [self.rng.choice(game.playing())]
        lookup = self.rng.choice((None, str(number), slug))  # the last phase, by number, by slug
        for fmt in formats:
            self.same_report(folder / f"public.{fmt}", lookup if fmt == formats[0] else slug, fmt, None)
        for civ in civs:
            self.same_report(game.directory.private_report(slug, civ), slug, "txt", civ)
        if number + 1 == game.phase_number and game.phase_info.winner is None:  # the forms are for now
            for civ in civs:
                text = game.directory.private_report(slug, civ).read_text(encoding="utf-8")
                self.paste_back(game, text, f"{slug}/{civ}.txt")
        for civ in civs:
            self.page_is_the_form(game, slug, civ)

    def page_is_the_form(self, game: Game, slug: str, civ: str) -> None:
        """His order page offers exactly the lines of his report's order form (one home: order_form)."""
        found = form_of(game.directory.private_report(slug, civ).read_text(encoding="utf-8"))
        page = game.directory.page_file(slug, page_name(civ)).read_text(encoding="utf-8")
        orders = found[1] if found else []
        written = [re.split(r"\s{2,}# ", line[2:], maxsplit=1)[0].rstrip() for line in orders]
        clicked = [html.unescape(line) for line in PAGE_LINE.findall(page)]
        if written != clicked:
            self.fail("the order page and the order form offer different lines", f"{slug}/{civ}: {written} | {clicked}")

    def paste_back(self, game: Game, text: str, where: str) -> None:
        """A form sent back as it stands holds no line in error, and each of some of its
        orders, uncommented alone, is accepted (issue 15: forms that paste back)."""
        found = form_of(text)
        assert found is not None, where
        form, orders = found
        unchanged = check_submission(game, "no orders\n" + form)
        if unchanged.errors:
            self.fail("a form sent back as it stands has errors", f"{where}\n{form}")
        for line in self.rng.sample(orders, min(3, len(orders))):
            self.result.behaviours["form line pasted back"] += 1
            try:
                single = check_submission(game, form.replace(line + "\n", line[2:] + "\n"))
            except SubmissionError as error:
                self.fail("a form's order is refused when uncommented", f"{where}: {line!r}: {error}")
            if single.errors or single.accepted != 1:
                bad = [f"{e.text}: {e.message}" for e in single.echo if e.status == "ERROR"]
                self.fail("a form's order is refused when uncommented", f"{where}: {line!r}: {bad}")

    def same_report(self, written: Path, phase: str | None, fmt: str, civ: str | None) -> None:
        what = f"--power {civ}" if civ else f"--format {fmt}"
        shown = self.call(
            f"report{f' --phase {phase}' if phase else ''} {what}", commands.show_report, self.path, phase, fmt, civ
        )
        if shown.text != written.read_text(encoding="utf-8"):
            self.fail("a report differs from the one written at adjudication", f"{written.parent.name}/{written.name}")

    def snapshot(self, number: int) -> dict[str, bytes]:
        """The files one adjudication of phase `number` writes."""
        directory = GameDirectory(self.path)
        slug = next(directory.history.glob(f"{number:03d}-*.toml")).stem
        files = [*directory.history.glob(f"{number:03d}-*.toml"), *directory.history.glob(f"{number + 1:03d}-*.toml")]
        files += [directory.state_file, directory.orders_folder(slug) / "receipts.toml"]
        files += sorted((directory.reports / slug).glob("*")) + sorted((directory.private / slug).glob("*"))
        return {str(p.relative_to(directory.root)): _without_moment(p.read_bytes()) for p in files if p.is_file()}

    def rollback_and_redo(self, number: int, force: bool, dice: str | None, expected: SeatPhase) -> Game:
        """Roll the phase back and adjudicate it again: the same files must come out. The seats
        the phase's count opened are their players' again in between (`rolled_back`), and the
        redo, whose history must name the same seats as the first (`expected`), opens them again."""
        self.result.behaviours["rollback"] += 1
        first = self.snapshot(number)
        rolled = self.call(f"rollback --to {number}", commands.rollback_game, self.path, number)
        if "Warning:" in rolled.text:
            self.fail("the campaign site was not updated", rolled.text + self.logged())
        game = self.game()
        opening = read_toml(next(game.directory.history.glob(f"{number:03d}-*.toml")))["position"]
        if game.phase_number != number or compact(game.state_data()) != opening:
            self.fail("rollback did not restore the phase's opening position", f"phase number {game.phase_number}")
        given = self.rolled_back(number)
        self.result.behaviours["rollback gave a seat back"] += len(given)
        if set(game.settings.open_seats()) != self.open:
            self.fail(
                "rollback did not give back the seats the count opened",
                f"open seats {sorted(game.settings.open_seats())}, expected {sorted(self.open)} (given back {given})",
            )
        for civ in given:
            player = game.settings.player(civ)
            if player is None or player.open or player.email != self.emails[civ]:
                self.fail("rollback did not give the seat back to its player", f"{civ}: {player}")
        self.check_ledger(game)
        self.adjudicated(f"adjudicate{' --force' if force else ''} (again, after the rollback)", force, dice)
        again = self.snapshot(number)
        differ = sorted(name for name in first.keys() | again.keys() if first.get(name) != again.get(name))
        if differ:
            self.fail("adjudicating a rolled-back phase again gave other files", "\n".join(differ))
        game = self.game()
        counted = {k: self.result.behaviours[k] for k in ("seat opened by count", "player warned")}
        self.check_seats(game, number, expected, self.history(number))
        for kind, count in counted.items():  # the first adjudication counted them
            self.result.behaviours[kind] = count
        return game

    def final_checks(self) -> None:
        self.replay()
        if self.logged():
            self.fail("an internal error was logged", self.logged())
        game = self.game()
        if self.result.adjudications:
            self.check_reports(game, game.phase_number - 1, every=True)
        dice = self.call("verify-dice", commands.verify_dice, self.path)
        if not dice.ok:
            self.fail("dice verification failed", dice.text)
        if self.result.adjudications:
            self.call("send --dry-run", commands.send_reports, self.path, True)
            self.check_site(game)
        self.call("remind --dry-run", commands.send_reminders, self.path, True)
        self.call("board show", commands.board_show, None, self.p.ruleset)
        secrets = [(civ, self.secrets[civ]) for civ in self.p.civs if civ not in self.open]
        secrets += [(f"{address} (who left {civ})", secret) for civ, address, secret in self.former]
        for path in sorted(self.path.rglob("*")):
            if not path.is_file() or path.name == "secrets.toml" or "inbox" in path.relative_to(self.path).parts:
                continue
            data = path.read_bytes()
            leaked = [who for who, secret in secrets if secret.encode() in data]
            welcome = ".welcome." in path.name or ".substitute." in path.name  # at `new`, or a substitute's
            if welcome and "outbox" in path.parts and len(leaked) <= 1:
                if path.stat().st_mode & 0o077:
                    self.fail("a welcome mail is readable by others", f"{path.relative_to(self.path)}")
                continue  # the player's own secret, in the mail that tells him, readable by the moderator only
            if leaked:
                self.fail("a password got into a file", f"{path.relative_to(self.path)} holds the password of {leaked}")

    def check_site(self, game: Game) -> None:
        """The game's own site was kept up to date through every adjudication and rollback: a
        rebuild finds nothing to write, its dice verify, and it shows no player's address."""
        folder = site_folder(game)
        if folder is None:
            return
        again = self.call("site", build_site, game, folder)
        if again.written:
            self.fail("adjudicate left the campaign site out of date", f"a rebuild wrote {list(again.written)}")
        _, problems = check_published(json.loads((folder / "dice.json").read_text(encoding="utf-8")))
        if problems:
            self.fail("the site's dice do not verify", "\n".join(problems))
        for path in sorted(folder.rglob("*")):
            if path.is_file() and b"@example.org" in path.read_bytes():
                self.fail("the site shows a player's address", str(path.relative_to(folder)))


@dataclass
class Post:
    """A text a player sent: by `submit`, or as a forum post or a mail for `collect --from`."""

    civ: str
    text: str
    kind: str  # submit | post | mail | late mail
    counts: bool  # False: it must change nothing (a mail with a wrong password, orders for another game)
    empty: bool = False  # no order line at all
    file: str = ""  # its name in the folder `collect --from` reads
    sender: str = ""  # a mail's address, when not the seat's holder's (a player who left it)


EMPTY_TEXTS = (  # no order line at all; the same words may come in many phases
    "power {civ}\n",
    "{marker}\npower {civ}\n\n# nothing this time\n",
    "{marker}\npower {civ}\npassword {secret}\n",
    "power {civ}\n> build legion in Roma\n> offer tax\n--\nregards\n",
    "{marker}\npower {civ}\n   \n\t\n",
)


def play_game(params: Params, folder: Path) -> GameResult:
    """Play and check one game in `folder` (which must be empty); raises SoakFailure."""
    return Soak(params, folder).play()


# ---- many games -----------------------------------------------------------------------------


def seeds(games: int, first: int = 1) -> list[int]:
    return list(range(first, first + games))


def run_one(seed: int, keep: Path | None = None, lang: str | None = None) -> GameResult:
    """One game in a fresh folder (kept under `keep`, else deleted); a failure is in the result."""
    params = Params.from_seed(seed, lang)
    started, cpu = time.monotonic(), time.process_time()
    with contextlib.ExitStack() as stack:
        if keep is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"soak-{seed}-")))
        else:
            folder = keep / f"seed-{seed}"
            if folder.exists():
                raise SystemExit(f"{folder} exists already; give --keep a new folder")
            folder.mkdir(parents=True)
        try:
            result = play_game(params, folder)
        except SoakFailure as failure:
            result = failure.result or GameResult(seed, str(params) + params.seats_text, params.ruleset)
            result.failure, result.signature = str(failure), failure.signature
    result.seconds, result.cpu = time.monotonic() - started, time.process_time() - cpu
    return result


def run_games(
    seed_list: list[int],
    jobs: int,
    keep: Path | None = None,
    progress: Callable[[GameResult], None] | None = None,
    lang: str | None = None,
) -> list[GameResult]:
    """Every game, on `jobs` processes; the results in seed order."""
    if jobs <= 1:
        results = []
        for seed in seed_list:
            results.append(run_one(seed, keep, lang))
            if progress:
                progress(results[-1])
        return results
    # Spawned, not forked: the calling process (pytest) may run threads, such as the mail tests' servers.
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(run_one, seed, keep, lang) for seed in seed_list]
        for future in futures:
            if progress:
                progress(future.result())
        return [future.result() for future in futures]


def summary(results: list[GameResult], seconds: float) -> str:
    """Counts, timings, what was exercised, and each kind of failure once with its seeds."""
    failed = [r for r in results if r.failure]
    phases = sum(r.adjudications for r in results)
    slowest = max(results, key=lambda r: r.seconds, default=None)
    empires = sum(1 for r in results if r.ruleset == EMPIRES)
    mediterraneum = sum(1 for r in results if r.ruleset == MEDITERRANEUM)
    lines = [
        f"{len(results)} games ({empires} of Empires, {mediterraneum} of Mediterraneum), {phases} adjudications, "
        f"{len(failed)} failed, "
        f"in {seconds:.1f} s "
        f"({sum(r.cpu for r in results):.1f} s of processor time; slowest game: seed "
        f"{slowest.seed if slowest else '-'}, {slowest.seconds if slowest else 0:.1f} s); "
        f"{sum(1 for r in results if r.winner)} ended with a winner",
    ]
    behaviours: Counter[str] = sum((r.behaviours for r in results), Counter())
    lines.append("behaviours: " + ", ".join(f"{k} {n}" for k, n in behaviours.most_common()))
    seat_games = sum(1 for r in results if " out from phase " in r.params)  # Params.seats_text
    lines.append(
        f"seats (issue 32), in {seat_games} games with dropouts: "
        + ", ".join(f"{k} {behaviours[k]}" for k in SEAT_BEHAVIOURS)
    )
    events: Counter[str] = sum((r.events for r in results), Counter())
    if events:
        lines.append("Mediterraneum events: " + ", ".join(f"{k} {n}" for k, n in events.most_common()))
    refusals: Counter[str] = sum((r.refusals for r in results), Counter())
    lines += ["legitimate refusals:"] + [f"  {n:5d}  {k}" for k, n in refusals.most_common(12)]
    groups: dict[str, list[GameResult]] = {}
    for result in failed:
        groups.setdefault(result.signature or "?", []).append(result)
    for signature, group in sorted(groups.items(), key=lambda item: -len(item[1])):
        lines += ["", f"=== {len(group)} game(s): {signature}", f"    seeds: {', '.join(str(r.seed) for r in group)}"]
        lines.append(str(group[0].failure))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--seed", type=int, help="play only this seed")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--keep", type=Path, help="keep every game folder under this folder")
    parser.add_argument("--ruleset", help="play only the seeds' games of this ruleset (e.g. mediterraneum)")
    parser.add_argument("--lang", help="play every game in this language (pl, hu, fr, es; default: LANGS by seed)")
    args = parser.parse_args(argv)
    seed_list = [args.seed] if args.seed is not None else seeds(args.games, args.first)
    if args.ruleset:
        seed_list = [seed for seed in seed_list if Params.from_seed(seed).ruleset == args.ruleset]
    started = time.monotonic()

    def progress(result: GameResult) -> None:
        state = "FAIL " + (result.signature or "") if result.failure else "ok"
        print(
            f"seed {result.seed:6d}  {result.seconds:6.1f} s ({result.cpu:5.1f} s cpu)  "
            f"{result.adjudications:3d} phases  {RULESET_LETTERS.get(result.ruleset, ' ')}  {state}",
            flush=True,
        )

    results = run_games(seed_list, 1 if args.seed is not None else args.jobs, args.keep, progress, args.lang)
    print(summary(results, time.monotonic() - started))
    return 1 if any(r.failure for r in results) else 0


def _without_moment(data: bytes) -> bytes:
    """A history file without the moment its phase opened: a redo records its own moment, as
    any command does; everything else it writes must be the same."""
    return re.sub(rb"(?m)^opened = .*\n", b"", data)


if __name__ == "__main__":
    sys.exit(main())
