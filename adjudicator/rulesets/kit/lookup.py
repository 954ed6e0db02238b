"""What every ruleset's order checks share: a refusal that carries a line's problem out of nested
checks, a name looked up on the board with did-you-mean, and the index board parsers build."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from adjudicator.core.i18n import term
from adjudicator.core.names import NameIndex
from adjudicator.language.problems import AmbiguousName, Problem, UnknownName

K = TypeVar("K")
IdT = TypeVar("IdT", bound=str)


@dataclass(frozen=True, slots=True)
class Named(Generic[IdT]):
    """Anything on a board that players write by name: its id, the name the board prints, and
    the other spellings players use. Board readers index these (`name_index`)."""

    id: IdT
    name: str
    aliases: tuple[str, ...]


class Refused(Exception):
    """Carries a line's problem out of nested checks to the line's verdict."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def find_name(index: NameIndex[K], text: str, kind: str, line: int, where: str = "", term_kind: str = "") -> K:
    """The one thing the name means; else a refusal listing the names it could be (as printed,
    never ids) or the close ones. Names that are the game's terms (`term_kind`: "card"…) are
    offered as the reader's language calls them ('wino', not 'wine')."""
    match = index.find(text)
    if len(match.keys) == 1:
        return match.keys[0]

    def shown(names: Iterable[str]) -> tuple[str, ...]:
        return tuple(term(term_kind, name) if term_kind else name for name in names)

    if match.keys:
        raise Refused(AmbiguousName(line, kind, text, shown(index.display(k) for k in match.keys)))
    raise Refused(UnknownName(line, kind, text, shown(match.suggestions), where))


def name_index(kind: str, entries: Iterable[Any], key: Callable[[Any], str] | None = None) -> NameIndex[str]:
    """Board entries by their id, name and aliases; `key` picks what a match returns (the id)."""
    index: NameIndex[str] = NameIndex(kind)
    for entry in entries:
        index.add(key(entry) if key else entry.id, entry.name, (entry.id, entry.name, *getattr(entry, "aliases", ())))
    return index
