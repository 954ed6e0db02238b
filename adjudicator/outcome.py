"""What a command hands back to the CLI: text to print and whether it succeeded."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """Text for the terminal; `ok` false means exit code 1 (e.g. orders with errors)."""

    text: str
    ok: bool = True
