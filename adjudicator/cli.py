"""The moderator's command line: argument parsing and printing only.

Every command calls one function in `adjudicator.commands`, imported inside the command so
that `adjudicator --help` stays fast.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from adjudicator.console import finish, print_text
from adjudicator.dispatch import Call
from adjudicator.game.schedule import example_moment
from adjudicator.outcome import Outcome

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    rich_markup_mode=None,  # help texts print literally: "[intake.imap]" is a table name, not markup
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_show_locals=False,
    help="Adjudicate board games played by email and on forums, each by the rules of its ruleset.",
)
board_app = typer.Typer(help="Check or show a board file.")


@board_app.callback(invoke_without_command=True)
def _board(context: typer.Context) -> None:
    """Check or show a board file."""
    if context.invoked_subcommand is None:
        typer.echo(context.get_help())


def _show_version(wanted: bool) -> None:
    if wanted:
        from adjudicator import __version__

        typer.echo(f"adjudicator {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _options(
    context: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Adjudicate board games played by email and on forums, each by the rules of its ruleset."""
    if context.invoked_subcommand is None:  # `adjudicator` alone: what it can do
        typer.echo(context.get_help())


app.add_typer(board_app, name="board")

GameDir = Annotated[Path, typer.Argument(help="The game directory.", show_default=False)]
OrdersFile = Annotated[str, typer.Argument(help="The orders file, or - for standard input.")]
PowerOption = Annotated[str | None, typer.Option("--power", "-p", help="Whose orders (else the 'power' line).")]
VouchOption = Annotated[
    bool,
    typer.Option(
        "--vouch",
        help="You took these orders from the player yourself: no 'password' line needed (a wrong one is refused).",
    ),
]
RulesetOption = Annotated[
    str | None,
    typer.Option(
        "--ruleset", help="The ruleset by name or alias (default: the first the adjudicator knows).", show_default=False
    ),
]
MapUrlOption = Annotated[
    str,
    typer.Option(
        "--map-url",
        help="Where the game's reports/ folder (public pages only: publish it whole) or its site is published, "
        "e.g. https://example.org/game1: the BBCode and Markdown reports then show each phase's map.png from "
        "there. The players' own reports are in private/: never publish that.",
    ),
]


CALLS: dict[object, Call] = {}  # each declared command function and the call it makes


def _friendly(command: Callable[P, Outcome]) -> Callable[P, None]:
    """Print the outcome and exit as `console.finish` says (one line for an error, a log file
    for a bug)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        _finish(lambda: command(*args, **kwargs), kwargs.get("directory"))

    return run


def _runs(target: str, **renamed: str) -> Callable[[Callable[P, None]], Callable[P, None]]:
    """The command calls `module:function` with its parameters by name (`renamed`: a parameter
    the function calls otherwise). The declared function gives Typer the options and the help;
    its body is never run. Typer and the quick way in (adjudicator/dispatch.py) make this one
    call, so a command does the same whichever way it came."""
    call = Call(target, renamed)

    def declare(declared: Callable[P, None]) -> Callable[P, None]:
        CALLS[declared] = call

        @functools.wraps(declared)
        def run(*args: P.args, **kwargs: P.kwargs) -> None:
            _finish(lambda: call(kwargs), kwargs.get("directory"))

        return run

    return declare


def _finish(command: Callable[[], Outcome], directory: object) -> None:
    """Typer's end of `console.finish`: its exit code, when not 0, as Typer's exit."""
    code = finish(command, directory)
    if code:
        raise typer.Exit(code)


def _started(context: typer.Context) -> float:
    """When the moderator ran this command: noted by the `adjudicator` executable before its
    imports (adjudicator/__main__.py), else now (the CLI called in-process, as tests do)."""
    import time

    root = context.find_root()
    started = root.obj.get("started") if isinstance(root.obj, dict) else None
    return started if isinstance(started, float) else time.time()


@app.command()
@_friendly
def new(
    directory: GameDir,
    *,
    player: Annotated[
        list[str], typer.Option("--player", help="CIV:EMAIL or CIV:EMAIL:SECRET, once per player (3 to 5).")
    ],
    position: Annotated[
        Path | None, typer.Option(help="Start from this position (TOML or JSON) instead of the basic setup.")
    ] = None,
    mode: Annotated[str, typer.Option(help="batch (all sequential orders due together) or stepwise.")] = "batch",
    board: Annotated[Path | None, typer.Option(help="A board file of your own instead of the shipped one.")] = None,
    game_id: Annotated[str | None, typer.Option("--id", help="Game id (default: the directory's name).")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="A ruleset option KEY=VALUE, e.g. setup=advanced.")
    ] = None,
    ruleset: RulesetOption = None,
    map_url: MapUrlOption = "",
    site: Annotated[
        Path | None,
        typer.Option(help="Keep a campaign site in this folder (relative to the game), rebuilt after every phase."),
    ] = None,
    lang: Annotated[
        str, typer.Option(help="The language of the public reports and of players who choose none: en, pl, hu, fr, es.")
    ] = "en",
    player_lang: Annotated[
        list[str] | None, typer.Option("--player-lang", help="CIV=LANG: the language one player reads, e.g. Rome=pl.")
    ] = None,
) -> Outcome:
    """Create a game: its ruleset's opening setup, or a given position.

    Each phase's public reports go to reports/ in the game directory, the folder to publish (see
    --map-url); each player's own report (his hand, his orders) goes to private/, for you only."""
    from adjudicator.commands import create_game

    return create_game(
        directory,
        player,
        position=position,
        mode=mode,
        board=board,
        game_id=game_id,
        ruleset=ruleset,
        options=option,
        map_url=map_url,
        site=site,
        lang=lang,
        player_langs=player_lang,
    )


@app.command("lang")
@_runs("adjudicator.commands:set_language", language="lang", power="civ", timezone="zone")
def set_lang(
    directory: GameDir,
    language: Annotated[str, typer.Argument(help="en, pl, hu, fr or es.")],
    power: Annotated[str | None, typer.Option("--power", "-p", help="One player's (else the game's).")] = None,
    timezone: Annotated[
        str | None, typer.Option("--timezone", "-z", help="And the time zone deadlines are shown in (Europe/Warsaw).")
    ] = None,
) -> None:
    """Set the language a player reads (receipts, reports, forms), or the game's public reports'."""


@app.command()
@_runs("adjudicator.commands:state", json="as_json")
def state(
    directory: GameDir,
    *,
    json: Annotated[bool, typer.Option("--json", help="The stable JSON shape.")] = False,
) -> None:
    """Show the current position."""


@app.command()
@_runs("adjudicator.commands:status")
def status(directory: GameDir) -> None:
    """Show the phase, the deadline and who has submitted orders."""


@app.command()
@_runs("adjudicator.commands:check_orders")
def check(
    directory: GameDir,
    file: OrdersFile,
    *,
    power: PowerOption = None,
    vouch: VouchOption = False,
) -> None:
    """Check orders against the position without storing them (exit 1 on any error)."""


@app.command()
@_runs("adjudicator.commands:preview_orders")
def preview(
    directory: GameDir,
    file: OrdersFile,
    *,
    power: PowerOption = None,
    vouch: VouchOption = False,
) -> None:
    """Try a player's orders alone on the position now, with fresh dice: what would happen, nothing stored."""


@app.command()
@_runs("adjudicator.commands:submit_orders")
def submit(
    directory: GameDir,
    file: OrdersFile,
    *,
    power: PowerOption = None,
    vouch: VouchOption = False,
) -> None:
    """Enter a player's orders for this phase, replacing his earlier ones."""


@app.command()
@_friendly
def adjudicate(
    context: typer.Context,
    directory: GameDir,
    *,
    dice: Annotated[str | None, typer.Option(help="Rolls from an external dice server, in order: 6,3,2,…")] = None,
    force: Annotated[bool, typer.Option(help="Adjudicate now; missing players get default orders.")] = False,
    all_defaults: Annotated[
        bool, typer.Option(help="With --force: adjudicate even though nobody has sent orders (all play defaults).")
    ] = False,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Show this phase's public report as it would be now (defaults for missing orders); save nothing.",
        ),
    ] = False,
) -> Outcome:
    """Resolve the current phase (or step) and write its reports."""
    from adjudicator.commands import adjudicate_phase, dry_run_phase

    if dry_run:
        return dry_run_phase(directory, dice)
    return adjudicate_phase(directory, dice, force, started=_started(context), all_defaults=all_defaults)


@app.command()
@_runs("adjudicator.commands:show_report", format="fmt")
def report(
    directory: GameDir,
    *,
    phase: Annotated[
        str | None, typer.Option(help="Phase number or name, e.g. 6 or 006-T02-military (default: the last).")
    ] = None,
    format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="txt, md, bbcode, html or chat (as posted); png: the map picture; with --power, html: his order page.",
        ),
    ] = "txt",
    power: PowerOption = None,
    map_url: Annotated[
        str | None,
        typer.Option("--map-url", help="Where reports/ (public pages) is published, for this report only (see new)."),
    ] = None,
) -> None:
    """Print the public report of a phase, or with --power a player's private report (or his order page)."""


@app.command()
@_runs("adjudicator.commands:build_site")
def site(
    directory: GameDir,
    out: Annotated[
        Path | None, typer.Argument(help="The site's folder (default: [game] site in game.toml).", show_default=False)
    ] = None,
) -> None:
    """Write the campaign site: every phase's map and report, standings, the dice proof."""


@app.command()
@_runs("adjudicator.commands:replay_game")
def replay(directory: GameDir) -> None:
    """Re-run every phase from history and prove the same positions and events."""


@app.command()
@_runs("adjudicator.commands:rollback_game")
def rollback(
    directory: GameDir,
    *,
    to: Annotated[int, typer.Option("--to", help="The phase number to make current again (see history/).")],
) -> None:
    """Go back to an earlier phase; later files are moved aside, never deleted."""


@app.command()
@_runs("adjudicator.commands:collect_mail", from_folder="folder")
def collect(
    directory: Annotated[Path, typer.Argument(help="A game directory, or a folder of games sharing one inbox.")],
    *,
    imap: Annotated[bool, typer.Option("--imap", help="Read the mailbox set in [intake.imap].")] = False,
    from_folder: Annotated[
        Path | None, typer.Option("--from", help="Read *.eml and *.txt files in this folder.")
    ] = None,
) -> None:
    """Collect orders by mail or from files, store them, and answer each with a receipt."""


@app.command()
@_runs("adjudicator.commands:send_reports")
def send(
    directory: GameDir,
    *,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only write the mails as .eml files.")] = False,
) -> None:
    """Mail the last phase's private reports to the players and the public one to the list."""


@app.command()
@_runs("adjudicator.commands:notify_game")
def notify(
    directory: GameDir,
    *,
    test: Annotated[bool, typer.Option("--test", help="Post a test to each destination; say which took it.")] = False,
    retry: Annotated[bool, typer.Option("--retry", help="Take parked destinations up again.")] = False,
    resend: Annotated[bool, typer.Option("--resend", help="Queue again the posts cut off mid-send.")] = False,
) -> None:
    """Post the last phase's report and what waits to the game's [[notify]] destinations (Discord, Matrix, …)."""


@app.command()
@_runs("adjudicator.commands:send_reminders")
def remind(
    directory: GameDir,
    *,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only write the mails as .eml files.")] = False,
) -> None:
    """Remind the players whose orders are still missing."""


@app.command()
@_runs("adjudicator.commands:set_deadline")
def deadline(
    directory: GameDir,
    when: Annotated[str, typer.Argument(help=f"e.g. {example_moment()} (in the game's time zone) or with an offset.")],
) -> None:
    """Set the deadline of the phase now open."""


@app.command()
@_friendly
def run(
    directory: Annotated[Path, typer.Argument(help="A game directory, or a folder of games sharing intake.toml.")],
    *,
    watch: Annotated[
        bool, typer.Option("--watch", help="Stay up: a pass on new mail (IMAP IDLE) and when something is due.")
    ] = False,
    poll: Annotated[float, typer.Option(help="With --watch: a pass at least this often (seconds).")] = 60.0,
) -> Outcome:
    """One pass: collect, adjudicate what is due, send reports and reminders (for cron or a timer)."""
    from adjudicator.commands import run_games

    return run_games(directory, watch, poll, print_text)


@app.command()
@_runs("adjudicator.commands:pause_game")
def pause(
    directory: GameDir,
    *,
    reason: Annotated[str, typer.Option(help="Why, for the players who ask 'status'.")] = "",
) -> None:
    """Stop 'adjudicator run' adjudicating this game (its mail is still read and answered)."""


@app.command()
@_runs("adjudicator.commands:resume_game")
def resume(directory: GameDir) -> None:
    """Let 'adjudicator run' adjudicate this game again (after a pause, or a failed pass)."""


@app.command()
@_runs("adjudicator.commands:seat_player")
def seat(
    directory: GameDir,
    civ: Annotated[str, typer.Argument(help="The civilization whose seat it is.")],
    *,
    player: Annotated[
        str | None, typer.Option("--player", help="EMAIL or EMAIL:NAME: give the open seat to this player.")
    ] = None,
    vacate: Annotated[
        bool, typer.Option("--open", help="Open the seat: its player has left (his secret stops working at once).")
    ] = False,
) -> None:
    """Give an open seat to a substitute (a new secret, and a welcome that catches him up), or open one."""


@app.command()
@_runs("adjudicator.commands:show_players")
def players(
    directory: Annotated[Path, typer.Argument(help="A game directory, or a folder of games.")],
) -> None:
    """Each player's record across the games: seats held, phases played and missed, time to send orders."""


@app.command("accept-late")
@_runs("adjudicator.commands:accept_late")
def accept_late(directory: GameDir, power: Annotated[str, typer.Argument(help="The civilization.")]) -> None:
    """Let a player's late orders count for the phase now open."""


@app.command()
@_runs("adjudicator.commands:show_rules", ruleset="ruleset_name")
def rules(
    number: Annotated[str | None, typer.Argument(help="A rule number as messages cite it, e.g. R6.4 or D5.")] = None,
    *,
    ruleset: RulesetOption = None,
    lang: Annotated[str, typer.Option("--lang", help="In pl, hu, fr or es where the page is translated.")] = "en",
) -> None:
    """Print the rules, or the one rule a message cites (to paste to a player)."""


@app.command("verify-dice")
@_runs("adjudicator.commands:verify_dice")
def verify_dice(directory: GameDir) -> None:
    """Recompute every revealed roll from its seed and check the seeds against the commitment."""


@app.command()
@_runs("adjudicator.commands:demo")
def demo(
    directory: Annotated[Path | None, typer.Argument(help="A new folder (default: a temporary one).")] = None,
    *,
    ruleset: RulesetOption = None,
    lang: Annotated[
        str, typer.Option("--lang", help="Play it in en, pl, hu, fr or es: orders written and reports read in it.")
    ] = "en",
) -> None:
    """Play the shipped example game into a fresh folder and show where everything is."""


@board_app.command("check")
@_runs("adjudicator.commands:board_check", ruleset="ruleset_name")
def board_check(
    file: Annotated[Path | None, typer.Argument(help="A board file (default: the shipped board).")] = None,
    *,
    ruleset: RulesetOption = None,
) -> None:
    """Check a board: symmetric adjacency, reachability, names, setups."""


@board_app.command("show")
@_runs("adjudicator.commands:board_show", ruleset="ruleset_name")
def board_show(
    file: Annotated[Path | None, typer.Argument(help="A board file (default: the shipped board).")] = None,
    *,
    ruleset: RulesetOption = None,
) -> None:
    """Show a board's provinces, seas and setups, with where each fact comes from."""
