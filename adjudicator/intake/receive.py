"""One received mail, start to finish: kept raw first, then read, authenticated, checked,
stored as the player's orders (or set aside as late, or rejected), and answered.

Nothing is lost: the raw bytes are written to inbox/ before anything else happens, and a
sidecar inbox/<key>.toml records what became of the mail, so a second pass over the same
message (after a crash, or because the server offered it again) counts it only once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from adjudicator.errors import AdjudicatorError
from adjudicator.game import Game
from adjudicator.intake.mail import MailRejected, MailText, message_key, parse_mail
from adjudicator.orders import parse_submission, redact_passwords
from adjudicator.schedule import is_late, utc_now
from adjudicator.storage import read_toml, write_bytes_atomic, write_text_atomic, write_toml_atomic
from adjudicator.submissions import CheckedSubmission, check_submission, order_files, store_submission


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one mail."""

    key: str
    status: str  # accepted | late | rejected | duplicate
    reason: str = ""
    power: str | None = None
    mail: MailText | None = None
    checked: CheckedSubmission | None = None
    stored: Path | None = None
    flags: tuple[str, ...] = field(default=())  # for the moderator: e.g. a From that is not the player's


def inbox_paths(inbox: Path, key: str) -> tuple[Path, Path]:
    return inbox / f"{key}.eml", inbox / f"{key}.toml"


def already_done(inbox: Path, key: str) -> bool:
    raw, meta = inbox_paths(inbox, key)
    return meta.exists() and raw.exists()


def keep_raw(inbox: Path, raw: bytes, key: str) -> Path:
    path = inbox_paths(inbox, key)[0]
    if not path.exists():
        write_bytes_atomic(path, raw)
    return path


def receive(game: Game, raw: bytes, received: datetime | None = None) -> Outcome:
    """Take one raw mail for this game; safe to call again with the same mail."""
    received = received or utc_now()
    try:
        mail = parse_mail(raw)
    except MailRejected as rejected:
        key = message_key(raw, "")
        keep_raw(game.directory.inbox, raw, key)
        return _record(game, Outcome(key, "rejected", str(rejected)), received)
    key = message_key(raw, mail.message_id)
    if already_done(game.directory.inbox, key):
        return Outcome(key, "duplicate", "this mail was received before", mail=mail)
    keep_raw(game.directory.inbox, raw, key)
    return _record(game, _read_orders(game, key, mail, received), received)


def _read_orders(game: Game, key: str, mail: MailText, received: datetime) -> Outcome:
    submission = parse_submission(mail.text, game.parser, game.ruleset.is_order)
    power = submission.power
    if power is None:
        by_address = [p.civ for p in game.settings.players if p.email.lower() == mail.sender]
        power = by_address[0] if len(by_address) == 1 else None
    if power is None:
        return Outcome(key, "rejected", "the mail names no power: add a line 'power CIVILIZATION'", mail=mail)
    try:
        civ = game.find_player_civ(power)
    except AdjudicatorError as error:
        return Outcome(key, "rejected", str(error), mail=mail)
    player = game.settings.player(civ)
    assert player is not None
    if submission.password is None:
        return Outcome(key, "rejected", "the mail has no 'password' line; nothing was changed", civ, mail)
    if not player.accepts(submission.password):
        return Outcome(key, "rejected", f"the password for {civ} is wrong; nothing was changed", civ, mail)
    flags = (
        ()
        if mail.sender == player.email.lower()
        else (f"sent from {mail.sender}, not {civ}'s registered {player.email}",)
    )
    try:
        checked = check_submission(game, mail.text, civ)
    except AdjudicatorError as error:
        return Outcome(key, "rejected", str(error), civ, mail, flags=flags)
    source = f"mail {mail.message_id or key} from {mail.sender}"
    if is_late(received, game.deadline(), game.settings.schedule.grace):
        late = game.directory.orders_folder(game.slug) / "late" / f"{civ}-{received:%Y%m%dT%H%M%S}.txt"
        write_text_atomic(late, f"# {source}, received {received.isoformat()}\n" + redact_passwords(mail.text))
        reason = "it came after the deadline; it counts only if the moderator accepts it"
        return Outcome(key, "late", reason, civ, mail, checked, late, flags)
    stored = store_submission(game, checked, mail.text, source=source, received=received)
    return Outcome(key, "accepted", "", civ, mail, checked, stored, flags)


def _record(game: Game, outcome: Outcome, received: datetime) -> Outcome:
    """The sidecar that makes a second pass over the same mail a no-op."""
    mail = outcome.mail
    write_toml_atomic(
        inbox_paths(game.directory.inbox, outcome.key)[1],
        {
            "message_id": mail.message_id if mail else "",
            "from": mail.sender if mail else "",
            "subject": mail.subject if mail else "",
            "received": received,
            "status": outcome.status,
            "reason": outcome.reason,
            "power": outcome.power or "",
            "phase": game.slug,
            "flags": list(outcome.flags),
        },
    )
    return outcome


def current_orders_text(game: Game, civ: str) -> str:
    path = order_files(game).get(civ)
    return path.read_text(encoding="utf-8") if path else ""


def inbox_flags(game: Game) -> list[str]:
    """Everything the moderator should look at: From mismatches, late and rejected mails."""
    notes = []
    for meta in sorted(game.directory.inbox.glob("*.toml")):
        data = read_toml(meta)
        for flag in data.get("flags", []):
            notes.append(f"{data.get('power') or '?'}: {flag} ({data.get('message_id')})")
        if data.get("status") in ("late", "rejected") and data.get("phase") == game.slug:
            notes.append(f"{data.get('status')}: mail from {data.get('from')}: {data.get('reason')}")
    return notes
