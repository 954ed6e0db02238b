"""Typed access to parsed TOML/JSON that names the exact key when a value is wrong.

A moderator who hand-edits a state or board file should read `provinces.roma.legions.Rome:
expected a whole number, found "two"`, not a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from adjudicator.core.controls import control_character
from adjudicator.core.errors import DataError, UsageError
from adjudicator.core.names import NameIndex

T = TypeVar("T")
_MISSING: Any = object()


_TYPE_NAMES: dict[type, str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "text",
    list: "a list",
    dict: "a table",
}


class Fields:
    """A table of a document plus the dotted path that leads to it."""

    __slots__ = ("data", "path")

    def __init__(self, data: Mapping[str, Any], path: str = "") -> None:
        self.data = data
        self.path = path

    def key(self, name: str | int) -> str:
        if isinstance(name, int):
            return f"{self.path}[{name}]"
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str | int, message: str) -> DataError:
        return DataError(self.key(name), message)

    def __contains__(self, name: str) -> bool:
        return name in self.data and self.data[name] is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def _get(self, name: str, kind: type[T] | tuple[type, ...], default: Any) -> Any:
        if name not in self.data or self.data[name] is None:
            if default is _MISSING:
                raise self.error(name, "missing; add this key")
            return default
        value = self.data[name]
        expected = kind if isinstance(kind, tuple) else (kind,)
        wrong_bool = isinstance(value, bool) and bool not in expected
        if wrong_bool or not isinstance(value, expected):
            wanted = _TYPE_NAMES.get(expected[0], expected[0].__name__)
            raise self.error(name, f"expected {wanted}, found {value!r}")
        return value

    def text(self, name: str, default: Any = _MISSING) -> Any:
        return self._get(name, str, default)

    def line(self, name: str, default: Any = _MISSING) -> Any:
        """A text that is one line of plain text: a line break, tab, escape or other control
        character in it is refused (a report would show it as a line of its own, a heading)."""
        value = self.text(name, default)
        if isinstance(value, str) and (found := control_character(value)):
            raise self.error(name, f"holds {found}; write it as one line of plain text, without control characters")
        return value

    def checked(self, name: str, check: Callable[[str], str], default: str = "") -> str:
        """A text a check makes canonical (a language code, a time zone); its refusal names the
        key. The default (absent, or written as the default) is taken as it is."""
        value: str = self.text(name, default)
        if value == default:
            return value
        try:
            return check(value)
        except UsageError as error:
            raise self.error(name, str(error)) from None

    def integer(self, name: str, default: Any = _MISSING, minimum: int | None = None) -> Any:
        value = self._get(name, int, default)
        if isinstance(value, int) and minimum is not None and value < minimum:
            raise self.error(name, f"must be at least {minimum}, found {value}")
        return value

    def flag(self, name: str, default: Any = _MISSING) -> Any:
        return self._get(name, bool, default)

    def texts(self, name: str, default: Any = _MISSING) -> list[str]:
        values = self._get(name, list, default)
        for index, item in enumerate(values):
            if not isinstance(item, str):
                raise DataError(f"{self.key(name)}[{index}]", f"expected text, found {item!r}")
        return list(values)

    def table(self, name: str, default: Any = _MISSING) -> Fields:
        value = self._get(name, dict, {} if default is not _MISSING else default)
        return Fields(value, self.key(name))

    def tables(self, name: str, default: Any = _MISSING) -> list[Fields]:
        values = self._get(name, list, default)
        found = []
        for index, item in enumerate(values):
            if not isinstance(item, dict):
                raise DataError(f"{self.key(name)}[{index}]", f"expected a table, found {item!r}")
            found.append(Fields(item, f"{self.key(name)}[{index}]"))
        return found

    def counts(self, name: str) -> dict[str, int]:
        """A table of name -> count (zero or more), e.g. a hand or a legion table."""
        table = self.table(name, default={})
        result: dict[str, int] = {}
        for key in table:
            result[key] = table.integer(key, minimum=0)
        return result

    def only(self, allowed: Iterable[str]) -> None:
        """Reject keys nobody reads: a typo in a hand-edited file must not pass silently."""
        known = frozenset(allowed)
        for name in self.data:
            if name not in known:
                raise self.error(name, unknown_key(name, known))


def unknown_key(name: str, known: Iterable[str]) -> str:
    """`unknown key; did you mean 'deadline'?`, or the keys there are when none is close."""
    index: NameIndex[str] = NameIndex("key")
    for key in sorted(known):
        index.add(key, key)
    match = index.find(name)
    close = match.keys or match.suggestions
    if close:
        return "unknown key; did you mean " + " or ".join(f"'{key}'" for key in close) + "?"
    if not known:
        return "unknown key; nothing is read here, so remove it"
    return f"unknown key; the keys here are {', '.join(sorted(known))}"
