"""The colours players' pieces are drawn in: one home for the CSS of a board's colour names, so
that a map, its legend and the campaign site's chart show a player in the same colour."""

from __future__ import annotations

CSS_COLOURS = {
    "red": "#d62728",
    "blue": "#1f5fbf",
    "green": "#2ca02c",
    "violet": "#8e44ad",
    "yellow": "#d4a000",
    "grey": "#7f7f7f",
    "black": "#333333",
}


def css_colour(name: str) -> str:
    """The CSS for a colour the board names; a board may give a CSS colour itself (`#a0522d`)."""
    return CSS_COLOURS.get(name, name)
