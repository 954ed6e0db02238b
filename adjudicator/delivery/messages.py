"""The mails the moderator sends: the last phase's reports, and reminders before a deadline."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from datetime import timedelta
from email.message import EmailMessage

from adjudicator.core.i18n import t
from adjudicator.delivery.compose import make_message, moderator_address, moderator_name, to_player
from adjudicator.delivery.outbox import Hitch, flush, mail_identity, pending, queue, read_queued
from adjudicator.delivery.smtp import as_sent, game_smtp
from adjudicator.game.directory import ROOT_SETTINGS
from adjudicator.game.directory import order_page_name as page_name
from adjudicator.game.game import Game
from adjudicator.game.storage import PRIVATE, write_text_atomic
from adjudicator.game.submissions import missing_orders
from adjudicator.reports.phase import PhaseReports, load_record, record_label
from adjudicator.reports.render import Renderer

DRY_RUN_FOLDER = "dry-run"


Outgoing = tuple[str, EmailMessage]  # (its identity: game, phase, kind, recipient; the mail)


def _identified(game: Game, phase: str, kind: str, message: EmailMessage, civ: str = "") -> Outgoing:
    """A player's mail is one per recipient, unless players share the address: then one per player
    too, or the second player's welcome (his secret) or report would count as sent already."""
    recipient = str(message["To"].addresses[0].addr_spec)
    sharing = sum(1 for p in game.settings.players if p.email.lower() == recipient.lower()) > 1
    return mail_identity(game.settings.id, phase, kind, f"{civ}+{recipient}" if civ and sharing else recipient), message


def report_messages(game: Game) -> list[Outgoing]:
    """Each player's private report to his address, his order page attached, and the public report
    to the list."""
    record = load_record(game)
    reports = PhaseReports(game, record)
    sender, tag = moderator_address(game), f"[{game.settings.id}]"
    label = record_label(game, record.before)
    after = game.ruleset.position_from_data(game.board, record.after)
    playing = game.ruleset.playing(after)
    messages = []
    for player in game.settings.holders():
        if player.civ in playing:
            subject = t("%(label)s: your report, %(civ)s", label=label, civ=player.civ)
            lang = game.settings.language_of(player.civ)
            message = to_player(game, player, subject.render(lang), reports.private(player.civ))
            message.add_attachment(_order_page(game, reports, record.slug, player.civ), subtype="html",
                                   filename=page_name(player.civ))  # fmt: skip
            messages.append(_identified(game, record.slug, "report", message, player.civ))
    settings = game_smtp(game)
    if settings is not None and settings.list_address:
        lang = game.settings.lang  # the public report's: the game's language
        message = make_message(
            sender=sender,
            sender_name=moderator_name(game, lang),
            to=settings.list_address,
            to_name="",
            subject=f"{tag} " + t("%(label)s: the report", label=label).render(lang),
            body=reports.public("txt"),
        )
        messages.append(_identified(game, record.slug, "public-report", message))
    return messages


def _order_page(game: Game, reports: PhaseReports, slug: str, civ: str) -> str:
    """His order page as it is now: made again, since its "Mail it" address ([delivery.smtp] from)
    may have been set after the phase was adjudicated; private/ gets the same page."""
    html = reports.order_page(civ)
    page = game.directory.order_page(slug, civ)
    if not page.is_file() or page.read_text(encoding="utf-8") != html:
        game.directory.make_private_folder(slug)
        write_text_atomic(page, html, mode=PRIVATE)
    return html


def welcome_messages(game: Game, secrets: Mapping[str, str]) -> list[Outgoing]:
    """Each player's welcome after `new`: his civilization, his secret, how to send orders,
    and the order form for the first phase. One per player and game."""
    from adjudicator.reports.order_form import order_form

    sender = moderator_address(game)
    info = game.phase_info
    state = {"phase": info.phase, "step": info.step}
    messages = []
    for player in game.settings.players:
        lang = game.settings.language_of(player.civ)
        body = Renderer(game.ruleset.name, lang).render(
            "welcome.txt.j2",
            game=game,
            civ=player.civ,
            secret=secrets[player.civ],
            sender=sender,
            next={"label": info.label, "step": info.step, "deadline": ""},
            state=state,
            form=order_form(game, game.position, player.civ, lang),
        )
        subject = t("Welcome: you play %(civ)s", civ=player.civ).render(lang)
        message = to_player(game, player, subject, body, sender=sender)
        messages.append(_identified(game, game.slug, "welcome", message, player.civ))
    return messages


def reminder_messages(
    game: Game, before: timedelta | None = None, civs: Collection[str] | None = None
) -> list[Outgoing]:
    """A reminder to every player whose orders the next adjudication still needs (of `civs`
    only, when given: quiet hours time each player's own): one per player and deadline
    (setting a new deadline allows a new reminder), and with `before` (the scheduled reminders
    of `run`) one per player, deadline and time before it."""
    missing = [civ for civ in missing_orders(game) if civs is None or civ in civs]
    deadline = game.deadline()
    kind = f"reminder-{deadline:%Y%m%dT%H%M}" if deadline else "reminder"
    if before is not None:
        kind += f"-{int(before.total_seconds() // 60)}m"
    messages = []
    for civ in missing:
        player = game.settings.player(civ)
        if player is None:
            continue
        lang = game.settings.language_of(civ)
        body = Renderer(game.ruleset.name, lang).render(
            "reminder.txt.j2",
            game=game,
            civ=civ,
            label=game.phase_info.label,
            deadline=game.settings.local(deadline, civ) if deadline else "",
        )
        subject = t("Reminder: orders for %(label)s", label=game.phase_info.label).render(lang)
        message = to_player(game, player, subject, body)
        messages.append(_identified(game, game.slug, kind, message, civ))
    return messages


def deliver(game: Game, messages: list[Outgoing], label: str, dry_run: bool) -> str:
    """Queue in outbox/ (or outbox/dry-run/ only), then send what waits when [delivery.smtp]
    is set. A mail already queued or sent (same game, phase, kind, recipient) is not queued again."""
    outbox = game.directory.outbox
    if not messages and not pending(outbox):
        return "nothing to send"
    if dry_run:  # what `send` would send: these, and what waits in outbox/, as each would leave
        settings = game_smtp(game)
        waiting = [(path.stem, read_queued(path)) for path in pending(outbox)]
        if settings is not None:
            waiting = [(identity, as_sent(message, settings)) for identity, message in waiting]
        paths = queue(outbox / DRY_RUN_FOLDER, [*messages, *waiting], again=True)
        before = f", {len(waiting)} of them waiting in outbox/ already" if waiting else ""
        return f"{len(paths)} mail(s) written to {outbox / DRY_RUN_FOLDER}{before} (dry run: nothing sent)"
    paths = queue(outbox, messages)
    known = len(messages) - len(paths)
    earlier = f"; {known} of the {label}(s) were queued or sent before and are not sent again" if known else ""
    flushed = flush(outbox, functools.partial(game_smtp, game))
    if flushed.hitch is Hitch.NO_SETTINGS:
        return (
            f"{flushed.waiting} mail(s) wait in {outbox}{earlier}; "
            f"add [delivery.smtp] to game.toml (or to the games folder's {ROOT_SETTINGS}) to have them sent"
        )
    if flushed.error is not None:  # sending is all `send` is for: its failure is the command's
        raise flushed.error
    return f"{flushed.sent} mail(s) sent" + (f" through {flushed.host}" if flushed.host else "") + earlier
