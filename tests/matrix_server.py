"""A real Matrix homeserver (Synapse, from PyPI) on loopback for the chat-notification tests.

One Synapse per test session: it takes a few seconds to start, so tests share it and tell
their messages apart by their text. Plain HTTP on 127.0.0.1, SQLite, no federation, rate
limits lifted (Apprise logs in anew for each notification). Users are made with the
shared-secret admin API; the helpers speak HTTP with urllib only.

Use: `from tests.matrix_server import matrix_server  # noqa: F401`, then take `matrix_server`
as a test argument.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import importlib.util
import json
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.mail_servers import free_port

SERVER_NAME = "localhost"
BOT, PLAYERS = "judge", ("anna", "bela")
ROOM = "game"
START_TIMEOUT = 60.0  # seconds; a start takes 2.5 to 5 (1.9 of them importing Synapse)

# Every rate limit this Synapse has, raised far beyond what a test does.
_UNLIMITED = {"per_second": 10000, "burst_count": 10000}
_RATE_LIMITS = {
    "rc_message": _UNLIMITED,
    "rc_registration": _UNLIMITED,
    "rc_login": {"address": _UNLIMITED, "account": _UNLIMITED, "failed_attempts": _UNLIMITED},
    "rc_joins": {"local": _UNLIMITED, "remote": _UNLIMITED},
    "rc_joins_per_room": _UNLIMITED,
    "rc_invites": {"per_room": _UNLIMITED, "per_user": _UNLIMITED, "per_issuer": _UNLIMITED},
    "rc_media_create": _UNLIMITED,
    "rc_room_creation": _UNLIMITED,
    "rc_admin_redaction": _UNLIMITED,
    "rc_presence": {"per_user": _UNLIMITED},
    "rc_profile": _UNLIMITED,
    "rc_user_directory": _UNLIMITED,
    "rc_delayed_event_mgmt": _UNLIMITED,
    "rc_reports": _UNLIMITED,
}


def homeserver_config(folder: Path, port: int, shared_secret: str) -> dict[str, Any]:
    """The smallest Synapse configuration that serves the client API quickly on `port`.

    JSON is valid YAML, so the file needs no YAML writer in the test process."""
    return {
        "server_name": SERVER_NAME,
        "public_baseurl": f"http://127.0.0.1:{port}/",
        "pid_file": str(folder / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],  # admin API rides on `client`
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(folder / "homeserver.db")}},
        "media_store_path": str(folder / "media_store"),
        "signing_key_path": str(folder / "signing.key"),
        "registration_shared_secret": shared_secret,  # also serves as the macaroon secret
        "enable_registration": False,
        "report_stats": False,
        "trusted_key_servers": [],  # no key server: nothing goes out to matrix.org
        "federation_domain_whitelist": [],  # no federation at all
        "presence": {"enabled": False},
        "bcrypt_rounds": 4,  # the lowest bcrypt allows: each login costs ~1 ms, not ~250 ms
        "max_upload_size": "10M",
        "dynamic_thumbnails": True,  # no thumbnails made during an upload
        "url_preview_enabled": False,
        "enable_metrics": False,
        **_RATE_LIMITS,
    }


def signing_key_line() -> str:
    """An ed25519 signing key in Synapse's file format, made without Synapse's libraries:
    `ed25519 <version> <32-byte seed, unpadded base64>`."""
    seed = base64.b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    return f"ed25519 a_test {seed}\n"


def http(
    method: str,
    url: str,
    body: dict[str, Any] | None = None,
    token: str | None = None,
    timeout: float = 10.0,
) -> Any:
    """One JSON request; an HTTP error raises with the server's answer in the message."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{method} {url}: HTTP {error.code}: {error.read().decode(errors='replace')}") from None


@dataclass
class MatrixServer:
    """What a test needs of the running Synapse: where it is, who is on it, and the game room."""

    base_url: str  # http://127.0.0.1:PORT
    port: int
    folder: Path
    server_name: str = SERVER_NAME
    bot_user: str = BOT
    bot_password: str = "judge-secret"
    room_alias: str = f"#{ROOM}:{SERVER_NAME}"
    room_id: str = ""
    tokens: dict[str, str] = field(default_factory=dict)  # localpart -> access token (players and bot)

    def user_id(self, localpart: str) -> str:
        """`anna` -> `@anna:localhost`, the form a mention takes."""
        return f"@{localpart}:{self.server_name}"

    def apprise_url(self, **params: str) -> str:
        """The Apprise URL that posts as the bot to the game room over plain HTTP.

        Apprise 2.3 reads a bare `/#game` too, but `%23game` stays a path wherever the URL is
        parsed as a URL (a bare `#` starts a fragment). Apprise completes `#game` to
        `#game:localhost` from the user ID its login returns. Plain `matrix://` also keeps
        Apprise off end-to-end encryption and `.well-known` discovery, both HTTPS-only."""
        user = urllib.parse.quote(self.bot_user, safe="")
        password = urllib.parse.quote(self.bot_password, safe="")
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        return f"matrix://{user}:{password}@127.0.0.1:{self.port}/%23{ROOM}{query}"

    def events(self, reader: str = PLAYERS[0], limit: int = 50) -> list[dict[str, Any]]:
        """The room's latest events as `reader` sees them, oldest first."""
        query = urllib.parse.urlencode({"dir": "b", "limit": limit})
        room = urllib.parse.quote(self.room_id, safe="")
        answer = http(
            "GET", f"{self.base_url}/_matrix/client/v3/rooms/{room}/messages?{query}", token=self.tokens[reader]
        )
        chunk: list[dict[str, Any]] = answer["chunk"]
        return chunk[::-1]

    def messages(self, reader: str = PLAYERS[0], limit: int = 50) -> list[dict[str, Any]]:
        """The room's latest `m.room.message` events (text, images, files), oldest first."""
        return [event for event in self.events(reader, limit) if event["type"] == "m.room.message"]

    def media(self, mxc_url: str, reader: str = PLAYERS[0]) -> bytes:
        """The bytes of an uploaded file (`mxc://server/id`), through the authenticated media API."""
        server, media_id = mxc_url.removeprefix("mxc://").split("/", 1)
        url = f"{self.base_url}/_matrix/client/v1/media/download/{server}/{media_id}"
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {self.tokens[reader]}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            data: bytes = response.read()
            return data


def _log_tail(log: Path, lines: int = 40) -> str:
    text = log.read_text(errors="replace") if log.exists() else "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def _wait_until_up(server: MatrixServer, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll `/_matrix/client/versions` until it answers; fail with the log's tail otherwise."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Synapse exited with {process.returncode} at start; its log ends:\n{_log_tail(log)}")
        try:
            http("GET", f"{server.base_url}/_matrix/client/versions", timeout=1)
            return
        except (OSError, RuntimeError):
            time.sleep(0.05)
    raise RuntimeError(f"Synapse did not answer within {START_TIMEOUT:.0f} s; its log ends:\n{_log_tail(log)}")


def register(server: MatrixServer, shared_secret: str, user: str, password: str, admin: bool = False) -> str:
    """Create `user` with the shared-secret admin API (HMAC-SHA1 over a fresh nonce); its access token."""
    url = f"{server.base_url}/_synapse/admin/v1/register"
    nonce: str = http("GET", url)["nonce"]
    mac = hmac.new(shared_secret.encode(), digestmod=hashlib.sha1)
    mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(), b"admin" if admin else b"notadmin"]))
    answer = http(
        "POST", url, {"nonce": nonce, "username": user, "password": password, "admin": admin, "mac": mac.hexdigest()}
    )
    token: str = answer["access_token"]
    return token


def login(server: MatrixServer, user: str, password: str) -> str:
    """A password login, as a Matrix client (and Apprise) does it; the new access token."""
    body = {"type": "m.login.password", "identifier": {"type": "m.id.user", "user": user}, "password": password}
    token: str = http("POST", f"{server.base_url}/_matrix/client/v3/login", body)["access_token"]
    return token


def populate(server: MatrixServer, shared_secret: str) -> None:
    """The bot and the players, each logged in; a public room `#game:localhost` made by the
    first player and joined by the second. The bot is not in it: Apprise joins it by alias."""
    for user in (BOT, *PLAYERS):
        password = server.bot_password if user == BOT else f"{user}-secret"
        register(server, shared_secret, user, password)
        server.tokens[user] = login(server, user, password)
    api = f"{server.base_url}/_matrix/client/v3"
    created = http(
        "POST",
        f"{api}/createRoom",
        {"room_alias_name": ROOM, "name": "Mare Nostrum game", "preset": "public_chat"},
        token=server.tokens[PLAYERS[0]],
    )
    server.room_id = created["room_id"]
    for player in PLAYERS[1:]:
        http("POST", f"{api}/join/{urllib.parse.quote(server.room_alias, safe='')}", {}, token=server.tokens[player])


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM lets Synapse close its database; SIGKILL if it has not gone after a few seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def running_synapse() -> Iterator[MatrixServer]:
    """A fresh Synapse with its users and room, in a temporary folder removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="synapse-"))
    port = free_port()
    shared_secret = secrets.token_hex(16)
    (folder / "media_store").mkdir()
    (folder / "signing.key").write_text(signing_key_line())
    config = folder / "homeserver.yaml"
    config.write_text(json.dumps(homeserver_config(folder, port, shared_secret), indent=2))
    log = folder / "synapse.log"
    server = MatrixServer(base_url=f"http://127.0.0.1:{port}", port=port, folder=folder)
    try:
        with log.open("wb") as log_file:
            process = subprocess.Popen(
                [sys.executable, "-m", "synapse.app.homeserver", "-c", str(config)],
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        try:
            _wait_until_up(server, process, log)
            populate(server, shared_secret)
            yield server
        finally:
            stop(process)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def matrix_server() -> Iterator[MatrixServer]:
    """The session's Synapse; tests skip, saying why, where `matrix-synapse` is not installed."""
    if importlib.util.find_spec("synapse") is None:
        pytest.skip("matrix-synapse is not installed (pip install -e '.[test]')")
    with running_synapse() as server:
        yield server
