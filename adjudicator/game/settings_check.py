"""Checks of game.toml that reach beyond one table: the mail settings ([intake.imap],
[delivery.smtp], also in a games folder's intake.toml) and the players against the board and
the position. A typo in a hand-edited settings file is an error naming the key, never ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from adjudicator.core.errors import DataError, GameFileError
from adjudicator.core.fields import Fields
from adjudicator.game.destinations import parse_destinations
from adjudicator.game.players import Player
from adjudicator.game.storage import read_toml
from adjudicator.rulesets import Ruleset

# The keys intake/imap.py (ImapSettings) and delivery/smtp.py (SmtpSettings) read, with their kind:
# the parsers take their lists from here, so game.toml is checked whole at load.
IMAP_KEYS: Mapping[str, type] = {
    "host": str,
    "port": int,
    "security": str,
    "user": str,
    "password_env": str,
    "folder": str,
    "processed": str,
    "processed_folder": str,
    "quarantine_folder": str,
    "flag": str,
    "cafile": str,
}
SMTP_KEYS: Mapping[str, type] = {
    "host": str,
    "port": int,
    "security": str,
    "user": str,
    "password_env": str,
    "from": str,
    "from_name": str,
    "list": str,
    "moderator": str,
    "cafile": str,
}
MAIL_TABLES: Mapping[str, tuple[str, Mapping[str, type]]] = {
    "intake": ("imap", IMAP_KEYS),
    "delivery": ("smtp", SMTP_KEYS),
}


def check_mail_tables(root: Fields) -> None:
    """[intake.imap] and [delivery.smtp]: known keys of the right kind (the values are checked
    where they are used, since a password comes from the environment only then)."""
    for section, (name, keys) in MAIL_TABLES.items():
        if section not in root:
            continue
        table = root.table(section)
        table.only({name})
        if name not in table:
            continue
        settings = table.table(name)
        settings.only(keys)
        for key, kind in keys.items():
            if kind is int:
                settings.integer(key, None, minimum=1)
            else:
                settings.text(key, None)


def check_intake_file(path: Path, document: Mapping[str, Any] | None = None) -> None:
    """A games folder's intake.toml (`collect games/ --imap`): only [intake.imap], [delivery.smtp]
    and the [[notify]] destinations of every game in the folder.
    `document`: the file as already read, so that it is not read twice."""
    root = Fields(read_toml(path) if document is None else document)
    try:
        root.only({*MAIL_TABLES, "notify"})
        check_mail_tables(root)
        parse_destinations(root.tables("notify", []))
    except DataError as error:
        raise GameFileError.from_data_error(path, error) from None


def check_players(
    players: Sequence[Player], ruleset: Ruleset[Any, Any, Any], board: Any, playing: Sequence[str]
) -> tuple[Player, ...]:
    """game.toml's players with their civ as the board spells it; each a civilization of the
    board, given once, and playing in the position, and every playing civilization has one."""
    checked: list[Player] = []
    for index, player in enumerate(players):
        key = f"player[{index}].civ"
        match = ruleset.find_civ(board, player.civ)
        if len(match.keys) != 1:
            hint = (
                "did you mean " + " or ".join(f"'{s}'" for s in match.suggestions) + "?"
                if match.suggestions
                else f"the {ruleset.player_word}s are {', '.join(ruleset.civilizations(board))}"
            )
            raise DataError(key, f"'{player.civ}' is not a {ruleset.player_word} of this board; {hint}")
        civ = match.keys[0]
        earlier = next((i for i, p in enumerate(checked) if p.civ == civ), None)
        if earlier is not None:
            raise DataError(key, f"{civ} is already played by player[{earlier}]; remove one of the two [[player]]s")
        if civ not in playing:
            rule = ruleset.neutrals_rule
            neutral = f"is neutral in this game ({rule})" if rule else "does not play in this game"
            raise DataError(key, f"{civ} {neutral}, so it has no player; correct the civ or remove this [[player]]")
        same_forum = next((i for i, p in enumerate(checked) if p.forum and p.posts_as(player.forum)), None)
        if same_forum is not None:
            raise DataError(
                f"player[{index}].forum",
                f"'{player.forum}' is already the forum name of player[{same_forum}]; "
                "each player posts under his own name",
            )
        checked.append(replace(player, civ=civ))
    for civ in playing:
        if all(p.civ != civ for p in checked):
            raise DataError(
                "player",
                f'{civ} plays in state.toml but has no [[player]]; add one with civ = "{civ}", email and secret_hash',
            )
    return tuple(checked)
