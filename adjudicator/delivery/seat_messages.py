"""The mails about seats (issue 32): everyone told that a player keeps missing phases or that his
seat is open, and the substitute's welcome, which catches him up on the game he joins."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from email.message import EmailMessage

from adjudicator.core.i18n import Msg, t
from adjudicator.delivery.compose import make_message, moderator_address, moderator_name, to_player
from adjudicator.delivery.outbox import mail_identity, queue
from adjudicator.delivery.smtp import game_smtp
from adjudicator.game.game import Game
from adjudicator.game.seats import SeatNotice, SeatRules
from adjudicator.reports.render import Renderer

Outgoing = tuple[str, EmailMessage]  # (its identity in the outbox, the mail)


def notice_text(notice: SeatNotice, rules: SeatRules, label: str) -> Msg:
    """What a seat notice says, the same to every player and the moderator."""
    if notice.kind == "left":
        return t(
            "%(civ)s's player has left the game, so its seat is open. %(civ)s plays default orders, and "
            "nobody waits for it, until the moderator gives the seat to a new player.",
            civ=notice.civ,
        )
    if notice.kind == "open":
        return t(
            "%(civ)s has missed %(count)s phases (the last %(row)s in a row, up to %(label)s), so its seat is "
            "now open. %(civ)s plays default orders, and nobody waits for it, until the moderator gives the "
            "seat to a new player.",
            civ=notice.civ,
            count=notice.missed,
            row=notice.in_row,
            label=label,
        )
    return t(
        "%(civ)s has missed the last %(row)s phases (up to %(label)s) and played default orders. After "
        "%(limit)s in a row its seat opens for a new player. %(civ)s: send your orders, or declare an absence "
        "if you are away (mail 'absence' and the dates).",
        civ=notice.civ,
        row=notice.in_row,
        label=label,
        limit=rules.open_after or "—",
    )


def notice_messages(game: Game, notices: Sequence[SeatNotice], label: str, phase: str) -> list[Outgoing]:
    """Each notice to every player who holds a seat (the one it is about too, while he holds
    it) and to the moderator; one mail per notice and recipient, whatever reruns."""
    messages: list[Outgoing] = []
    smtp = game_smtp(game)
    for notice in notices:
        kind = f"seat-{notice.kind}-{notice.civ}"
        text = notice_text(notice, game.settings.seats, label)
        for player in game.settings.holders():
            if notice.kind != "warn" and player.civ == notice.civ:
                continue  # he is leaving the seat: his mail is the one below
            lang = game.settings.language_of(player.civ)
            title = t("Seat of %(civ)s", civ=notice.civ).render(lang)
            message = to_player(game, player, title, text.render(lang) + "\n")
            messages.append((mail_identity(game.settings.id, phase, kind, f"{player.civ}+{player.email}"), message))
        if notice.kind != "warn" and notice.email:  # the player who left: his seat is no longer his
            message = make_message(
                sender=moderator_address(game),
                sender_name=moderator_name(game, game.settings.lang),
                to=notice.email,
                to_name="",
                subject=f"[{game.settings.id}] " + t("Seat of %(civ)s", civ=notice.civ).render(game.settings.lang),
                body=text.render(game.settings.lang) + "\n",
            )
            messages.append((mail_identity(game.settings.id, phase, kind, notice.email), message))
        if smtp is not None and smtp.moderator:
            message = make_message(
                sender=moderator_address(game),
                sender_name=moderator_name(game, "en"),
                to=smtp.moderator,
                to_name="",
                subject=f"[{game.settings.id}] seat of {notice.civ}: {notice.kind}",
                body=text.render("en") + "\n\n" + _moderator_hint(game, notice) + "\n",
            )
            messages.append((mail_identity(game.settings.id, phase, kind, smtp.moderator), message))
    return messages


def _moderator_hint(game: Game, notice: SeatNotice) -> str:
    if notice.kind != "warn":
        return (
            f"To give the seat to a substitute: adjudicator seat GAME {notice.civ} --player EMAIL[:NAME]\n"
            "(he gets a new secret, the position, his hand, the last report and the order form)."
        )
    return f"If {notice.civ}'s player has left, open the seat now: adjudicator seat GAME {notice.civ} --open"


def substitute_message(game: Game, civ: str, secret: str) -> Outgoing:
    """The welcome of a player who takes a seat during the game: his secret, how to send orders,
    and where the game stands: his civilization's last report (its hand, what happened to it, the
    order form of the phase now open), made in his language, and the last public report."""
    from adjudicator.game.history import last_adjudicated
    from adjudicator.reports.order_form import order_form
    from adjudicator.reports.phase import PhaseReports, load_record

    player = game.settings.player(civ)
    assert player is not None and not player.open
    lang = game.settings.language_of(civ)
    info = game.phase_info
    slug = last_adjudicated(game)
    private = public = ""
    if slug is not None:
        private = PhaseReports(game, load_record(game, slug)).private(civ)
        page = game.directory.reports_folder(slug) / "public.txt"
        public = page.read_text(encoding="utf-8") if page.exists() else ""
    body = Renderer(game.ruleset.name, lang).render(
        "substitute.txt.j2",
        game=game,
        civ=civ,
        secret=secret,
        sender=moderator_address(game),
        private=private.rstrip("\n"),
        public=public.rstrip("\n"),
        form=order_form(game, game.position, civ, lang),
        next={"label": info.label, "step": info.step, "deadline": ""},
        state={"phase": info.phase, "step": info.step},
    )
    subject = t("Welcome: you take over %(civ)s", civ=civ).render(lang)
    message = to_player(game, player, subject, body)
    return mail_identity(game.settings.id, game.slug, "substitute", f"{civ}+{player.email}"), message


def queue_notices(game: Game, phase: str) -> Callable[[Sequence[SeatNotice]], None]:
    """What tells everyone of seat notices: their mails queued in the game's outbox/, once each
    (`phase` names the occasion in the mails' identities)."""

    def tell(notices: Sequence[SeatNotice]) -> None:
        if notices:
            queue(game.directory.outbox, notice_messages(game, notices, game.phase_info.label, phase))

    return tell
