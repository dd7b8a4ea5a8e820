"""Text made safe for a terminal: no control characters, no escape sequences.

Anything a device sends, a player types as a name, or a file holds may reach the terminal
(announcements in console mode, the echo beside speech, `state`, `history`, error messages,
the log). An escape sequence there could clear the screen, retitle the window, hide text or
fake a prompt, so every such path prints ``printable(text)``.
"""

from __future__ import annotations

import re
import unicodedata

# ESC [ ... final (CSI), ESC ] ... BEL or ESC \\ (OSC), ESC P/X/^/_ ... ESC \\ (DCS and kin),
# any other ESC + one character, and their 8-bit forms.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?"
)
# Bidirectional overrides and isolates reorder what is shown ("Trojan Source").
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` without escape sequences and control characters: a tab (and, unless
    ``lines`` keeps newlines for text printed as several lines, a line break) becomes a
    space."""
    text = _SEQUENCE.sub("", text)
    if text.isprintable():
        return text
    spaced = "\t" if lines else "\t\r\n"
    return "".join(
        " " if ch in spaced else ch
        for ch in text
        if ch in spaced or (lines and ch == "\n")
        or (unicodedata.category(ch) not in ("Cc", "Cs") and ch not in _BIDI)
    )
