"""The quick way into a command: a moderator's `state`, `status` or `check` without Typer.

Typer and its Click cost a command about six bare Python starts before it does anything
(issue 31), and the moderator types these commands dozens of times a phase. So the `adjudicator`
executable first tries this: a table of every command's arguments and options, made from the
Typer app itself (adjudicator/cli.py, the one home of every option and its help) the first time
a command runs through Typer, and kept in the cache folder under the app's file and Typer's.

A command line this reader takes as it is (known options, the arguments a command wants, values
of the right type) runs the very call the Typer command makes; anything else (`--help`, a typo,
a missing value, a number that is not one, an option it does not know) goes to Typer, which
explains it. So this reader never has to say that something is wrong, and never says it
differently: tests/test_dispatch.py parses the same command lines both ways and compares.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from adjudicator.outcome import Outcome

TABLE_SHAPE = 1  # raised when the table's shape changes, so an old one is never read
KINDS = ("text", "path", "int", "float", "flag", "texts")  # what a value is; anything else goes to Typer


@dataclass(frozen=True, slots=True)
class Call:
    """What a command does: `module:function`, called with the command's parameters by name
    (`renamed` maps a parameter to the function's own name for it)."""

    target: str
    renamed: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, values: Mapping[str, Any]) -> Outcome:
        module, _, name = self.target.partition(":")
        function: Callable[..., Outcome] = getattr(importlib.import_module(module), name)
        return function(**{self.renamed.get(key, key): value for key, value in values.items()})


def run(argv: Sequence[str]) -> int | None:
    """Runs a command line the table knows and takes as it is, and gives its exit code; None
    sends the line to Typer."""
    table = _read_table()
    if table is None or not argv:
        return None
    path = _command_path(table, argv)
    if path is None:
        return None
    entry = table["commands"][path]
    values = parse(entry, argv[len(path.split()) :])
    if values is None:
        return None
    from adjudicator.console import finish

    call = Call(entry["target"], entry["renamed"])
    return finish(lambda: call(values), values.get("directory"))


def parse(entry: Mapping[str, Any], args: Sequence[str]) -> dict[str, Any] | None:
    """The values a command line gives a command's parameters, as Typer would pass them; None
    where Typer must read the line (it is wrong, or asks for what this reader does not do)."""
    by_flag = {flag: option for option in entry["options"] for flag in option["flags"]}
    negated = {flag: option for option in entry["options"] for flag in option["negations"]}
    given: dict[str, Any] = {}
    positional: list[str] = []
    index = 0
    while index < len(args):
        token = args[index]
        index += 1
        if token == "--" or token in ("-h", "--help"):
            return None
        if not token.startswith("-") or token == "-":
            positional.append(token)
            continue
        name, equals, inline = token.partition("=")
        if name in negated and not equals:
            given[negated[name]["name"]] = False
            continue
        option = by_flag.get(name)
        if option is None or (equals and not name.startswith("--")):
            return None  # unknown, or a short option written as -p=X, which Click reads otherwise
        if option["kind"] == "flag":
            if equals:
                return None
            given[option["name"]] = True
            continue
        if not equals:
            if index == len(args) or args[index].startswith("-"):
                return None  # Click would take `-x` as the value, or say the value is missing
            inline = args[index]
            index += 1
        value = _converted(option["kind"], inline)
        if value is None:
            return None
        if option["kind"] == "texts":
            given.setdefault(option["name"], []).append(value)
        else:
            given[option["name"]] = value
    return _with_arguments(entry, given, positional)


def _with_arguments(entry: Mapping[str, Any], given: dict[str, Any], positional: list[str]) -> dict[str, Any] | None:
    arguments = entry["arguments"]
    if len(positional) > len(arguments):
        return None
    values: dict[str, Any] = {}
    for number, argument in enumerate(arguments):
        if number < len(positional):
            value = _converted(argument["kind"], positional[number])
            if value is None:
                return None
        elif argument["required"]:
            return None
        else:
            value = _default(argument)
        values[argument["name"]] = value
    for option in entry["options"]:
        if option["name"] in given:
            values[option["name"]] = given[option["name"]]
        elif option["required"]:
            return None
        else:
            values[option["name"]] = _default(option)
    return values


def _converted(kind: str, text: str) -> Any:
    """A value as Typer converts it; None where Typer would refuse it (it then says why)."""
    if kind in ("text", "texts"):
        return text
    if kind == "path":
        return Path(text)
    number: type[int] | type[float] = int if kind == "int" else float
    try:
        return number(text)
    except ValueError:
        return None


def _default(parameter: Mapping[str, Any]) -> Any:
    default = parameter["default"]
    return Path(default) if parameter["kind"] == "path" and default is not None else default


def _command_path(table: Mapping[str, Any], argv: Sequence[str]) -> str | None:
    """The command an argv names: `state`, or a group's `board check`."""
    for words in (2, 1):
        path = " ".join(argv[:words])
        if len(argv) >= words and path in table["commands"]:
            return path
    return None


def table_of(group: Any, calls: Mapping[object, Call]) -> dict[str, Any]:
    """The table of a Typer app's Click group: for each command whose declared function has a
    `Call` in `calls`, its target and its parameters. A command with a parameter this reader
    does not read as Typer does (a callback, an environment variable, a path that must exist)
    is left out, and so always goes through Typer."""
    commands: dict[str, Any] = {}
    for path, command in _commands(group, ""):
        call = calls.get(_declared(command.callback, calls))
        entry = _entry(command) if call is not None else None
        if entry is not None and call is not None:
            commands[path] = {"target": call.target, "renamed": dict(call.renamed), **entry}
    return {"shape": TABLE_SHAPE, "commands": commands}


def remember(group: Callable[[], Any], calls: Mapping[object, Call]) -> None:
    """Keeps the table of the app's Click group (made by `group`, only if need be), if it is
    not kept yet."""
    path = _table_path()
    if path is None or path.exists():
        return
    from adjudicator.core.cache import save_bytes

    save_bytes(path, json.dumps(table_of(group(), calls), ensure_ascii=False, sort_keys=True).encode("utf-8"))


def _commands(group: Any, prefix: str) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for name, command in group.commands.items():
        path = f"{prefix}{name}"
        if hasattr(command, "commands"):
            found += _commands(command, f"{path} ")
        else:
            found.append((path, command))
    return found


def _declared(callback: Any, calls: Mapping[object, Call]) -> Any:
    """The function cli.py declared, under the wrappers Typer and the CLI put around it."""
    while hasattr(callback, "__wrapped__") and callback not in calls:
        callback = callback.__wrapped__
    return callback


def _entry(command: Any) -> dict[str, Any] | None:
    arguments: list[dict[str, Any]] = []
    options: list[dict[str, Any]] = []
    for parameter in command.params:
        kind = _kind(parameter)
        if kind is None or parameter.callback is not None or parameter.envvar or parameter.nargs != 1:
            return None
        if parameter.param_type_name == "argument":
            arguments.append({"name": parameter.name, "kind": kind, "required": parameter.required, "default": None})
            if not parameter.required and parameter.default is not None:
                return None
            continue
        default = parameter.default
        if not isinstance(default, str | int | float | bool | None):
            return None
        options.append(
            {
                "name": parameter.name,
                "kind": kind,
                "flags": list(parameter.opts),
                "negations": list(parameter.secondary_opts),
                "required": parameter.required,
                "default": default,
            }
        )
    return {"arguments": arguments, "options": options}


def _kind(parameter: Any) -> str | None:
    name = type(parameter.type).__name__
    if getattr(parameter, "is_flag", False):
        return "flag" if name == "BoolParamType" and parameter.default is False else None
    if parameter.multiple:
        return "texts" if name == "StringParamType" else None
    if name == "TyperPath":
        plain = vars(parameter.type)
        checks = ("exists", "resolve_path", "allow_dash", "writable")
        return "path" if not any(plain.get(check) for check in checks) else None
    return {"StringParamType": "text", "IntParamType": "int", "FloatParamType": "float"}.get(name)


def _read_table() -> dict[str, Any] | None:
    path = _table_path()
    if path is None:
        return None
    with contextlib.suppress(OSError, ValueError):
        table = json.loads(path.read_bytes())
        if isinstance(table, dict) and table.get("shape") == TABLE_SHAPE:
            return table
    return None


def _table_path() -> Path | None:
    """Where the table of this app is kept: named by the app's file and Typer's, so that an
    edited CLI or another Typer makes a new table."""
    from adjudicator.core.cache import entry_path

    signature = []
    for source in (Path(__file__).with_name("cli.py"), _typer_file()):
        if source is None:
            return None
        try:
            stat = os.stat(source)
        except OSError:
            return None
        signature.append(f"{stat.st_size:x}-{stat.st_mtime_ns:x}")
    return entry_path("cli", f"{TABLE_SHAPE}-{'-'.join(signature)}.json")


def _typer_file() -> str | None:
    spec = importlib.util.find_spec("typer")
    return spec.origin if spec is not None else None
