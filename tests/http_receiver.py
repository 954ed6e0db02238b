"""Real HTTP(S) servers on loopback that record what a chat-notification client sends and answer from a
script, so the chat tests exercise Apprise's real requests (tests/test_http_receiver.py shows the
services' request shapes). Not a test module: test modules import the `receiver` and `tls_receiver`
fixtures from here, as they import the mail servers from tests/mail_servers.py.

`tls_receiver` stands in for services whose plugins post to fixed hosts (discord.com, hooks.slack.com):
`route()` makes urllib3 connect those names to the local HTTPS server, whose certificate a throw-away
trustme CA signs, and REQUESTS_CA_BUNDLE names that CA, so certificate checking stays on. Every other
name is refused, so no test can reach the internet."""

from __future__ import annotations

import email.parser
import email.policy
import json
import socket
import ssl
import sys
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest
import trustme
import urllib3.util.connection

# Names the server certificate carries from the start; route() adds any other name it is given.
TLS_HOSTNAMES = ("discord.com", "hooks.slack.com", "slack.com", "api.telegram.org")

# Always connected as asked, routed or not: they cannot leave the machine, and a test may run a plain
# `receiver` beside a `tls_receiver`.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@dataclass
class Answer:
    """One scripted reply."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0  # seconds to wait before answering (to test client timeouts)
    drop: bool = False  # close the connection without answering


@dataclass
class Part:
    """One part of a multipart/form-data body."""

    name: str
    filename: str | None
    content_type: str
    data: bytes


@dataclass
class Received:
    """One request as it arrived."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-cased names; repeated headers joined with ", "
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def form(self) -> dict[str, str]:
        """An application/x-www-form-urlencoded body (a repeated field keeps its last value)."""
        return dict(parse_qsl(self.body.decode(), keep_blank_values=True))

    def parts(self) -> list[Part]:
        """A multipart/form-data body, parsed by the standard library's email parser rather than
        by hand, so the test does not share the client's idea of the format."""
        content_type = self.headers.get("content-type", "")
        if not content_type.startswith("multipart/form-data"):
            raise AssertionError(f"not multipart/form-data but {content_type!r}")
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + self.body)
        found = []
        for part in message.iter_parts():
            data = part.get_payload(decode=True)
            found.append(
                Part(
                    name=str(part.get_param("name", header="content-disposition") or ""),
                    filename=part.get_filename(),
                    content_type=part.get_content_type(),
                    data=data if isinstance(data, bytes) else b"",
                )
            )
        return found


class _Server(ThreadingHTTPServer):
    """Keeps track of its open connections, so stopping it also ends keep-alive connections
    that a handler thread would otherwise wait on."""

    daemon_threads = True

    def __init__(self, owner: Receiver, context: ssl.SSLContext | None) -> None:
        self.owner = owner
        self.context = context
        self.connections: set[socket.socket] = set()
        super().__init__(("127.0.0.1", 0), _Handler)

    def get_request(self) -> tuple[socket.socket, Any]:
        connection, address = self.socket.accept()
        if self.context is not None:
            # The handshake happens in the handler's thread, so a slow or failing client
            # does not hold up the accept loop.
            connection = self.context.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        with self.owner._lock:
            self.connections.add(connection)
        return connection, address

    def shutdown_request(self, request: Any) -> None:
        with self.owner._lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Recorded rather than printed: a client that gives up (timeout, bad certificate) is
        often what the test wants."""
        error = sys.exc_info()[1]
        with self.owner._lock:
            self.owner.errors.append(f"{type(error).__name__}: {error}")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked request bodies, Expect: 100-continue
    timeout = 10.0  # a client that stops talking does not hold a thread for ever
    server: _Server

    def setup(self) -> None:
        super().setup()
        if isinstance(self.connection, ssl.SSLSocket):
            self.connection.do_handshake()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: what arrived is in Receiver.received."""

    def _body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks: list[bytes] = []
            while True:
                size = int(self.rfile.readline(65537).split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline(3)  # the CRLF after each chunk
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _serve(self) -> None:
        owner = self.server.owner
        target = urlsplit(self.path)
        headers: dict[str, str] = {}
        for name, value in self.headers.items():
            key = name.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        request = Received(
            method=self.command,
            path=target.path,
            query=parse_qs(target.query, keep_blank_values=True),
            headers=headers,
            body=self._body(),
        )
        answer = owner._record(request)
        if answer.delay and owner._stopping.wait(answer.delay):
            answer = Answer(drop=True)  # stopping: do not keep the test waiting
        if answer.drop:
            self.close_connection = True
            with suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.send_response(answer.status)
        names = {name.lower() for name in answer.headers}
        for name, value in answer.headers.items():
            self.send_header(name, value)
        if "content-length" not in names:
            self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer.body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve


class Receiver:
    """A real HTTP server on 127.0.0.1 at a free port, in a daemon thread: records every request
    and answers with the queued Answers in order, then with `default`."""

    def __init__(self, context: ssl.SSLContext | None = None) -> None:
        self.received: list[Received] = []
        self.errors: list[str] = []  # exceptions in the server's handlers, e.g. a failed TLS handshake
        self.default = Answer(200, {"Content-Type": "application/json"}, b"{}")
        self._answers: deque[Answer] = deque()
        self._lock = threading.Condition()
        self._stopping = threading.Event()
        self._server = _Server(self, context)
        self.port: int = self._server.server_address[1]
        self.url = f"{'https' if context else 'http'}://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name=f"receiver-{self.port}"
        )
        self._thread.daemon = True

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        with self._lock:
            open_connections = list(self._server.connections)
        for connection in open_connections:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        self._server.server_close()
        self._thread.join(5)

    def answer(self, *answers: Answer) -> None:
        """Queue replies for the next requests, in order; after them comes `default`."""
        with self._lock:
            self._answers.extend(answers)

    def _record(self, request: Received) -> Answer:
        with self._lock:
            self.received.append(request)
            self._lock.notify_all()
            return self._answers.popleft() if self._answers else self.default

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """All requests so far, once at least `count` have arrived: the client may still be
        sending when its call returns (or gives up)."""
        with self._lock:
            if not self._lock.wait_for(lambda: len(self.received) >= count, timeout):
                arrived = [f"{r.method} {r.path} {r.body[:200]!r}" for r in self.received]
                raise AssertionError(
                    f"expected {count} request(s) within {timeout} s, got {len(arrived)}: {arrived}; "
                    f"server errors: {self.errors}"
                )
            return list(self.received)


class TlsReceiver(Receiver):
    """The HTTPS variant: a certificate from a test CA for `hostnames`, and `route()` to send
    connections for those names here instead of to the internet."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, folder: Path, hostnames: tuple[str, ...]) -> None:
        self.ca = trustme.CA()
        self.ca_file = folder / "test-ca.pem"
        self.ca.cert_pem.write_to_path(str(self.ca_file))
        self.hostnames: list[str] = []
        self.routed: set[str] = set()
        self._context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._certify(hostnames)
        super().__init__(self._context)
        self._install(monkeypatch)

    def _certify(self, hostnames: tuple[str, ...] | list[str]) -> None:
        """(Re)issue the server certificate for every name so far; new connections present it."""
        self.hostnames = list(dict.fromkeys([*self.hostnames, *hostnames]))
        self.ca.issue_cert(*self.hostnames).configure_cert(self._context)

    def _install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """urllib3 2.x's HTTPConnection._new_conn calls `connection.create_connection(...)` through
        the module urllib3.util.connection, so that attribute is the one to replace (requests goes
        through urllib3)."""
        real: Callable[..., socket.socket] = urllib3.util.connection.create_connection

        def connect(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
            host = address[0].strip("[]").rstrip(".").lower()
            if host in self.routed:
                return real(("127.0.0.1", self.port), *args, **kwargs)
            if host in LOOPBACK:
                return real(address, *args, **kwargs)
            raise ConnectionRefusedError(f"{host}:{address[1]} is not routed to the test receiver")

        monkeypatch.setattr(urllib3.util.connection, "create_connection", connect)
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(self.ca_file))
        for name in PROXY_VARIABLES:
            monkeypatch.delenv(name, raising=False)

    def route(self, *hostnames: str) -> None:
        """Connect these names (any port) to this server; the certificate is reissued to carry
        any name it did not carry yet."""
        names = [name.rstrip(".").lower() for name in hostnames]
        self.routed.update(names)
        if not set(names) <= set(self.hostnames):
            self._certify(names)


@contextmanager
def http_receiver() -> Iterator[Receiver]:
    """A plain-HTTP Receiver for the length of the block."""
    server = Receiver()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def https_receiver(
    monkeypatch: pytest.MonkeyPatch, hostnames: tuple[str, ...] = TLS_HOSTNAMES
) -> Iterator[TlsReceiver]:
    """An HTTPS Receiver with its CA in REQUESTS_CA_BUNDLE and urllib3's connections refused
    except to loopback and the names routed to it, for the length of the block (the patches
    themselves are undone by `monkeypatch`)."""
    with tempfile.TemporaryDirectory(prefix="tls-receiver-") as folder:
        server = TlsReceiver(monkeypatch, Path(folder), hostnames)
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    """A plain-HTTP Receiver at http://127.0.0.1:PORT, stopped after the test. Proxy variables are
    cleared so that requests talks to it directly."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with http_receiver() as server:
        yield server


@pytest.fixture
def tls_receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[TlsReceiver]:
    """An HTTPS Receiver with a test CA (see TlsReceiver.route), stopped after the test."""
    with https_receiver(monkeypatch) as server:
        yield server


__all__ = [
    "TLS_HOSTNAMES",
    "Answer",
    "Part",
    "Received",
    "Receiver",
    "TlsReceiver",
    "http_receiver",
    "https_receiver",
    "receiver",
    "tls_receiver",
]
