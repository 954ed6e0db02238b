"""Every bound on what a stranger can send, in one place: docs/hosting.md states each one
(tests/test_hostile.py checks that it does), and the code that enforces one names it here.

The judge's address is public and any member of a forum can post in a game's thread, so
every input is measured before it is parsed: a bound is checked on the raw bytes or text,
never after a library has already spent the time or memory on it. Input over a bound costs
one sentence (to the moderator, and to the sender only when he is a registered player).
"""

from __future__ import annotations

from datetime import timedelta

# ---- a mail, before the standard library's email package sees it ------------------------
MAIL_BYTES = 1_000_000  # the whole mail as received
MAIL_HEADER_BYTES = 64_000  # all its header lines together
MAIL_HEADERS = 200  # header fields
MAIL_HEADER_FIELD_BYTES = 8_000  # one header field, folded lines joined
MAIL_ENCODED_WORDS = 60  # RFC 2047 encoded words (=?charset?q?…?=) in one header field
MAIL_ADDRESSES = 50  # addresses in one From, To, Cc or Reply-To field
MAIL_PARTS = 100  # MIME parts
MAIL_DEPTH = 10  # multiparts inside multiparts
ADDRESS_CHARS = 254  # one mail address (RFC 5321's path limit)

# ---- the text of a mail or post, before the order parser sees it -----------------------
TEXT_CHARS = 64_000  # the order text of one mail or post
ORDER_PIECES = 400  # order pieces (lines, and the parts of a line cut at ';'); a phase needs a few dozen
EXPLAINED_ERRORS = 40  # syntax errors explained in full; later ones only say that they are errors
ORDER_COUNT = 999  # the largest count an order may name; a larger one reads as ORDER_COUNT + 1, which the rules refuse

# ---- forum posts and saved threads -------------------------------------------------------
POST_CHARS = TEXT_CHARS  # one post, as saved
THREAD_BYTES = 20_000_000  # one saved thread file
THREAD_POSTS = 5_000  # posts in one saved thread

# ---- replies and guesses -------------------------------------------------------------------
REPLY_WINDOW = timedelta(hours=24)
REPLIES_PER_ADDRESS = 5  # replies to unauthenticated mail, per address and window
REPLIES_PER_GAME = 30  # replies to unauthenticated mail, per game and window
PASSWORD_FAILURES = 5  # wrong passwords per civilization and sender address in a window; then not checked
PASSWORD_WINDOW = timedelta(hours=1)

# ---- what a player asks ------------------------------------------------------------------
ABSENCE_YEARS = (2000, 2999)  # the years an absence may name
PREVIEW_TRIALS = 200  # a preview whose dice matter is tried this many times, each with fresh dice
PREVIEW_SECONDS = 5  # of CPU a preview may take at most: fewer trials on a slow phase
