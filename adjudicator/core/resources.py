"""Finds the shipped folders (grammar/, templates/, games/, docs/) in a wheel or a source checkout.

In the wheel they sit inside the package (pyproject force-include); in a checkout or an
editable install they sit at the repository's top level, next to the package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from adjudicator.core.errors import AdjudicatorError


def shipped_folder(name: str) -> Path:
    packaged = Path(str(resources.files("adjudicator"))) / name
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / name
    if checkout.is_dir():
        return checkout
    raise AdjudicatorError(f"the installation has no {name}/ folder; reinstall the adjudicator package")


def package_file(package: str, relative: str) -> Path:
    """A data file shipped inside a package, e.g. a ruleset's board."""
    return Path(str(resources.files(package))) / relative
