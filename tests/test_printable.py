"""Nothing a device sends or a person types reaches the terminal as an escape sequence."""

from __future__ import annotations

import os
from pathlib import Path

from companion.printable import printable
from tests.table import TablePlay


def test_escape_sequences_and_control_characters_are_removed():
    assert printable("Red\x1b[2J\x1b[31m!") == "Red!"
    assert printable("a\x1b]0;owned\x07b\x1b]8;;http://x\x1b\\c") == "abc"
    assert printable("a\x9b31mb\x00\x08\x7f") == "ab"
    assert printable("x\u202ey") == "xy"  # a bidi override reorders what is shown
    assert printable("one\ttwo\r\nthree") == "one two  three"
    assert printable("one\ntwo\r", lines=True) == "one\ntwo"
    assert printable("Zoë 🎲 Horse and Rider") == "Zoë 🎲 Horse and Rider"


def test_device_text_and_typed_lines_reach_the_terminal_and_log_clean(tmp_path):
    table = TablePlay(tmp_path / "g.sqlite")
    try:
        table.greet()
        table.device.send_bytes(b"HELLO 1 Evil\x1b[2J\x1b]0;owned\x07 Tray\n")
        table.until("Evil Tray is connected.")
        table.device.send_bytes(b"ERROR \x1b[31mjammed\x1b[0m\x08\x08\n")
        table.until("the device reports: jammed")
        table.type("\x1b[2Jbuy\x1b[8m")
        table.until("buy")
        out = table.quit()
    finally:
        table.close()
    assert "\x1b" not in out and "\x07" not in out and "\x08" not in out
    log = Path(os.environ["XDG_DATA_HOME"]) / "table-companion" / "companion.log"
    text = log.read_text(encoding="utf-8")
    assert "jammed" in text and "\x1b" not in text and "\x07" not in text
