"""Composing the judge's mail: messages built with the standard library (so a name or a
subject from a player can never start a header), from the game's moderator to a player."""

from __future__ import annotations

from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from adjudicator.core.i18n import t
from adjudicator.game.game import Game
from adjudicator.game.mail_settings import judge_address
from adjudicator.game.players import Player
from adjudicator.game.schedule import utc_now


def header_safe(text: str) -> str:
    """Names and subjects come from players: a line break in them must not start a header."""
    return " ".join(text.split())


def make_message(
    *,
    sender: str,
    sender_name: str,
    to: str,
    to_name: str,
    subject: str,
    body: str,
    in_reply_to: str = "",
    domain: str = "adjudicator.invalid",
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = Address(header_safe(sender_name), addr_spec=sender)
    message["To"] = Address(header_safe(to_name), addr_spec=to)
    message["Subject"] = header_safe(subject)
    message["Date"] = format_datetime(utc_now())
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or domain)
    if in_reply_to:
        message["In-Reply-To"] = header_safe(in_reply_to)
        message["References"] = header_safe(in_reply_to)
    message.set_content(body)
    return message


def placeholder_address(game: str) -> str:
    """The From of a game's mail queued while no [delivery.smtp] says one: nobody can answer
    it, so no mail ever leaves with it (`as_sent`)."""
    return f"moderator@{game}.invalid"


def to_player(
    game: Game, player: Player, subject: str, body: str, *, sender: str | None = None, in_reply_to: str = ""
) -> EmailMessage:
    """A mail from the game's moderator to one of its players, subject tagged with the game."""
    return make_message(
        sender=sender or moderator_address(game),
        sender_name=moderator_name(game, game.settings.language_of(player.civ)),
        to=player.email,
        to_name=player.name,
        subject=f"[{game.settings.id}] {subject}",
        body=body,
        in_reply_to=in_reply_to,
    )


def moderator_name(game: Game, lang: str) -> str:
    """The name the game's mail comes from, in the reader's language: `demo moderator`."""
    return t("%(game)s moderator", game=game.settings.id).render(lang)


def moderator_address(game: Game) -> str:
    """The From of the game's mail: [delivery.smtp] from, else a placeholder for outbox-only games."""
    return judge_address(game) or placeholder_address(game.settings.id)
