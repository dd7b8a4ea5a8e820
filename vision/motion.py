"""From a stream of frames to one throw per roll: wait for rest, then for a stable reading.

    detector = RestDetector(reader.read, area=(x0, y0, x1, y1))
    for frame in frames:
        for observation in detector.feed(frame):   # DiceSeen or DeviceError, rarely
            emit(observation)

States: the table is *moving* while successive frames differ inside the tray area (a cheap
grey-level difference on a small copy of the frame); once it has been still for ``settle``
frames the reader runs on each frame, and a throw is reported when ``stable`` of the last
``window`` readings agree (same values at the same places), or failing that, when each die's
value agrees in ``stable`` of them (dice at the same places in all); its confidence is the
least sure die's, scaled by the share of readings that agreed, so a flickering reading is
asked about. Each still frame gets the reader's quick reading; the throw, once those agree, is
told from the reader's whole reading of its frame (``rank``: DiceReader.read_ranked, at two
scales when calibrated), which may read a die the quick one missed or doubted.
Then the reader rests until the table moves again, and a new throw must settle on a
different reading, so a hand passing over resting dice does not repeat the throw. Dice whose
centre lies outside the tray area are ignored. A die the reader cannot make out (confidence
under ``unreadable``: cocked on another die or a wall, half hidden) gives one DeviceError
asking for a re-roll instead of a throw; a readable but uncertain throw is reported with its
(low) confidence so that the session asks to confirm. Readings that never settle give one
DeviceError after ``give_up`` still frames.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.observations import (
    CONFIRM_BELOW,
    CountReading,
    DeviceError,
    DiceSeen,
    Observation,
)
from vision.dice import Die, Ranked
from vision.stillness import MOTION_FRACTION, MOTION_LEVEL, moved, small_grey

LEAN = 1.3  # dice whose centres are nearer than this many sides touch: one may lean on the other
AGAIN = "Roll again or type the values."

Area = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels


@dataclass(frozen=True)
class Reading:
    dice: tuple[Die, ...]

    @property
    def values(self) -> tuple[int, ...]:
        # reading order: left to right
        return tuple(d.value for d in self.dice)

    def same_as(self, other: Reading | None, tolerance: float = 0.35,
                values: bool = True) -> bool:
        """Same values at the same places (order-free matching); ``values`` False: the same
        places alone (placed_as)."""
        if other is None or len(other.dice) != len(self.dice):
            return False
        left = list(other.dice)
        for a in self.dice:
            match = next((b for b in left if (b.value == a.value or not values)
                          and np.hypot(a.x - b.x, a.y - b.y) <= tolerance * a.size), None)
            if match is None:
                return False
            left.remove(match)
        return True

    def placed_as(self, other: Reading | None) -> bool:
        """As many dice, at the same places, whatever their values."""
        return self.same_as(other, values=False)


def _counts(seen: Ranked, inside: Callable[[Die], bool]) -> tuple[CountReading, ...]:
    """A frame's best reading of each count (DiceSeen.by_count), of the dice and ranked
    candidates inside the tray area; the unsure values least sure first."""
    ranked = Ranked([d for d in seen.dice if inside(d)], [d for d in seen.rest if inside(d)],
                    seen.sure_from)
    out = []
    for n, dice in ranked.by_count():
        unsure = tuple(d.value for d in sorted(dice, key=lambda d: d.confidence)
                       if d.confidence < CONFIRM_BELOW)
        out.append(CountReading(n, tuple(d.value for d in dice),
                                min(d.confidence for d in dice), unsure))
    return tuple(out)


class RestDetector:
    def __init__(self, read: Callable[[NDArray[Any]], Sequence[Die]], *,
                 rank: Callable[[NDArray[Any]], Ranked] | None = None,
                 source: str = "camera", area: Area | None = None,
                 settle: int = 2,  # 3 until 2026-11-27: a frame later, no reading changed
                 stable: int = 3, window: int = 5, give_up: int = 30,
                 motion_level: float = MOTION_LEVEL, motion_fraction: float = MOTION_FRACTION,
                 unreadable: float = 0.35) -> None:
        self.read = read  # each still frame's quick reading (DiceReader.read_quick)
        # the whole reading, with the candidates ranked (DiceReader.read_ranked), of the
        # frame a throw is told from: its dice, and its readings by count. Read instead of
        # ``read`` on a frame likely to be reported (its quick reading is a part of it:
        # Ranked.quick, read there by both networks of the shipped pair, by the first alone
        # in ``read``: the same dice at the same places agree), else on the reported frame
        # too
        self.rank = rank
        self.source = source
        self.area = area
        self.settle = settle
        self.stable = stable  # agreeing readings needed ...
        self.window = window  # ... among this many latest ones
        self.give_up = give_up  # still frames without agreement before saying so
        self.motion_level = motion_level  # grey-level change that counts as motion
        self.motion_fraction = motion_fraction  # share of the area that must change
        self.unreadable = unreadable
        self._previous: NDArray[Any] | None = None
        self._still = 0
        self._recent: list[Reading] = []  # readings since the table came to rest
        self._reported: Reading | None = None
        self._complained = False
        self._moved = True  # the table moved since the last report (a new throw is possible)
        self.moving = False

    def _in_area(self, die: Die) -> bool:
        if self.area is None:
            return True
        x0, y0, x1, y1 = self.area
        return x0 <= die.x <= x1 and y0 <= die.y <= y1

    def feed(self, frame: NDArray[Any]) -> list[Observation]:
        small = small_grey(frame, self.area)
        if self._previous is not None:  # the first frame is neither moving nor still
            self.moving = moved(small, self._previous, self.motion_level,
                                self.motion_fraction)
        self._previous = small
        if self.moving:
            self._moved = True
            self._still = 0
            self._recent = []
            self._complained = False
            return []
        self._still += 1
        if self._still < self.settle or not self._moved:
            return []
        ranked = self.rank(frame) if self.rank is not None and self._likely_report() else None
        dice = [d for d in (ranked.quick if ranked is not None else self.read(frame))
                if self._in_area(d)]
        reading = Reading(tuple(sorted(dice, key=lambda d: d.x)))
        if ranked is not None and reading.placed_as(self._recent[-1]):
            # the whole reading's quick part is read by every network of the reader (the
            # shipped pair), the quick readings before it by the first alone: the same dice
            # at the same places agree with them, and the throw is told from the whole
            # reading (which keeps its own doubt about a value) without waiting a frame
            reading = self._recent[-1]
        self._recent.append(reading)
        del self._recent[: -self.window]
        agree = sum(1 for r in self._recent if r.same_as(reading) or (not r.dice
                                                                     and not reading.dice))
        share = agree / len(self._recent)
        if agree < self.stable:
            voted = self._vote()
            if voted is not None:
                reading, share = voted
            elif not self._stays_unreadable(reading):
                if self._still == self.settle + self.give_up and not self._complained:
                    self._complained = True
                    self._moved = False  # the person types the values now, or rolls again
                    return [DeviceError(source=self.source, reason="I cannot read the dice "
                                        "steadily. Type the values, please.")]
                return []
        if not reading.dice or reading.same_as(self._reported):
            return []
        # the throw is told from the whole reading of this frame (DiceReader.read_ranked:
        # at more scales than ``read``'s, a die the quick reading missed or doubted may be
        # read), and the readings by count are this frame's; a throw is still told only
        # when the quick readings agree, and a new one only when they differ from those of
        # the last one told (a hand passing over resting dice)
        if ranked is None and self.rank is not None:
            ranked = self.rank(frame)
        agreed = reading
        if ranked is not None:
            whole = [d for d in ranked.dice if self._in_area(d)]
            if whole:
                reading = Reading(tuple(sorted(whole, key=lambda d: d.x)))
        unsure = [d for d in reading.dice if d.confidence < self.unreadable]
        if unsure:
            if self._complained:
                return []
            self._complained = True
            # asked to roll again or type: a later reading of these same resting dice would
            # be a second report of one throw
            self._moved = False
            return [DeviceError(source=self.source, confidence=1.0,
                                reason=self._unreadable_sentence(unsure, reading.dice),
                                raw=" ".join(str(d.value) for d in reading.dice))]
        self._reported = agreed
        self._moved = False
        # readings that disagree now and then lower the confidence (the session then asks)
        confidence = float(min(d.confidence for d in reading.dice)) * share
        # the readings by count as doubtful as the readings' agreement
        latest = _counts(ranked, self._in_area) if ranked is not None else ()
        by_count = tuple(r._replace(confidence=r.confidence * share) for r in latest)
        return [DiceSeen(source=self.source, confidence=confidence, values=reading.values,
                         unsure=self._doubted(reading, confidence), by_count=by_count)]

    def _likely_report(self) -> bool:
        """The latest stable - 1 readings agree on some dice not yet reported: one more
        agreeing reading reports the throw."""
        last = self._recent[-(self.stable - 1):] if self.stable > 1 else []
        return (len(last) == self.stable - 1 and bool(last) and bool(last[-1].dice)
                and not last[-1].same_as(self._reported)
                and all(r.same_as(last[-1]) for r in last))

    def _stays_unreadable(self, reading: Reading) -> bool:
        """A die of the latest reading is under ``unreadable`` at its place in ``stable``
        of the recent readings, whatever value each gave it: the throw is refused now. Its
        value flickers, so the readings would otherwise agree only by the vote, two frames
        later, and refuse it then just the same (bench camera: the two refused throws of
        100 came 6 frames after rest, the rest 3 or 4)."""
        for die in reading.dice:
            if die.confidence >= self.unreadable:
                continue
            low = sum(1 for r in self._recent if any(
                b.confidence < self.unreadable
                and np.hypot(die.x - b.x, die.y - b.y) <= 0.35 * die.size for b in r.dice))
            if low >= self.stable:
                return True
        return False

    def _doubted(self, reading: Reading, confidence: float) -> tuple[int, ...]:
        """The values the session names when it asks, the most likely wrong first: the dice
        read less surely than CONFIRM_BELOW, least sure first; when each was sure but the
        readings disagreed, the die that agreed least with the recent readings at its place
        (a die flickering between two values), not none."""
        doubted = sorted((d for d in reading.dice if d.confidence < CONFIRM_BELOW),
                         key=lambda d: d.confidence)
        if doubted or confidence >= CONFIRM_BELOW:
            return tuple(d.value for d in doubted)

        def agreed(die: Die) -> int:
            return sum(1 for r in self._recent if any(
                b.value == die.value and np.hypot(die.x - b.x, die.y - b.y) <= 0.35 * die.size
                for b in r.dice))

        least = min(reading.dice, key=lambda d: (agreed(d), d.confidence))
        return (least.value,)

    def _unreadable_sentence(self, unsure: list[Die], dice: tuple[Die, ...]) -> str:
        """Why the throw is refused. A die can stand cocked only leaning on something: another
        die (centres nearer than LEAN sides) or the tray's wall (its centre within a side of
        the area's edge). Only then is a cocked die named; an unsure die lying free (a blurred
        or unusual face, a mark on the table) is only unreadable."""
        count = f"I cannot read {len(unsure)} of the dice"
        for die in unsure:
            if any(other is not die and np.hypot(other.x - die.x, other.y - die.y)
                   < LEAN * max(other.size, die.size) for other in dice):
                return f"{count}; one may be cocked against another die. {AGAIN}"
            if self.area is not None:
                x0, y0, x1, y1 = self.area
                if min(die.x - x0, x1 - die.x, die.y - y0, y1 - die.y) < die.size:
                    return f"{count}; one may be cocked against the tray's wall. {AGAIN}"
        return f"{count}. {AGAIN}"

    def _vote(self) -> tuple[Reading, float] | None:
        """Die by die, when whole readings do not agree: several dice each flickering now
        and then rarely give ``stable`` identical readings, but each die's value can still
        agree in ``stable`` of the last ``window`` readings. The dice must lie at the same
        places in all of them. The share is the least agreed die's (the session asks when
        the confidence falls under its bar)."""
        if len(self._recent) < self.window or not self._recent[-1].dice:
            return None
        anchor = self._recent[-1].dice
        if any(len(r.dice) != len(anchor) for r in self._recent):
            return None
        dice, share = [], 1.0
        for a in anchor:
            here = [next((b for b in r.dice if np.hypot(a.x - b.x, a.y - b.y) <= 0.35 * a.size),
                         None) for r in self._recent]
            seen = [d for d in here if d is not None]
            if len(seen) < len(here):
                return None
            values = [d.value for d in seen]
            top = max(range(1, 7), key=values.count)
            if values.count(top) < self.stable:
                return None
            same = [d for d in seen if d.value == top]
            dice.append(Die(top, a.x, a.y, a.size,
                            float(np.mean([d.confidence for d in same]))))
            share = min(share, len(same) / len(seen))
        return Reading(tuple(dice)), share
