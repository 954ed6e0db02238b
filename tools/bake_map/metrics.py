"""Text widths as the maps are drawn: the advance widths of the fonts the PNG is drawn with
(adjudicator/fonts). Apart from the baker's geometry (numpy, shapely), so that a test measuring a
drawn map's names needs fontTools alone."""

from __future__ import annotations

from pathlib import Path

from fontTools.ttLib import TTFont

FONTS = Path(__file__).resolve().parents[2] / "adjudicator" / "fonts"


class Metrics:
    """Advance widths of the shipped fonts (kerning ignored: it only narrows these texts)."""

    def __init__(self) -> None:
        self.fonts = {bold: TTFont(FONTS / f"DejaVuSans{'-Bold' if bold else ''}.ttf") for bold in (False, True)}

    def width(self, text: str, size: float, bold: bool) -> float:
        font = self.fonts[bold]
        cmap, metrics = font.getBestCmap(), font["hmtx"]
        units = sum(metrics[cmap[ord(c)]][0] for c in text)
        width: float = float(units) / font["head"].unitsPerEm * size  # fontTools is untyped
        return width
