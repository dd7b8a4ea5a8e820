"""What every card search shares: a card's shape and the tests an outline must pass.

The per-frame planes of whiteness and of colour unlike the table (_Planes, WHITE_LEVELS), the
white balance cards are read after (balance), the outline mask (card_mask), corners fitted to
an outline's four straight sides (refine_quad, order_corners), and judge, which says whether
an outline is one card or why not (OVERLAP). Kept apart so that each search
(vision/card_cloth.py, card_pale.py, card_touching.py) and the finder (vision/card_finder.py)
import it, and not one another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.morph import open_disc
from vision.quantiles import byte_median_spread, byte_percentile

ASPECT = (1.15, 1.85)  # long side / short side of a card seen at an angle
OVERLAP = "cards overlap or are fanned: spread them out"
FACE_DOWN = "a card lies face down"


@dataclass(frozen=True)
class Refused:
    corners: tuple[tuple[float, float], ...]  # the outline's bounding box corners
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "corners": [[round(x, 1), round(y, 1)]
                                                   for x, y in self.corners]}


def _table_model(lab: NDArray[Any]) -> tuple[NDArray[Any], float]:
    """A lookup table (256x1x3, float32) giving, per Lab channel value, its squared distance
    from the table's colour (judged from the frame's edges) in units of the table's spread;
    and the lightness above which a pixel is paler than the table."""
    rim = np.concatenate([lab[:8].reshape(-1, 3), lab[-8:].reshape(-1, 3),
                          lab[:, :8].reshape(-1, 3), lab[:, -8:].reshape(-1, 3)])
    # np.median's figures of the rim as float32 and of its distances from that median, from
    # histograms (a tenth of the time: issue 15)
    table, deviation = byte_median_spread(rim)
    spread = deviation * 1.48 + 3.0
    values = np.arange(256, dtype=np.float32)[:, None]
    lut = (((values - table) / spread) ** 2).astype(np.float32).reshape(256, 1, 3)
    return lut, float(table[0] + 3 * spread[0])


def table_distance(lab: NDArray[Any], lut: NDArray[Any]) -> NDArray[Any]:
    """Per pixel, the sum of its three channels' entries in ``lut`` (_table_model's): the
    figures of cv2.transform(cv2.LUT(lab, lut), ones), summed in the same order, from three
    one-channel lookups (OpenCV's three-table lookup into floats cost a third more:
    1.1 against 0.8 ms a 960x540 frame; issue 15)."""
    planes = cv2.split(lab)
    dist: NDArray[Any] = cv2.add(cv2.LUT(planes[0], np.ascontiguousarray(lut[:, 0, 0])),
                                 cv2.LUT(planes[1], np.ascontiguousarray(lut[:, 0, 1])))
    cv2.add(dist, cv2.LUT(planes[2], np.ascontiguousarray(lut[:, 0, 2])), dst=dist)
    return dist


def _outline_mask(white: NDArray[Any], unlike: NDArray[Any], close: int = 5) -> NDArray[Any]:
    """White pixels plus, next to them, anything unlike the table (the ink of a border line or
    an index close to the card's edge must not bite into the outline); filled and cleaned."""
    near_white = cv2.dilate(white, np.ones((9, 9), np.uint8))
    mask = cv2.bitwise_or(white, cv2.bitwise_and(unlike, near_white))
    # bridge a thin border line that leaves a sliver of white outside it
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # fill each outline first (the ink of pips and indices leaves holes and notches), then cut
    # thin bridges such as glare on the table joining a card
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, -1)
    out: NDArray[Any] = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    return out


# (most saturation, least brightness) of a card pixel: the first is the general rule; the
# stricter ones are tried only inside an outline refused by it, to part a card from a pale
# table or from glare that the general rule joins to it
WHITE_LEVELS = ((70, 110), (35, 140), (30, 175), (25, 205))


class _Planes:
    """The per-pixel planes every whiteness level needs, computed once per frame."""

    def __init__(self, image: NDArray[Any]) -> None:
        self.image = image
        hsv = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2HSV)
        self.sat, self.val = hsv[..., 1], hsv[..., 2]
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        self.lab = lab
        lut, self.pale = _table_model(lab)
        self.light = lab[..., 0]
        self.unlike = cv2.threshold(table_distance(lab, lut), 36.0, 255,
                                    cv2.THRESH_BINARY)[1].astype(np.uint8)
        # each level's whole-frame mask is asked for up to four times a frame on a pale
        # table: made once (callers never write into it)
        self._white: dict[int, NDArray[Any]] = {}
        self._lines: NDArray[Any] | None = None

    def lines(self) -> NDArray[Any]:
        """The lightness's edges (Canny, EDGES), dilated to lines 3 px wide: made once a
        frame (two pale-table searches ask for them)."""
        if self._lines is None:
            edges = cv2.Canny(cv2.GaussianBlur(self.light, (3, 3), 0), *EDGES)
            self._lines = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        return self._lines

    def paler(self, roi: tuple[slice, slice]) -> NDArray[Any]:
        """Colourless pixels paler than the table (glare, a card, a pale table), or white."""
        sat = self.sat[roi]
        colourless = cv2.threshold(sat, WHITE_LEVELS[0][0] - 1, 255, cv2.THRESH_BINARY_INV)[1]
        light = cv2.threshold(self.light[roi], min(self.pale, 254.0), 255,
                              cv2.THRESH_BINARY)[1]
        out: NDArray[Any] = cv2.bitwise_or(cv2.bitwise_and(colourless, light),
                                           self.white(0, roi))
        return out

    def white(self, level: int, roi: tuple[slice, slice] = (slice(None), slice(None))
              ) -> NDArray[Any]:
        whole = roi == (slice(None), slice(None))
        if whole and level in self._white:
            return self._white[level]
        s_max, v_min = WHITE_LEVELS[level]
        sat, val = self.sat[roi], self.val[roi]
        out: NDArray[Any] = cv2.bitwise_and(cv2.threshold(sat, s_max - 1, 255,
                                                          cv2.THRESH_BINARY_INV)[1],
                                            cv2.threshold(val, v_min, 255,
                                                          cv2.THRESH_BINARY)[1])
        if whole:
            self._white[level] = out
        return out


# the share of the frame's pixels at or above a channel's white level: cards are the whitest
# things on a table, and a card is at least 0.6% of the frame (min_area_fraction)
WHITE_SHARE = 0.3
WHITE_TARGET = 235.0  # a card's paper in every channel, after balance()
CLIPPED = 250  # a channel this bright may have been cut off by the camera
CAST = 0.8  # a channel below this share of a clipped one: the light has a strong colour
MOST_GAIN = 4.0  # a dim room at 45% brightness needs about 2.2, a tungsten bulb's blue 2


def balance(image: NDArray[Any]) -> NDArray[Any]:
    """The frame with its white balance and exposure set from its whitest pixels (the card
    faces): each channel is scaled so that its brightest WHITE_SHARE percent lies at
    WHITE_TARGET, never darker, at most MOST_GAIN times. A warm bulb, a dim room or a camera's
    auto white balance then leave the cards as white as the fixed levels expect."""
    sample = image[::4, ::4].reshape(-1, 3)
    white = byte_percentile(sample, 100 - WHITE_SHARE)  # np.percentile's, faster
    if (white >= CLIPPED).sum() == 1 and white.min() < CAST * CLIPPED:
        # one channel is clipped on the paper (a warm bulb's red) and another is far below
        # it: the clipped one's level says nothing of the light's colour, and scaling the
        # others to it leaves the paper pink wherever it is less bright. Taken from the
        # unclipped pixels instead (several channels clipped: a white light, left alone)
        unclipped = sample[sample.max(axis=1) < CLIPPED]
        if len(unclipped) >= WHITE_SHARE / 100 * len(sample) * 10:
            white = byte_percentile(unclipped, 100 - WHITE_SHARE)
    gains = np.clip(WHITE_TARGET / np.maximum(white, 1.0), 1.0, MOST_GAIN)
    if np.all(gains < 1.03):
        return image
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains, 0, 255).astype(np.uint8)
    # channel by channel: the bytes of cv2.LUT(image, lut.reshape(256, 1, 3)), whose lookup
    # into three tables costs a third more (issue 15)
    out: NDArray[Any] = cv2.merge([cv2.LUT(plane, np.ascontiguousarray(lut[:, c]))
                                   for c, plane in enumerate(cv2.split(image))])
    return out


def card_mask(image: NDArray[Any]) -> NDArray[Any]:
    planes = _Planes(image)
    return _outline_mask(planes.white(0), planes.unlike)


def order_corners(quad: NDArray[Any]) -> NDArray[Any]:
    """Clockwise (in image coordinates) from a corner where a short side starts."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    q = quad[np.argsort(angles)]  # clockwise on screen (y down)
    sides = [np.linalg.norm(q[(i + 1) % 4] - q[i]) for i in range(4)]
    if sides[0] + sides[2] > sides[1] + sides[3]:  # first side is long: start one later
        q = np.roll(q, -1, axis=0)
    return q.astype(np.float32)


def refine_quad(points: NDArray[Any], quad: NDArray[Any], ends: float = 0.15) -> tuple[
        NDArray[Any], float]:
    """Fit a line to the outline points along each side (away from the rounded corners) and
    intersect neighbouring lines. Returns the corners and the worst side's mean distance of
    points from its line, relative to the card's size (large for anything not one card)."""
    lines = []
    worst = 0.0
    size = float(np.sqrt(cv2.contourArea(quad)))
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab)) + 1e-6
        t = (points - a) @ ab / length**2
        normal = np.array([-ab[1], ab[0]]) / length
        dist = np.abs((points - a) @ normal)
        near = (t > ends) & (t < 1 - ends) & (dist < 0.08 * size)
        if near.sum() < 5:
            return quad, 1.0
        vx, vy, x0, y0 = cv2.fitLine(points[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
        side = (t > ends) & (t < 1 - ends) & (dist < 0.25 * size)
        residual = np.abs((points[side] - [x0, y0]) @ np.array([-vy, vx]))
        worst = max(worst, float(residual.mean()) / size if len(residual) else 1.0)
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad, 1.0
        t1, _ = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t1 * d1)
    return np.array(corners, np.float32), worst


def _rough(hull: NDArray[Any]) -> NDArray[Any]:
    """The hull's points nearest its smallest rectangle's corners, in order (judge's start)."""
    points = hull.reshape(-1, 2).astype(np.float32)
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    return order_corners(np.array([points[np.argmin(np.linalg.norm(points - c, axis=1))]
                                   for c in rect], np.float32))


def _box(contour: NDArray[Any]) -> tuple[tuple[float, float], ...]:
    x, y, w, h = cv2.boundingRect(contour)
    return ((float(x), float(y)), (float(x + w), float(y)), (float(x + w), float(y + h)),
            (float(x), float(y + h)))


def judge(contour: NDArray[Any], shape: tuple[int, ...]) -> NDArray[Any] | str:
    """The card's corners if the outline is one whole card, else the reason it is refused."""
    x, y, w, h = cv2.boundingRect(contour)
    if x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1:
        return "a card is cut by the edge of the picture"
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    solidity = area / max(cv2.contourArea(hull), 1.0)
    # the corners: the outline's points nearest the corners of its smallest enclosing
    # rectangle (rounded card corners defeat a plain polygon approximation)
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    points = hull.reshape(-1, 2).astype(np.float32)
    poly = np.array([points[np.argmin(np.linalg.norm(points - c, axis=1))] for c in rect])
    quad, residual = refine_quad(contour.reshape(-1, 2).astype(np.float32),
                                 order_corners(poly.astype(np.float32)))
    fit = area / max(cv2.contourArea(quad), 1.0)
    if solidity < 0.95 or residual > 0.006 or not 0.96 <= fit <= 1.02:
        return OVERLAP
    quad = order_corners(quad)
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    ratio = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1.0)
    if not ASPECT[0] <= ratio <= ASPECT[1]:
        return "not the shape of one card: are cards overlapping?"
    return quad


def _near_edge(quad: NDArray[Any], shape: tuple[int, ...], margin: float = 4.0) -> bool:
    """Whether a corner lies within ``margin`` pixels of the picture's edge (a card found
    by a stricter level so near the edge may be a cut card whose cut end is dim)."""
    return bool((quad.min() < margin) or (quad[:, 0].max() > shape[1] - 1 - margin)
                or (quad[:, 1].max() > shape[0] - 1 - margin))


def _same(found: list[NDArray[Any]], quad: NDArray[Any]) -> int | None:
    """Index of the card in ``found`` that ``quad`` is (nearly the same centre), if any."""
    centre, size = quad.mean(axis=0), np.sqrt(cv2.contourArea(quad))
    return next((i for i, q in enumerate(found)
                 if np.linalg.norm(q.mean(axis=0) - centre) < 0.2 * size), None)


def _boxes(contours: Any) -> NDArray[Any]:
    """Each outline's bounding box area (spans between extreme points): never less than its
    contourArea, so that outlines too small by it need no contourArea each (a checked
    cloth's or a newspaper's masks have hundreds of specks: a call each cost more than all)."""
    if not len(contours):
        return np.zeros(0)
    counts = np.fromiter(map(len, contours), np.intp, len(contours))
    points = np.concatenate(contours).reshape(-1, 2)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    span = np.maximum.reduceat(points, starts) - np.minimum.reduceat(points, starts)
    out: NDArray[Any] = span[:, 0].astype(np.float64) * span[:, 1]
    return out


def _big(contours: Any, least: float, scale: float = 1.0) -> list[NDArray[Any]]:
    """The outlines whose contourArea times ``scale`` is at least ``least``, in order."""
    boxes = _boxes(contours)
    return [contours[i] for i in np.flatnonzero(scale * boxes >= least)
            if scale * cv2.contourArea(contours[i]) >= least]


# Canny's thresholds for the image's edges (on the colour image: the largest gradient of the
# three channels, so that glare a little yellower than the card still leaves an edge)
EDGES = (20, 60)


# the least share of its convex hull that a region closed off by edges must fill
SOLID = 0.85


def _dense(hull: NDArray[Any]) -> NDArray[Any]:
    """A convex hull's outline with a point every pixel (the sides are fitted to points)."""
    corners = hull.reshape(-1, 2).astype(np.float32)
    points = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        steps = max(int(np.abs(b - a).max()), 1)
        points.append(a + (b - a) * (np.arange(steps, dtype=np.float32)[:, None] / steps))
    return np.round(np.concatenate(points)).astype(np.int32).reshape(-1, 1, 2)


# a card's long side is at most half the picture's height: its area at most about this many
# times the height squared; a place twice that is the table itself, never one card
LARGEST = 0.45


def _solid_parts(mask: NDArray[Any], min_area: float, width: int) -> list[NDArray[Any]]:
    """The outlines of a half-size mask's regions of an eighth of a card or more (min_area
    is at full size), each filled and the whole opened with a disc ``width`` wide: what a
    pattern's narrow bands leave of a card-sized solid shape."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled: NDArray[Any] = np.zeros_like(mask)
    cv2.drawContours(filled, _big(contours, 0.5 * min_area, 4.0), -1, 255, -1)
    opened = open_disc(filled, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)))
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return list(parts)


def _overlapping(cards: list[NDArray[Any]]) -> bool:
    """Whether any two of the quads overlap by more than 2% of the smaller."""
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            area, _ = cv2.intersectConvexConvex(a, b)
            if area > 0.02 * min(cv2.contourArea(a), cv2.contourArea(b)):
                return True
    return False
