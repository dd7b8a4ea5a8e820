"""What the readers accept as a picture: one check for the dice reader, the card reader and
``companion read`` (which refuses a picture on its own instead of ending the command)."""

from __future__ import annotations

from typing import Any

SMALLEST = 32  # pixels: the least side of a picture the readers read


def unreadable(image: Any) -> str | None:
    """Why the readers cannot read ``image`` (a BGR array), or None."""
    if image is None or getattr(image, "ndim", 0) != 3 or image.shape[2] != 3:
        return "not a colour image"
    h, w = image.shape[:2]
    if min(h, w) < SMALLEST:
        return f"{w} by {h} pixels, less than {SMALLEST} by {SMALLEST}"
    return None
