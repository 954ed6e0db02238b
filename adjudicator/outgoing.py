"""Mail the moderator sends: the last phase's reports, and reminders before a deadline."""

from __future__ import annotations

from email.message import EmailMessage

from adjudicator.game import Game
from adjudicator.intake.collect import game_settings, moderator_address, smtp_settings
from adjudicator.mailer import make_message, queue, send_queued
from adjudicator.phase_reports import PhaseReports, load_record
from adjudicator.reports import Renderer
from adjudicator.submissions import submitted

DRY_RUN_FOLDER = "dry-run"


def report_messages(game: Game) -> list[EmailMessage]:
    """Each player's private report to his address, and the public report to the list."""
    record = load_record(game)
    reports = PhaseReports(game, record)
    sender, tag = moderator_address(game), f"[{game.settings.id}]"
    label = f"T{record.before['turn']} {record.before['phase']}"
    messages = []
    for player in game.settings.players:
        if player.civ in record.after["players"] and not record.after["players"][player.civ]["neutral"]:
            messages.append(
                make_message(
                    sender=sender,
                    sender_name=f"{game.settings.id} moderator",
                    to=player.email,
                    to_name=player.name,
                    subject=f"{tag} {label}: your report, {player.civ}",
                    body=reports.private(player.civ),
                )
            )
    settings = smtp_settings(game.directory.game_file, game_settings(game, "delivery.smtp"))
    if settings is not None and settings.list_address:
        messages.append(
            make_message(
                sender=sender,
                sender_name=f"{game.settings.id} moderator",
                to=settings.list_address,
                to_name="",
                subject=f"{tag} {label}: the report",
                body=reports.public("txt"),
            )
        )
    return messages


def reminder_messages(game: Game) -> list[EmailMessage]:
    """A reminder to every player whose orders the next adjudication still needs."""
    due = game.ruleset.due(game.position, game.settings.mode == "stepwise")
    missing = [civ for civ in due if civ not in submitted(game)]
    deadline = game.deadline()
    renderer = Renderer(game.ruleset.name)
    messages = []
    for civ in missing:
        player = game.settings.player(civ)
        if player is None:
            continue
        body = renderer.render(
            "reminder.txt.j2",
            game=game,
            civ=civ,
            label=game.phase_info.label,
            deadline=game.settings.schedule.local(deadline) if deadline else "",
        )
        messages.append(
            make_message(
                sender=moderator_address(game),
                sender_name=f"{game.settings.id} moderator",
                to=player.email,
                to_name=player.name,
                subject=f"[{game.settings.id}] Reminder: orders for {game.phase_info.label}",
                body=body,
            )
        )
    return messages


def deliver(game: Game, messages: list[EmailMessage], label: str, dry_run: bool) -> str:
    """Queue in outbox/ (or outbox/dry-run/ only), then send when [delivery.smtp] is set."""
    if not messages:
        return "nothing to send"
    outbox = game.directory.root / "outbox"
    if dry_run:
        paths = queue(outbox / DRY_RUN_FOLDER, messages, label)
        return f"{len(paths)} mail(s) written to {paths[0].parent} (dry run: nothing sent)"
    paths = queue(outbox, messages, label)
    settings = smtp_settings(game.directory.game_file, game_settings(game, "delivery.smtp"))
    if settings is None:
        return f"{len(paths)} mail(s) written to {outbox}; add [delivery.smtp] to game.toml to have them sent"
    pending = sorted(outbox.glob("*.eml"))
    return f"{send_queued(settings, pending)} mail(s) sent through {settings.host}"
