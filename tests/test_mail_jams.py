"""Orders by mail when things go wrong (issue 13): a malformed mail, a crash or a lost
connection mid-run, two collects at once, sends that fail and are retried, a folder of games
sharing its settings, and what the moderator is shown. Real servers on loopback throughout:
Dovecot for IMAP (restartable here), aiosmtpd for SMTP."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import adjudicator.game.players as players_module
import adjudicator.game.storage as storage_module
import adjudicator.intake.collect as collect_module
from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from adjudicator.intake.collect import collect
from adjudicator.intake.imap import ImapSettings, Mailbox
from tests.conftest import FIVE, player_args
from tests.mail_servers import (
    PASSWORD,
    USER,
    SmtpServer,
    _wait_for_greeting,
    dovecot_binary,
    dovecot_config,
    free_port,
    imap_server,
    smtp_server,
)
from tests.test_mail import ROME_OK, deliver, mail, mailbox, settings_toml

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def orders_of(civ: str, extra: str = "") -> str:
    return ROME_OK.replace("Rome", civ).replace("rome-", f"{civ.lower()}-") + extra


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, SmtpServer]]:
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    with imap_server() as imap_port, smtp_server() as smtp:
        yield imap_port, smtp


@pytest.fixture
def mailed_game(make_game: Callable[..., Game], servers: tuple[int, SmtpServer]) -> Game:
    game = make_game()
    with game.directory.game_file.open("a") as handle:
        handle.write(settings_toml(servers[0], servers[1].port))
    return Game.load(game.directory.root)


def status_of(game: Game) -> str:
    result = runner.invoke(app, ["status", str(game.directory.root)])
    assert result.exit_code == 0, result.output
    return result.stdout


def in_reply_to(smtp: SmtpServer) -> list[str]:
    return [str(message["In-Reply-To"]) for _, _, message in smtp.received]


class Crash(BaseException):
    """The process dies (kill -9, power cut) right after a mail was handled."""


def stop_after(monkeypatch: pytest.MonkeyPatch, count: int, action: Callable[[], None]) -> None:
    """Run `action` once `count` mails went through collect's receive()."""
    real = collect_module.receive
    seen = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        outcome = real(*args, **kwargs)
        seen[0] += 1
        if seen[0] == count:
            action()
        return outcome

    monkeypatch.setattr(collect_module, "receive", counting)


# 1: one malformed mail never blocks the others


def test_a_mail_nested_three_thousand_deep_is_refused_unread_and_the_others_are_read(
    mailed_game: Game, servers: tuple[int, SmtpServer]
) -> None:
    """Once a RecursionError in the email package (quarantined); since issue 27 its MIME parts
    are counted on the raw bytes, so it is refused before any parser sees it."""
    if dovecot_binary() is None:
        pytest.skip("pymap, the IMAP server used where Dovecot is not installed, fails on this mail itself")
    imap_port, smtp = servers
    nested = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (n, n) for n in range(3000))
    bomb = (
        b"From: Player <rome@example.org>\r\nTo: gm@example.org\r\nSubject: orders\r\n"
        b"Message-ID: <bomb@example.org>\r\nMIME-Version: 1.0\r\n" + nested + ROME_OK.replace("\n", "\r\n").encode()
    )
    deliver(imap_port, bomb, mail(orders_of("Egypt"), sender="egypt@example.org"))
    report = collect(mailed_game.directory.root, imap=True)
    assert "rejected from rome@example.org: the mail is over one of the judge's limits (more than 100 MIME parts" in (
        report.text
    ), report.text
    assert "accepted from Egypt" in report.text
    kept = [p for p in (mailed_game.directory.root / "inbox").glob("*.eml") if p.read_bytes() == bomb]
    assert kept, "the raw bytes are saved whatever they hold"
    assert sorted(rcpt for _, rcpts, _ in smtp.received for rcpt in rcpts) == ["egypt@example.org", "rome@example.org"]
    client = mailbox(imap_port)
    assert client.search(["ALL"]) == [], "nothing is left to block the next run"
    client.logout()
    assert "No new mail." in collect(mailed_game.directory.root, imap=True).text
    assert "more than 100 MIME parts" in status_of(mailed_game)


def test_a_from_name_hiding_a_line_break_is_read_and_answered_on_clean_headers(
    mailed_game: Game, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    evil_from = b"From: =?utf-8?q?Evil=0D=0ABcc=3A_x=40y?= <rome@example.org>\r\nTo: gm@example.org\r\n"
    evil = (
        evil_from
        + b"Subject: orders\r\nMessage-ID: <evil@example.org>\r\n\r\n"
        + ROME_OK.replace("\n", "\r\n").encode()
    )
    wrong = ROME_OK.replace("rome-secret", "guess").replace("\n", "\r\n").encode()
    evil_wrong = evil_from + b"Subject: orders\r\nMessage-ID: <evil-2@example.org>\r\n\r\n" + wrong
    deliver(imap_port, evil, evil_wrong, mail(orders_of("Egypt"), sender="egypt@example.org"))
    report = collect(mailed_game.directory.root, imap=True)
    assert "quarantined" not in report.text, report.text
    assert "accepted from Rome" in report.text and "rejected from Rome: the password" in report.text
    assert "accepted from Egypt" in report.text
    assert len(smtp.received) == 3 and all(
        rcpts in (["rome@example.org"], ["egypt@example.org"]) for _, rcpts, _ in smtp.received
    )
    receipt, rejection = smtp.messages_to("rome@example.org")
    assert "Orders received" in receipt["Subject"] and "not accepted" in rejection["Subject"]
    for message in (receipt, rejection):
        assert "Bcc" not in message, "the name's line break never reaches a header"
        (to,) = message["To"].addresses
        assert to.addr_spec == "rome@example.org" and "\n" not in to.display_name and "\r" not in to.display_name
    assert [line for line in rejection.as_string().splitlines() if line.lower().startswith("bcc")] == []
    client = mailbox(imap_port)
    assert client.search(["ALL"]) == []
    client.logout()


@pytest.mark.parametrize("from_line", [b"", b"From: undisclosed-recipients:;\r\n"])
def test_a_wrong_password_from_no_address_is_rejected_without_a_reply(
    mailed_game: Game, servers: tuple[int, SmtpServer], from_line: bytes
) -> None:
    imap_port, smtp = servers
    raw = from_line + b"Subject: orders\r\nMessage-ID: <anon@example.org>\r\n\r\npower Rome\r\npassword nope\r\n"
    deliver(imap_port, raw)
    result = runner.invoke(app, ["collect", str(mailed_game.directory.root), "--imap"])
    assert result.exit_code == 0, result.output
    assert "rejected from Rome" in result.stdout and "a mail with no sender address was rejected" in result.stdout
    assert smtp.received == [], "there is no address to answer"
    assert "rejected: mail with no sender address (no reply was sent)" in status_of(mailed_game)


# 2: each receipt is queued as soon as its mail is read


def test_a_crash_after_some_mails_loses_no_receipt_and_sends_none_twice(
    mailed_game: Game, servers: tuple[int, SmtpServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    imap_port, smtp = servers
    bodies = [orders_of(civ) for civ in FIVE] + [orders_of("Rome").replace("wine, metal", "tax")]
    deliver(imap_port, *(mail(body, sender="rome@example.org") for body in bodies))
    stop_after(monkeypatch, 3, lambda: (_ for _ in ()).throw(Crash()))
    with pytest.raises(Crash):
        collect(mailed_game.directory.root, imap=True)
    assert len(list((mailed_game.directory.root / "outbox").glob("*.eml"))) == 3, "3 receipts wait on disk"
    assert smtp.received == []
    monkeypatch.undo()
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    again = collect(mailed_game.directory.root, imap=True)
    # The server hears of a batch of mails only once all of it is on disk: the 3 read before
    # the crash are offered again and recognised.
    assert again.text.count("duplicate") == 3 and again.text.count("accepted") == 3, again.text
    replies = in_reply_to(smtp)
    assert len(replies) == 6 and len(set(replies)) == 6, "every mail answered exactly once"
    assert "No new mail." in collect(mailed_game.directory.root, imap=True).text
    assert len(smtp.received) == 6


# 3: an outgoing mail has an identity and is sent at most once


def test_send_after_failed_sends_mails_each_report_once(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    smtp = servers[1]
    root = str(mailed_game.directory.root)
    assert runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"]).exit_code == 0
    game_file = mailed_game.directory.game_file
    good = game_file.read_text()
    game_file.write_text(good.replace(f"port = {smtp.port}", f"port = {free_port()}"))
    for _ in range(3):
        failed = runner.invoke(app, ["send", root])
        assert failed.exit_code == 1 and "wait in outbox/" in failed.stderr, failed.output
    game_file.write_text(good)
    sent = runner.invoke(app, ["send", root])
    assert sent.exit_code == 0 and "6 mail(s) sent" in sent.stdout, sent.output
    again = runner.invoke(app, ["send", root])
    assert "0 mail(s) sent" in again.stdout and "6 of the report(s) were queued or sent before" in again.stdout
    for civ in FIVE:
        assert len(smtp.messages_to(f"{civ.lower()}@example.org")) == 1
    assert len(smtp.messages_to("list@example.org")) == 1
    assert len(list((mailed_game.directory.root / "outbox" / "sent").glob("*.eml"))) == 6


# 4: two collects at once; the IMAP server lost mid-run


def test_two_collects_at_once_save_and_answer_each_mail_once(
    mailed_game: Game, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    deliver(imap_port, *(mail(orders_of("Rome", f"# mail {n}\n")) for n in range(30)))
    command = [sys.executable, "-m", "adjudicator", "collect", str(mailed_game.directory.root), "--imap"]
    env = {**os.environ, "ADJ_TEST_MAIL_PASSWORD": PASSWORD}
    runs = [subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in "ab"]
    outputs = [run.communicate(timeout=120) for run in runs]
    for run, (_, err) in zip(runs, outputs, strict=True):
        code = run.returncode
        assert b"Traceback" not in err and (code == 0 or err.count(b"\n") == 1), err.decode()
        assert code == 0 or b"another 'adjudicator collect' is reading mail" in err
    assert sorted(run.returncode for run in runs) == [0, 1], "the two ran at once: the second one stopped"
    assert len(list(mailed_game.directory.inbox.glob("*.eml"))) == 30
    replies = in_reply_to(smtp)
    assert len(replies) == 30 and len(set(replies)) == 30
    client = mailbox(imap_port)
    assert client.search(["ALL"]) == []
    client.logout()


def test_a_mail_another_client_moved_away_is_skipped(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    deliver(servers[0], mail(ROME_OK), mail(orders_of("Egypt")))
    settings = ImapSettings("127.0.0.1", servers[0], "plain", USER, PASSWORD, "INBOX", "move", "Processed", "Q", "", "")
    with Mailbox(settings) as first, Mailbox(settings) as second:
        messages = first.new_messages()
        uid, _ = next(messages)
        for other, _ in second.new_messages():
            second.mark_processed(other)
        first.mark_processed(uid)  # gone already: no EXPUNGEISSUED error
        assert list(messages) == []


@contextmanager
def restartable_dovecot() -> Iterator[tuple[int, Callable[[], None], Callable[[], None]]]:
    """Dovecot with its mail kept on disk: yields (port, stop, start)."""
    binary = dovecot_binary()
    if binary is None:
        pytest.skip("stopping and restarting the IMAP server needs Dovecot")
    port, folder = free_port(), tempfile.mkdtemp(prefix="imap-")
    os.chmod(folder, 0o755)
    conf = dovecot_config(folder, port)
    processes: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        command = [binary, "-F", "-c", str(conf)]
        processes.append(subprocess.Popen(command, start_new_session=True, stderr=subprocess.DEVNULL))
        _wait_for_greeting(port)

    def stop() -> None:
        if processes and processes[-1].poll() is None:
            os.killpg(processes[-1].pid, signal.SIGKILL)
            processes[-1].wait()

    try:
        start()
        yield port, stop, start
    finally:
        stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_imap_server_stopped_mid_run_ends_in_one_line_and_a_rerun_finishes(
    make_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADJ_TEST_MAIL_PASSWORD", PASSWORD)
    with restartable_dovecot() as (imap_port, stop, start), smtp_server() as smtp:
        game = make_game()
        with game.directory.game_file.open("a") as handle:
            handle.write(settings_toml(imap_port, smtp.port))
        deliver(imap_port, *(mail(orders_of(civ), sender=f"{civ.lower()}@example.org") for civ in FIVE))
        stop_after(monkeypatch, 2, stop)
        result = runner.invoke(app, ["collect", str(game.directory.root), "--imap"])
        assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.output
        assert "error: the connection to the IMAP server 127.0.0.1" in result.stderr
        assert "the 2 mail(s) read before that are saved and answered" in result.stderr
        assert len(smtp.received) == 2, "the receipts of the mails read are sent before the error"
        monkeypatch.setattr(collect_module, "receive", _real_receive)
        start()
        again = runner.invoke(app, ["collect", str(game.directory.root), "--imap"])
        assert again.exit_code == 0, again.output
        assert again.stdout.count("accepted") == 3 and again.stdout.count("duplicate") == 2, again.stdout
        replies = in_reply_to(smtp)
        assert len(replies) == 5 and len(set(replies)) == 5
        assert len(list(game.directory.inbox.glob("*.eml"))) == 5


_real_receive = collect_module.receive


# 5: a folder of games shares intake.toml


def test_a_games_folder_mails_receipts_with_its_intake_settings(
    tmp_path: Path, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    root = tmp_path / "games"
    for name in ("alpha", "beta"):
        Game.create(root / name, [parse_player_spec(p) for p in player_args(FIVE)])
    (root / "intake.toml").write_text(settings_toml(imap_port, smtp.port))
    with (root / "beta" / "game.toml").open("a") as handle:
        handle.write('\n[delivery.smtp]\nfrom = "beta-gm@example.org"\n')
    deliver(imap_port, mail(ROME_OK.replace("test-game", "alpha")), mail(ROME_OK.replace("test-game", "beta")))
    result = runner.invoke(app, ["collect", str(root), "--imap"])
    assert result.exit_code == 0 and "alpha: 1 mail(s) sent" in result.stdout, result.output
    senders = sorted(str(message["From"].addresses[0].addr_spec) for message in smtp.messages_to("rome@example.org"))
    assert senders == ["beta-gm@example.org", USER], "intake.toml applies to each game; game.toml overrides a key"
    reminded = runner.invoke(app, ["remind", str(root / "alpha")])
    assert reminded.exit_code == 0 and "4 mail(s) sent through 127.0.0.1" in reminded.stdout, reminded.output


# 7: raw mails hold passwords


def test_raw_mails_and_their_folders_are_private_to_the_moderator(
    tmp_path: Path, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    root = tmp_path / "games"
    Game.create(root / "alpha", [parse_player_spec(p) for p in player_args(FIVE)])
    Game.create(root / "beta", [parse_player_spec(p) for p in player_args(FIVE)])
    (root / "intake.toml").write_text(settings_toml(imap_port, smtp.port))
    deliver(imap_port, mail(ROME_OK.replace("test-game", "alpha")), mail(ROME_OK.replace("test-game", "gamma")))
    collect(root, imap=True)
    for folder in (root / "alpha" / "inbox", root / "quarantine"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        files = list(folder.glob("*.eml"))
        assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files), folder


# 12: an oversize mail is answered


def test_an_oversize_mail_is_answered_with_the_size_limit(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    deliver(servers[0], mail(ROME_OK + "# " + "x" * 1_100_000 + "\n"))
    collect(mailed_game.directory.root, imap=True)
    (reply,) = servers[1].messages_to("rome@example.org")
    limit = "1\u202f000\u202f000"  # thousands set apart by a narrow space, as every language reads them
    assert f"orders mails may be at most {limit}" in reply.get_content() and "not accepted" in reply["Subject"]
    assert "rejected: mail from rome@example.org: the mail is" in status_of(mailed_game)


# 16: status shows only what still needs the moderator


def test_status_shows_only_what_still_needs_the_moderator(mailed_game: Game, servers: tuple[int, SmtpServer]) -> None:
    imap_port = servers[0]
    root = str(mailed_game.directory.root)
    deliver(imap_port, mail(orders_of("Egypt"), sender="anna.private@example.net"))
    deliver(imap_port, mail("power Rome\noffer tax\n"), mail(ROME_OK))
    collect(mailed_game.directory.root, imap=True)
    shown = status_of(mailed_game)
    assert "sent from anna.private@example.net" in shown
    assert "rejected" not in shown, "Rome's good orders followed the rejected mail"
    assert runner.invoke(app, ["adjudicate", root, "--force", "--all-defaults"]).exit_code == 0
    assert "To look at:" not in status_of(Game.load(mailed_game.directory.root)), "the T1 flag stays in T1"
    assert runner.invoke(app, ["deadline", root, "2000-01-01T00:00"]).exit_code == 0
    deliver(imap_port, mail("power Rome\npassword rome-secret\nbuild legion in Roma\n"))
    collect(mailed_game.directory.root, imap=True)
    assert "late: mail from rome@example.org" in status_of(Game.load(mailed_game.directory.root))
    assert runner.invoke(app, ["accept-late", root, "Rome"]).exit_code == 0
    assert "To look at:" not in status_of(Game.load(mailed_game.directory.root))


# 18: one scrypt check per player and password per run


def test_each_password_is_checked_once_per_run(
    mailed_game: Game, servers: tuple[int, SmtpServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    checks: list[str] = []
    real = players_module.verify_secret

    def counting(secret: str, stored: str) -> bool:
        checks.append(secret)
        return real(secret, stored)

    monkeypatch.setattr(players_module, "verify_secret", counting)
    rome = [mail(orders_of("Rome", f"# {n}\n")) for n in range(3)]
    deliver(servers[0], *rome, mail(orders_of("Egypt"), sender="egypt@example.org"))
    assert collect(mailed_game.directory.root, imap=True).text.count("accepted") == 4
    assert sorted(checks) == ["egypt-secret", "rome-secret"]
    deliver(servers[0], mail(orders_of("Rome", "# again\n")))
    collect(mailed_game.directory.root, imap=True)
    assert len(checks) == 3, "a new run checks again: nothing is kept between runs"


# 18: the folders of a batch are fsynced once, before the server hears of the batch


def test_a_batch_is_on_disk_before_the_server_is_told_in_one_command(
    mailed_game: Game, servers: tuple[int, SmtpServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[tuple[str, object]] = []
    real_sync, real_mark = storage_module.fsync_directory, Mailbox.mark_all_processed

    def sync(folder: Path) -> None:
        events.append(("sync", folder))
        real_sync(folder)

    def mark(self: Mailbox, uids: Any, quarantine: bool = False) -> None:
        events.append(("mark", (list(uids), quarantine)))
        real_mark(self, uids, quarantine)

    monkeypatch.setattr(storage_module, "fsync_directory", sync)
    monkeypatch.setattr(Mailbox, "mark_all_processed", mark)
    deliver(servers[0], *(mail(orders_of(civ), sender=f"{civ.lower()}@example.org") for civ in FIVE))
    deliver(servers[0], mail(ROME_OK.replace("test-game", "gamma")))
    client = mailbox(servers[0])
    uids = sorted(client.search(["ALL"]))  # Dovecot numbers from 1, pymap from 101
    client.logout()
    assert collect(mailed_game.directory.root, imap=True).text.count("accepted") == 5
    marks = [index for index, (kind, _) in enumerate(events) if kind == "mark"]
    synced = [folder for kind, folder in events[: marks[0]] if kind == "sync"]
    assert len(synced) == len(set(synced)), "each folder is fsynced once per batch, not once per file"
    inbox, orders = mailed_game.directory.inbox, mailed_game.directory.orders_folder(mailed_game.slug)
    assert {inbox, orders, mailed_game.directory.root / "outbox"} <= set(synced), "all on disk before any mark"
    assert [events[i][1] for i in marks] == [(uids[:5], False), (uids[5:], True)], "one command per kind"


def test_deferred_directory_sync_fsyncs_each_folder_once_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[Path] = []
    monkeypatch.setattr(storage_module, "fsync_directory", synced.append)
    with storage_module.deferred_directory_sync():
        for name in ("a/1", "a/2", "b/1"):
            storage_module.write_text_atomic(tmp_path / name, name)
            assert (tmp_path / name).read_text() == name, "a write is there to read at once"
        with storage_module.deferred_directory_sync():
            storage_module.write_text_atomic(tmp_path / "c" / "1", "x")
        assert synced == [], "nothing is fsynced inside the block, nor by a nested one"
    assert synced == [tmp_path / "a", tmp_path / "b", tmp_path / "c"]
    storage_module.write_text_atomic(tmp_path / "d" / "1", "x")
    assert synced[-1] == tmp_path / "d", "outside a block each write fsyncs its folder"
