"""An hour of the day as players say it (``21:30``): a value, no clock. The Time Limit
Game's rules check the agreed hour with it; the clock source (companion/clock.py) waits for it.
"""

from __future__ import annotations

import re

_HOUR = re.compile(r"^\s*(\d{1,2})[:.h](\d{2})\s*$")


def parse_hour(hour: str) -> tuple[int, int]:
    """``"21:30"`` -> (21, 30); also 9:05, 21.30, 21h30. A clear error for anything else."""
    match = _HOUR.match(hour)
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise ValueError(f"{hour!r} is not an hour: say it as HH:MM, e.g. 21:30")
    return int(match[1]), int(match[2])
