"""HTML from strangers, made safe for the standard library's `html.parser`.

That parser rescans from every unclosed construct (`<!--`, `<a`, `</`, `<!`, `<?`) to the end
of the text, so 200 kB of `<a` took 90 s and 400 kB of `<!--` 150 s (Python 3.11; the fix came
to later releases only). Before any HTML reaches it, a linear pass takes comments out (an
unclosed one runs to the end, as HTML5 reads it) and writes every `<` that opens no complete
tag as `&lt;` (text, as a browser shows it). Every `<` the parser then sees has its `>` before
the next `<`, so no scan runs past its own tag. A numeric character reference of more digits
than any character has (`&#` and 5,000 digits) is written as text too: the parser converts one
with `int()`, which refuses past 4,300 digits, and once that stopped every collect.
"""

from __future__ import annotations

import re

# More digits than U+10FFFF has (7 decimal, 6 hexadecimal; leading zeros aside): no character.
_LONG_REFERENCE = re.compile(r"&(#(?:[xX]0*[0-9a-fA-F]{7,}|0*[0-9]{8,}))")


def defused_html(html: str) -> str:
    """The HTML without comments, every stray `<` escaped: linear time, same visible text."""
    html = _LONG_REFERENCE.sub(r"&amp;\1", html)
    kept: list[str] = []
    position = 0
    while (start := html.find("<!--", position)) != -1:
        kept.append(html[position:start])
        end = html.find("-->", start + 4)
        position = len(html) if end == -1 else end + 3
    kept.append(html[position:])
    text = "".join(kept)
    out: list[str] = []
    position, close = 0, -1
    start = text.find("<")
    while start != -1:
        out.append(text[position:start])
        following = text.find("<", start + 1)
        if close != -1 and close < start:
            close = -1
        if close == -1:  # found once per '>' at most: the scan stays linear
            close = text.find(">", start + 1)
            if close == -1:
                close = len(text)  # none to come: no later '<' can close either
        if close == len(text) or (following != -1 and following < close):
            out.append("&lt;")
            position = start + 1
        else:
            out.append(text[start : close + 1])
            position = close + 1
        start = following if following == -1 or following >= position else text.find("<", position)
    out.append(text[position:])
    return "".join(out)
