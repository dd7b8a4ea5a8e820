"""Whether the table moved between two frames: a grey-level difference on small copies.

Shared by the dice's RestDetector (a throw is read once the tray is still) and the cards'
CardWatcher (a table that stays still is not read again every frame).
"""

from __future__ import annotations

from typing import Any

import cv2
from numpy.typing import NDArray

Area = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels

MOTION_LEVEL = 12.0  # grey-level change that counts as motion
MOTION_FRACTION = 0.002  # share of the picture that must change


def small_grey(frame: NDArray[Any], area: Area | None = None) -> NDArray[Any]:
    """The frame (its ``area``) in grey, about 160 pixels on its longer side, blurred a
    little so that a webcam's noise is not motion."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    if area is not None:
        x0, y0, x1, y1 = (int(round(v)) for v in area)
        grey = grey[max(0, y0) : y1, max(0, x0) : x1]
    h, w = grey.shape
    step = max(1, max(h, w) // 160)
    small = cv2.resize(grey, (max(1, w // step), max(1, h // step)),
                       interpolation=cv2.INTER_AREA)
    out: NDArray[Any] = cv2.GaussianBlur(small, (3, 3), 0)
    return out


def moved(small: NDArray[Any], before: NDArray[Any] | None, level: float = MOTION_LEVEL,
          fraction: float = MOTION_FRACTION) -> bool:
    """True when more than ``fraction`` of the picture changed by more than ``level``
    between two small copies (of one size; another size, or none before, is motion)."""
    if before is None or before.shape != small.shape:
        return True
    return float((cv2.absdiff(small, before) > level).mean()) > fraction
