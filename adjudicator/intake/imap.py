"""The IMAP side of collection (imapclient): fetch unprocessed mail without marking it read,
and mark it processed (moved or flagged) only after it was saved."""

from __future__ import annotations

import contextlib
import imaplib
import ssl
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.fields import Fields
from adjudicator.delivery.smtp import check_security, secret_from_env
from adjudicator.game.settings_check import IMAP_KEYS


class ImapError(AdjudicatorError):
    """The mailbox could not be reached or read; nothing was marked processed."""


@dataclass(frozen=True, slots=True)
class ImapSettings:
    host: str
    port: int
    security: str
    user: str
    password: str
    folder: str
    processed: str  # "move" or "flag"
    processed_folder: str
    quarantine_folder: str
    flag: str
    cafile: str

    @classmethod
    def from_fields(cls, f: Fields) -> ImapSettings:
        f.only(IMAP_KEYS)
        host = f.text("host")
        security = check_security(f, host)
        processed = f.text("processed", "move")
        if processed not in ("move", "flag"):
            raise f.error("processed", f"'{processed}' is not move or flag")
        return cls(
            host,
            f.integer("port", 993 if security == "tls" else 143, minimum=1),
            security,
            f.text("user"),
            secret_from_env(f),
            f.text("folder", "INBOX"),
            processed,
            f.text("processed_folder", "Processed"),
            f.text("quarantine_folder", "Quarantine"),
            f.text("flag", "$Processed"),
            f.text("cafile", ""),
        )


class Mailbox:
    """A logged-in connection to the folder the orders arrive in."""

    def __init__(self, settings: ImapSettings) -> None:
        self.settings = settings
        context = ssl.create_default_context(cafile=settings.cafile or None)
        try:
            self.client = IMAPClient(
                settings.host, settings.port, ssl=settings.security == "tls", ssl_context=context, timeout=30
            )
            if settings.security == "starttls":
                self.client.starttls(context)
            self.client.login(settings.user, settings.password)
            self.client.select_folder(settings.folder)
        except LoginError:
            raise ImapError(
                f"the IMAP server {settings.host} refused the login of {settings.user}; "
                "check the user and the password variable"
            ) from None
        except (OSError, IMAPClientError) as error:
            raise ImapError(f"could not read {settings.folder} on {settings.host}:{settings.port} ({error})") from None
        folders = {name for _, _, name in self.client.list_folders()}
        for folder in (settings.processed_folder, settings.quarantine_folder):
            if settings.processed == "move" and folder not in folders:
                self.client.create_folder(folder)

    def __enter__(self) -> Mailbox:
        return self

    def __exit__(self, *_: object) -> None:
        with contextlib.suppress(OSError, IMAPClientError):
            self.client.logout()

    def new_messages(self) -> Iterator[tuple[int, bytes]]:
        """Unprocessed messages, oldest first, fetched with BODY.PEEK (they stay unread). A
        message another client moved away meanwhile is skipped."""
        criteria = ["NOT", "DELETED"] if self.settings.processed == "move" else ["NOT", "KEYWORD", self.settings.flag]
        with self._connection():
            uids = sorted(self.client.search(criteria))
        for uid in uids:
            with self._connection():
                try:
                    data = self.client.fetch([uid], ["BODY.PEEK[]"]).get(uid, {})
                except IMAPClientError as error:
                    if not _gone(error):
                        raise
                    continue
            raw = data.get(b"BODY[]")
            if isinstance(raw, bytes):
                yield uid, raw

    def mark_processed(self, uid: int, quarantine: bool = False) -> None:
        self.mark_all_processed([uid], quarantine)

    def mark_all_processed(self, uids: Sequence[int], quarantine: bool = False) -> None:
        """Move (or flag) many messages in one command. When another client took one of them
        away meanwhile, the others are marked one by one."""
        if not uids:
            return
        with self._connection():
            try:
                self._mark(uids, quarantine)
            except IMAPClientError as error:
                if not _gone(error):  # gone: another client took it away; it is saved here all the same
                    raise
                if len(uids) > 1:
                    for uid in uids:
                        self.mark_processed(uid, quarantine)

    def _mark(self, uids: Sequence[int], quarantine: bool) -> None:
        if self.settings.processed == "move":
            target = self.settings.quarantine_folder if quarantine else self.settings.processed_folder
            self.client.move(list(uids), target)
        else:
            self.client.add_flags(list(uids), [self.settings.flag.encode()])

    @contextlib.contextmanager
    def _connection(self) -> Iterator[None]:
        """A connection that breaks mid-run (server restarted, network gone) is one clear error."""
        try:
            yield
        except (OSError, IMAPClientError, imaplib.IMAP4.abort) as error:
            raise ImapError(
                f"the connection to the IMAP server {self.settings.host}:{self.settings.port} broke "
                f"({type(error).__name__}: {' '.join(str(error).split()) or 'closed'})"
            ) from None


def _gone(error: Exception) -> bool:
    """The server says the message no longer exists (another client expunged or moved it)."""
    return "EXPUNGEISSUED" in str(error) or "no longer exist" in str(error)
