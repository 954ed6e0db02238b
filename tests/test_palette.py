"""The players' colours stay apart for every reader (issue 34): each two players of each shipped
board, as pieces and as areas filled at 42 % over the map, keep a CIEDE2000 distance of at least
PIECES and AREAS for normal colour vision and after simulating protanopia, deuteranopia and
tritanopia with the matrices of Machado, Oliveira and Fernandes (2009, severity 1.0). The
classic palette is shown failing, so that the test can."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import pytest

from adjudicator.game.game import default_board_path, load_board
from adjudicator.rulesets import find_ruleset
from adjudicator.rulesets.kit.palette import PALETTES, player_marks

PIECES, AREAS = 15.0, 11.0  # CIEDE2000; 2.3 is a just-noticeable difference, 10 an easy one
AREA_ALPHA, MAP_PAPER = 0.42, "#f6f1e3"

# Machado, Oliveira & Fernandes, "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", IEEE TVCG 15(6), 2009: the matrices for severity 1.0, on linear RGB
SIMULATIONS: Mapping[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *SIMULATIONS)

RGB = tuple[float, float, float]


def rgb(css: str) -> RGB:
    value = css.lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


def linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def seen(colour: RGB, vision: str) -> RGB:
    if vision == "normal":
        return colour
    matrix, lin = SIMULATIONS[vision], [linear(c) for c in colour]
    r, g, b = (gamma(sum(row[j] * lin[j] for j in range(3))) for row in matrix)
    return (r, g, b)


def over(colour: RGB, paper: RGB, alpha: float) -> RGB:
    r, g, b = (alpha * c + (1 - alpha) * p for c, p in zip(colour, paper, strict=True))
    return (r, g, b)


def lab(colour: RGB) -> tuple[float, float, float]:
    r, g, b = (linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def ciede2000(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """Sharma, Wu and Dalal's formulation (2005), the CIE's colour difference of 2000."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = math.degrees(math.atan2(b1, a1p)) % 360, math.degrees(math.atan2(b2, a2p)) % 360
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = (
        -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
        * 2
        * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    )
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + rotation * (d_c / s_c) * (d_h / s_h))


def closest(colours: Mapping[str, str], vision: str, alpha: float = 1.0) -> tuple[float, str, str]:
    """The two players least apart, and how far."""
    paper = rgb(MAP_PAPER)
    points = {p: lab(seen(over(rgb(css), paper, alpha), vision)) for p, css in colours.items()}
    return min((ciede2000(points[a], points[b]), a, b) for a, b in itertools.combinations(points, 2))


RULESETS = ("mare-nostrum", "empires", "mediterraneum")


def board_colours(palette: str) -> list[tuple[str, dict[str, str]]]:
    """Each shipped board's players and their colours in `palette`."""
    rulesets = [find_ruleset(name) for name in RULESETS]
    return [(r.name, r.colours(load_board(r, default_board_path(r)), palette)) for r in rulesets]


def test_the_formula_gives_the_published_differences() -> None:
    """Two pairs of Sharma, Wu and Dalal's test data (their table 1: pairs 1 and 17)."""
    assert ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)) == pytest.approx(27.1492, abs=1e-4)


@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_players_stay_apart_in_the_distinct_palette(vision: str) -> None:
    for ruleset, colours in board_colours("distinct"):
        distance, a, b = closest(colours, vision)
        assert distance >= PIECES, f"{ruleset}, {vision}: {a} and {b} are {distance:.1f} apart as pieces"
        if ruleset != "mediterraneum":  # the only board whose areas are filled in players' colours
            distance, a, b = closest(colours, vision, AREA_ALPHA)
            assert distance >= AREAS, f"{ruleset}, {vision}: {a} and {b} are {distance:.1f} apart as areas"


def test_the_classic_palette_puts_red_and_green_together_for_one_reader_in_twelve() -> None:
    distance, a, b = closest(dict(board_colours("classic"))["mare-nostrum"], "deuteranopia")
    assert distance < PIECES / 2 and {a, b} == {"Rome", "Greece"}


def test_every_player_has_a_mark_of_his_own() -> None:
    for palette in PALETTES:
        for ruleset, colours in board_colours(palette):
            marks = player_marks(colours)
            assert len(set(marks.values())) == len(marks), (ruleset, marks)
            assert all(1 <= len(mark) <= 2 for mark in marks.values()), (ruleset, marks)
    assert player_marks(["Red", "Blue", "Black", "Bronze"]) == {"Red": "R", "Blue": "Be", "Black": "Bk", "Bronze": "Br"}


def test_a_game_picks_its_palette_and_a_wrong_one_is_refused(make_game: object, tmp_path: object) -> None:
    from collections.abc import Callable
    from typing import cast

    from adjudicator.core.errors import GameFileError
    from adjudicator.game.game import Game

    game = cast(Callable[..., Game], make_game)()
    settings = game.directory.game_file
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace("[game]\n", '[game]\npalette = "classic"\n'), encoding="utf-8")
    classic = Game.load(game.directory.root)
    assert classic.ruleset.colours(classic.board, classic.settings.palette)["Rome"] == "#d62728"
    settings.write_text(text.replace("[game]\n", '[game]\npalette = "pastel"\n'), encoding="utf-8")
    with pytest.raises(GameFileError, match="'pastel' is not a palette; use distinct"):
        Game.load(game.directory.root)
