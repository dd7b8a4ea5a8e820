"""A camera's throw read knowing how many dice the game needs (issue 15).

The camera reports the dice it accepts and, beside them, its best reading for each count of
dice (DiceSeen.by_count); it knows nothing of the game. The session knows the count the
throw must have and takes that count's reading when the camera's own has another.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from companion.engine import IllegalAction, number_word
from companion.observations import DiceSeen

log = logging.getLogger(__name__)

def counted(obs: DiceSeen, counts: tuple[int, ...], need: str) -> DiceSeen:
    """``obs`` as a reading of one of ``counts`` dice (what the camera may see, the game's
    count first; ``need`` says it: "two dice"). Unchanged without readings by count (a
    keyboard, a device). When the camera's own reading has such a count and that count's
    reading has the same values, the latter's confidence (knowing the count, a die that
    clearly beats the other candidates is no longer doubted as a die); other values: the
    camera's own, agreed over several frames. When its count is another, the reading of the
    count nearest it (the surer of two as near); none plausible when the camera sees fewer
    dice than needed: refused, saying so."""
    if not obs.by_count or not counts:
        return obs
    seen = len(obs.values)
    if seen in counts:
        same = obs.for_count(seen)
        if same is None or same.values != obs.values:
            return obs
        return replace(obs, confidence=same.confidence, unsure=same.unsure, by_count=())
    found = [r for r in (obs.for_count(n) for n in counts) if r is not None]
    if not found:
        if seen < min(counts):
            dice = "die" if seen == 1 else "dice"
            raise IllegalAction(
                f"I see only {number_word(seen)} {dice}, and I need {need}; nothing "
                "else on the table looks like a die. Is one hidden or off the tray? Roll "
                "again or type the values.")
        return obs  # more than needed, and no reading of fewer: the game says what is wrong
    best = min(found, key=lambda r: (abs(r.number - seen), -r.confidence))
    log.info("camera read %d dice %s; the game needs %s: read as %s (confidence %.3f)",
             seen, obs.values, need, best.values, best.confidence)
    return replace(obs, values=best.values, confidence=best.confidence, unsure=best.unsure,
                   by_count=())
