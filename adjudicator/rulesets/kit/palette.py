"""The colours players' pieces are drawn in: one home for the CSS of a board's colour names, so
that a map, its legend and the campaign site's chart show a player in the same colour.

Two palettes, chosen per game (`[game] palette`):
- `distinct` (the default) keeps every two players of each shipped board apart for readers with
  protanopia, deuteranopia or tritanopia as well as for the rest (tests/test_palette.py measures
  it: CIEDE2000 distances after Machado et al.'s 2009 simulation);
- `classic`: the colours the boards were first drawn in, where red and green sit side by side.
A board may also name a colour by its CSS (`#a0522d`): that one is drawn as it is in both."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PALETTES = ("distinct", "classic")
DEFAULT_PALETTE = "distinct"

# Found by search within each name's hues (a red stays red), maximising the smallest distance
# between the colours each board uses together, as pieces and as areas at 42 % over the map
DISTINCT = {
    "red": "#d33100",
    "blue": "#002696",
    "green": "#47b280",
    "violet": "#be66af",
    "yellow": "#efda01",
    "grey": "#7f7f7f",
    "black": "#222222",
    "white": "#f2eee2",
}
CLASSIC = {
    "red": "#d62728",
    "blue": "#1f5fbf",
    "green": "#2ca02c",
    "violet": "#8e44ad",
    "yellow": "#d4a000",
    "grey": "#7f7f7f",
    "black": "#333333",
}


def classic_colour(name: str) -> str:
    """The CSS a board's colour name was first drawn in; a CSS colour stays as it is."""
    return CLASSIC.get(name, name)


def player_colours(colours: Mapping[str, tuple[str, str]], palette: str) -> dict[str, str]:
    """Each player's CSS in `palette`, from his colour's name and the board's own CSS for it."""
    table = DISTINCT if palette == "distinct" else {}
    return {player: table.get(name, own) for player, (name, own) in colours.items()}


def player_marks(players: Iterable[str]) -> dict[str, str]:
    """A short mark for each player, drawn on his pieces and in the legends beside his colour,
    so that no reader needs the colour to tell players apart: his initial, or where two share
    it, the initial and the name's last letter (Blue `Be`, Black `Bk`), or more of it."""
    names = list(players)
    marks: dict[str, str] = {}
    for name in names:
        letters = [c for c in name if c.isalnum()] or [name[:1] or "?"]
        rivals = [other for other in names if other != name and other[:1].upper() == letters[0].upper()]
        mark = letters[0].upper()
        if rivals:
            mark += letters[-1].lower()
            taken = {marks.get(other) for other in rivals}
            for extra in letters[1:]:
                if mark not in taken:
                    break
                mark = letters[0].upper() + extra.lower()
        marks[name] = mark
    return marks


def ink(css: str) -> str:
    """Black or white: whichever reads on the colour `css` (#rrggbb): a mark's, a count's."""
    try:
        r, g, b = (int(css.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#ffffff"
    return "#222222" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
