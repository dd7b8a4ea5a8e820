"""A card whose outline the table's pattern bumps or its own print bites, fitted again.

On a newspaper or a pale cloth the paper's mask of a card is joined to the table's white
where a gutter or a pale band touches its side (a bump out of the side, which the outline's
hull turns into a long slant), and its corners are bitten where an index touches the edge
(knoll-vector's). judge() fits the sides to the hull and refuses such an outline: its sides
lie several pixels off their lines. Here each side is fitted to the outline's own points
(not the hull's) and again to only those lying within TIGHT pixels of the first fit: a
straight side shows through bumps and bites. The outline is a card if most of every side
lies on its line, the quad has a card's aspect and the outline fills it (issue 15).
A quad found so is reported as found by edges (vision/cards.py then refuses it if its two
index corners read different cards: two cards lying as one are not read as one).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

TIGHT = 2.0  # pixels from a side's line that count as lying on it
ON_SIDE = 0.5  # the least share of a side's points (between its ends) lying on its line
FILLS = (0.8, 1.1)  # the outline's area over the quad's
ENDS = 0.15  # a side's ends (rounded corners, bitten by indices) are not fitted
ASPECT = (1.15, 1.85)  # as card_shapes.ASPECT: long side / short side


def _line(points: NDArray[Any], a: NDArray[Any], b: NDArray[Any], size: float
          ) -> tuple[NDArray[Any], NDArray[Any], float] | None:
    """A side's line (a point and a direction) fitted to the outline's points between its
    ends, first near the rough side and then within TIGHT of that fit, and the share of
    those points on it."""
    ab = b - a
    length = float(np.linalg.norm(ab)) + 1e-6
    t = (points - a) @ ab / length**2
    between = (t > ENDS) & (t < 1 - ENDS)
    normal = np.array([-ab[1], ab[0]]) / length
    near = between & (np.abs((points - a) @ normal) < 0.08 * size)
    if near.sum() < 5:
        return None
    on = near
    for band in (3 * TIGHT, 2 * TIGHT, TIGHT, TIGHT):  # narrowed onto the straight stretch
        vx, vy, x0, y0 = cv2.fitLine(points[on], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        dist = np.abs((points - [x0, y0]) @ np.array([-vy, vx]))
        on = between & (dist < band)
        if on.sum() < 5:
            return None
    # the share among the side's points: those between its ends and not far inside or
    # outside (another side's points at a corner are not the side's)
    side = between & (dist < 0.25 * size)
    return np.array([x0, y0]), np.array([vx, vy]), float(on.sum() / max(side.sum(), 1))


def refit(contour: NDArray[Any], rough: NDArray[Any]) -> NDArray[Any] | None:
    """The card's corners if ``contour`` (one region's outline, every point) is one card
    whose sides lie straight apart from bumps and bites, ``rough`` its four corners in order
    (judge's fit to the hull); else None."""
    points = contour.reshape(-1, 2).astype(np.float32)
    size = float(np.sqrt(max(cv2.contourArea(rough), 1.0)))
    lines = []
    for i in range(4):
        line = _line(points, rough[i], rough[(i + 1) % 4], size)
        if line is None or line[2] < ON_SIDE:
            return None
        lines.append(line)
    corners = []
    for i in range(4):
        (p1, d1, _), (p2, d2, _) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t1, _ = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t1 * d1)
    quad = np.array(corners, np.float32)
    area = cv2.contourArea(quad)
    if area <= 0 or not FILLS[0] <= cv2.contourArea(contour) / area <= FILLS[1]:
        return None
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    ratio = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1.0)
    if not (ASPECT[0] <= ratio <= ASPECT[1] or ASPECT[0] <= 1 / max(ratio, 1e-6) <= ASPECT[1]):
        return None
    if abs(sides[0] - sides[2]) > 0.1 * max(sides) or abs(sides[1] - sides[3]) > 0.1 * max(sides):
        return None  # opposite sides of one card are alike (a trapezoid is not a card)
    return quad
