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


INTERNAL_ERROR_EXIT = 3  # a bug, as opposed to 1: the moderator asked for something that cannot be done


def _friendly(command: Callable[P, Outcome]) -> Callable[P, None]:
    """Print the outcome; turn our errors into one line on stderr and exit code 1, and any
    other error (a bug) into one line naming a log file with the details, and exit code 3."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        from adjudicator.core.errors import AdjudicatorError

        try:
            outcome = command(*args, **kwargs)
        except AdjudicatorError as error:
            _print_error(f"error: {error}")
            raise typer.Exit(1) from None
        except Exception as error:
            from adjudicator.core.crashlog import one_line, write_crash_log

            directory = kwargs.get("directory")
            log = write_crash_log(directory if isinstance(directory, Path) else None, error)
            _print_error(f"internal error: {one_line(error)}; details in {log}")
            raise typer.Exit(INTERNAL_ERROR_EXIT) from None
        if outcome.text:
            _print(outcome.text.rstrip("\n"))
        if not outcome.ok:
            raise typer.Exit(1)

    return run


def _started(context: typer.Context) -> float:
    """When the moderator ran this command: noted by the `adjudicator` executable before its
    imports (adjudicator/__main__.py), else now (the CLI called in-process, as tests do)."""
    import time

    root = context.find_root()
    started = root.obj.get("started") if isinstance(root.obj, dict) else None
    return started if isinstance(started, float) else time.time()


def _print(text: str) -> None:
    """A line or more for the moderator's terminal, which no player's text (an order line, a
    mail's subject, a name) may give an escape code, a bell or a carriage return."""
    from adjudicator.core.controls import without_controls

    typer.echo(without_controls(text))


def _print_error(text: str) -> None:
    from rich.console import Console

    from adjudicator.core.controls import without_controls

    # no markup and no emoji: Rich would make `CIV:EMAIL:SECRET` read `CIV✉SECRET`
    Console(stderr=True, soft_wrap=True, highlight=False, emoji=False).print(without_controls(text), markup=False)


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
@_friendly
def set_lang(
    directory: GameDir,
    language: Annotated[str, typer.Argument(help="en, pl, hu, fr or es.")],
    power: Annotated[str | None, typer.Option("--power", "-p", help="One player's (else the game's).")] = None,
    timezone: Annotated[
        str | None, typer.Option("--timezone", "-z", help="And the time zone deadlines are shown in (Europe/Warsaw).")
    ] = None,
) -> Outcome:
    """Set the language a player reads (receipts, reports, forms), or the game's public reports'."""
    from adjudicator.commands import set_language

    return set_language(directory, power, language, timezone)


@app.command()
@_friendly
def state(
    directory: GameDir,
    *,
    json: Annotated[bool, typer.Option("--json", help="The stable JSON shape.")] = False,
) -> Outcome:
    """Show the current position."""
    from adjudicator.commands import state as show_state

    return show_state(directory, as_json=json)


@app.command()
@_friendly
def status(directory: GameDir) -> Outcome:
    """Show the phase, the deadline and who has submitted orders."""
    from adjudicator.commands import status as show_status

    return show_status(directory)


@app.command()
@_friendly
def check(
    directory: GameDir,
    file: Annotated[str, typer.Argument(help="The orders file, or - for standard input.")],
    *,
    power: PowerOption = None,
    vouch: VouchOption = False,
) -> Outcome:
    """Check orders against the position without storing them (exit 1 on any error)."""
    from adjudicator.commands import check_orders

    return check_orders(directory, file, power, vouch)


@app.command()
@_friendly
def submit(
    directory: GameDir,
    file: Annotated[str, typer.Argument(help="The orders file, or - for standard input.")],
    *,
    power: PowerOption = None,
    vouch: VouchOption = False,
) -> Outcome:
    """Enter a player's orders for this phase, replacing his earlier ones."""
    from adjudicator.commands import submit_orders

    return submit_orders(directory, file, power, vouch)


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
) -> Outcome:
    """Resolve the current phase (or step) and write its reports."""
    from adjudicator.commands import adjudicate_phase

    return adjudicate_phase(directory, dice, force, started=_started(context), all_defaults=all_defaults)


@app.command()
@_friendly
def report(
    directory: GameDir,
    *,
    phase: Annotated[
        str | None, typer.Option(help="Phase number or name, e.g. 6 or 006-T02-military (default: the last).")
    ] = None,
    format: Annotated[
        str, typer.Option("--format", "-f", help="txt, md, bbcode or html; png writes the map as a picture.")
    ] = "txt",
    power: PowerOption = None,
    map_url: Annotated[
        str | None,
        typer.Option("--map-url", help="Where reports/ (public pages) is published, for this report only (see new)."),
    ] = None,
) -> Outcome:
    """Print the public report of a phase, or with --power a player's private report."""
    from adjudicator.commands import show_report

    return show_report(directory, phase, format, power, map_url)


@app.command()
@_friendly
def site(
    directory: GameDir,
    out: Annotated[
        Path | None, typer.Argument(help="The site's folder (default: [game] site in game.toml).", show_default=False)
    ] = None,
) -> Outcome:
    """Write the campaign site: every phase's map and report, standings, the dice proof."""
    from adjudicator.commands import build_site

    return build_site(directory, out)


@app.command()
@_friendly
def replay(directory: GameDir) -> Outcome:
    """Re-run every phase from history and prove the same positions and events."""
    from adjudicator.commands import replay_game

    return replay_game(directory)


@app.command()
@_friendly
def rollback(
    directory: GameDir,
    *,
    to: Annotated[int, typer.Option("--to", help="The phase number to make current again (see history/).")],
) -> Outcome:
    """Go back to an earlier phase; later files are moved aside, never deleted."""
    from adjudicator.commands import rollback_game

    return rollback_game(directory, to)


@app.command()
@_friendly
def collect(
    directory: Annotated[Path, typer.Argument(help="A game directory, or a folder of games sharing one inbox.")],
    *,
    imap: Annotated[bool, typer.Option("--imap", help="Read the mailbox set in [intake.imap].")] = False,
    from_folder: Annotated[
        Path | None, typer.Option("--from", help="Read *.eml and *.txt files in this folder.")
    ] = None,
) -> Outcome:
    """Collect orders by mail or from files, store them, and answer each with a receipt."""
    from adjudicator.commands import collect_mail

    return collect_mail(directory, imap, from_folder)


@app.command()
@_friendly
def send(
    directory: GameDir,
    *,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only write the mails as .eml files.")] = False,
) -> Outcome:
    """Mail the last phase's private reports to the players and the public one to the list."""
    from adjudicator.commands import send_reports

    return send_reports(directory, dry_run)


@app.command()
@_friendly
def remind(
    directory: GameDir,
    *,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only write the mails as .eml files.")] = False,
) -> Outcome:
    """Remind the players whose orders are still missing."""
    from adjudicator.commands import send_reminders

    return send_reminders(directory, dry_run)


@app.command()
@_friendly
def deadline(
    directory: GameDir,
    when: Annotated[str, typer.Argument(help=f"e.g. {example_moment()} (in the game's time zone) or with an offset.")],
) -> Outcome:
    """Set the deadline of the phase now open."""
    from adjudicator.commands import set_deadline

    return set_deadline(directory, when)


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

    return run_games(directory, watch, poll, _print)


@app.command()
@_friendly
def pause(
    directory: GameDir,
    *,
    reason: Annotated[str, typer.Option(help="Why, for the players who ask 'status'.")] = "",
) -> Outcome:
    """Stop 'adjudicator run' adjudicating this game (its mail is still read and answered)."""
    from adjudicator.commands import pause_game

    return pause_game(directory, reason)


@app.command()
@_friendly
def resume(directory: GameDir) -> Outcome:
    """Let 'adjudicator run' adjudicate this game again (after a pause, or a failed pass)."""
    from adjudicator.commands import resume_game

    return resume_game(directory)


@app.command("accept-late")
@_friendly
def accept_late(directory: GameDir, power: Annotated[str, typer.Argument(help="The civilization.")]) -> Outcome:
    """Let a player's late orders count for the phase now open."""
    from adjudicator.commands import accept_late as accept

    return accept(directory, power)


@app.command()
@_friendly
def rules(
    number: Annotated[str | None, typer.Argument(help="A rule number as messages cite it, e.g. R6.4 or D5.")] = None,
    *,
    ruleset: RulesetOption = None,
    lang: Annotated[str, typer.Option("--lang", help="In pl, hu, fr or es where the page is translated.")] = "en",
) -> Outcome:
    """Print the rules, or the one rule a message cites (to paste to a player)."""
    from adjudicator.commands import show_rules

    return show_rules(number, ruleset, lang)


@app.command("verify-dice")
@_friendly
def verify_dice(directory: GameDir) -> Outcome:
    """Recompute every revealed roll from its seed and check the seeds against the commitment."""
    from adjudicator.commands import verify_dice as verify

    return verify(directory)


@app.command()
@_friendly
def demo(
    directory: Annotated[Path | None, typer.Argument(help="A new folder (default: a temporary one).")] = None,
    *,
    ruleset: RulesetOption = None,
    lang: Annotated[
        str, typer.Option("--lang", help="Play it in en, pl, hu, fr or es: orders written and reports read in it.")
    ] = "en",
) -> Outcome:
    """Play the shipped example game into a fresh folder and show where everything is."""
    from adjudicator.commands import demo as run_demo

    return run_demo(directory, ruleset, lang)


@board_app.command("check")
@_friendly
def board_check(
    file: Annotated[Path | None, typer.Argument(help="A board file (default: the shipped board).")] = None,
    *,
    ruleset: RulesetOption = None,
) -> Outcome:
    """Check a board: symmetric adjacency, reachability, names, setups."""
    from adjudicator.commands import board_check as check_board

    return check_board(file, ruleset)


@board_app.command("show")
@_friendly
def board_show(
    file: Annotated[Path | None, typer.Argument(help="A board file (default: the shipped board).")] = None,
    *,
    ruleset: RulesetOption = None,
) -> Outcome:
    """Show a board's provinces, seas and setups, with where each fact comes from."""
    from adjudicator.commands import board_show as show_board

    return show_board(file, ruleset)
