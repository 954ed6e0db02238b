"""What the inbox's records say still needs the moderator in this phase, for `status`: read from
the records `receive` writes beside each mail, without the mail-reading modules (issue 31)."""

from __future__ import annotations

from adjudicator.game.directory import Folder
from adjudicator.game.game import Game
from adjudicator.game.storage import read_toml


def inbox_flags(game: Game) -> list[str]:
    """What still needs the moderator in this phase: a right password from another address,
    a late mail not yet accepted, a rejected mail not followed by good orders from the same
    player, and a mail in quarantine (until the moderator removes it)."""
    entries = [read_toml(meta) for meta in game.directory.inbox.glob("*.toml")]
    entries = sorted((e for e in entries if e.get("phase") == game.slug), key=lambda e: str(e.get("received", "")))
    settled: dict[str, str] = {}  # power -> when its last good orders came
    for entry in entries:
        if entry.get("status") in ("accepted", "late-accepted") and entry.get("power"):
            settled[entry["power"]] = str(entry.get("received", ""))
    notes = []
    for entry in entries:
        power, sender = entry.get("power") or "", entry.get("from") or ""
        who = f"mail from {sender}" if sender else "mail with no sender address (no reply was sent)"
        for flag in entry.get("flags", []):
            notes.append(f"{power or '?'}: {flag} ({entry.get('message_id')})")
        if entry.get("status") == "late":
            notes.append(f"late: {who}: {entry.get('reason')} (adjudicator accept-late GAME {power})")
        elif entry.get("status") == "rejected" and not (power and settled.get(power, "") >= str(entry["received"])):
            notes.append(f"rejected: {who}: {entry.get('reason')}")
    folders = [game.directory.quarantine]
    games_folder = Folder(game.directory.root.parent)
    if games_folder.settings_file.exists():
        folders.append(games_folder.quarantine)
    for folder in folders:
        for meta in sorted(folder.glob("*.toml")):
            reason = read_toml(meta).get("reason")
            notes.append(f"quarantined: {meta.with_suffix('.eml')}: {reason} (delete it when done)")
    return notes
