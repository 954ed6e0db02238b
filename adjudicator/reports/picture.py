"""Drawings as PNG pictures, for the forums that show no SVG (phpBB, BoardGameGeek): rendered
by resvg (resvg-py: a wheel with the Rust renderer inside, no system library), with the fonts
shipped in adjudicator/fonts/ only, so that a machine without fonts draws every label."""

from __future__ import annotations

from adjudicator.core.resources import package_file

FONT_FAMILY = "DejaVu Sans"  # the SVGs name it first; fonts/ holds it (see fonts/README.md)
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def svg_to_png(svg: str, width: int = 1200) -> bytes:
    """The drawing `width` pixels wide (its height follows its proportions)."""
    import resvg_py

    fonts = [str(package_file("adjudicator", f"fonts/{name}")) for name in FONT_FILES]
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            skip_system_fonts=True,
            font_files=fonts,
            font_family=FONT_FAMILY,
            sans_serif_family=FONT_FAMILY,
            background="#ffffff",
        )
    )
