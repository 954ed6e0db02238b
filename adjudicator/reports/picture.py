"""Drawings as PNG pictures, for the forums that show no SVG (phpBB, BoardGameGeek): rendered
by resvg (resvg-py: a wheel with the Rust renderer inside, no system library), with the fonts
shipped in adjudicator/fonts/ only, so that a machine without fonts draws every label."""

from __future__ import annotations

import re

from adjudicator.core.resources import package_file

FONT_FAMILY = "DejaVu Sans"  # the SVGs name it first; fonts/ holds it (see fonts/README.md)
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
NARROWEST = 1200  # pixels: the width a picture gets at least, when none is asked for
VIEW_BOX = re.compile(r"<svg\b[^>]*?\bviewBox=\"\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)")


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """The drawing `width` pixels wide (its height follows its proportions). By default one pixel a
    view-box unit, and at least NARROWEST: a map drawn wide for a dense board (Mare Mediterraneum's
    1600 units) keeps its names as large in pixels as they were drawn."""
    import resvg_py

    fonts = [str(package_file("adjudicator", f"fonts/{name}")) for name in FONT_FILES]
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width or natural_width(svg),
            skip_system_fonts=True,
            font_files=fonts,
            font_family=FONT_FAMILY,
            sans_serif_family=FONT_FAMILY,
            background="#ffffff",
        )
    )


def natural_width(svg: str) -> int:
    """One pixel a view-box unit, and at least NARROWEST."""
    found = VIEW_BOX.search(svg)
    return max(NARROWEST, round(float(found.group(1)))) if found else NARROWEST
