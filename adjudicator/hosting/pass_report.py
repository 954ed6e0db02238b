"""What one pass of `run` did and where each game stands: the text `run` prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

Stop = Callable[[], bool]  # asked between mails and between games: finish the one in hand, then stop


@dataclass
class GameReport:
    """What one pass did for one game, and where it stands: its one line."""

    gid: str
    actions: list[str] = field(default_factory=list)
    standing: str = ""
    needs: str = ""  # why the moderator is needed (the game is paused)
    wake: datetime | None = None  # when something falls due without any mail

    @property
    def line(self) -> str:
        if self.needs:
            done = f" ({'; '.join(self.actions)})" if self.actions else ""
            return f"{self.gid}: NEEDS THE MODERATOR: {self.needs}{done}"
        what = "; ".join(self.actions) if self.actions else "nothing due"
        return f"{self.gid}: {what}" + (f"; {self.standing}" if self.standing else "")


@dataclass
class PassReport:
    mail: list[str] = field(default_factory=list)
    games: list[GameReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # trouble that passes (a mail server away)
    problems: list[str] = field(default_factory=list)  # trouble the moderator must fix (wrong settings)
    busy: str = ""  # another pass holds the root: this one did nothing

    @property
    def acted(self) -> bool:
        return bool(self.mail) or any(g.actions for g in self.games)

    @property
    def needs_moderator(self) -> list[str]:
        return [*self.problems, *(f"{g.gid}: {g.needs}" for g in self.games if g.needs)]

    @property
    def wake(self) -> datetime | None:
        return min((g.wake for g in self.games if g.wake is not None), default=None)

    @property
    def text(self) -> str:
        if self.busy:
            return self.busy
        lines = [*self.mail, *(g.line for g in self.games), *(f"warning: {w}" for w in self.warnings)]
        lines += [f"NEEDS THE MODERATOR: {problem}" for problem in self.problems]
        if not (self.acted or self.warnings or self.needs_moderator):
            lines.append("Nothing to do.")
        return "\n".join(lines)
