"""Benchmarks: medians over repeated runs on this machine, each with its target, and the
engine's time per phase as a ratio to a peer adjudicator (PyPI `diplomacy`) measured in the
same run. Run from the repository root: python bench/run.py [--quick]"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.core.dice import ChainDice  # noqa: E402
from adjudicator.game.game import Game  # noqa: E402
from adjudicator.game.players import parse_player_spec  # noqa: E402
from adjudicator.game.submissions import check_submission, store_submission  # noqa: E402
from adjudicator.hosting.adjudication import adjudicate, replay  # noqa: E402
from adjudicator.language.submission import parse_submission  # noqa: E402
from tests.random_play import BOARD, RULESET, random_orders  # noqa: E402

FIVE = ["Rome", "Carthage", "Greece", "Babylon", "Egypt"]


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def midgame(turns: int, seed: int = 7) -> list[tuple[Any, dict[str, list[Any]], bytes, int]]:
    """A 5-player game played with random orders: (position, orders, seed, phase) per phase."""
    rng = random.Random(seed)
    root = hashlib.sha256(b"bench").digest()
    position, _ = RULESET.new_position(BOARD, FIVE, ChainDice("bench", 0, root), {})
    parser = RULESET.parser()
    phases = []
    number = 1
    while RULESET.phase_info(position).turn <= turns and RULESET.phase_info(position).winner is None:
        orders = {}
        for civ in RULESET.playing(position):
            lines = RULESET.validate(BOARD, position, civ, parse_submission(
                random_orders(rng, position, civ), parser).lines, {})  # fmt: skip
            orders[civ] = [line.order for line in lines if line.ok]
        seed_i = hashlib.sha256(root + number.to_bytes(4, "big")).digest()
        phases.append((position, orders, seed_i, number))
        position, _ = RULESET.resolve(BOARD, position, orders, ChainDice("bench", number, seed_i), False, {})
        number += 1
    return phases


def bench_engine(repeat: int) -> dict[str, float]:
    phases = midgame(turns=10)
    results = {}
    for name in ("trade", "build", "military"):
        position, orders, seed, number = [p for p in phases if RULESET.phase_info(p[0]).phase == name][-1]

        def resolve(position: Any = position, orders: Any = orders, seed: bytes = seed, number: int = number) -> Any:
            return RULESET.resolve(BOARD, position, orders, ChainDice("bench", number, seed), False, {})

        results[name] = median_ms(resolve, repeat)
    return results


def bench_mediterraneum(repeat: int) -> float:
    """The Mare Mediterraneum engine's median time for one player's turn (one phase), over the
    shipped demo's 21 turns: trading, sales, founding an empire, the tax dice."""
    from adjudicator.rulesets import find_ruleset

    ruleset = find_ruleset("mediterraneum")
    board = ruleset.parse_board(
        tomllib.loads((ROOT / "adjudicator/rulesets/mediterraneum/boards/mediterraneum-1989.toml").read_text())
    )
    folder = ROOT / "games" / "demo-mediterraneum"
    spec = tomllib.loads((folder / "demo.toml").read_text())["game"]
    root = hashlib.sha256(spec["dice_seed"].encode()).digest()
    colours = [p.split(":")[0] for p in spec["players"]]
    options = ruleset.check_options({})
    position, _ = ruleset.new_position(board, colours, ChainDice("bench", 0, root, root=root), options)
    parser = ruleset.parser()
    times = []
    for number, phase in enumerate(sorted(p for p in (folder / "phases").iterdir() if p.is_dir()), start=1):
        orders = {}
        for path in phase.glob("*.txt"):
            submission = parse_submission(path.read_text(), parser)
            civ = str(submission.power)
            checked = ruleset.validate(board, position, civ, submission.lines, options)
            orders[civ] = [line.order for line in checked if line.ok]

        def resolve(position: Any = position, orders: Any = orders, number: int = number) -> Any:
            return ruleset.resolve(board, position, orders, ChainDice("bench", number, root, root=root), False, options)

        times.append(median_ms(resolve, repeat))
        position, _ = resolve()
    return statistics.median(times)


def heavy_build_orders(rng: random.Random, position: Any, civ: str, lines: int = 200) -> str:
    """`lines` purchase lines of every kind for one player, most of them for his own
    provinces: what a player pasting a long list (or a script gone wrong) would send."""
    data = RULESET.position_to_data(position)
    mine = [p for p, s in data["provinces"].items() if s["influence"] == civ] or list(BOARD.provinces)
    forms = [
        lambda place: f"build legion in {place}",
        lambda place: f"build {rng.randint(1, 3)} legions in {place}",
        lambda place: f"build trireme in {place}",
        lambda place: f"build fortress in {place}",
        lambda place: f"build city in {place}",
        lambda place: f"build temple in {place}",
        lambda place: f"build market in {place}",
        lambda place: f"build influence in {rng.choice(list(BOARD.provinces[place].land) or [place])}",
        lambda place: f"buy {rng.choice(['Colossus', 'Ulysses', 'Solomon', 'Pyramids', 'Mausoleum'])}",
    ]
    return "\n".join(rng.choice(forms)(rng.choice(mine)) for _ in range(lines))


def rich(position: Any, tax: int = 40) -> Any:
    """The position with `tax` more tax cards in every playing hand, added to the game as
    `finite_bank = false` adds them (R1): about the most a hand can hold, since each build phase
    ends with at most two tax cards kept (R6.8)."""
    data = RULESET.position_to_data(position)
    playing = RULESET.playing(position)
    for civ in playing:
        data["players"][civ]["hand"]["tax"] = data["players"][civ]["hand"].get("tax", 0) + tax
    data["extra_cards"] = {
        **data.get("extra_cards", {}),
        "tax": data.get("extra_cards", {}).get("tax", 0) + tax * len(playing),
    }
    for key in ("bank", "supply"):
        data.pop(key, None)
    for player in data["players"].values():
        player.pop("stock", None)
    return RULESET.position_from_data(BOARD, data)


def bench_heavy_build(repeat: int) -> tuple[float, int]:
    """The engine's time for a build phase in which every player sends 200 purchase lines
    (issue 11: at most 50 ms whatever the players wrote); returns (ms, lines accepted)."""
    rng = random.Random(5)
    position, _, seed, number = [p for p in midgame(turns=10) if RULESET.phase_info(p[0]).phase == "build"][-1]
    position = rich(position)  # the receipt refuses what a hand cannot pay (R6.1): these hands pay much
    parser = RULESET.parser()
    orders: dict[str, list[Any]] = {}
    for civ in RULESET.playing(position):
        text = heavy_build_orders(rng, position, civ)
        lines = RULESET.validate(BOARD, position, civ, parse_submission(text, parser).lines, {})
        orders[civ] = [line.order for line in lines if line.ok]

    def resolve() -> Any:
        return RULESET.resolve(BOARD, position, orders, ChainDice("bench", number, seed), False, {})

    return median_ms(resolve, repeat), sum(len(o) for o in orders.values())


def build_long_game(folder: Path, turns: int) -> Game:
    """A real game directory of `turns` turns, every phase submitted and adjudicated."""
    specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in FIVE]
    game, _ = Game.create(folder, specs, dice_root=hashlib.sha256(b"bench game").digest())
    rng = random.Random(3)
    while game.phase_info.turn <= turns and game.phase_info.winner is None:
        for civ in game.playing():
            text = f"power {civ}\n" + random_orders(rng, game.position, civ)
            store_submission(game, check_submission(game, text, civ), text, source="bench")
        adjudicate(game, force=True)
        game = Game.load(folder)
    return game


def bench_site(game_folder: Path, repeat: int) -> tuple[float, float, float]:
    """The campaign site of the long game: (a full build, a rebuild after one more phase, a
    rebuild with nothing changed), in ms. The one-phase rebuild is what `adjudicate` adds."""
    from adjudicator.reports.site import build_site

    out = game_folder.parent / "site"
    fulls = []
    for _ in range(3):
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        build_site(Game.load(game_folder), out)
        fulls.append((time.perf_counter() - start) * 1000)
    manifest = json.loads((out / ".site.json").read_text(encoding="utf-8"))
    last = max(name.split("/")[0] for name in manifest["files"] if "/" in name)
    stale = {k: v for k, v in manifest["files"].items() if not k.startswith(last) and k != "index.html"}
    one_more = []
    for _ in range(repeat):  # as if the last phase were new: its pages, its neighbour's, the overview
        (out / ".site.json").write_text(json.dumps({**manifest, "files": stale}), encoding="utf-8")
        start = time.perf_counter()
        build_site(Game.load(game_folder), out)
        one_more.append((time.perf_counter() - start) * 1000)
    unchanged = median_ms(lambda: build_site(Game.load(game_folder), out), repeat)
    return statistics.median(fulls), statistics.median(one_more), unchanged


def bench_parsing(repeat: int) -> float:
    """Order lines per second through the front end, over varied lines in mails of ten."""
    rng = random.Random(11)
    provinces = [p.name for p in BOARD.provinces.values()]
    seas = [s.name for s in BOARD.seas.values()]
    cards = ["wine", "fish", "tax", "gold", "oil", "grain", "gems"]
    forms = [
        lambda: f"move {rng.randint(1, 4)} legions from {rng.choice(provinces)} to {rng.choice(provinces)}",
        lambda: f"offer {', '.join(rng.sample(cards, 3))}",
        lambda: f"build {rng.choice(['city', 'legion', 'temple', 'fortress'])} in {rng.choice(provinces)}",
        lambda: f"take {rng.choice(cards)} from {rng.choice(FIVE)}",
        lambda: f"sail trireme from {rng.choice(seas)} to {rng.choice(seas)}",
        lambda: (
            f"move legion from {rng.choice(provinces)} to {rng.choice(provinces)} via {rng.choice(seas)} then occupy"
        ),
    ]
    mails = ["\n".join(rng.choice(forms)() for _ in range(10)) for _ in range(200)]
    parser = RULESET.parser()
    seconds = median_ms(lambda: [parse_submission(m, parser) for m in mails], repeat) / 1000
    return len(mails) * 10 / seconds


def bench_cli(repeat: int, game_folder: Path) -> tuple[float, float]:
    # the installed command beside this Python (a venv need not be activated, nor on PATH)
    exe = installed_command()
    subprocess.run([exe, "--help"], capture_output=True, check=True)  # warm the file cache
    help_ms = median_ms(lambda: subprocess.run([exe, "--help"], capture_output=True, check=True), repeat)
    number = Game.load(game_folder).phase_number
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [exe, "adjudicate", str(game_folder), "--force", "--all-defaults"], capture_output=True, check=True
        )
        times.append(time.perf_counter() - start)
        subprocess.run([exe, "rollback", str(game_folder), "--to", str(number)], capture_output=True, check=True)
    return help_ms, statistics.median(times) * 1000


# The yardstick a command's start-up is read against: a Typer app of two commands that parses
# one argument and prints it (issue 31: Typer's own import is most of what a command may cost).
MINIMAL_TYPER = """
import typer
app = typer.Typer(rich_markup_mode=None)
@app.command()
def state(game: str) -> None:
    print(game)
@app.command()
def status(game: str) -> None:
    print(game)
app()
"""


def installed_command() -> str:
    """The installed command beside this Python (a venv need not be activated, nor on PATH)."""
    beside = Path(sys.executable).parent / "adjudicator"
    return str(beside) if beside.exists() else shutil.which("adjudicator") or "adjudicator"


# Runs a command from a small Python process and prints what the kernel accounted for it: a
# child's peak memory counts what it was forked from, so it is forked from this launcher (about
# 10 MB, the floor of every peak below, as with farm-bench) and not from the benchmark (100 MB).
LAUNCHER = """
import json, os, sys
pid = os.fork()
if pid == 0:
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss / 1024]))
"""


def child(args: list[str], codes: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """One whole process, as the kernel accounts for it: (user + system ms, peak RSS in MB)."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *args], capture_output=True, text=True, check=True)
    code, cpu_ms, peak_mb = json.loads(done.stdout)
    if code not in codes:
        raise RuntimeError(f"{' '.join(args)} exited {code}")
    return float(cpu_ms), float(peak_mb)


@dataclass(frozen=True)
class Timed:
    """A command's median CPU time, its median ratio to a bare Python start paired run by run,
    and its largest peak memory."""

    cpu_ms: float
    ratio: float
    peak_mb: float


def bench_commands(repeat: int, game_folder: Path) -> dict[str, Timed]:
    """The moderator's everyday commands on the long game, each a whole process, interleaved
    with a bare `python -c pass` so that each ratio is taken against a start of the same moment."""
    exe = installed_command()
    game = str(game_folder)
    orders = game_folder.parent / "orders-20.txt"
    loaded = Game.load(game_folder)
    civ = loaded.playing()[0]
    rng = random.Random(5)
    lines = [line for _ in range(20) for line in random_orders(rng, loaded.position, civ).splitlines()][:20]
    orders.write_text(f"power {civ}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    commands: dict[str, tuple[list[str], tuple[int, ...]]] = {
        "a minimal Typer app (yardstick)": ([sys.executable, "-c", MINIMAL_TYPER, "state", "x"], (0,)),
        "--help": ([exe, "--help"], (0,)),
        "state": ([exe, "state", game], (0,)),
        "status": ([exe, "status", game], (0,)),
        "check (a 20-line order file)": ([exe, "check", "--vouch", game, str(orders)], (0, 1)),
        "submit (the same file)": ([exe, "submit", "--vouch", game, str(orders)], (0, 1)),
        "deadline": ([exe, "deadline", game, "2099-01-01T18:00"], (0,)),
        "report (the last stored report)": ([exe, "report", game], (0,)),
    }
    bare = [sys.executable, "-c", "pass"]
    for args, codes in commands.values() if repeat > 1 else ():  # warm the file and cache folder
        child(args, codes)
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (args, codes) in commands.items():
            base, _ = child(bare)
            cpu, peak = child(args, codes)
            runs[name].append((cpu, cpu / base, peak))
    return {
        name: Timed(
            statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows), max(r[2] for r in rows)
        )
        for name, rows in runs.items()
    }


def bench_adjudicate_cpu(repeat: int, game_folder: Path) -> tuple[float, float, float]:
    """`adjudicate` of one phase as a whole process (every report, the map SVG, the forms):
    median CPU ms, then the same for a copy of the game published at a `map_url` (the map as PNG
    too), and the larger peak memory in MB."""
    exe = installed_command()
    number = Game.load(game_folder).phase_number
    published = game_folder.parent / f"{game_folder.name}-published"
    shutil.copytree(game_folder, published, dirs_exist_ok=True)
    settings = published / "game.toml"
    lines = settings.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(
        1 + next(i for i, line in enumerate(lines) if line.startswith("id = ")),
        'map_url = "https://example.org/game"\n',
    )
    settings.write_text("".join(lines), encoding="utf-8")
    results = []
    for folder in (game_folder, published):
        cpu, peaks = [], []
        for _ in range(repeat):
            ms, peak = child([exe, "adjudicate", str(folder), "--force", "--all-defaults"])
            cpu.append(ms)
            peaks.append(peak)
            child([exe, "rollback", str(folder), "--to", str(number)])
        results.append((statistics.median(cpu), max(peaks)))
    shutil.rmtree(published, ignore_errors=True)
    (plain, plain_peak), (png, png_peak) = results
    return plain, png, max(plain_peak, png_peak)


def bench_notify_queue(game_folder: Path, repeat: int, destinations: int = 5) -> float:
    """What a phase's chat posts add to adjudicating it (issue 33): the posts for `destinations`
    [[notify]] tables made and queued (the report in chat Markdown once, a file per post), the
    send being left to a later flush. Median ms, in-process, on a copy of the game."""
    from adjudicator.delivery.post_messages import phase_posts, queue_game_posts
    from adjudicator.game.schedule import utc_now

    copy = game_folder.parent / f"{game_folder.name}-notify"
    shutil.copytree(game_folder, copy, dirs_exist_ok=True)
    names = [f"chat{n}" for n in range(destinations)]
    with (copy / "game.toml").open("a", encoding="utf-8") as settings:
        settings.write("".join(f'\n[[notify]]\nname = "{name}"\n' for name in names))
    with (copy / "secrets.toml").open("a", encoding="utf-8") as secrets:
        secrets.write("\n[notify]\n" + "".join(f'{name} = "json://127.0.0.1:9/{name}"\n' for name in names))
    game = Game.load(copy)

    def queue_once() -> None:
        shutil.rmtree(copy / "outbox" / "notify", ignore_errors=True)
        queue_game_posts(game, phase_posts(game), utc_now())

    queued = median_ms(queue_once, repeat)
    shutil.rmtree(copy, ignore_errors=True)
    return queued


def bench_preview_and_pages(game_folder: Path, repeat: int) -> tuple[float, int, float]:
    """Issue 35, in-process on the long game: a `preview` of the first due player's first three form
    lines (median ms, and its trials), and the last phase's order pages of every player (median ms)."""
    from adjudicator.game.submissions import check_submission
    from adjudicator.reports.order_form import order_form
    from adjudicator.reports.phase import PhaseReports, load_record
    from adjudicator.reports.preview import outcomes, preview_text

    game = Game.load(game_folder)
    civ = (game.due() or game.ruleset.playing(game.position))[0]
    lines = [line.order for line in order_form(game, game.position, civ)][:3]
    checked = check_submission(game, "\n".join([f"power {civ}", *lines]) + "\n", civ)
    orders = [line.order for line in checked.lines if line.ok and line.order is not None]
    trials = outcomes(game, civ, orders)[1]
    preview = median_ms(lambda: preview_text(game, checked), repeat)
    record = load_record(game)

    def pages() -> None:
        reports = PhaseReports(game, record)
        for player in game.ruleset.playing(reports.after):
            reports.order_page(player)

    return preview, trials, median_ms(pages, repeat)


def in_five_languages(game_folder: Path, target: Path) -> Path:
    """A copy of the game whose public reports are French and whose players read Polish,
    Hungarian, French, Spanish and English: every private report and form in his language."""
    shutil.copytree(game_folder, target)
    exe = installed_command()
    subprocess.run([exe, "lang", str(target), "fr"], capture_output=True, check=True)
    for civ, lang in zip(FIVE, ("pl", "hu", "fr", "es", "en"), strict=True):
        subprocess.run([exe, "lang", str(target), lang, "--power", civ], capture_output=True, check=True)
    return target


def bench_peer(phases: int, seed: int = 1) -> float:
    """The PyPI `diplomacy` package: Game.process() per phase on random games."""
    from diplomacy import Game as DiplomacyGame

    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < phases:
        game = DiplomacyGame()
        while not game.is_game_done and len(times) < phases:
            possible = game.get_all_possible_orders()
            for power in game.powers:
                locations = game.get_orderable_locations(power)
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locations if possible[loc]])
            start = time.perf_counter()
            game.process()
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bench_mail_intake(mails: int = 1000, games: int = 20) -> tuple[float, float]:
    """`collect --imap` of `mails` order mails for `games` games under one folder (intake.toml),
    from a local IMAP server started here, receipts sent to a local SMTP server. Returns
    (seconds, peak resident memory of this process in MB)."""
    import os
    import resource
    from email.message import EmailMessage

    from imapclient import IMAPClient

    from adjudicator.intake.collect import collect
    from tests.mail_servers import PASSWORD, USER, imap_server, smtp_server

    work = Path(tempfile.mkdtemp(prefix="adjudicator-mail-bench-"))
    os.environ["ADJ_BENCH_MAIL_PASSWORD"] = PASSWORD
    try:
        with imap_server() as imap_port, smtp_server() as smtp:
            specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in FIVE]
            for number in range(games):
                Game.create(work / f"g{number:02d}", specs, game_id=f"g{number:02d}")
            (work / "intake.toml").write_text(
                f'[intake.imap]\nhost = "127.0.0.1"\nport = {imap_port}\nsecurity = "plain"\nuser = "{USER}"\n'
                'password_env = "ADJ_BENCH_MAIL_PASSWORD"\n\n'
                f'[delivery.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "plain"\nuser = "{USER}"\n'
                f'password_env = "ADJ_BENCH_MAIL_PASSWORD"\nfrom = "{USER}"\n'
            )
            client = IMAPClient("127.0.0.1", imap_port, ssl=False)
            client.login(USER, PASSWORD)
            for number in range(mails):
                civ = FIVE[number % len(FIVE)]
                message = EmailMessage()
                message["From"] = f"{civ} <{civ.lower()}@example.org>"
                message["To"] = USER
                message["Subject"] = f"[g{number // len(FIVE) % games:02d}] orders"
                message["Message-ID"] = f"<bench-{number}@example.org>"
                message.set_content(f"power {civ}\npassword {civ.lower()}-secret\noffer tax\ntake commodity\n")
                client.append("INBOX", bytes(message))
            client.logout()
            start = time.perf_counter()
            report = collect(work, imap=True)
            seconds = time.perf_counter() - start
            accepted = report.text.count(": accepted from")
            if accepted != mails or len(smtp.received) != mails:
                raise RuntimeError(f"{accepted} of {mails} mails accepted, {len(smtp.received)} receipts sent")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return seconds, peak_kb / 1024


def hostile_mails() -> dict[str, bytes]:
    """The mails issue 27 found stopping or slowing the judge, each from a stranger (no
    password), and an ordinary orders mail of a player as the baseline."""

    def plain(body: bytes, head: bytes = b"From: Mallory <mallory@evil.example>\r\nSubject: [g] orders\r\n") -> bytes:
        return head + b"\r\n" + body

    return {
        "an orders mail of a player (baseline)": plain(
            b"power Rome\r\npassword rome-secret\r\noffer tax, wine\r\ntake commodity\r\n",
            b"From: Rome <rome@example.org>\r\nSubject: [g] orders\r\n",
        ),
        "64,000 characters of failing order pieces": plain(b"power Rome\r\n" + "we\u017a;".encode() * 12_700),
        "a 5,000-digit count": plain(b"power Rome\r\noffer " + b"1" * 5000 + b" wine\r\n"),
        "a body in charset=punycode (500 kB)": plain(
            b"a" * 500_000, b"From: m@evil.example\r\nContent-Type: text/plain; charset=punycode\r\n"
        ),
        "1 MB of 'On ... wrote:' lines": plain(b"On Mon, 1 Mar 2027 somebody\r\n" * 33_000),
        "a Subject of 20,000 encoded words": b"From: m@evil.example\r\nSubject: "
        + b"=?utf-8?q?a?= " * 20_000
        + b"\r\n\r\nhello\r\n",
        "a From of 8,000 encoded words": b"From: " + b"=?utf-8?q?a?= " * 8_000 + b"<m@evil.example>\r\n\r\nhi\r\n",
        "a From of 135,000 addresses": b"From: " + b",".join([b"a@b.c"] * 135_000) + b"\r\n\r\nhi",
        "400 kB of unclosed HTML comments": b"From: m@evil.example\r\nContent-Type: text/html\r\n\r\n"
        + b"<!--" * 100_000,
        "200 kB of unclosed HTML tags": b"From: m@evil.example\r\nContent-Type: text/html\r\n\r\n" + b"<a" * 100_000,
    }


def bench_hostile(folder: Path, repeat: int) -> list[tuple[str, float]]:
    """Each of `hostile_mails` read, routed and answered as `collect` does, for one game: the
    median ms, the baseline first (the inbox and outbox are emptied after each run)."""
    from adjudicator.intake.collect import _Run, _take

    specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in FIVE]
    game, _ = Game.create(folder / "g", specs, game_id="g")
    games = {"g": game}

    def one(raw: bytes) -> None:
        _take(_Run(folder / "g", games), raw)
        for kept in (folder / "g" / "inbox", folder / "g" / "outbox", folder / "g" / "quarantine"):
            shutil.rmtree(kept, ignore_errors=True)

    return [(name, median_ms(lambda raw=raw: one(raw), repeat)) for name, raw in hostile_mails().items()]


def bench_run_idle(games: int = 200, repeat: int = 7) -> tuple[float, float, float]:
    """An idle `adjudicator run` pass over a folder of `games` games (nothing due, no mail):
    in-process and as a whole process (CPU), and what loading every game would cost, which an
    idle pass need not pay. Medians in ms."""
    from adjudicator.hosting.run import run_pass

    work = Path(tempfile.mkdtemp(prefix="adjudicator-run-bench-"))
    try:
        specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in FIVE]
        folders = [work / f"g{number:03d}" for number in range(games)]
        first, _ = Game.create(folders[0], specs)
        for folder in folders[1:]:  # the same new game under another name: creating 200 is slow
            shutil.copytree(folders[0], folder)
            (folder / "game.toml").write_text(
                (folders[0] / "game.toml")
                .read_text(encoding="utf-8")
                .replace(f'id = "{first.settings.id}"', f'id = "{folder.name}"'),
                encoding="utf-8",
            )
        run_pass(work)  # the first pass queues nothing either, but warms the caches
        idle = median_ms(lambda: run_pass(work), repeat)
        process = statistics.median(child([installed_command(), "run", str(work)])[0] for _ in range(repeat))
        load = median_ms(lambda: [Game.load(folder) for folder in folders], max(1, repeat // 3))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return idle, process, load


def bench_watch_answer(mails: int = 7) -> float:
    """How long a player waits for the answer to a mail while `run --watch` is up (IMAP IDLE):
    from the mail's arrival in the mailbox to the reply at the SMTP server. Median in seconds."""
    import os
    from email.message import EmailMessage

    from imapclient import IMAPClient

    from tests.mail_servers import PASSWORD, USER, imap_server, smtp_server

    work = Path(tempfile.mkdtemp(prefix="adjudicator-watch-bench-"))
    os.environ["ADJ_BENCH_MAIL_PASSWORD"] = PASSWORD
    waits = []
    try:
        with imap_server() as imap_port, smtp_server() as smtp:
            specs = [parse_player_spec(f"{civ}:{civ.lower()}@example.org:{civ.lower()}-secret") for civ in FIVE]
            game, _ = Game.create(work / "g", specs)
            with game.directory.game_file.open("a") as handle:
                handle.write(
                    f'[intake.imap]\nhost = "127.0.0.1"\nport = {imap_port}\nsecurity = "plain"\nuser = "{USER}"\n'
                    'password_env = "ADJ_BENCH_MAIL_PASSWORD"\n\n'
                    f'[delivery.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "plain"\n'
                    f'user = "{USER}"\npassword_env = "ADJ_BENCH_MAIL_PASSWORD"\nfrom = "{USER}"\n'
                )
            command = [sys.executable, "-m", "adjudicator", "run", str(work / "g"), "--watch", "--poll", "600"]
            watcher = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                time.sleep(3)
                for number in range(mails):
                    message = EmailMessage()
                    message["From"] = "rome@example.org"
                    message["To"] = USER
                    message["Subject"] = "[g] status please"
                    message["Message-ID"] = f"<watch-bench-{number}@example.org>"
                    message.set_content("power Rome\npassword rome-secret\nstatus\n")
                    client = IMAPClient("127.0.0.1", imap_port, ssl=False)
                    client.login(USER, PASSWORD)
                    start = time.perf_counter()
                    client.append("INBOX", bytes(message))
                    client.logout()
                    while len(smtp.received) <= number:
                        if time.perf_counter() - start > 60:
                            raise RuntimeError("no answer within 60 s")
                        time.sleep(0.01)
                    waits.append(time.perf_counter() - start)
                    time.sleep(1)
            finally:
                watcher.terminate()
                watcher.wait(60)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return statistics.median(waits)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--quick", action="store_true", help="fewer repetitions and a shorter game (for CI)")
    quick = args.parse_args().quick
    repeat, turns = (5, 10) if quick else (31, 30)
    work = Path(tempfile.mkdtemp(prefix="adjudicator-bench-"))
    try:
        mail_seconds, mail_mb = bench_mail_intake()  # first: the memory peak so far is mostly its own
        engine = bench_engine(repeat * 10)
        heavy_ms, heavy_lines = bench_heavy_build(repeat * 2)
        turn_ms = bench_mediterraneum(repeat * 4)
        peer = bench_peer(100 if quick else 400)
        start = time.perf_counter()
        game = build_long_game(work / "long", turns)
        built = time.perf_counter() - start
        phases = game.phase_number - 1
        replay_ms = median_ms(lambda: replay(Game.load(work / "long")), 3 if quick else 7)
        lines_per_second = bench_parsing(repeat)
        site_full, site_phase, site_unchanged = bench_site(work / "long", 3 if quick else 7)
        commands = bench_commands(repeat if quick else 11, work / "long")
        adjudicate_cpu, adjudicate_png, adjudicate_peak = bench_adjudicate_cpu(3 if quick else 7, work / "long")
        help_ms, adjudicate_ms = bench_cli(repeat if quick else 11, work / "long")
        notify_ms = bench_notify_queue(work / "long", repeat)
        preview_ms, preview_trials, pages_ms = bench_preview_and_pages(work / "long", 3 if quick else 7)
        _, languages_ms = bench_cli(repeat if quick else 11, in_five_languages(work / "long", work / "languages"))
        idle_games = 50 if quick else 200
        idle_ms, idle_process_ms, load_ms = bench_run_idle(idle_games, repeat=3 if quick else 7)
        answer_seconds = bench_watch_answer(3 if quick else 7)
        hostile = bench_hostile(work / "hostile", 3 if quick else 7)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    per_90 = 500 * phases / 90
    rows = [
        Row("engine: trade phase, 5 players, turn 10", f"{engine['trade']:.3f} ms", "<= 0.25x peer",
            engine["trade"] <= 0.25 * peer, engine["trade"] / peer),
        Row("engine: build phase", f"{engine['build']:.3f} ms", "<= 0.25x peer",
            engine["build"] <= 0.25 * peer, engine["build"] / peer),
        Row("engine: military phase", f"{engine['military']:.3f} ms", "<= 0.25x peer",
            engine["military"] <= 0.25 * peer, engine["military"] / peer),
        Row(f"engine: build phase, 200 purchase lines each ({heavy_lines} accepted)", f"{heavy_ms:.2f} ms",
            "<= 50 ms", heavy_ms <= 50, heavy_ms / peer),
        Row("engine: Mare Mediterraneum, one player's turn", f"{turn_ms:.3f} ms", "<= 1 ms and <= peer",
            turn_ms <= min(1.0, peer), turn_ms / peer),
        Row("peer: diplomacy Game.process(), per phase", f"{peer:.3f} ms", "(baseline)", True, 1.0),
        Row(f"replay of {phases} phases ({turns} turns)", f"{replay_ms:.0f} ms", f"<= {per_90:.0f} ms (0.5 s per 90)",
            replay_ms <= per_90),
        Row(f"site: full build, {phases} phases", f"{site_full:.0f} ms", f"<= {20 * per_90:.0f} ms (10 s per 90)",
            site_full <= 20 * per_90),
        Row("site: rebuild after a phase (vs full build)", f"{site_phase:.0f} ms", "<= 1,000 ms",
            site_phase <= 1000, site_phase / site_full),
        Row("site: rebuild, nothing changed (vs full build)", f"{site_unchanged:.0f} ms", "<= 1,000 ms",
            site_unchanged <= 1000, site_unchanged / site_full),
        Row("parsing: order lines per second", f"{lines_per_second:,.0f}", ">= 50,000", lines_per_second >= 50_000),
        Row("mail: collect 1,000 mails, 20 games (IMAP+SMTP)", f"{mail_seconds:.1f} s, {mail_mb:.0f} MB",
            "<= 30 s, <= 200 MB peak", mail_seconds <= 30 and mail_mb <= 200),
        Row(f"run: an idle pass over {idle_games} games (vs loading them)", f"{idle_ms:.0f} ms", "",
            True, idle_ms / load_ms),
        Row("run: the same, whole process, CPU", f"{idle_process_ms:.0f} ms", "<= 2,000 ms (200 games)",
            idle_process_ms <= 2000 * idle_games / 200),
        Row("run --watch: a mail answered (IMAP IDLE to SMTP)", f"{answer_seconds:.2f} s", "<= 5 s",
            answer_seconds <= 5),
        Row("CLI: adjudicator --help", f"{help_ms:.0f} ms", "<= 250 ms", help_ms <= 250),
        Row("CLI: adjudicate one phase, whole process", f"{adjudicate_ms:.0f} ms", "(wall)", True),
        Row("CLI: adjudicate one phase, CPU", f"{adjudicate_cpu:.0f} ms", "<= 200 ms", adjudicate_cpu <= 200),
        Row("CLI: adjudicate one phase with --map-url (PNG), CPU", f"{adjudicate_png:.0f} ms", "<= 350 ms",
            adjudicate_png <= 350),
        Row("notify: a phase's posts to 5 destinations queued (adds to adjudicate)", f"{notify_ms:.0f} ms",
            "<= 100 ms", notify_ms <= 100, notify_ms / adjudicate_cpu),
        Row(f"preview: one player's orders, {preview_trials} trials (vs adjudicate)", f"{preview_ms:.0f} ms",
            "<= 5,000 ms (PREVIEW_SECONDS)", preview_ms <= 5000, preview_ms / adjudicate_cpu),
        Row("order pages: every player's, one phase (vs adjudicate)", f"{pages_ms:.0f} ms", "<= 250 ms",
            pages_ms <= 250, pages_ms / adjudicate_cpu),
        Row("CLI: adjudicate, peak memory", f"{adjudicate_peak:.0f} MB", "<= 60 MB", adjudicate_peak <= 60),
        Row("CLI: the same, players in five languages (vs English)", f"{languages_ms:.0f} ms", "<= 1.5x English",
            languages_ms <= 1.5 * adjudicate_ms, languages_ms / adjudicate_ms),
    ]  # fmt: skip
    bare_ms = statistics.median(t.cpu_ms / t.ratio for t in commands.values())
    rows.append(Row("CLI: a bare Python start (python -c pass), CPU", f"{bare_ms:.0f} ms", "(baseline)", True, 1.0))
    for name, timed in commands.items():
        yardstick = name.endswith("(yardstick)")
        rows.append(
            Row(
                f"CLI: {name}, CPU",
                f"{timed.cpu_ms:.0f} ms",
                "" if yardstick else "<= 5x a bare start",
                yardstick or timed.ratio <= 5,
                timed.ratio,
            )
        )
        if not yardstick:
            rows.append(Row(f"CLI: {name}, peak memory", f"{timed.peak_mb:.0f} MB", "<= 60 MB", timed.peak_mb <= 60))
    (baseline, baseline_ms), *attacks = hostile
    rows.append(Row(f"mail: {baseline}", f"{baseline_ms:.1f} ms", "(baseline)", True, 1.0))
    rows += [
        Row(f"mail, no password: {name}", f"{ms:.1f} ms", "<= 10x the baseline", ms <= 10 * baseline_ms,
            ms / baseline_ms)
        for name, ms in attacks
    ]  # fmt: skip
    mode = "quick" if quick else "full"
    print(f"Python {sys.version.split()[0]}, {mode} run; the long game took {built:.1f} s to play")
    print(f"{'measure (median)':58} {'result':>12}  {'target':28} {'ok':4} {'ratio':>8}")
    for row in rows:
        print(row.line())


@dataclass(frozen=True)
class Row:
    name: str
    value: str
    target: str
    ok: bool
    ratio: float | None = None

    def line(self) -> str:
        ratio = "" if self.ratio is None else f"{self.ratio:.2f}x"
        return f"{self.name:58} {self.value:>12}  {self.target:28} {'yes' if self.ok else 'NO':4} {ratio:>8}"


if __name__ == "__main__":
    main()
