"""The Matrix test server works end to end with Apprise, the library the chat notifications use:
the bot logs in with its password, joins the game room by its alias, uploads a picture and
posts; a player then reads both from the room and downloads the same bytes."""

from __future__ import annotations

import logging
import os
import secrets
import struct
import zlib
from pathlib import Path

import apprise
import pytest
from apprise.plugins.matrix import NotifyMatrix

from tests.matrix_server import MatrixServer

pytestmark = pytest.mark.slow  # starts Synapse (a few seconds, once per session)


def png(width: int, height: int, noise: bool = False) -> bytes:
    """A valid RGB PNG made with the standard library; `noise` makes it incompressible (large)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = bytes(3 * width)
    rows = b"".join(b"\x00" + (os.urandom(3 * width) if noise else row) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def notify(server: MatrixServer, body: str, title: str, attachment: Path) -> None:
    """One notification through Apprise; on failure the assertion carries Apprise's own log."""
    sender = apprise.Apprise()
    assert sender.add(server.apprise_url())
    with apprise.LogCapture(level=logging.DEBUG) as log:  # type: ignore[no-untyped-call]  # Apprise leaves it untyped
        sent = sender.notify(body=body, title=title, attach=str(attachment))
        assert sent, log.getvalue()


def test_two_megabyte_map_goes_through_unthrottled(
    matrix_server: MatrixServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rendered map may be that large. Apprise's pause between requests is taken out: its
    0.5 s each is most of a notification's time, and the server's rate limits must hold alone."""
    monkeypatch.setattr(NotifyMatrix, "request_rate_per_sec", 0)
    picture = tmp_path / f"big-map-{secrets.token_hex(4)}.png"
    picture.write_bytes(png(820, 820, noise=True))
    assert picture.stat().st_size > 2_000_000

    notify(matrix_server, "The map of turn 4.", "Mare Nostrum: test-game", picture)

    image = next(m for m in reversed(matrix_server.messages()) if m["content"].get("body") == picture.name)
    assert matrix_server.media(image["content"]["url"]) == picture.read_bytes()
