"""The mail reader against hostile bytes (issue 27, items 3 and 4): `read_mail` either returns
the mail's text or raises an AdjudicatorError (MailRejected, UnreadableMail), never anything
else, within LIMIT_SECONDS and without growing the process by more than MEMORY_BUDGET_MB, for
any bytes a stranger can mail: random header names and values, many and long headers, thousands
of RFC 2047 encoded words, thousands of addresses, odd charsets, deep multipart nesting, bodies
up to 1.2 MB, "On … wrote:" lines, NUL and non-ASCII bytes.

The Hypothesis loop runs in a child process whose address space is capped (RLIMIT_AS), so a
blow-up fails the test instead of the machine; each mail is timed, and stopped by SIGALRM a
little after the limit. A failure names the mail (what it is made of, its size), how long it
took and how much memory it needed."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings
from hypothesis import strategies as st

from adjudicator.core.errors import AdjudicatorError
from adjudicator.intake.receive import read_mail

ROOT = Path(__file__).resolve().parent.parent
LIMIT_SECONDS = 2.0  # what one mail may take to read
STOP_SECONDS = 2.5  # when a mail still being read is stopped (SIGALRM), so a slow one costs no minutes
MEMORY_CAP = 1_500_000_000  # the child's address space (RLIMIT_AS)
MEMORY_BUDGET_MB = 400  # how far one mail may raise the child's peak resident memory
RANDOM_EXAMPLES = 40
# Python's default, which the judge runs with; Hypothesis raises it by 2,000 while a test runs,
# and deeper recursion in the email package (deeply nested parts) costs seconds before it fails
JUDGE_RECURSION_LIMIT = 1000
BIGGEST = 1_200_000  # bytes: the largest mail made (over the reader's 1 MB limit: refused unread)


class FuzzMail:
    """A mail to read: `label` says what it is made of (failure messages name it; the bytes
    themselves may be a megabyte, so the repr Hypothesis prints is the label and the size)."""

    __slots__ = ("label", "raw")

    def __init__(self, label: str, raw: bytes) -> None:
        self.label = label
        self.raw = raw

    def __repr__(self) -> str:
        return f"FuzzMail({self.label!r}, {len(self.raw):,} bytes)"


# ---- making mails ------------------------------------------------------------------------


def assemble(headers: list[bytes], body: bytes, content_type: bytes = b"text/plain; charset=utf-8") -> bytes:
    """A mail from header lines (name and value, no line end) and a body, CRLF throughout."""
    base = [b"Message-ID: <fuzz@example.org>", b"MIME-Version: 1.0", b"Content-Type: " + content_type]
    lines = [*base, *headers]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def repeated(unit: bytes, count: int, sep: bytes = b" ") -> bytes:
    return sep.join([unit] * count)


def lines_of(line: bytes, size: int) -> bytes:
    """`line` repeated to about `size` bytes, CRLF after each."""
    return (line + b"\r\n") * (size // (len(line) + 2))


def nested(depth: int, content_type: bytes, body: bytes) -> tuple[bytes, bytes]:
    """A body inside `depth` multipart/mixed parts, each the only part of the one around it:
    the outermost Content-Type, and the body."""
    if not depth:
        return content_type, body
    opening = b"".join(
        b"--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n" % (n, n + 1) for n in range(depth - 1)
    )
    inner = b"--b%d\r\nContent-Type: %s\r\n\r\n" % (depth - 1, content_type)
    return b"multipart/mixed; boundary=b0", opening + inner + body


def deep_multipart(depth: int) -> bytes:
    content_type, body = nested(depth, b"text/plain; charset=utf-8", ORDERS)
    return assemble([FROM], body, content_type)


REPLY_LINE = b"On Mon, 1 Jan 2027, X wrote:"
# 'On … wrote:' again and again, and more after it: the reply pattern almost matches, every line
NEAR_REPLY_LINE = b"On Mon, 1 Jan 2027, X wrote: " + b"wrote: " * 24 + b"x"
ORDERS = b"power Rome\r\npassword rome-secret\r\noffer wine\r\n"
FROM = b"From: Player <rome@example.org>"

NAMED = [
    FuzzMail(
        "Subject of 20,000 encoded words",
        assemble([FROM, b"Subject: " + repeated(b"=?utf-8?q?a?=", 20_000)], ORDERS),
    ),
    FuzzMail("From of 8,000 encoded words", assemble([b"From: " + repeated(b"=?utf-8?q?a?=", 8_000)], ORDERS)),
    FuzzMail("From listing 135,000 addresses", assemble([b"From: " + repeated(b"a@b.c", 135_000, b",")], ORDERS)),
    FuzzMail("To listing 100,000 addresses", assemble([FROM, b"To: " + repeated(b"a@b.c", 100_000, b", ")], ORDERS)),
    FuzzMail(
        "1 MB body of 'On Mon, 1 Jan 2027, X wrote:' lines",
        assemble([FROM, b"Subject: orders"], lines_of(REPLY_LINE, 990_000)),
    ),
    FuzzMail(
        "1 MB body of 'On Mon, 1 Jan 2027, X wrote: wrote: … x' lines",
        assemble([FROM, b"Subject: orders"], lines_of(NEAR_REPLY_LINE, 990_000)),
    ),
    FuzzMail(
        "500 kB body in charset=punycode",
        assemble([FROM, b"Subject: orders"], b"a" * 500_000, b"text/plain; charset=punycode"),
    ),
    FuzzMail("multipart nested 3,000 deep", deep_multipart(3000)),
    FuzzMail("30,000 headers", assemble([FROM, *(b"X-Fuzz-%d: v" % n for n in range(30_000))], ORDERS)),
    FuzzMail("a From with a NUL after it", assemble([b"From: mallory@evil.example\x00"], ORDERS)),
    FuzzMail("1.2 MB body (over the size limit)", assemble([FROM], b"x" * BIGGEST)),
]


ENCODED_WORDS = [
    b"=?utf-8?q?a?=",
    b"=?utf-8?b?w6Q=?=",
    b"=?iso-8859-2?q?=B1?=",
    b"=?unknown-8bit?q?x?=",
    b"=?punycode?q?abc?=",
    b"=?utf-8?q?=0D=0ABcc=3A_x=40y?=",
    b"=?utf-8?q?",
    b"=??=",
]
ADDRESSES = [
    b"a@b.c",
    b"Name <a@b.c>",
    b'"q, uoted" <a@b.c>',
    b"x <a..b@evil.example>",
    b"<.a@evil.example>",
    "ä@evil.example".encode(),
    b"undisclosed-recipients:;",
    b"group: a@b.c, d@e.f;",
    b"(comment) a@b.c",
    b"<>",
    b"a@[127.0.0.1]",
    b"a@b.c\x00",
]
HEADER_NAMES = [
    b"From",
    b"To",
    b"Cc",
    b"Reply-To",
    b"Sender",
    b"Subject",
    b"Message-ID",
    b"In-Reply-To",
    b"References",
    b"Date",
    b"Content-Type",
    b"Content-Transfer-Encoding",
    b"Content-Disposition",
    b"MIME-Version",
]
CHARSETS = [
    "utf-8",
    "punycode",
    "idna",
    "utf-7",
    "utf-16",
    "utf-32",
    "iso-2022-jp",
    "koi8-r",
    "cp1252",
    "x-unknown",
    "unknown-8bit",
    "hex",
    "zlib",
    "base64",
    "rot13",
    "",
]
BODY_UNITS = [
    REPLY_LINE + b"\r\n",
    NEAR_REPLY_LINE + b"\r\n",
    b"Le lun. 1 janv. 2027, X a \xc3\xa9crit :\r\n",
    b"-----Original Message-----\r\nFrom: x\r\nSent: y\r\n",
    ORDERS,
    b"> quoted line\r\n",
    b"<p>power Rome<br>offer wine</p>",
    b"a",
    b"\x00",
    b"\xff\xfe\x80",
    b"=?utf-8?q?a?= ",
    b"offer " + b"9" * 5000 + b" wine\r\n",
]

printable = st.binary(min_size=1, max_size=30)
texts = st.text(max_size=30).map(lambda s: s.encode("utf-8", "surrogatepass"))
field_names = st.one_of(  # RFC 5322: printable ASCII but the colon
    st.sampled_from(HEADER_NAMES),
    st.text(st.characters(min_codepoint=33, max_codepoint=126, exclude_characters=":"), min_size=1, max_size=20).map(
        str.encode
    ),
)
junk_names = st.binary(min_size=1, max_size=20).filter(lambda b: not {*b":\r\n"} & {*b})
pieces = st.one_of(st.sampled_from(ENCODED_WORDS), st.sampled_from(ADDRESSES), texts, printable)
separators = st.sampled_from([b" ", b", ", b",", b"\r\n ", b"\t", b"", b"\r\n\t", b"\n "])
counts = st.one_of(
    st.integers(1, 5), st.sampled_from([100, 1_000, 5_000, 20_000, 50_000, 135_000]), st.integers(6, 150_000)
)


@st.composite
def header_values(draw: st.DrawFn) -> tuple[bytes, str]:
    """A header value: a few pieces (encoded words, addresses, text, bytes) repeated up to
    135,000 times; and what it is, for the label."""
    unit = b" ".join(draw(st.lists(pieces, min_size=1, max_size=3)))
    sep = draw(separators)
    count = min(draw(counts), BIGGEST // (len(unit) + len(sep) + 1))
    return repeated(unit, count, sep), f"{count:,}× {unit[:40]!r} joined by {sep!r}"


@st.composite
def mails(draw: st.DrawFn) -> FuzzMail:
    """A mail built from a recipe: From, To and Subject (each plain or heavy), other headers
    with random names and values, thousands more headers, a body of any charset, transfer
    encoding and kind, up to 1.2 MB, nested in multipart parts; junk header lines last (a line
    that is no header ends the headers). The label is the recipe, short enough to print."""
    said: list[str] = []
    headers = []
    for name, plain in ((b"From", FROM[6:]), (b"To", b"gm@example.org"), (b"Subject", b"orders")):
        if draw(st.booleans()):
            value, what = draw(header_values())
            headers.append(name + b": " + value)
            said.append(f"{name.decode()}: {what}")
        else:
            headers.append(name + b": " + plain)
    for _ in range(draw(st.integers(0, 4))):
        name = draw(field_names)
        value, what = draw(header_values())
        headers.append(name + b": " + value)
        said.append(f"{name[:20]!r}: {what}")
    many = draw(st.one_of(st.just(0), st.integers(1, 30_000)))
    headers += [b"X-Fuzz-%d: %d" % (n, n) for n in range(many)]
    if many:
        said.append(f"{many:,} more headers")
    encoding = draw(st.sampled_from([b"8bit", b"7bit", b"base64", b"quoted-printable", b"x-garbage", b""]))
    headers.append(b"Content-Transfer-Encoding: " + encoding)
    if draw(st.booleans()):
        junk = draw(st.lists(st.tuples(junk_names, printable), min_size=1, max_size=3))
        headers += [name + b": " + value for name, value in junk]
        said.append(f"junk header lines {junk!r}"[:120])
    charset = draw(st.one_of(st.sampled_from(CHARSETS), st.text(max_size=12)))
    kind = draw(st.sampled_from(["text/plain", "text/html", "application/octet-stream", "text/plain; format=flowed"]))
    unit = draw(st.one_of(st.sampled_from(BODY_UNITS), printable, texts))
    times = draw(st.one_of(st.integers(0, 50), st.integers(0, BIGGEST // max(1, len(unit)))))
    depth = draw(st.one_of(st.just(0), st.integers(1, 50), st.integers(50, 3_000)))
    content_type = f"{kind}; charset={charset}".encode("utf-8", "surrogatepass")
    outer, body = nested(depth, content_type, unit * times)
    said += [f"{kind}; charset={charset!r}; {encoding.decode()}", f"body {times:,}× {unit[:40]!r}"]
    if depth:
        said.append(f"multipart {depth:,} deep")
    return FuzzMail("; ".join(said), assemble(headers, body, outer))


# ---- reading one mail under the limits ---------------------------------------------------


class Overtime(BaseException):
    """Raised by SIGALRM in the mail being read: a BaseException, so that no `except
    Exception` of the reader can take it for a malformed mail."""


_reading = [False]  # whether a mail is being read: a tick after it is done stops nothing


def _overtime(_signum: int, _frame: object) -> None:
    if _reading[0]:
        raise Overtime


def _reset_peak() -> None:
    """Start the peak resident memory (VmHWM) afresh, so it measures this mail alone."""
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")


def _peak_mb() -> int:
    with contextlib.suppress(OSError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


FAILURES: list[str] = []  # every mail that broke the contract, in the order read


def _give_back_memory() -> None:
    """Hand the memory of the last mail back to the system (glibc keeps freed blocks), so one
    mail that blew up leaves the next one the whole cap and a fair measure."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def check_mail(case: FuzzMail) -> None:
    """Read one mail; fail, naming it, if it raised anything but an AdjudicatorError, took too
    long, or needed too much memory."""
    print(f"reading: {case!r}", flush=True)  # the last line the parent sees if the child hangs
    _give_back_memory()
    _reset_peak()
    before = _peak_mb()
    problems = []
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(JUDGE_RECURSION_LIMIT)
    started = time.perf_counter()
    try:
        _reading[0] = True
        signal.setitimer(signal.ITIMER_REAL, STOP_SECONDS, 0.1)  # again and again: one may land in a __del__
        try:
            read_mail(case.raw)
        except AdjudicatorError as error:
            if "MemoryError" in str(error):
                problems.append(f"ran out of memory under the {MEMORY_CAP / 1e9:.1f} GB cap ({error})")
        except MemoryError:
            problems.append(f"ran out of memory under the {MEMORY_CAP / 1e9:.1f} GB cap (MemoryError)")
        except Exception as error:
            problems.append(f"raised {type(error).__name__}, not an AdjudicatorError: {str(error)[:300]}")
        finally:
            _reading[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Overtime:
        _reading[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        problems.append(f"was still being read after {STOP_SECONDS} s, and was stopped")
    took = time.perf_counter() - started
    sys.setrecursionlimit(limit)
    grew = _peak_mb() - before
    if took > LIMIT_SECONDS and not any("stopped" in p for p in problems):
        problems.append(f"took {took:.2f} s")
    if grew > MEMORY_BUDGET_MB:
        problems.append(f"grew the process by {grew:,} MB")
    measured = f"{took:.2f} s (limit {LIMIT_SECONDS} s), {grew:+,} MB at the peak (budget {MEMORY_BUDGET_MB} MB)"
    print(f"read in {measured}", flush=True)
    if problems:
        FAILURES.append(f"{case.label} ({len(case.raw):,} bytes): {'; '.join(problems)}; {measured}")
        raise AssertionError(FAILURES[-1])


COMMON = settings(deadline=None, database=None, verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck))
Test = TypeVar("Test", bound=Callable[..., None])


def with_named_examples(test: Test) -> Test:
    """@example for each of NAMED, in order."""
    for case in reversed(NAMED):
        test = example(case)(test)
    return test


@settings(COMMON, phases=[Phase.explicit])
@given(mails())
@with_named_examples
def named_cases(case: FuzzMail) -> None:
    check_mail(case)


@settings(COMMON, max_examples=RANDOM_EXAMPLES, phases=[Phase.generate])
@given(mails())
def random_cases(case: FuzzMail) -> None:
    check_mail(case)


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def child(which: str) -> None:
    """The child process's work (its memory already capped): run one set of cases and print
    'FAIL: …' for each mail that broke the contract; exit 1 if any did."""
    signal.signal(signal.SIGALRM, _overtime)
    test = named_cases if which == "named" else random_cases
    try:
        test()
    except BaseException as error:  # Hypothesis reports one failure per line of code: FAILURES has them all
        others = [leaf for leaf in _leaves(error) if str(leaf) not in FAILURES]
        failures = dict.fromkeys(FAILURES)  # Hypothesis reads a failing mail once more before it reports
        for failure in [*failures, *(f"{type(leaf).__name__}: {str(leaf)[:1000]}" for leaf in others)]:
            print(f"FAIL: {failure}", flush=True)
        sys.exit(1)
    print(f"all {which} mails read within the limits", flush=True)


# ---- the tests: each runs a child under the memory cap ------------------------------------


def run_child(which: str, timeout: float) -> None:
    code = (
        "import resource; "
        f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_CAP}, {MEMORY_CAP})); "
        "from tests.test_mail_fuzz import child; "
        f"child({which!r})"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout or ""
        begun = [line for line in out.splitlines() if line.startswith("reading: ")]
        pytest.fail(f"the child was still at work after {timeout} s; last mail begun: {begun[-1:] or 'none'}")
    print("\n".join(line for line in done.stdout.splitlines()[-80:] if not line.startswith("FAIL: ")))
    failures = [line for line in done.stdout.splitlines() if line.startswith("FAIL: ")]
    if done.returncode != 0:
        detail = "\n".join(failures) or f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        pytest.fail(f"{len(failures)} mail(s) broke the reader's contract:\n{detail}", pytrace=False)


@pytest.mark.slow
def test_named_hostile_mails_are_read_in_time_and_memory() -> None:
    run_child("named", timeout=90)


@pytest.mark.slow
def test_random_mails_are_read_in_time_and_memory() -> None:
    run_child("random", timeout=120)
