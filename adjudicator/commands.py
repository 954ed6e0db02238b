"""What each CLI command does, as functions that return the text to print.

The CLI only parses arguments and prints; everything it shows is made here, so every
command can be tested without a terminal and reused by other front ends.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.core.controls import control_character
from adjudicator.core.errors import BoardError, DataError, GameFileError, UsageError
from adjudicator.core.i18n import LANGUAGES, SOURCE, check_language
from adjudicator.core.passwords import without_secret
from adjudicator.core.resources import shipped_folder
from adjudicator.game.directory import GameDirectory, game_lock
from adjudicator.game.game import Game, default_board_path, load_board
from adjudicator.game.players import PlayerSpec, SecretChecks, parse_player_spec
from adjudicator.game.schedule import check_zone
from adjudicator.game.settings import Settings
from adjudicator.game.storage import PRIVATE, read_toml, write_toml_atomic
from adjudicator.game.submissions import (
    CheckedSubmission,
    MissingPower,
    check_password,
    check_submission,
    store_submission,
    submitted,
)
from adjudicator.outcome import Outcome
from adjudicator.rulesets import Ruleset, find_ruleset

if TYPE_CHECKING:
    from adjudicator.reports.render import Renderer


def read_orders_file(file: str) -> str:
    """The order text of a file, or of standard input for `-`, read as `collect` reads it: a
    mail saved as .eml as a mailed one (its text part or attachment), anything else as a saved
    forum post (BBCode, quotes; plain text stays as it is); UTF-8, else Latin-1."""
    raw = sys.stdin.buffer.read() if file == "-" else _read_bytes(Path(file))
    if file.lower().endswith(".eml"):
        from adjudicator.intake.mail import MailRejected
        from adjudicator.intake.receive import UnreadableMail, read_mail

        try:
            return read_mail(raw).text
        except (MailRejected, UnreadableMail) as error:
            raise UsageError(f"{file}: {error}") from None
    from adjudicator.intake.forum import post_text

    try:
        return post_text(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return post_text(raw.decode("latin-1"))


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder; give the orders file") from None


def create_game(
    path: Path,
    players: list[str],
    *,
    position: Path | None,
    mode: str,
    board: Path | None,
    game_id: str | None,
    ruleset: str | None,
    options: list[str] | None = None,
    map_url: str = "",
    site: Path | None = None,
    lang: str = SOURCE,
    player_langs: list[str] | None = None,
) -> Outcome:
    specs = with_languages([parse_player_spec(p) for p in players], player_langs or [])
    chosen: dict[str, str | list[str]] = {}
    for text in options or []:
        key, equals, value = text.partition("=")
        if not equals or not key.strip():
            raise UsageError(
                f"'{text}' is not KEY=VALUE; give each option as --option KEY=VALUE (the ruleset's rules list them)"
            )
        earlier = chosen.get(key.strip())  # a key given again collects its values in a list
        if earlier is None:
            chosen[key.strip()] = value.strip()
        else:
            chosen[key.strip()] = [*([earlier] if isinstance(earlier, str) else earlier), value.strip()]
    game, secrets_by_civ = Game.create(
        path,
        specs,
        ruleset_name=ruleset,
        board_file=board,
        position_file=position,
        mode=mode,
        game_id=game_id,
        options=chosen,
        map_url=map_url,
        site=str(site) if site is not None else "",
        lang=lang,
    )
    from adjudicator.delivery.messages import deliver, welcome_messages

    mailed = deliver(game, welcome_messages(game, secrets_by_civ), "welcome", dry_run=False)
    created = _renderer(game.ruleset.name).render(
        "created.txt.j2", game=game, secrets=secrets_by_civ, state=game.state_data()
    )
    return Outcome(created + f"Welcome mails (each player's secret and first order form): {mailed}\n")


def state(directory: Path, as_json: bool) -> Outcome:
    game = Game.load(directory)
    data = game.state_data()
    if as_json:
        return Outcome(json.dumps(data, indent=2, ensure_ascii=False))
    return Outcome(
        _renderer(game.ruleset.name).render("state.txt.j2", state=data, names=game.ruleset.place_names(game.board))
    )


def status(directory: Path, now: datetime | None = None) -> Outcome:
    from adjudicator.delivery.posts import status_lines
    from adjudicator.game import seats
    from adjudicator.game.absences import load as load_absences
    from adjudicator.game.mail_settings import destinations_of
    from adjudicator.game.pause import paused
    from adjudicator.intake.flags import inbox_flags

    game = Game.load(directory)
    now = now or datetime.now(UTC)
    deadline = game.deadline()
    return Outcome(
        _renderer(game.ruleset.name).render(
            "status.txt.j2",
            pause=paused(game.directory.root),
            absences=[a for a in load_absences(game.directory.root) if a.end > now],
            flags=inbox_flags(game),
            deadline=deadline,
            schedule=game.settings.schedule,
            game=game,
            info=game.phase_info,
            submitted=submitted(game),
            now=now,
            remaining=(deadline - now) if deadline else None,
            playing=game.playing(),
            due=game.due(),
            neutral=[c for c in game.ruleset.civilizations(game.board) if c not in game.playing()],
            open_seats=game.settings.open_seats(),
            missing_players=[t for t in seats.load(game.directory).tenures if t.holding and t.missed],
            chat=status_lines(game.directory, [d.name for d in destinations_of(game)], now),
        )
    )


def check_orders(directory: Path, file: str, power: str | None, vouch: bool = False) -> Outcome:
    game = Game.load(directory)
    checked = _checked(game, read_orders_file(file), power)
    check_password(game, checked, vouch)
    return Outcome(_receipt(game, checked, None), ok=checked.errors == 0)


def preview_orders(directory: Path, file: str, power: str | None, vouch: bool = False) -> Outcome:
    """What a player's orders would do alone, as a `preview` mail answers (reports/preview.py)."""
    from adjudicator.reports.preview import preview_text

    game = Game.load(directory)
    checked = _checked(game, read_orders_file(file), power)
    check_password(game, checked, vouch)
    return Outcome(preview_text(game, checked), ok=checked.errors == 0)


def submit_orders(directory: Path, file: str, power: str | None, vouch: bool = False) -> Outcome:
    """Store a submission entered by the moderator; lines with errors are kept and reported. A
    file is read as `collect` reads it (`read_orders_file`), so both agree."""
    return submit_text(directory, read_orders_file(file), power, vouch)


def submit_text(
    path: Path, text: str, power: str | None, vouch: bool = False, checks: SecretChecks | None = None
) -> Outcome:
    """`vouch`: the moderator took these orders himself, so no password line is needed;
    `checks`: the secrets this run has checked already (the demo submits many texts)."""
    game = Game.load(path)
    with game_lock(game.directory):
        checked = _checked(game, text, power)
        check_password(game, checked, vouch, checks)
        stored = store_submission(game, checked, text, source="moderator (adjudicator submit)")
    shown = stored.relative_to(game.directory.root)
    return Outcome(_receipt(game, checked, shown), ok=checked.errors == 0)


def _checked(game: Game, text: str, power: str | None) -> CheckedSubmission:
    try:
        return check_submission(game, text, power)
    except MissingPower as error:
        raise MissingPower(f"{error}, or use --power") from None


def board_check(file: Path | None, ruleset_name: str | None) -> Outcome:
    ruleset = find_ruleset(ruleset_name)
    path = file or default_board_path(ruleset)
    try:
        board = load_board(ruleset, path)
    except BoardError as error:
        lines = "\n".join(f"  - {p}" for p in error.problems)
        return Outcome(f"{path}: {len(error.problems)} problem(s)\n{lines}", ok=False)
    except (GameFileError, DataError) as error:
        return Outcome(str(error), ok=False)
    names = ruleset.place_names(board)
    return Outcome(
        f"{path}: a sound board ({len(names)} places; adjacency symmetric, every place reachable, setups consistent)"
    )


def board_show(file: Path | None, ruleset_name: str | None) -> Outcome:
    ruleset = find_ruleset(ruleset_name)
    path = file or default_board_path(ruleset)
    board = load_board(ruleset, path)
    return Outcome(
        _renderer(ruleset.name).render("board.txt.j2", board=board, path=path, names=ruleset.place_names(board))
    )


def show_rules(number: str | None, ruleset_name: str | None, lang: str = SOURCE) -> Outcome:
    """The ruleset's rules (docs/), or the one clause a message cites, e.g. R6.4 or D5."""
    from adjudicator.reports.rulebook import rules_page, rules_text

    ruleset, lang = find_ruleset(ruleset_name), check_language(lang)
    if ruleset_name is None and number is not None:
        ruleset = _ruleset_citing(number) or ruleset
    if rules_page(ruleset, lang) is None:
        raise UsageError(
            f"the rules of {ruleset.title} are not translated into {LANGUAGES[lang]} yet; leave out --lang"
        )
    return Outcome(rules_text(ruleset, number, lang))


def _ruleset_citing(number: str) -> Ruleset[Any, Any, Any] | None:
    """The ruleset whose rules have this clause (`E8.3` is Empires'), so that `rules E8.3` needs
    no --ruleset; the first ruleset's when several have it."""
    from adjudicator.reports.rulebook import rules_text
    from adjudicator.rulesets import REGISTRY

    for name in REGISTRY:
        try:
            rules_text(REGISTRY[name], number, SOURCE)
        except UsageError:
            continue
        return REGISTRY[name]
    return None


def verify_dice(directory: Path) -> Outcome:
    game = Game.load(directory)
    checked, problems = game.verify_dice()
    if problems:
        return Outcome("dice verification FAILED:\n" + "\n".join(f"  - {p}" for p in problems), ok=False)
    return Outcome(
        f"{checked} roll(s) in {len(game.dice_records())} phase(s) recomputed from the revealed seeds; "
        f"all match the commitment {game.settings.commitment}"
    )


def demo(directory: Path | None, ruleset: str | None, lang: str = SOURCE) -> Outcome:
    """Play the shipped example game of a ruleset into a fresh folder: create it, then for each
    scripted phase enter every player's orders and adjudicate, as a moderator would. In another
    language the players write their orders with its keywords and read its reports."""
    from adjudicator.hosting.adjudication import adjudicate

    lang = check_language(lang)
    source = _demo_folder(find_ruleset(ruleset).name)
    spec = read_toml(source / "demo.toml")["game"]
    target = directory or Path(tempfile.mkdtemp(prefix="adjudicator-demo-")) / spec["id"]
    if target.exists() and any(target.iterdir()):
        raise UsageError(f"{target} is not empty; give a new folder for the demo game")
    specs = [parse_player_spec(p) for p in spec["players"]]
    root = hashlib.sha256(spec["dice_seed"].encode()).digest()
    game, _ = Game.create(target, specs, ruleset_name=spec["ruleset"], game_id=spec["id"], dice_root=root, lang=lang)
    shown = [f"Created the demo game in {target} (dice seeded publicly from {spec['dice_seed']!r})."]
    if lang != SOURCE:
        shown.append(f"Its players write their orders and read their reports in {LANGUAGES[lang]} ({lang}).")
    from adjudicator.language.parser import written_in

    checks = SecretChecks()  # each player's password checked once, not once a phase
    for phase in sorted(p for p in (source / "phases").iterdir() if p.is_dir()):
        for orders in sorted(phase.glob("*.txt")):
            lines = orders.read_text(encoding="utf-8").splitlines()
            text = "".join(written_in(game.parser, line, lang) + "\n" for line in lines)
            submit_text(target, text, None, vouch=True, checks=checks)
        game = Game.load(target)
        result = adjudicate(game, force=True)
        shown.append(
            f"{result.label}: {len(result.events)} events, {len(result.record.rolls)} dice -> {result.next_label}"
        )
        if game.phase_info.winner:
            break
    shutil.copy(source / "README.md", target / "DEMO.md")
    shown.append(state(target, as_json=False).text)
    first = sorted(game.directory.reports.iterdir())[0] / "public.txt"
    shown.append(
        f"Reports of every phase are in {game.directory.reports}; start with {first}. "
        f"The players' own reports are in {game.directory.private}."
    )
    return Outcome("\n".join(shown))


def _demo_folder(ruleset: str) -> Path:
    """The shipped game (games/*/demo.toml) whose ruleset is this one."""
    for folder in sorted(shipped_folder("games").iterdir()):
        spec_file = folder / "demo.toml"
        if spec_file.exists() and read_toml(spec_file)["game"]["ruleset"] == ruleset:
            return folder
    raise UsageError(f"the adjudicator ships no demo game of {ruleset}")


def adjudicate_phase(
    path: Path, dice: str | None, force: bool, started: float | None = None, all_defaults: bool = False
) -> Outcome:
    """`started`: when the moderator ran the command; a phase resolved by another command
    since then is not followed by a second one (two `adjudicate` typed at once). `--force` on a
    phase nobody sent orders for needs `all_defaults` too (`adjudicate --force` typed twice)."""
    from adjudicator.core.dice import parse_dice_list
    from adjudicator.game.schedule import utc_now
    from adjudicator.hosting.adjudication import adjudicate, check_not_blind

    game = Game.load(path)
    if force and not all_defaults:
        check_not_blind(game, utc_now())
    result = adjudicate(game, parse_dice_list(dice) if dice is not None else None, force, started=started)
    report = game.directory.page_file(result.slug, "public.txt")
    if result.report_problem:
        return Outcome(
            f"{result.label} is resolved and {result.next_label} is open, but its reports could not be made "
            f"({result.report_problem}); 'adjudicator report' and 'send' make them again once that is fixed",
            ok=False,
        )
    warning = f"\nWarning: {result.site_problem}" if result.site_problem else ""
    warning += "".join(f"\nSeats: {change}; the players are told (outbox/)" for change in result.seat_changes)
    private = game.directory.private_folder(result.slug)
    where = f"\nReports: {report.parent} (public); the players' own: {private}"
    return Outcome(report.read_text(encoding="utf-8") + where + warning)


def dry_run_phase(path: Path, dice: str | None) -> Outcome:
    """`adjudicate --dry-run`: the phase's public report as it would be now; nothing is saved."""
    from adjudicator.core.dice import parse_dice_list
    from adjudicator.hosting.adjudication import dry_run

    game = Game.load(path)
    report, missed = dry_run(game, parse_dice_list(dice) if dice is not None else None)
    said = [f"Dry run of {game.phase_info.label}: nothing was saved, and the phase is still open."]
    if missed:
        said.append(f"No orders from {', '.join(missed)}: they play their defaults here.")
    if dice is None:
        said.append("The dice are this phase's own: 'adjudicate' rolls the same if the orders stay as they are.")
    return Outcome("\n".join([report, *said]))


def build_site(directory: Path, out: Path | None) -> Outcome:
    """The campaign site, in OUT or in the folder game.toml names."""
    from adjudicator.reports import site

    game = Game.load(directory)
    folder = out if out is not None else site.site_folder(game)
    if folder is None:
        raise UsageError(
            "say where the site goes: 'adjudicator site GAME OUT/', or set [game] site = \"site\" in game.toml "
            "to rebuild it after every phase"
        )
    with game_lock(game.directory):
        return Outcome(site.build_site(game, folder).summary())


def show_report(directory: Path, phase: str | None, fmt: str, power: str | None, map_url: str | None = None) -> Outcome:
    """A report of an adjudicated phase: the public one in a format, or a player's private one;
    as it was written when the phase was resolved (what the players were sent), or made now when
    the file is gone or another `map_url` is asked for."""
    from dataclasses import replace

    from adjudicator.game.history import phase_slug

    game = Game.load(directory)
    if map_url is None and fmt.isalnum():  # png, the map's picture, is no public.png: it is drawn below
        slug = phase_slug(game, phase)
        if power is not None and fmt == "html":  # his order page
            stored = game.directory.order_page(slug, game.find_player_civ(power))
        elif power is not None:
            stored = game.directory.private_report(slug, game.find_player_civ(power))
        else:
            stored = game.directory.reports_folder(slug) / f"public.{fmt}"
        if stored.is_file():
            return Outcome(stored.read_text(encoding="utf-8"))
    from adjudicator.reports.phase import PICTURE, PhaseReports, load_record

    if map_url is not None:  # this once, as if game.toml said so
        game.settings = replace(game.settings, map_url=map_url)
    reports = PhaseReports(game, load_record(game, phase))
    if power is not None and fmt == "html":
        return Outcome(reports.order_page(game.find_player_civ(power)))
    if power is not None:
        return Outcome(reports.private(game.find_player_civ(power)))
    if fmt == PICTURE:  # a picture is no text to print: written beside the reports, its path said
        return Outcome(f"The map is drawn in {reports.write_png()}")
    return Outcome(reports.public(fmt))


def collect_mail(directory: Path, imap: bool, folder: Path | None) -> Outcome:
    from adjudicator.intake.collect import collect

    if not imap and folder is None:
        raise UsageError("say where the orders are: --imap, or --from FOLDER")
    report = collect(directory, imap=imap, folder=folder)
    return Outcome(report.text)


def send_reports(directory: Path, dry_run: bool) -> Outcome:
    """The last phase's mails, then its chat posts ([[notify]]), each queued once."""
    from adjudicator.delivery import post_messages
    from adjudicator.delivery.messages import deliver, report_messages
    from adjudicator.game.history import last_adjudicated

    game = Game.load(directory)
    last = last_adjudicated(game)
    reports = report_messages(game) if last else []  # else what waits: the welcome mails
    said = deliver(game, reports, "report", dry_run)
    posts = post_messages.phase_posts(game) if last is not None else []
    return Outcome("\n".join([said, *post_messages.deliver_posts(game, dry_run, posts)]))


def notify_game(directory: Path, test: bool = False, retry: bool = False, resend: bool = False) -> Outcome:
    """Post the last phase's report and whatever else waits for the chat destinations; `test`
    posts a test to each instead and says which took it; `retry` takes parked destinations up
    again, `resend` the posts cut off mid-send."""
    from adjudicator.delivery import post_messages, posts
    from adjudicator.game.history import last_adjudicated
    from adjudicator.game.mail_settings import destinations_of

    game = Game.load(directory)
    destinations = destinations_of(game)
    if not destinations:
        raise UsageError(
            "this game has no chat destinations; add a [[notify]] table to game.toml (docs/hosting.md, "
            "'Chat destinations')"
        )
    if test:
        tried = post_messages.test_destinations(game, destinations)
        return Outcome("\n".join(line for line, _ in tried), ok=all(ok for _, ok in tried))
    said = []
    with game_lock(game.directory):
        if retry or resend:
            again, moved = posts.retry(game.directory.outbox, resend=resend)
            if again:
                said.append(f"taken up again: {', '.join(again)}")
            if moved:
                said.append(f"{moved} post(s) cut off mid-send queued again")
    # the last phase's posts, queued once whichever command comes first
    posted = post_messages.post_now(game, post_messages.phase_posts(game) if last_adjudicated(game) else [], said)
    return Outcome("\n".join(posted.lines), ok=posted.ok)


def send_reminders(directory: Path, dry_run: bool) -> Outcome:
    """Reminders to the players still awaited, by mail and in the chat destinations."""
    from adjudicator.delivery import post_messages
    from adjudicator.delivery.messages import deliver, reminder_messages

    game = Game.load(directory)
    said = deliver(game, reminder_messages(game), "reminder", dry_run)
    posts = post_messages.reminder_posts(game)  # one per deadline in each place, like the mails to each player
    return Outcome("\n".join([said, *post_messages.deliver_posts(game, dry_run, posts)]))


def set_deadline(directory: Path, when: str) -> Outcome:
    from adjudicator.game.schedule import parse_moment
    from adjudicator.game.submissions import missing_orders

    game = Game.load(directory)
    moment = parse_moment(when, game.settings.schedule.zone)
    with game_lock(game.directory):
        game.set_deadline(moment)
        problem = _refresh_site(game)  # its index tells the deadline
    text = f"{game.phase_info.label} is due {game.settings.schedule.local(game.deadline() or moment)}"
    missing = missing_orders(game)
    if moment + game.settings.schedule.grace <= datetime.now(UTC) and missing:
        text += (
            f"; that is in the past, so 'adjudicate' (or the next 'adjudicator run') goes ahead with default "
            f"orders for {', '.join(missing)}: give a later time if you meant one"
        )
    return Outcome(text + (f"\nWarning: {problem}" if problem else ""))


def accept_late(directory: Path, power: str) -> Outcome:
    """Make a player's latest late orders count, as if they had come in time."""
    from adjudicator.intake.receive import settle_late

    game = Game.load(directory)
    civ = game.find_player_civ(power)
    late = sorted(game.directory.late_folder(game.slug).glob(f"{civ}-*.txt"))
    if not late:
        raise UsageError(f"{civ} has no late orders for {game.phase_info.label}")
    text = late[-1].read_text(encoding="utf-8")
    with game_lock(game.directory):
        checked = check_submission(game, text, civ)
        stored = store_submission(
            game, checked, text, source=f"late orders accepted by the moderator ({late[-1].name})"
        )
        settle_late(game, civ)  # status no longer lists them
    return Outcome(_receipt(game, checked, stored.relative_to(directory)))


def run_games(path: Path, watch: bool, poll: float, say: Callable[[str], None]) -> Outcome:
    """One hosting pass over a game or a folder of games, or with `watch` pass after pass
    until SIGTERM; exit 1 when a game needs the moderator (after one pass)."""
    from adjudicator.hosting.run import run_pass
    from adjudicator.hosting.watch import StopFlag
    from adjudicator.hosting.watch import watch as watch_games

    if not path.is_dir():
        raise UsageError(f"{path} is not a folder; give a game directory or a folder of games")
    if watch:
        if poll < 1:
            raise UsageError("--poll must be at least 1 second")
        stop = StopFlag()
        stop.install()
        watch_games(path, say, stop, poll)
        return Outcome("")
    report = run_pass(path)
    return Outcome(report.text, ok=not report.needs_moderator)


def seat_player(directory: Path, civ: str, player: str | None, vacate: bool) -> Outcome:
    """`seat`: a substitute for an open seat, or a seat opened (game/seating.py). The change
    is made first; its mails then go out, or wait in outbox/ for `send` or `run`."""
    from adjudicator.delivery.outbox import queue
    from adjudicator.delivery.seat_messages import queue_notices, substitute_message
    from adjudicator.game.seating import seat, vacate_seat

    if (player is None) == (not vacate):
        raise UsageError("give either --player EMAIL[:NAME] (a new player for an open seat) or --open")
    email, _, name = (player or "").partition(":")
    if bad := control_character(name):
        raise UsageError(f"the player's name holds {bad}; write it as one line of plain text")
    with game_lock(GameDirectory(directory)):
        game = Game.load(directory)
        found = game.find_player_civ(civ)
        if player is None:
            vacate_seat(game, found, queue_notices(game, f"{game.phase_number:03d}-opened"))
            done = (
                f"{found}'s seat is open: it plays default orders, and nobody waits for it, until you give it to "
                f"a player (adjudicator seat {directory} {found} --player EMAIL[:NAME])."
            )
        else:
            secret = seat(game, found, email.strip(), name.strip())
            queue(game.directory.outbox, [substitute_message(game, found, secret)])
            done = (
                f"{found} is now played by {email.strip()}, from {game.phase_info.label} on; his secret: {secret} "
                "(kept in secrets.toml). His welcome holds it, the last reports and the order form."
            )
    return Outcome(f"{done}\nMail: {_sent(game)}\n")


def _sent(game: Game) -> str:
    """What became of the mail waiting in the game's outbox: a server that fails leaves it there."""
    from adjudicator.core.errors import AdjudicatorError
    from adjudicator.delivery.messages import deliver

    try:
        return deliver(game, [], "mail", dry_run=False)
    except AdjudicatorError as error:
        return f"it waits in outbox/ ({error}); 'adjudicator send' or 'run' sends it later"


def show_players(directory: Path) -> Outcome:
    """`players`: every player of the games under a folder, the most experienced first."""
    from adjudicator.game.directory import game_folders
    from adjudicator.game.records import records, shown_time

    found = records(game_folders(directory))
    if not found:
        return Outcome("No players yet.\n")
    lines = [f"{'Player':32} {'Games':>5} {'Played':>6} {'Missed':>6}  {'Median time to orders':22} Seats"]
    for record in found:
        who = record.email + (f" ({', '.join(sorted(record.names))})" if record.names else "")
        seats = "; ".join(str(seat) for seat in record.seats)
        median = shown_time(record.median_time)
        lines.append(f"{who:32} {record.games:>5} {record.played:>6} {record.missed:>6}  {median:22} {seats}")
    return Outcome(
        "\n".join(lines)
        + "\n\nPhases are counted from the first adjudication with this version; the time to orders runs"
        " from a phase's opening to the orders that counted.\n"
    )


def pause_game(directory: Path, reason: str) -> Outcome:
    from adjudicator.hosting.control import pause_game as pause

    with game_lock(GameDirectory(directory)):
        return Outcome(pause(directory, reason))


def resume_game(directory: Path) -> Outcome:
    from adjudicator.hosting.control import resume_game as resume

    with game_lock(GameDirectory(directory)):
        return Outcome(resume(directory))


def replay_game(directory: Path) -> Outcome:
    from adjudicator.hosting.adjudication import replay

    phases, problems = replay(Game.load(directory))
    if problems:
        return Outcome("replay found differences:\n" + "\n".join(f"  - {p}" for p in problems), ok=False)
    return Outcome(f"{phases} phase(s) replayed from history: identical positions and events")


def rollback_game(directory: Path, to: int) -> Outcome:
    from adjudicator.hosting.adjudication import rollback

    return Outcome(rollback(Game.load(directory), to))


def _renderer(ruleset: str, language: str = SOURCE) -> Renderer:
    """The templates of a ruleset, in a language (else the source's); Jinja is imported only
    by the commands that print through a template (issue 31)."""
    from adjudicator.reports.render import Renderer

    return Renderer(ruleset, language)


def _refresh_site(game: Game) -> str:
    """The game's own site brought up to date; the site's makers are imported only for a game
    that has one (`[game] site`)."""
    if not game.settings.site:
        return ""
    from adjudicator.reports.site import refresh_site

    return refresh_site(game)


def _receipt(game: Game, checked: CheckedSubmission, stored: Path | None) -> str:
    """A receipt is for pasting back to its player: in his language."""
    renderer = _renderer(game.ruleset.name, game.settings.language_of(checked.power))
    text = renderer.render("receipt.txt.j2", checked=checked, stored=stored)
    return without_secret(text, checked.submission.password)  # an error quoting a line quotes no secret


def with_languages(specs: list[PlayerSpec], choices: list[str]) -> list[PlayerSpec]:
    """`--player-lang Rome=pl`: each player's language, his civilization named as in `--player`."""
    chosen: dict[str, str] = {}
    for text in choices:
        civ, equals, code = text.partition("=")
        if not equals or not civ.strip():
            raise UsageError(f"'{text}' is not CIV=LANG; write e.g. --player-lang Rome=pl")
        matching = [s.civ for s in specs if s.civ.strip().casefold() == civ.strip().casefold()]
        if not matching:
            raise UsageError(f"'{civ.strip()}' is not given with --player; --player-lang names a player of this game")
        chosen[matching[0]] = check_language(code)
    return [dataclasses.replace(s, lang=chosen.get(s.civ, s.lang)) for s in specs]


def set_language(directory: Path, civ: str | None, lang: str, zone: str | None = None) -> Outcome:
    """The game's language (public reports, and players who chose none), or one player's, and
    with it the time zone deadlines are shown in. Only those keys of game.toml change; its other
    tables (mail settings among them) stay as they are."""
    code = check_language(lang)
    if zone is not None:
        check_zone(zone)
    with game_lock(GameDirectory(directory)):
        game = Game.load(directory)
        data = read_toml(game.directory.game_file)
        if civ is None:
            data.setdefault("game", {})["lang"] = code
            if zone is not None:
                data.setdefault("schedule", {})["timezone"] = zone
            what = "The game's public reports"
        else:
            found = game.find_player_civ(civ)
            for entry in data.get("player", []):
                if entry.get("civ") == found:
                    entry["lang"] = code
                    if zone is not None:
                        entry["timezone"] = zone
            what = f"{found}'s mails and reports"
        Settings.from_data(data)  # the file stays one the game can load
        write_toml_atomic(game.directory.game_file, data, mode=PRIVATE)
    shown = f", with deadlines in {zone}" if zone is not None else ""
    return Outcome(f"{what} are now in {LANGUAGES[code]} ({code}){shown}.\n")
