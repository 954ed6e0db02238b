"""Which game a mail is for: its subject tag, else its `game` line, else the only game, else
the one game whose player sent it; or why none is (the mail then goes to quarantine/)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.game.game import Game
from adjudicator.intake.mail import MailRejected, MailText
from adjudicator.intake.receive import UnreadableMail, mail_headers, read_mail
from adjudicator.language.submission import TooManyOrders, parse_submission


@dataclass(frozen=True, slots=True)
class Route:
    """Where a mail goes: its game (None: quarantine, for `reason`), the mail as read (None
    when it cannot be read as orders), or `held`: it stays on the server for now, because."""

    game: Game | None
    mail: MailText | None
    reason: str = ""
    held: str = ""
    refused: MailRejected | None = None  # why the mail cannot be read as orders (its game says so)


def route(games: dict[str, Game], raw: bytes, held: Mapping[str, str] | None = None) -> Route:
    """Which game a mail is for: its subject tag, else its `game` line, else the only game,
    else the one game whose player sent it. A mail for a game in `held` (id -> why) stays on
    the server: a game that cannot be loaded now, or one that another collect reads."""
    held = held or {}
    try:
        mail = read_mail(raw)
    except UnreadableMail as error:
        return Route(None, None, f"{error}; read it, and enter its orders with 'adjudicator submit' if they are sound")
    except MailRejected as error:  # too big, no text: its game answers it, if the subject names one
        wanted = mail_headers(raw).subject_tag()
        if wanted is not None and wanted in held:
            return Route(None, None, held=f"a mail for {wanted} stays on the server: {held[wanted]}")
        if wanted in games:
            return Route(games[wanted], None, refused=error)
        if len(games) == 1:
            return Route(next(iter(games.values())), None, refused=error)
        return Route(None, None, str(error))
    wanted = mail.subject_tag()
    if wanted is None:
        any_game = next(iter(games.values()))
        try:
            wanted = parse_submission(mail.text, any_game.parser, headers_only=True).game
        except TooManyOrders:
            wanted = None  # its game, if any, refuses it with the reason
    if wanted is None:
        if len(games) == 1:
            return Route(next(iter(games.values())), mail)
        theirs = [g for g in games.values() if any(p.mails_from(mail.sender) for p in g.settings.players)]
        if len(theirs) == 1 and mail.sender:
            return Route(theirs[0], mail)
        return Route(None, mail, "the mail names no game: put [game-id] in the subject or a line 'game ID' in the text")
    if wanted in held:
        return Route(
            None, mail, held=f"a mail for {wanted} from {mail.sender or '?'} stays on the server: {held[wanted]}"
        )
    if wanted in games:
        return Route(games[wanted], mail)
    return Route(None, mail, f"there is no game '{wanted}' here (games: {', '.join(games)})")
