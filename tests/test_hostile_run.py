"""A poison mail costs that mail only (issue 27, item 1): a stranger's mail that the judge cannot
handle (a From the email package refuses, a number of thousands of digits) is rejected with its
record or quarantined with its reason, is never read again, and stops neither the good mails
after it nor any game. Through the real CLI: `run` over a folder of two games sharing one
mailbox on a real IMAP server (Dovecot, else pymap) with aiosmtpd for SMTP, and `collect --from`
in each of the three rulesets."""

from __future__ import annotations

import re
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tests.test_mail_jams as jams
from adjudicator.cli import app
from adjudicator.game.game import Game
from adjudicator.game.players import parse_player_spec
from tests.conftest import FIVE, player_args
from tests.mail_servers import USER, SmtpServer
from tests.test_mail import deliver, mail, mailbox, settings_toml

runner = CliRunner()
HUGE = "9" * 5000  # more digits than int() reads (4,300): a count no game needs
LIST = "list@example.org"  # the public list of settings_toml
ROME_ALPHA = "game alpha\npower Rome\npassword rome-secret\noffer wine, metal\ntake gold\n"
# A line of `run` or `collect` about one mail it read: what became of it, or its sender
READ_A_MAIL = re.compile(r"^quarantined:|\b(rejected|accepted|late|answered|duplicate) from\b|evil\.example")


@dataclass(frozen=True)
class Poison:
    """One hostile mail: `label` names it in failure messages, `marker` (its Message-ID) finds
    its raw copy wherever the judge kept it."""

    label: str
    raw: bytes

    @property
    def marker(self) -> bytes:
        return f"<poison-{self.label}@evil.example>".encode()


def poison(label: str, sender: bytes, body: str, subject: str = "orders") -> Poison:
    """A mail as raw bytes (CRLF), so that a header can hold what EmailMessage would refuse."""
    headers = [
        b"From: " + sender,
        b"To: " + USER.encode(),
        b"Subject: " + subject.encode(),
        f"Message-ID: <poison-{label}@evil.example>".encode(),
        b"MIME-Version: 1.0",
        b"Content-Type: text/plain; charset=utf-8",
        b"Content-Transfer-Encoding: 8bit",
    ]
    return Poison(label, b"\r\n".join(headers) + b"\r\n\r\n" + body.replace("\n", "\r\n").encode())


def from_poisons(civ: str, subject: str = "orders") -> list[Poison]:
    """Poison in the From header (issue 27: `a..b@`, `.a@`, `a.@`, `ä@`, a NUL after the address)."""
    body = f"power {civ}\noffer wine\n"
    return [
        poison("double-dot", b"x <a..b@evil.example>", body, subject),
        poison("leading-dot", b"x <.a@evil.example>", body, subject),
        poison("trailing-dot", b"x <a.@evil.example>", body, subject),
        poison("non-ascii", "ä@evil.example".encode(), body, subject),
        poison("nul", b"mallory@evil.example\x00", body, subject),
    ]


def count_poisons(civ: str, lines: dict[str, str], subject: str = "orders") -> list[Poison]:
    """A number of 5,000 digits where a count is read; no password: any stranger can send it."""
    sender = b"Mallory <mallory@evil.example>"
    mails = [poison(label, sender, f"power {civ}\n{line}\n", subject) for label, line in lines.items()]
    return [*mails, poison("phase", sender, f"power {civ}\nphase T{HUGE} trade\noffer wine\n", subject)]


def kept_copies(root: Path, item: Poison) -> list[tuple[Path, dict[str, object] | None]]:
    """Every raw copy of a poison mail the judge kept under `root` (inbox/, quarantine/, …; not
    outbox/), each with the record beside it (its .toml), or None when there is none."""
    copies: list[tuple[Path, dict[str, object] | None]] = []
    for path in sorted(root.rglob("*.eml")):
        if "outbox" in path.relative_to(root).parts or item.marker not in path.read_bytes():
            continue
        meta = path.with_suffix(".toml")
        copies.append((path, tomllib.loads(meta.read_text(encoding="utf-8")) if meta.exists() else None))
    return copies


def assert_set_aside(root: Path, item: Poison) -> int:
    """The poison mail was kept with a record that says why it was not taken (a rejection's
    sidecar in the game's inbox/, or quarantine/ with its reason); the number of copies."""
    copies = kept_copies(root, item)
    assert copies, f"{item.label}: no raw copy of the mail was kept anywhere under {root}"
    for path, record in copies:
        assert record is not None, f"{item.label}: {path} has no record beside it: it would be read again"
        assert str(record.get("reason", "")).strip(), (
            f"{item.label}: the record {path.with_suffix('.toml')} gives no reason"
        )
        assert record.get("status", "rejected") not in ("accepted", "late", "answered"), (item.label, record)
    return len(copies)


def crash_logs(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.log") if p.parent.name == "logs")


# ---- `run` over a folder of two games sharing one mailbox ---------------------------------------


servers = jams.servers  # real IMAP (Dovecot, else pymap) and SMTP servers on loopback


@pytest.fixture
def two_games(tmp_path: Path, servers: tuple[int, SmtpServer]) -> Path:
    """ROOT with alpha and beta (five players each, the same addresses), one mailbox for both
    (ROOT/intake.toml); beta's deadline passed long ago, so a pass must adjudicate it."""
    root = tmp_path / "games"
    for name in ("alpha", "beta"):
        Game.create(root / name, [parse_player_spec(p) for p in player_args(FIVE)])
    (root / "intake.toml").write_text(settings_toml(servers[0], servers[1].port))
    moved = runner.invoke(app, ["deadline", str(root / "beta"), "2000-01-01T00:00"])
    assert moved.exit_code == 0, moved.output
    return root


def offered(imap_port: int) -> int:
    """How many mails the mailbox still offers (in INBOX, not yet moved away)."""
    client = mailbox(imap_port)
    try:
        return len(client.search(["ALL"]))
    finally:
        client.logout()


def run_poisons() -> list[Poison]:
    """The poison mails for alpha (Dovecot stores the NUL after an address as byte 0x80: still a
    From the email package refuses; `collect --from` below reads the NUL itself)."""
    tag = "[alpha] orders"
    return [
        *from_poisons("Rome", tag),
        *count_poisons("Rome", {"offer": f"offer {HUGE} wine", "trade": f"trade {HUGE}"}, tag),
    ]


def test_a_run_with_poison_mail_in_the_box_still_hosts_both_games(
    two_games: Path, servers: tuple[int, SmtpServer]
) -> None:
    imap_port, smtp = servers
    root = two_games
    poisons = run_poisons()
    good = mail(ROME_ALPHA, subject="[alpha] orders")
    deliver(imap_port, *(p.raw for p in poisons), good)
    assert offered(imap_port) == len(poisons) + 1, "the IMAP server took every mail as written"

    first = runner.invoke(app, ["run", str(root)])
    said = f"exit {first.exit_code}:\n{first.output}"
    assert first.exit_code != 3 and "internal error" not in first.output, said
    assert "NEEDS THE MODERATOR" not in first.output, said
    assert crash_logs(root) == [], f"a crash log was written: {crash_logs(root)}\n{said}"

    beta = Game.load(root / "beta")
    assert beta.phase_number == 2 and beta.phase_info.label == "T1 build", f"beta was not adjudicated\n{said}"
    assert "beta: T1 trade adjudicated" in first.stdout, said
    stored = root / "alpha" / "orders" / "001-T01-trade" / "Rome.txt"
    assert stored.exists() and "offer wine, metal" in stored.read_text(), f"alpha's good mail was not taken\n{said}"
    assert "alpha: accepted from Rome" in first.stdout, said

    copies = {p.label: assert_set_aside(root, p) for p in poisons}
    assert offered(imap_port) == 0, "a mail was left in INBOX: the next pass would read it again"

    second = runner.invoke(app, ["run", str(root)])
    again = f"exit {second.exit_code}:\n{second.output}"
    assert second.exit_code != 3 and "internal error" not in second.output, again
    read_again = [line for line in second.stdout.splitlines() if READ_A_MAIL.search(line)]
    assert read_again == [], f"the second run read a mail again\n{again}"
    assert {p.label: len(kept_copies(root, p)) for p in poisons} == copies, "a poison mail was kept again"
    assert crash_logs(root) == [], f"a crash log was written: {crash_logs(root)}"

    registered = {f"{civ.lower()}@example.org" for civ in FIVE}
    strangers = sorted({r for _, rcpts, _ in smtp.received for r in rcpts} - registered - {LIST, USER})
    assert strangers == [], f"the judge mailed addresses no game registered: {strangers}"
    assert any(msg["In-Reply-To"] == good["Message-ID"] for msg in smtp.messages_to("rome@example.org")), (
        "Rome got no receipt for his good mail"
    )


# ---- `collect GAME --from FOLDER`, in each ruleset ---------------------------------------------


@dataclass(frozen=True)
class Ruleset:
    name: str
    civs: tuple[str, ...]
    counts: dict[str, str]  # order lines that read a count, each with a number of 5,000 digits
    orders: str  # good orders (for the civilization to move, in a ruleset where one moves at a time)


RULESETS = [
    Ruleset(
        "mare-nostrum",
        FIVE,
        {"trade": f"trade {HUGE}", "offer": f"offer {HUGE} wine", "build": f"build {HUGE} legions in Roma"},
        "offer wine, metal\ntake gold\n",
    ),
    Ruleset(
        "empires",
        ("Rome", "Greece", "Carthage"),
        {"trade": f"trade {HUGE}", "offer": f"offer {HUGE} wine", "build": f"build {HUGE} legions in Roma"},
        "offer wine, oil\ntake gold\n",
    ),
    Ruleset(
        "mediterraneum",
        ("Red", "Blue", "Green"),
        {
            "ship": f"ship {HUGE} sell",
            "army": f"army {HUGE} to Roma",
            "bid": f"bid {HUGE}",
            "pay": f"pay {HUGE} to Blue",
        },
        "pass\n",
    ),
]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One new game per ruleset, made by `adjudicator new`; each case works on a copy."""
    folders = {}
    for ruleset in RULESETS:
        folder = tmp_path_factory.mktemp("hostile") / ruleset.name
        players = [a for spec in player_args(ruleset.civs) for a in ("--player", spec)]
        result = runner.invoke(app, ["new", str(folder), "--ruleset", ruleset.name, *players])
        assert result.exit_code == 0, result.output
        folders[ruleset.name] = folder
    return folders


def to_move(folder: Path, ruleset: Ruleset) -> str:
    """Who may order now: the player to move (Mare Mediterraneum), else the first player."""
    shown = runner.invoke(app, ["state", str(folder)]).output
    found = re.search(r"\((\w+) to move\)", shown)
    return found.group(1) if found else ruleset.civs[0]


def collect_cases() -> Iterator[object]:
    for ruleset in RULESETS:
        civ = ruleset.civs[0]
        for item in [*from_poisons(civ), *count_poisons(civ, ruleset.counts)]:
            yield pytest.param(ruleset, item, id=f"{ruleset.name}-{item.label}")


@pytest.mark.parametrize(("ruleset", "item"), list(collect_cases()))
def test_a_poison_file_costs_that_mail_only(
    made: dict[str, Path], tmp_path: Path, ruleset: Ruleset, item: Poison
) -> None:
    folder = tmp_path / ruleset.name
    shutil.copytree(made[ruleset.name], folder)
    civ = to_move(folder, ruleset)
    good = mail(
        f"game {ruleset.name}\npower {civ}\npassword {civ.lower()}-secret\n{ruleset.orders}",
        sender=f"{civ.lower()}@example.org",
    )
    mails = tmp_path / "mails"
    mails.mkdir()
    (mails / "1-poison.eml").write_bytes(item.raw)  # read first: the files are read in name order
    (mails / "2-good.eml").write_bytes(bytes(good))

    result = runner.invoke(app, ["collect", str(folder), "--from", str(mails)])
    said = f"{ruleset.name}, {item.label}: exit {result.exit_code}:\n{result.output}"
    assert result.exit_code == 0 and "internal error" not in result.output, said
    assert f"accepted from {civ}" in result.stdout, said
    assert list((folder / "orders").glob(f"*/{civ}.txt")), f"{civ}'s good orders are not on file\n{said}"
    assert_set_aside(folder, item)
    assert crash_logs(folder) == [], f"a crash log was written\n{said}"

    again = runner.invoke(app, ["collect", str(folder), "--from", str(mails)])
    assert again.exit_code == 0 and "internal error" not in again.output, again.output
