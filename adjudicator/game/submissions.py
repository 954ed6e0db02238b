"""Checking and storing a player's orders for the current phase.

A submission is checked line by line against the position; the whole text (passwords
masked) is stored with its provenance, and an earlier submission of the same player for
the phase is moved aside, never deleted.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.i18n import Msg, t, tn
from adjudicator.core.passwords import redact_passwords
from adjudicator.game.game import Game
from adjudicator.game.players import SecretChecks
from adjudicator.game.storage import PRIVATE, read_toml, write_text_atomic, write_toml_atomic
from adjudicator.language.cleaning import SetAside

if TYPE_CHECKING:
    from adjudicator.language.submission import OrderLine, Submission


class SubmissionError(AdjudicatorError):
    """The submission as a whole cannot be used (wrong game, phase or power)."""


class MissingPower(SubmissionError):
    """The text says nobody's orders; `check` and `submit` add that --power can say it."""


@dataclass(frozen=True, slots=True)
class EchoLine:
    number: int
    text: str
    status: str  # OK, ERROR, or the reason a line was set aside
    message: str = ""  # the error, or for an OK line what must happen first for it to work


@dataclass(frozen=True, slots=True)
class CheckedSubmission:
    game: str
    phase_label: str
    power: str
    submission: Submission[Any]
    lines: tuple[OrderLine[Any], ...]

    @property
    def accepted(self) -> int:
        return sum(1 for line in self.lines if line.ok)

    @property
    def errors(self) -> int:
        return sum(1 for line in self.lines if not line.ok) + len(self.submission.header_problems)

    @property
    def echo(self) -> list[EchoLine]:
        """Every line of the text, in order, with what became of it."""
        rows = [
            EchoLine(
                line.number,
                line.text,
                "OK" if line.ok else "ERROR",
                line.problem.message
                if line.problem is not None
                else t("note: %(note)s", note=line.note)
                if line.note
                else "",
            )
            for line in (*self.lines, *self.submission.header_problems)
        ]
        rows += [_aside(a) for a in self.submission.set_aside]
        return sorted(rows, key=lambda row: row.number)


def counted(checked: CheckedSubmission) -> str:
    """`1 order, 0 errors`: what a submission came to, as the moderator's lines say it."""
    orders, errors = checked.accepted, checked.errors
    return f"{orders} order{'' if orders == 1 else 's'}, {errors} error{'' if errors == 1 else 's'}"


def _aside(line: SetAside) -> EchoLine:
    if line.reason in ("header", "request"):
        return EchoLine(line.number, line.text.strip(), line.reason)
    return EchoLine(line.number, line.text.strip(), "--", _ASIDE.get(line.reason, f"({line.reason})"))


_ASIDE = {  # why a line was not read as an order, as the player reads it
    "comment": t("(comment)"),
    "prose": t("(not an order: read as your note)"),
    "quoted text": t("(quoted text)"),
    "end of the orders": t("(end of the orders)"),
    "after the end of the orders": t("(after the end of the orders)"),
}


def check_submission(game: Game, text: str, power: str | None = None) -> CheckedSubmission:
    """Parse and validate without storing anything."""
    from adjudicator.language.submission import parse_submission  # the order language: not for `status`

    submission = parse_submission(text, game.parser)
    civ = _power(game, submission, power)
    _check_guards(game, submission)
    _check_not_empty(submission)
    lines = game.ruleset.validate(game.board, game.position, civ, submission.lines, game.settings.options)
    return CheckedSubmission(game.settings.id, game.phase_info.label, civ, submission, tuple(lines))


def open_seat_refusal(game: Game, civ: str) -> Msg | None:
    """Why nobody's orders are taken for `civ`, when its seat is open: it plays default orders,
    whoever sends or vouches for them (D26). The one answer of every path, mail or command."""
    seat = game.settings.player(civ)
    return (
        t("%(civ)s has no player now (its seat is open); nothing was changed", civ=civ) if seat and seat.open else None
    )


def check_password(
    game: Game, checked: CheckedSubmission, vouched: bool = False, checks: SecretChecks | None = None
) -> None:
    """The password a text carries is the player's, on every path (issue 29: `check` and
    `submit` stored a text whose password `collect` refused). A text without one is taken only
    when the moderator vouches for it: orders he took by phone, a post on the game's forum.
    `checks`: the run's secrets checked so far, when it checks many texts (a demo)."""
    if (vacant := open_seat_refusal(game, checked.power)) is not None:
        raise SubmissionError(vacant)
    password = checked.submission.password
    if password is None:
        if vouched:
            return
        raise SubmissionError(
            t(
                "the text has no 'password' line; add the player's password, or use --vouch "
                "if you took these orders from %(civ)s yourself",
                civ=checked.power,
            )
        )
    player = game.settings.player(checked.power)
    if player is None or not (checks or SecretChecks()).accepts(player, password):
        raise SubmissionError(t("the password for %(civ)s is wrong; nothing was changed", civ=checked.power))


def _power(game: Game, submission: Submission[Any], power: str | None) -> str:
    if power is None and submission.power is None:
        word = game.ruleset.player_word.upper()
        raise MissingPower(f"say whose orders these are: add a line 'power {word}'")
    civ = game.find_player_civ(power or submission.power or "")
    if power is not None and submission.power is not None:
        named = game.find_player_civ(submission.power)
        if named != civ:
            raise SubmissionError(f"the text says 'power {submission.power}' but --power says {civ}; make them agree")
    return civ


def _check_guards(game: Game, submission: Submission[Any]) -> None:
    if submission.game is not None and submission.game != game.settings.id:
        raise SubmissionError(
            t("these orders are for game '%(named)s', not '%(game)s'", named=submission.game, game=game.settings.id)
        )
    guard = submission.phase
    info = game.phase_info
    if guard is not None and not info.is_named(guard.turn, guard.phase):
        named = f"{info.prefix}{guard.turn} {guard.phase}"  # as the 'phase' line has it
        raise SubmissionError(
            t(
                "these orders are for %(named)s, but the game is at %(label)s; "
                "remove the 'phase' line or send orders for the current phase",
                named=named,
                label=info.label,
            )
        )


def _check_not_empty(submission: Submission[Any]) -> None:
    """A text without a single order line is far likelier a mail that lost its orders on the
    way than a player who means to withdraw them: refuse it, and say how to withdraw."""
    if submission.no_orders and submission.lines:
        raise SubmissionError(
            tn(
                "the text says 'no orders' but also gives %(count)s order line; send the orders, or 'no orders' alone",
                "the text says 'no orders' but also gives %(count)s order line(s); "
                "send the orders, or 'no orders' alone",
                len(submission.lines),
            )
        )
    if submission.no_orders:
        return
    if not submission.lines:
        raise SubmissionError(
            t(
                "the text holds no order lines, so nothing was stored and any orders already on file stand; "
                "to withdraw them, send the line 'no orders'"
            )
        )
    if all(line.order is None for line in submission.lines):
        first = next(line for line in submission.lines if line.problem is not None)
        assert first.problem is not None
        raise SubmissionError(
            t(
                "no line of the text is an order (line %(number)s: %(problem)s), so nothing was stored and any "
                "orders already on file stand",
                number=first.number,
                problem=first.problem.message,
            )
        )


def store_submission(
    game: Game, checked: CheckedSubmission, text: str, source: str, received: datetime | None = None
) -> Path:
    """Keep the text as the player's orders for this phase, line for line (passwords
    masked), with its provenance beside it in <civ>.toml; an earlier pair is moved aside."""
    received = received or datetime.now(UTC).replace(microsecond=0)
    folder = game.directory.orders_folder(game.slug)
    target = folder / f"{checked.power}.txt"
    meta = target.with_suffix(".toml")
    if target.exists():
        earlier = _received(meta) or received
        stem = f"{checked.power}-{earlier.strftime('%Y%m%dT%H%M%S')}"
        counter = 1
        aside = game.directory.superseded_folder(game.slug)
        while (aside / f"{stem}.txt").exists():
            counter += 1
            stem = f"{checked.power}-{earlier.strftime('%Y%m%dT%H%M%S')}-{counter}"
        aside.mkdir(parents=True, exist_ok=True)
        target.replace(aside / f"{stem}.txt")
        if meta.exists():
            meta.replace(aside / f"{stem}.toml")
    stored_text = redact_passwords(text, checked.submission.password).rstrip("\n") + "\n"
    write_toml_atomic(
        meta,
        {
            "game": game.settings.id,
            "phase": game.slug,
            "power": checked.power,
            "source": source,
            "received": received,
            "sha256": hashlib.sha256(stored_text.encode()).hexdigest(),
            "accepted": checked.accepted,
            "errors": checked.errors,
        },
        mode=PRIVATE,
    )
    write_text_atomic(target, stored_text, mode=PRIVATE)
    return target


def _received(meta: Path) -> datetime | None:
    if not meta.exists():
        return None
    value = read_toml(meta).get("received")
    return value if isinstance(value, datetime) else None


def order_files(game: Game) -> dict[str, Path]:
    """Each player's orders on file for the phase now open. In stepwise mode a player may
    send his orders in any step of the phase; his latest submission counts."""
    info = game.phase_info
    folders = [game.directory.orders_folder(game.slug)]
    if game.settings.stepwise:
        pattern = f"*-{info.prefix}{info.turn:02d}-{info.phase}"
        folders = sorted(game.directory.orders.glob(pattern), reverse=True)
    found: dict[str, Path] = {}
    for folder in folders:
        for civ in game.playing():
            if civ not in found and (folder / f"{civ}.txt").exists():
                found[civ] = folder / f"{civ}.txt"
    return found


def submitted(game: Game) -> dict[str, datetime | None]:
    """Who has orders on file for the current phase, and when they came."""
    return {civ: _received(path.with_suffix(".toml")) for civ, path in order_files(game).items()}


def missing_orders(game: Game) -> list[str]:
    """The players whose orders the next adjudication needs and has not got."""
    on_file = submitted(game)
    return [civ for civ in game.due() if civ not in on_file]
