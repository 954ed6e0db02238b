"""The package's folders are its layers, and a module imports only from its own layer or below.

Why: the tree is the architecture (DESIGN.md, "Layers"). A module that reaches up (the order
language asking a report, a ruleset reading a file) is how one fact ends up with two homes, so
the rule is checked on every import, at module level or inside a function alike.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "adjudicator"

# Bottom to top. A module belongs to the first layer whose prefix names it; the package's own
# __init__ (the version) sits at the bottom, the command line at the top.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("adjudicator", "adjudicator.core")),
    ("language", ("adjudicator.language",)),
    ("rulesets", ("adjudicator.rulesets",)),
    ("game", ("adjudicator.game",)),
    ("reports", ("adjudicator.reports",)),
    ("delivery", ("adjudicator.delivery",)),
    ("intake", ("adjudicator.intake",)),
    ("hosting", ("adjudicator.hosting",)),
    (
        "face",
        (
            "adjudicator.cli",
            "adjudicator.commands",
            "adjudicator.outcome",
            "adjudicator.console",
            "adjudicator.dispatch",
            "adjudicator.__main__",
        ),
    ),
)
RULESETS = ("mare_nostrum", "empires", "mediterraneum")
# What opens, lists or decodes files: a ruleset is handed text and data, never a path.
FILE_MODULES = ("pathlib", "os", "io", "json", "tomllib", "importlib.resources", "adjudicator.core.resources")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    best = (-1, 0)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best[1]:
                best = (index, len(prefix))
    assert best[0] >= 0, f"{module} is in no layer: add its folder to LAYERS"
    return best[0]


def imports(path: Path, module: str) -> list[tuple[int, str]]:
    """Every module the file imports, with the line: `from a import b` counts a.b when a.b is a
    module, else a."""
    known = modules()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.append((node.lineno, name if name in known else base))
    return found


def upward_imports() -> list[str]:
    found: list[str] = []
    for module, path in modules().items():
        own = layer_of(module)
        for line, target in imports(path, module):
            if target.split(".")[0] != "adjudicator":
                continue
            if layer_of(target) > own:
                where = f"{path.relative_to(PACKAGE.parent)}:{line}"
                found.append(f"{where}: {module} ({LAYERS[own][0]}) imports {target} ({LAYERS[layer_of(target)][0]})")
    return sorted(set(found))


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert upward_imports() == []


def test_every_module_has_a_layer() -> None:
    for module in modules():
        layer_of(module)


def ruleset_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "rulesets" and parts[2] in RULESETS else None


def test_shared_code_never_imports_a_ruleset_and_no_ruleset_imports_another() -> None:
    """The registry names rulesets by string; everything else reaches a game through the seam."""
    found = []
    for module, path in modules().items():
        for line, target in imports(path, module):
            other = ruleset_of(target)
            if other is not None and other != ruleset_of(module):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert found == []


def test_nothing_under_rulesets_opens_a_file() -> None:
    found = []
    for module, path in modules().items():
        if not module.startswith("adjudicator.rulesets"):
            continue
        for line, target in imports(path, module):
            if target in FILE_MODULES or target.startswith("os."):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} calls open()")
    assert found == []


@pytest.mark.parametrize(
    ("source", "target", "upward"),
    [
        ("adjudicator.core.names", "adjudicator.reports.render", True),
        ("adjudicator.rulesets.empires.board", "adjudicator.core.fields", False),
        ("adjudicator.game.game", "adjudicator.intake.mail", True),
        ("adjudicator.hosting.run", "adjudicator.delivery.outbox", False),
        ("adjudicator.intake.collect", "adjudicator.cli", True),
    ],
)
def test_the_rule_itself(source: str, target: str, upward: bool) -> None:
    """The check sees what it is for: an import up the stack is caught, one down is allowed."""
    assert (layer_of(target) > layer_of(source)) is upward
