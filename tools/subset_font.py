"""Subset the DejaVu fonts for the PNG map: the shipped fonts hold only the characters reports use.

Development time only (needs fontTools: `pip install fonttools`). Source: Debian's fonts-dejavu-core
(/usr/share/fonts/truetype/dejavu/), DejaVu 2.37, Bitstream Vera licence (adjudicator/fonts/LICENSE).
`python tools/subset_font.py` rewrites adjudicator/fonts/DejaVuSans.ttf and DejaVuSans-Bold.ttf.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SOURCE = Path("/usr/share/fonts/truetype/dejavu")
TARGET = Path(__file__).resolve().parents[1] / "adjudicator" / "fonts"
# Latin, Latin-1, Latin Extended A and B (players' names in Polish, Hungarian, French, Spanish…),
# Greek, dashes, quotes, bullets and ellipsis, the euro, arrows and the minus sign.
UNICODES = "U+0020-007E,U+00A0-024F,U+0370-03FF,U+2010-2027,U+2030-205E,U+20AC,U+2190-2193,U+2212"


def main() -> int:
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        command = [sys.executable, "-m", "fontTools.subset", str(SOURCE / name), f"--unicodes={UNICODES}",
                   "--layout-features=kern,liga", f"--output-file={TARGET / name}"]  # fmt: skip
        subprocess.run(command, check=True)
        print(f"{TARGET / name}: {(TARGET / name).stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
