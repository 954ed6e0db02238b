"""Takes the README's two pictures of the demo game's last HTML report (turn 3, military phase):
docs/report-screenshot.png as a desktop browser shows it (1200 × 1400) and docs/report-phone.png as
a phone's browser shows its first screen (390 × 844 CSS pixels, the page's viewport tag obeyed).

Run from the repository's root after a change to the report's look: `python tools/screenshots.py`.
It needs Debian's chromium, which it drives over the DevTools protocol (tests/chromium.py).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.chromium import Chromium  # noqa: E402  # the repository's root is on the path only now

REPORT = Path("reports") / "009-T03-military" / "public.html"
PICTURES = {  # file: (width, height, as a phone)
    "report-screenshot.png": (1200, 1400, False),
    "report-phone.png": (390, 844, True),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / "demo"
        subprocess.run([sys.executable, "-m", "adjudicator", "demo", str(game)], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        with Chromium(Path(scratch) / "profile") as chromium:
            for name, (width, height, phone) in PICTURES.items():
                tab = chromium.tab(width, height, mobile=phone)
                tab.open((game / REPORT).as_uri())
                out = ROOT / "docs" / name
                tab.screenshot(out, height=height)
                print(f"{out.relative_to(ROOT)}: {width} × {height}, {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
