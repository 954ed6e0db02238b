"""The judge's answer to one mail: a receipt with every line OK or its error and the orders now
on file, an answer to the player's requests, or why the mail was not accepted."""

from __future__ import annotations

from email.message import EmailMessage

from adjudicator.core.i18n import t
from adjudicator.core.passwords import without_secret
from adjudicator.delivery.compose import make_message, moderator_address, moderator_name, to_player
from adjudicator.game.game import Game
from adjudicator.game.players import Player
from adjudicator.intake.receive import Fate, MailFate, current_orders_text
from adjudicator.reports.render import Renderer


def receipt(
    game: Game, outcome: MailFate, renderer: Renderer | None = None, sender: str | None = None
) -> EmailMessage | None:
    """The answer to a mail: every line with OK or its error and the orders now on file. A
    mail that did not show the player's password is answered at a registered player's address
    only, and its reply echoes nothing of it (not even the subject): the judge relays no
    stranger's words. Whatever a password opened goes to that player's registered address."""
    if outcome.status == Fate.DUPLICATE or outcome.mail is None:
        return None
    sender = sender or moderator_address(game)
    if not outcome.authenticated:
        known = registered_player(game, outcome.mail.sender)
        if outcome.status != Fate.REJECTED or known is None:
            return None
        lang = game.settings.language_of(known.civ)
        renderer = renderer if renderer is not None and renderer.lang == lang else Renderer(game.ruleset.name, lang)
        body = renderer.render("rejection.txt.j2", game=game, mail=None, reason=outcome.reason, answers=())
        return make_message(
            sender=sender,
            sender_name=moderator_name(game, lang),
            to=outcome.mail.sender,
            to_name="",
            subject=f"[{game.settings.id}] " + t("Your mail was not accepted").render(lang),
            body=body,
            in_reply_to=outcome.mail.message_id,  # a header the client threads by, never shown as text
        )
    player = game.settings.player(outcome.power or "")
    assert player is not None
    if player.open:  # he has just resigned: the answer goes to the address the seat had
        player = _former_holder(game, player.civ)
        if player is None:
            return None
    lang = game.settings.language_of(player.civ)
    if renderer is None or renderer.lang != lang:
        renderer = Renderer(game.ruleset.name, lang)
    label = game.phase_info.label
    if outcome.status == Fate.REJECTED:  # the password was right: the player's own address hears why
        body = renderer.render(
            "rejection.txt.j2", game=game, mail=outcome.mail, reason=outcome.reason, answers=outcome.answers
        )
        subject = t("Not accepted: %(civ)s, %(label)s", civ=player.civ, label=label)
    elif outcome.status == Fate.ANSWERED:
        body = renderer.render("answer.txt.j2", game=game, mail=outcome.mail, answers=outcome.answers)
        subject = t("Answer: %(civ)s, %(label)s", civ=player.civ, label=label)
    else:
        assert outcome.checked is not None
        body = renderer.render(
            "receipt.txt.j2",
            checked=outcome.checked,
            stored=None,
            late=outcome.status == Fate.LATE,
            current=current_orders_text(game, player.civ),
            answers=outcome.answers,
        )
        if outcome.status == Fate.LATE:
            subject = t("LATE orders: %(civ)s, %(label)s", civ=player.civ, label=label)
        else:
            subject = t("Orders received: %(civ)s, %(label)s", civ=player.civ, label=label)
    body = without_secret(body, outcome.password)  # an error quoting a line quotes no secret
    return to_player(game, player, subject.render(lang), body, sender=sender, in_reply_to=outcome.mail.message_id)


def registered_player(game: Game, address: str) -> Player | None:
    """The player of this game whose registered address this is, if any."""
    return next((p for p in game.settings.players if p.mails_from(address)), None)


def _former_holder(game: Game, civ: str) -> Player | None:
    from adjudicator.game import seats

    former = seats.load(game.directory).former(civ)
    return Player(civ, former.email, "", former.name) if former is not None else None
