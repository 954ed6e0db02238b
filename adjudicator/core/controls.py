"""Control characters: refused in a text meant to be one line, dropped from whatever is shown.

A line break in a player's name would make a line of its own (a fake heading) in a report; an
escape code (ESC, or C1's CSI) or a bell would act on the terminal that shows a report, a log
or the moderator's screen. Nobody means to type one, so one-line texts of the settings refuse
them, and every report and every line the command line prints leaves them out.
"""

from __future__ import annotations

import re
from pathlib import Path

# C0 (line breaks, tab, ESC, bell), DEL and C1; the bidirectional overrides and isolates, which
# turn the text after them around ("txt.exe" shown as "exe.txt"), and Unicode's line and
# paragraph separators, which break a line as a line break does.
_BIDI_AND_SEPARATORS = "\u202a-\u202e\u2066-\u2069\u2028\u2029"
CONTROL_CHARACTER = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_BIDI_AND_SEPARATORS}]")
# The same less the line break and the tab, which a text of several lines is made of.
_SHOWN_CONTROL = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_BIDI_AND_SEPARATORS}]")
_NAMES = {"\n": "a line break", "\r": "a line break", "\t": "a tab", "\x1b": "an escape code"}


def control_character(text: str) -> str:
    """The first control character of a text meant to be one line, named (`a line break
    (U+000A)`); "" if there is none."""
    found = CONTROL_CHARACTER.search(text)
    if found is None:
        return ""
    return f"{_NAMES.get(found.group(), 'a control character')} (U+{ord(found.group()):04X})"


def without_controls(text: str) -> str:
    """The text with every control character but the line break and the tab left out."""
    return text if _SHOWN_CONTROL.search(text) is None else _SHOWN_CONTROL.sub("", text)


def shown_name(path: Path) -> str:
    """A file's name as a line of output may show it: a line break or other control character
    in it (anyone who can write to a drop folder can name a file) becomes `?`, so it cannot
    forge a line of its own."""
    return CONTROL_CHARACTER.sub("?", path.name)
