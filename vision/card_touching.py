"""Cards lying side by side in one outline, and a card notched by a pip at its edge.

Two cards touching make one outline with a notch at each end of where they meet: it is cut
there, kept if the two pieces are cards alike (_split_touching). A pip at a card's edge opens
a notch that fails judge: the outline closed over it is judged instead (_notched_card).
Used by vision/card_finder.py and vision/card_pale.py.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_shapes import ASPECT, OVERLAP, _dense, _overlapping, judge, order_corners
from vision.morph import close_disc

# --- cards touching side by side (issue 15, 2026-11-27) ---
# two cards lying close or touching make one outline with a notch where their sides meet
# (their rounded corners, or the step of one laid a little further along): a notch this
# deep (relative to the side of the smallest card) marks a place to cut; one card's own
# outline has none deeper than about 0.05 of it
NOTCH = 0.065
# the least ratio of the pieces' short sides (and long sides), and of each piece's opposite
# sides: cards of one deck side by side are alike; the rest of a fan cut off its top card is
# not (the camera's tilt shortens a far side by up to an eighth)
SAME_SIZE = 0.8
WEDGE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))


def _alike(cards: list[NDArray[Any]]) -> bool:
    """Whether the quads are of one size and each a near-parallelogram."""
    short, long = [], []
    for quad in cards:
        q = order_corners(quad)
        sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
        if min(sides[0], sides[2]) < SAME_SIZE * max(sides[0], sides[2]) or min(
                sides[1], sides[3]) < SAME_SIZE * max(sides[1], sides[3]):
            return False
        short.append(sides[0] + sides[2])
        long.append(sides[1] + sides[3])
    return min(short) >= SAME_SIZE * max(short) and min(long) >= SAME_SIZE * max(long)


def _notches(contour: NDArray[Any], deepest: float) -> list[tuple[NDArray[Any], float]]:
    """The outline's concave points deeper than ``deepest``, deepest first."""
    hull = cv2.convexHull(contour, returnPoints=False)
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # a self-touching outline: no reliable notches
        return []
    if defects is None:
        return []
    rows = defects.reshape(-1, 4)
    rows = rows[rows[:, 3] / 256.0 >= deepest]
    return [(contour[int(r[2]), 0].astype(np.float32), float(r[3]) / 256.0)
            for r in rows[np.argsort(-rows[:, 3])][:4]]


def _split_touching(contour: NDArray[Any], min_area: float, shape: tuple[int, ...],
                    depth: int = 0) -> list[NDArray[Any]] | None:
    """Whole cards lying side by side in one outline: it is cut along the straight line
    between two of its notches, and every piece must be one card (by judge) or cut again,
    all pieces alike in size (_alike). None if no cut gives only cards."""
    notches = _notches(contour, NOTCH * np.sqrt(min_area))
    if len(notches) < 2 or depth > 1:  # up to three or four cards in a row
        return None
    x, y, w, h = cv2.boundingRect(contour)
    for i, (a, _) in enumerate(notches):
        for b, _ in notches[i + 1:]:
            middle = (a + b) / 2
            if np.linalg.norm(a - b) < 0.5 * np.sqrt(min_area) or cv2.pointPolygonTest(
                    contour, (float(middle[0]), float(middle[1])), False) < 0:
                continue  # too short for a card's side, or not across the outline
            blob: NDArray[Any] = np.zeros((h + 2, w + 2), np.uint8)
            cv2.drawContours(blob, [contour], -1, 255, -1, offset=(1 - x, 1 - y))
            # the cut, a little beyond both notches so that it parts the outline
            ab = (b - a) / np.linalg.norm(b - a)
            p, q = a - 4 * ab, b + 4 * ab
            cv2.line(blob, (int(round(p[0])) + 1 - x, int(round(p[1])) + 1 - y),
                     (int(round(q[0])) + 1 - x, int(round(q[1])) + 1 - y), 0, 3)
            # the notches' deepest points lie a little to either side of the gap: what the
            # cut leaves of the other card is a thin wedge, which an opening takes off
            blob = cv2.morphologyEx(blob, cv2.MORPH_OPEN, WEDGE)
            parts, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                        offset=(x - 1, y - 1))
            parts = [c for c in parts if cv2.contourArea(c) >= 0.5 * min_area]
            if len(parts) < 2:
                continue
            cards: list[NDArray[Any]] = []
            for part in parts:
                # judge fits four lines to every point: first the piece's box must be
                # about a card's (a piece of two cards is cut again)
                (_, _), (bw, bh), _ = cv2.minAreaRect(part)
                boxy = ASPECT[0] * 0.9 <= max(bw, bh) / max(min(bw, bh), 1.0) <= ASPECT[1] and (
                    cv2.contourArea(part) >= 0.85 * bw * bh)
                quad = judge(part, shape) if boxy else OVERLAP
                if isinstance(quad, str):
                    # two cards still (their hull may have one card's shape: cut first)
                    more = _split_touching(part, min_area, shape, depth + 1)
                    if more is not None:
                        cards += more
                        continue
                if boxy and isinstance(quad, str):
                    # a card's side bitten by the mask (shading, a border line): its hull
                    quad = judge(_dense(cv2.convexHull(part)), shape)
                if isinstance(quad, str):
                    break
                cards.append(quad)  # (judge refuses a piece cut by the picture's edge)
            else:
                if _alike(cards) and not _overlapping(cards):
                    return cards
    return None


# a pip lying at the card's edge (large pips, or a dark frame they touch: knoll's) opens
# its hole in the paper's mask to the table, a notch in the outline that fails judge: the
# outline closed with a disc this wide (relative to the smallest card's side) is judged
# instead, if that filled no more than NOTCH_FILL of it (closing fills notches only: two
# cards crossing or a fan keep their shape)
NOTCH_CLOSE = 0.5
NOTCH_FILL = 0.05


def _closed_notches(contour: NDArray[Any], min_area: float) -> NDArray[Any] | None:
    """The outline with its narrow notches closed (None if closing left it in pieces)."""
    width = int(NOTCH_CLOSE * np.sqrt(min_area)) | 1
    x, y, w, h = cv2.boundingRect(contour)
    blob: NDArray[Any] = np.zeros((h + 2 * width, w + 2 * width), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(width - x, width - y))
    closed = close_disc(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)))
    outlines, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                   offset=(x - width, y - width))
    return outlines[0] if len(outlines) == 1 else None


def _notched_card(contour: NDArray[Any], min_area: float, shape: tuple[int, ...]
                  ) -> NDArray[Any] | str:
    """judge's verdict on the outline with its narrow notches closed, or OVERLAP."""
    closed = _closed_notches(contour, min_area)
    if closed is None:
        return OVERLAP
    area = cv2.contourArea(closed)
    if area - cv2.contourArea(contour) > NOTCH_FILL * area:
        return OVERLAP
    return judge(closed, shape)
