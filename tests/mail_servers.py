"""Real mail servers on loopback for tests (shared/notes/mail-test-servers.md): Dovecot from
Debian when installed, else pymap from PyPI; aiosmtpd for SMTP."""

from __future__ import annotations

import email
import email.policy
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

USER, PASSWORD = "gm@example.org", "s3cret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for_greeting(port: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                if s.recv(64).startswith(b"* OK"):
                    return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError(f"no IMAP greeting on port {port}")


DOVECOT_CONF = """protocols = imap
listen = 127.0.0.1
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_max_userip_connections = 100
mail_fsync = never
default_internal_user = dovecot
default_internal_group = dovecot
default_login_user = dovenull
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/passwd
}}
userdb {{
  driver = static
  args = uid=65534 gid=65534 home={d}/home/%n
}}
mail_location = maildir:~/Maildir
namespace inbox {{
  inbox = yes
  separator = /
}}
service anvil {{
  chroot =
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)


def dovecot_config(folder: str, port: int) -> Path:
    """A Dovecot configuration in `folder` for one user (USER/PASSWORD) on `port`; its path."""
    for sub in ("run", "state", "home"):
        os.makedirs(os.path.join(folder, sub))
    if os.geteuid() == 0:
        shutil.chown(os.path.join(folder, "home"), "nobody", "nogroup")
    Path(folder, "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    conf = Path(folder, "dovecot.conf")
    conf.write_text(DOVECOT_CONF.format(d=folder, port=port))
    return conf


@contextmanager
def imap_server(dovecot: bool = True) -> Iterator[int]:
    """A fresh IMAP server with one user (USER/PASSWORD) and an empty INBOX; yields its port.
    Dovecot when installed (and wanted), else pymap."""
    binary = dovecot_binary() if dovecot else None
    port = free_port()
    folder = tempfile.mkdtemp(prefix="imap-")
    os.chmod(folder, 0o755)
    try:
        if binary is not None:
            command = [binary, "-F", "-c", str(dovecot_config(folder, port))]
        else:
            command = [  # pymap has no __main__ module: `python -m pymap` does not start it
                sys.executable,
                "-c",
                "import sys; from pymap.main import main; sys.exit(main())",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-tls",
                "dict",
                "--demo-user",
                USER,
                "--demo-password",
                PASSWORD,
            ]
        process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_for_greeting(port)
            yield port
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class SmtpServer:
    port: int
    received: list[tuple[str, list[str], EmailMessage]] = field(default_factory=list)

    def messages_to(self, address: str) -> list[EmailMessage]:
        return [m for _, rcpts, m in self.received if address in rcpts]


@contextmanager
def smtp_server() -> Iterator[SmtpServer]:
    import logging

    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd's own deprecation notes, per login
    server = SmtpServer(free_port())

    class Recorder:
        async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
            message = email.message_from_bytes(
                envelope.original_content or envelope.content, policy=email.policy.default
            )
            server.received.append((envelope.mail_from, list(envelope.rcpt_tos), message))
            return "250 OK"

    def authenticate(_server: Any, _session: Any, _envelope: Any, _mechanism: Any, data: Any) -> AuthResult:
        ok = isinstance(data, LoginPassword) and data.login == USER.encode() and data.password == PASSWORD.encode()
        return AuthResult(success=ok, handled=False)

    controller = Controller(
        Recorder(), hostname="127.0.0.1", port=server.port, authenticator=authenticate, auth_require_tls=False
    )
    controller.start()
    try:
        yield server
    finally:
        controller.stop()
