"""Adjudicating the current phase, replaying history, and rolling back.

Generic bookkeeping around the ruleset's pure `resolve`: which orders count, which dice
roll, what is written where and in which order, so that a crash at any point leaves the
game loadable and the phase re-runnable to the same result.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from adjudicator.core.crashlog import one_line, write_crash_log
from adjudicator.core.dice import ChainDice, DiceRecord, DiceSource, ScriptedDice, seed_for
from adjudicator.core.errors import UsageError
from adjudicator.core.events import Event
from adjudicator.core.i18n import encode
from adjudicator.delivery.seat_messages import queue_notices
from adjudicator.game.dice_records import dice_record_from_data, dice_record_to_data
from adjudicator.game.directory import game_lock
from adjudicator.game.event_records import stored_events
from adjudicator.game.game import Game
from adjudicator.game.seating import after_rollback, count_phase
from adjudicator.game.storage import PRIVATE, PRIVATE_FOLDER, read_toml, without_none, write_toml_atomic
from adjudicator.game.submissions import CheckedSubmission, missing_orders, order_files
from adjudicator.language.submission import parse_submission
from adjudicator.reports.phase import PhaseReports, load_record, unsaved_record
from adjudicator.reports.site import refresh_site
from adjudicator.rulesets import Order


@dataclass(frozen=True, slots=True)
class PhaseResult:
    slug: str
    label: str
    events: tuple[Event, ...]
    record: DiceRecord
    next_label: str
    report_problem: str = ""  # why the reports could not be rendered (the phase is resolved anyway)
    site_problem: str = ""  # why the campaign site could not be updated (likewise)
    seat_changes: tuple[str, ...] = ()  # players warned of missed phases, seats opened (game/seating.py)


def _checked(game: Game, position: Any, civ: str, text: str) -> CheckedSubmission:
    """A player's orders parsed and checked against `position`, once for all uses."""
    submission = parse_submission(text, game.parser)
    lines = game.ruleset.validate(game.board, position, civ, submission.lines, game.settings.options)
    return CheckedSubmission(game.settings.id, game.phase_info.label, civ, submission, tuple(lines))


def _accepted(checked: CheckedSubmission) -> list[tuple[int, Order]]:
    """The orders the rules accept, each with the number of the line it was written on."""
    return [(line.number, line.order) for line in checked.lines if line.ok and line.order is not None]


def _text_at_lines(lines: Sequence[Sequence[Any]]) -> str:
    """Stored (line, order) pairs back into text whose orders stand on their original lines."""
    by_line: dict[int, list[str]] = {}
    for number, text in lines:
        by_line.setdefault(int(number), []).append(str(text))
    return "\n".join("; ".join(by_line.get(n, [])) for n in range(1, max(by_line, default=0) + 1))


def _dice(game: Game, values: Sequence[int] | None) -> ChainDice | ScriptedDice:
    if values is not None:
        return ScriptedDice(list(values))
    root = game.dice_root()
    return ChainDice(game.settings.id, game.phase_number, seed_for(root, game.phase_number), root=root)


def check_ready(game: Game, force: bool, now: datetime) -> None:
    """Refuse before the deadline unless everyone is in, or the moderator forces it."""
    check_not_over(game)
    missing = missing_orders(game)
    if force or not missing:
        return
    deadline = game.deadline()
    if deadline is not None and now >= deadline:
        return
    when = f"the deadline is {deadline.isoformat()}" if deadline else "no deadline is set"
    raise UsageError(
        f"{', '.join(missing)} ha{'s' if len(missing) == 1 else 've'} not submitted orders and {when}; "
        "wait, or use --force to adjudicate with default orders for them"
    )


def check_not_over(game: Game) -> None:
    if game.phase_info.winner is not None:
        raise UsageError(f"the game is over: {game.phase_info.winner} won ({game.ruleset.win_rule})")


def check_not_blind(game: Game, now: datetime) -> None:
    """`--force` on a phase nobody has sent orders for, its deadline not passed, is most often
    the same command typed twice (issue 29): the second one would resolve the next phase with
    every player's defaults, silently. It takes `--all-defaults` to mean that."""
    due = game.due()
    deadline = game.deadline()
    if not due or set(missing_orders(game)) < set(due) or (deadline is not None and now >= deadline):
        return
    raise UsageError(
        f"nobody has sent orders for {game.phase_info.label} yet, so --force would play default orders for "
        f"every player ({', '.join(due)}); wait for orders, or add --all-defaults if that is what you mean"
    )


def _check_unchanged(game: Game, started: float | None) -> None:
    """Under the lock: the position is still the one this command loaded, and (when the
    caller says when the moderator ran it) nobody changed it since. Two `adjudicate` typed
    at once must resolve one phase, not two, whichever of them loads the game first."""
    state = game.directory.state_file
    if read_toml(state).get("dice", {}).get("phase_number") != game.phase_number or (
        started is not None and state.stat().st_mtime > started
    ):
        raise UsageError(
            "another adjudicator process has just changed this game (it resolved or rolled back a phase "
            "after this command started); see 'adjudicator status', and run it again if you meant the next phase"
        )


DRY_RUN_SEED = "(kept secret: a dry run reveals no seed)"  # the seed is revealed only with the phase's result


@dataclass(frozen=True, slots=True)
class Resolution:
    """The phase now open, resolved in memory on the orders on file: what `adjudicate` writes
    and `adjudicate --dry-run` shows."""

    checked: dict[str, CheckedSubmission]
    orders: dict[str, list[tuple[int, Order]]]  # each player's accepted orders by line
    due: tuple[str, ...]
    missed: list[str]  # whose orders did not come
    position: Any
    events: list[Event]
    record: DiceRecord
    holders: dict[str, str]  # who held each seat: civilization -> address

    @property
    def seats(self) -> dict[str, Any]:
        """Whose orders were due, whose did not come, and who held each seat, as history keeps them."""
        return {"due": list(self.due), "missed": self.missed, "seats": self.holders}


def resolve_open_phase(game: Game, dice_values: Sequence[int] | None) -> Resolution:
    """The engine run on every player's checked orders (defaults for the missing) and the
    phase's dice: the game's chain, or the moderator's external rolls."""
    checked = {
        civ: _checked(game, game.position, civ, path.read_text(encoding="utf-8"))
        for civ, path in order_files(game).items()
    }
    orders = {civ: _accepted(submission) for civ, submission in checked.items()}
    due = game.due()
    missed = [civ for civ in due if civ not in checked]  # no orders came: each counts against his seat
    dice = _dice(game, dice_values)
    given = {civ: [order for _, order in lines] for civ, lines in orders.items()}
    position, events = game.ruleset.resolve(
        game.board, game.position, given, dice, game.settings.stepwise, game.settings.options
    )
    if isinstance(dice, ChainDice):
        record = DiceRecord(game.phase_number, DiceSource.CHAIN, dice.seed.hex(), tuple(dice.rolls))
    else:
        record = DiceRecord(game.phase_number, DiceSource.EXTERNAL, "", tuple(dice.rolls))
    holders = {p.civ: p.email for p in game.settings.holders()}
    return Resolution(checked, orders, due, missed, position, events, record, holders)


def dry_run(game: Game, dice_values: Sequence[int] | None = None) -> tuple[str, list[str]]:
    """The public report the phase would have if it were adjudicated now, with the same orders
    and dice `adjudicate --force` would use, and whose orders did not come (they play their
    defaults in it); nothing is written, and the phase stays open."""
    check_not_over(game)
    with game_lock(game.directory):
        done = resolve_open_phase(game, dice_values)
    dice = dice_record_to_data(done.record) | {"seed": DRY_RUN_SEED if done.record.seed else ""}
    record = unsaved_record(game, done.position, done.events, dice, _receipts(done.checked), done.seats)
    return PhaseReports(game, record).public("txt"), done.missed


def adjudicate(
    game: Game,
    dice_values: Sequence[int] | None = None,
    force: bool = False,
    now: datetime | None = None,
    started: float | None = None,
) -> PhaseResult:
    """Resolve the current phase and open the next one.

    The writes come in an order that makes state.toml the commit point: the phase's result,
    the next phase's snapshot, its reports and deadline, and state.toml last. A crash before
    state.toml leaves the phase open, and running `adjudicate` again redoes it identically
    (the dice come from the phase number); a crash after it leaves the phase complete."""
    now = (now or datetime.now(UTC)).replace(microsecond=0)
    with game_lock(game.directory):
        _check_unchanged(game, started)
        check_ready(game, force, now)
        done = resolve_open_phase(game, dice_values)
        texts = {civ: [(number, order.to_text()) for number, order in lines] for civ, lines in done.orders.items()}
        slug, label = game.slug, game.phase_info.label
        _write_result(game, slug, done.events, done.record, texts, _receipts(done.checked), done.seats)
        tell = queue_notices(game, f"{game.phase_number:03d}")  # players warned, seats opened: mailed
        seat_changes = count_phase(game, game.phase_number, done.due, done.missed, tell)
        game.position = done.position
        game.phase_number += 1
        game.write_snapshot(opened=now)
        deadline = game.settings.schedule.derived_deadline(now, game.phase_info.phase)
        if deadline is not None:  # before the reports, which tell the players
            game.set_deadline(deadline)
        reports = PhaseReports(game, load_record(game, slug))
        pages, problem = _render_reports(game, reports)
        reports.write(pages)
        game.write_state()
        return PhaseResult(
            slug,
            label,
            tuple(done.events),
            done.record,
            game.phase_info.label,
            problem,
            refresh_site(game),
            tuple(seat_changes),
        )


def _render_reports(game: Game, reports: PhaseReports) -> tuple[dict[str, str], str]:
    """The phase's reports, or none and the reason: a fault in a report must never keep a
    game from going on, so it is logged for whoever fixes it, and the phase resolves."""
    try:
        return reports.pages(), ""
    except Exception as error:
        log = write_crash_log(game.directory.root, error)
        return {}, f"internal error: {one_line(error)}; details in {log}"


def _receipts(checked: dict[str, CheckedSubmission]) -> dict[str, list[dict[str, Any]]]:
    """Every line of every player's orders on file with what became of it, for his report."""
    return {
        civ: [{"number": r.number, "text": r.text, "status": r.status, "message": encode(r.message)} for r in c.echo]
        for civ, c in checked.items()
    }


def _write_result(
    game: Game,
    slug: str,
    events: Sequence[Event],
    record: DiceRecord,
    orders: dict[str, list[tuple[int, str]]],
    receipts: dict[str, list[dict[str, Any]]],
    seats: dict[str, Any],
) -> None:
    # What each player's lines came to goes beside his orders, not into history: replay has
    # no use for it, and every byte of history is parsed on each replay.
    write_toml_atomic(game.directory.receipts_file(slug), receipts, mode=PRIVATE)  # every player's lines
    path = game.directory.history_file(slug)
    data = read_toml(path)
    # who held each seat, and whose orders did not come: each player's record (game/seats.py)
    data.update(dice=dice_record_to_data(record), events=[e.to_data() for e in events], orders=orders, **seats)
    write_toml_atomic(path, data, mode=PRIVATE)


def replay(game: Game) -> tuple[int, list[str]]:
    """Re-run every adjudicated phase from its opening position, stored orders and dice;
    returns (phases replayed, differences found). Each history file is read once."""
    history = {path: read_toml(path) for path in sorted(game.directory.history.glob("*.toml"))}
    openings = {int(data["phase_number"]): data["position"] for data in history.values() if "position" in data}
    problems: list[str] = []
    replayed = 0
    for path, data in history.items():
        if "events" not in data or "position" not in data:
            continue
        replayed += 1
        position = game.ruleset.position_from_data(game.board, data["position"])
        after, events = game.ruleset.resolve(
            game.board, position, _stored_orders(game, position, data), _stored_dice(game, data),
            game.settings.stepwise, game.settings.options,
        )  # fmt: skip
        if _normal(events) != _normal([Event.from_data(e) for e in stored_events(game.ruleset, data)]):
            problems.append(f"{path.name}: the events differ from the stored ones")
        following = openings.get(int(data["phase_number"]) + 1)
        if following is not None:
            expected = game.ruleset.position_to_data(game.ruleset.position_from_data(game.board, following))
            if game.ruleset.position_to_data(after) != expected:
                problems.append(f"{path.name}: the resulting position differs from the next phase's opening")
    return replayed, problems


def _stored_dice(game: Game, data: dict[str, Any]) -> ChainDice | ScriptedDice:
    record = dice_record_from_data(data)
    if record.source is DiceSource.CHAIN:
        root = game.dice_root() if game.directory.secrets_file.exists() else b""  # sealed rolls need it
        return ChainDice(game.settings.id, record.phase_number, bytes.fromhex(record.seed), root=root)
    return ScriptedDice([r.value for r in record.rolls])


def _stored_orders(game: Game, position: Any, data: dict[str, Any]) -> dict[str, list[Any]]:
    return {
        civ: [order for _, order in _accepted(_checked(game, position, civ, _text_at_lines(lines)))]
        for civ, lines in data.get("orders", {}).items()
    }


def _normal(events: Sequence[Event]) -> list[Any]:
    return [without_none(e.to_data()) for e in events]


def rollback(game: Game, to: int) -> str:
    """Make phase `to` current again; later history, orders and reports (public and private)
    are moved aside, to rolled-back/<time>/, where each keeps its folder's name."""
    directory = game.directory
    with game_lock(directory):
        target = next(iter(sorted(directory.history.glob(f"{to:03d}-*.toml"))), None)
        if target is None or "position" not in read_toml(target) or to >= game.phase_number:
            raise UsageError(f"phase {to} is not an earlier phase of this game; see history/ for the numbers")
        aside = directory.rolled_back / datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        for folder in directory.phase_folders:
            if not folder.is_dir():  # a game begun before private/ existed
                continue
            for item in sorted(folder.iterdir()):
                number = int(item.name[:3]) if item.name[:3].isdigit() else -1
                if number > to or (number == to and folder in (directory.reports, directory.private)):
                    destination = aside / folder.name / item.name
                    private = folder in (directory.orders, directory.private)  # the moderator's only there too
                    destination.parent.mkdir(mode=PRIVATE_FOLDER if private else 0o777, parents=True, exist_ok=True)
                    shutil.move(str(item), destination)
        aside.mkdir(parents=True, exist_ok=True)
        shutil.copy(target, aside / target.name)
        data = read_toml(target)
        for key in ("dice", "events", "orders", "due", "missed", "seats"):
            data.pop(key, None)
        write_toml_atomic(target, data, mode=PRIVATE)
        game.position = game.ruleset.position_from_data(game.board, data["position"])
        game.phase_number = to
        opened = data.get("opened")
        game._open_phase(opened if isinstance(opened, datetime) else None)
        _seats_after_rollback(game, to)
        text = f"{game.settings.id} is back at phase {to} ({game.phase_info.label}); later files are in {aside}"
        problem = refresh_site(game)
        return f"{text}\nWarning: {problem}" if problem else text


def _seats_after_rollback(game: Game, to: int) -> None:
    """The seats as they were at phase `to` (game/seating.py), counted from the phases left."""
    phases = []
    for path in sorted(game.directory.history.glob("*.toml")):
        data = read_toml(path)
        if isinstance(data.get("due"), list):
            phases.append((int(data.get("phase_number", 0)), data["due"], data.get("missed", [])))
    after_rollback(game, to, phases)
