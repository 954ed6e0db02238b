"""Takes the README's pictures of the demo game: its last HTML report (turn 3, military phase) as a
desktop browser shows it (docs/report-screenshot.png, 1200 × 1400) and as a phone's browser shows its
first screen (docs/report-phone.png, 390 × 844 CSS pixels, the page's viewport tag obeyed), and Rome's
order page for that military phase with a place chosen and two orders picked (docs/order-page.png).

Run from the repository's root after a change to the report's or the page's look:
`python tools/screenshots.py`. It needs Debian's chromium, which it drives over the DevTools protocol
(tests/chromium.py).
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
ORDER_PAGE = Path("private") / "008-T03-build" / "Rome-orders.html"  # his orders for T3 military
# On the page: Dyrrachium chosen in the list of places, and two of its orders picked (the battle, with its odds).
PICKED = """(() => {
  const place = document.getElementById('place');
  place.value = [...place.options].find((o) => o.textContent === 'Dyrrachium').value;
  place.dispatchEvent(new Event('change'));
  [...document.querySelectorAll('#choices li:not([hidden]) .order')].slice(2, 4).forEach((b) => b.click());
})()"""
PICTURES = {  # file: (page, width, height, as a phone, what is done on it first)
    "report-screenshot.png": (REPORT, 1200, 1400, False, ""),
    "report-phone.png": (REPORT, 390, 844, True, ""),
    "order-page.png": (ORDER_PAGE, 1200, 1100, False, PICKED),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / "demo"
        subprocess.run([sys.executable, "-m", "adjudicator", "demo", str(game)], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        with Chromium(Path(scratch) / "profile") as chromium:
            for name, (page, width, height, phone, script) in PICTURES.items():
                tab = chromium.tab(width, height, mobile=phone)
                tab.open((game / page).as_uri())
                if script:
                    tab.evaluate(script)
                out = ROOT / "docs" / name
                tab.screenshot(out, height=height)
                print(f"{out.relative_to(ROOT)}: {width} × {height}, {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
