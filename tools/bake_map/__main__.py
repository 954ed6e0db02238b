"""The command line: `python -m tools.bake_map [--board NAME] [--check] [--adjacency] [--topojson FILE]`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .bake import BOARDS, REPO, adjacency_report, bake, bake_regions, read_board
from .topology import fetch_topology
from .writer import dumps


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bake_map", description="Bake the report map's geometry (development time only)."
    )
    parser.add_argument("--board", choices=sorted(BOARDS), action="append", help="only this board (default: all)")
    parser.add_argument("--check", action="store_true", help="fail if a committed file differs")
    parser.add_argument("--topojson", type=Path, help="a local copy of land-50m.json instead of npm pack")
    parser.add_argument("--adjacency", action="store_true", help="list where the map and the board disagree")
    args = parser.parse_args(argv)
    topology, digest = fetch_topology(args.topojson)
    failed = False
    for name in args.board or list(BOARDS):
        spec = BOARDS[name]
        board, params = read_board(spec)
        document = bake(topology, digest, board, params, spec.cards)
        text = dumps(document)
        assert json.loads(text) == document, "the writer lost something"
        if args.adjacency:
            regions = bake_regions(topology, board, params)
            for line in adjacency_report(board, regions, params):
                print(f"{name}: {line}", file=sys.stderr)
        relative = spec.output.relative_to(REPO)
        if args.check:
            if not spec.output.exists() or spec.output.read_text(encoding="utf-8") != text:
                print(f"{relative} is out of date: run python -m tools.bake_map --board {name}", file=sys.stderr)
                failed = True
            else:
                print(f"{relative} is up to date")
            continue
        spec.output.write_text(text, encoding="utf-8")
        print(f"wrote {relative} ({len(text.encode()):,} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
