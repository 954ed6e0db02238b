"""The map as a PNG picture: drawn with the shipped fonts only (a machine without fonts still
gets every label), shown by the BBCode and Markdown reports of a game that publishes its
reports (`[game] map_url`), and written on demand by `report --format png`."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.adjudication import adjudicate
from adjudicator.cli import app
from adjudicator.game import Game
from adjudicator.pictures import svg_to_png

runner = CliRunner()


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGBA rows of an 8-bit RGBA PNG (what resvg writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    data = b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at : at + 8])
        body = png[at + 8 : at + 8 + length]
        chunks[kind] = body
        if kind == b"IDAT":
            data += body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 6), "8-bit RGBA"
    raw, stride, rows = zlib.decompress(data), width * 4, []
    previous = bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 4] if x >= 4 else 0
            up, corner = previous[x], previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = bytes(line)
    return width, height, rows


def dark(rows: list[bytes], box: tuple[int, int, int, int]) -> int:
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if sum(rows[y][4 * x : 4 * x + 3]) < 300)


def test_a_label_has_ink_where_its_text_is() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60">'
        '<text x="10" y="40" font-family="DejaVu Sans, sans-serif" font-size="28" font-weight="bold">Roma</text>'
        "</svg>"
    )
    width, height, rows = pixels(svg_to_png(svg, width=200))
    assert (width, height) == (200, 60)
    assert dark(rows, (10, 15, 90, 42)) > 150, "the word is drawn where it stands"
    assert dark(rows, (120, 0, 200, 60)) == 0, "and nothing beside it"


def test_a_published_game_shows_the_png_map_in_bbcode_and_markdown(make_game: Callable[..., Game]) -> None:
    game = make_game()
    text = game.directory.game_file.read_text().replace("[game]\n", '[game]\nmap_url = "https://example.org/g/"\n')
    game.directory.game_file.write_text(text)
    result = adjudicate(Game.load(game.directory.root), force=True)
    folder = game.directory.reports / result.slug
    url = f"https://example.org/g/{result.slug}/map.png"
    assert f"[img]{url}[/img]" in (folder / "public.bbcode").read_text()
    assert f"]({url})" in (folder / "public.md").read_text()
    width, height, _ = pixels((folder / "map.png").read_bytes())
    assert width == 1200 and height > 700


def test_report_writes_the_png_on_demand(make_game: Callable[..., Game]) -> None:
    game = make_game()
    adjudicate(game, force=True)
    result = runner.invoke(app, ["report", str(game.directory.root), "--format", "png"])
    assert result.exit_code == 0 and "map.png" in result.stdout, result.output
    png = Path(result.stdout.split(" in ")[-1].strip())
    assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"
