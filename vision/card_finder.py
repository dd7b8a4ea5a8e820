"""Finding cards in a picture: card-shaped quadrilaterals, and outlines refused with a reason.

Card faces are bright and nearly colourless; the mask of such pixels (and of the ink next to
them) is closed, filled and cleaned, and each outline's four sides are fitted as straight
lines. A convex outline lying on four straight sides with a card's aspect ratio is a card.
Inside an outline that fails, stricter whiteness levels (WHITE_LEVELS) are tried, which part a
card from a pale table or glare joined to it; what they find must pass the same tests.
Anything else big enough to be cards (a fanned hand, overlapping cards, a card cut by the
picture's edge) is *refused*: listed with a reason, never guessed at. Cards lying side by
side in one outline are cut apart at the notches where they meet (_split_touching); on a pale
table, card-shaped coloured regions are backs, reported face down (_backs_on_pale_table), and
a card as white as the table is closed off by its own edge (_bordered_cards); an outline
there whose sides the table's pattern bumps is fitted again (vision/card_refit.py).
Reading what is found is vision/cards.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_refit import refit
from vision.morph import close_disc, open_disc
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
        dist = cv2.transform(cv2.LUT(lab, lut), np.ones((1, 3), np.float32))
        self.unlike = cv2.threshold(dist, 36.0, 255, cv2.THRESH_BINARY)[1].astype(np.uint8)
        # each level's whole-frame mask is asked for up to four times a frame on a pale
        # table: made once (callers never write into it)
        self._white: dict[int, NDArray[Any]] = {}

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
MOST_GAIN = 4.0  # a dim room at 45% brightness needs about 2.2, a tungsten bulb's blue 2


def balance(image: NDArray[Any]) -> NDArray[Any]:
    """The frame with its white balance and exposure set from its whitest pixels (the card
    faces): each channel is scaled so that its brightest WHITE_SHARE percent lies at
    WHITE_TARGET, never darker, at most MOST_GAIN times. A warm bulb, a dim room or a camera's
    auto white balance then leave the cards as white as the fixed levels expect."""
    sample = image[::4, ::4].reshape(-1, 3)
    white = byte_percentile(sample, 100 - WHITE_SHARE)  # np.percentile's, faster
    gains = np.clip(WHITE_TARGET / np.maximum(white, 1.0), 1.0, MOST_GAIN)
    if np.all(gains < 1.03):
        return image
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains, 0, 255).astype(np.uint8)
    out: NDArray[Any] = cv2.LUT(image, lut.reshape(256, 1, 3))
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


def _edge_cards(planes: _Planes, roi: tuple[slice, slice], blob: NDArray[Any],
                offset: tuple[int, int], min_area: float,
                shape: tuple[int, ...]) -> list[NDArray[Any]]:
    """Whole cards closed off by the image's edges inside a refused outline: where glare or a
    pale table is as white as the card, the card's edge is still a step in brightness or
    colour. Each region the edges enclose is judged as a card (the largest one at a place:
    a court card's frame encloses a card-shaped region too)."""
    image = cv2.GaussianBlur(planes.image[roi], (3, 3), 0)
    edges = cv2.bitwise_and(cv2.dilate(cv2.Canny(image, *EDGES), np.ones((3, 3), np.uint8)),
                            blob)
    inside = cv2.morphologyEx(cv2.bitwise_and(blob, cv2.bitwise_not(edges)), cv2.MORPH_OPEN,
                              np.ones((3, 3), np.uint8))
    # a card's inside is a hole in the table's region: every region, not just outer ones
    regions, hierarchy = cv2.findContours(inside, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    candidates = [] if hierarchy is None else [
        r for r, parent in zip(regions, hierarchy[0][:, 3], strict=True) if parent == -1]
    found: list[NDArray[Any]] = []
    for candidate in candidates:
        if cv2.contourArea(candidate) < 0.5 * min_area:
            continue
        one: NDArray[Any] = np.zeros_like(inside)
        cv2.drawContours(one, [candidate], -1, 255, -1)
        # cut thin bridges through gaps in the edges, then back out to the edges' middle
        one = cv2.morphologyEx(one, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
        one = cv2.dilate(one, np.ones((3, 3), np.uint8))
        parts, _ = cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                    offset=offset)
        for part in parts:
            # the edges of the index (and of a border line beside it) bite into a
            # region's corners: its convex hull is judged
            area = cv2.contourArea(part)
            hull = cv2.convexHull(part)
            if area < min_area or area < SOLID * cv2.contourArea(hull):
                continue
            quad = judge(_dense(hull), shape)
            if isinstance(quad, str) or _near_edge(quad, shape):
                continue
            same = _same(found, quad)
            if same is None:
                found.append(quad)
            elif cv2.contourArea(quad) > cv2.contourArea(found[same]):
                found[same] = quad
    return found


# a card on a checked cloth or a patterned table is joined by the white pattern next to it;
# an opening this wide (relative to the smallest card's side) cuts the pattern off
OPENING = 0.6


# a card's long side is at most half the picture's height: its area at most about this many
# times the height squared; a place twice that is the table itself, never one card
LARGEST = 0.45


def _opened_cards(planes: _Planes, roi: tuple[slice, slice], blob: NDArray[Any],
                  offset: tuple[int, int], min_area: float,
                  shape: tuple[int, ...]) -> list[NDArray[Any]]:
    """Whole cards inside an outline joined to a white pattern (a checked cloth's white
    checks, say): at each whiteness level, the white pixels, filled, then opened wide enough
    that the pattern falls away while a card stays whole but for its rounded corners. Each
    region's sides are fitted on their middle part only, and the region must fill the
    quadrilateral so found and have a card's shape."""
    # the opening's disc costs with its width over the whole outline: it is done on a picture
    # half as large to find where cards may be, then exactly, at full size, around each
    width = int(OPENING * np.sqrt(min_area)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    small_width = (width // 2) | 1
    small_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (small_width, small_width))
    found: list[NDArray[Any]] = []
    full = (blob.shape[1], blob.shape[0])
    half = (full[0] // 2, full[1] // 2)
    if min(half) <= small_width:
        return found
    for level in range(len(WHITE_LEVELS)):
        white = cv2.bitwise_and(planes.white(level, roi), blob)
        white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled: NDArray[Any] = np.zeros_like(white)
        cv2.drawContours(filled, _big(contours, 0.5 * min_area), -1, 255, -1)
        if not cv2.countNonZero(filled):
            continue
        if filled.size <= 2 * LARGEST * shape[0] ** 2:
            # an outline of about two cards: one opening of it all costs less than a
            # search and an opening around each place
            opened = open_disc(filled, kernel)
            parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                        offset=offset)
            for part in parts:
                quad = _opened_card(part, opened, offset, min_area, shape)
                if quad is not None and _same(found, quad) is None:
                    found.append(quad)
            continue
        small = cv2.threshold(cv2.resize(filled, half, interpolation=cv2.INTER_AREA), 127,
                              255, cv2.THRESH_BINARY)[1]
        small = open_disc(small, small_kernel)
        places, _ = cv2.findContours(small, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for place in places:
            area = cv2.contourArea(place)
            if 4 * area < 0.5 * min_area or 4 * area > LARGEST * shape[0] ** 2:
                continue  # too small for a card, or two cards' worth (the table itself)
            (bx, by), (bw, bh), _ = cv2.minAreaRect(place)
            if max(bw, bh) > 2.5 * max(min(bw, bh), 1.0) or area < 0.6 * bw * bh:
                continue  # far from one card's shape even before the exact opening
            centre = np.array([bx, by], np.float32) * 2 + [offset[0] + 0.5, offset[1] + 0.5]
            if any(np.linalg.norm(q.mean(axis=0) - centre) < 0.1 * np.sqrt(cv2.contourArea(q))
                   for q in found):
                continue  # a card found at a looser level (the first found is kept)
            # the opening is exact within a card's box of the place: erosion and dilation
            # each reach half the disc's width beyond it
            x, y, w, h = cv2.boundingRect(place)
            x0, y0 = max(2 * x - width - 2, 0), max(2 * y - width - 2, 0)
            x1, y1 = min(2 * (x + w) + width + 2, full[0]), min(2 * (y + h) + width + 2, full[1])
            opened = open_disc(filled[y0:y1, x0:x1], kernel)
            here = (offset[0] + x0, offset[1] + y0)
            parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                        offset=here)
            for part in parts:
                px, py, pw, ph = cv2.boundingRect(part)
                if not _within((px, py, pw, ph), (x0, y0, x1, y1), here, full, width // 2):
                    continue  # reaches where this opening is not exact: another place's
                quad = _opened_card(part, opened, here, min_area, shape)
                if quad is not None and _same(found, quad) is None:
                    found.append(quad)
    return found


UNCHECKED_OPENING = 0.3  # the opening's disc, relative to the smallest card's side
UNCHECKED_FILL = 0.8  # the least share of its smallest rectangle a card's hull fills
# a checked cloth's pattern: the autocorrelation's peaks (of the whole picture's level-1
# whiteness, on a picture half as large) must reach this share of its centre, within this
# many half-size pixels
LATTICE_PEAK = 0.25
LATTICE_REACH = 45
# how much a card's paper may differ (sum of |L|, |a|, |b| of the blurred Lab) from itself
# half a check's period away, where a white check differs from the half-tone check beside it
PERIOD_ALIKE = 36.0
PERIOD_SHARE = 0.5  # of the median difference half a period away (the table's)
# the shifts compared, in half periods: an odd number of them lands a white check on a
# half-tone one; a card's paper between large pips (knoll-vector's) often lands on a pip half
# a period away on both sides, and on paper one and a half periods away (issue 15)
PERIOD_STEPS = (0.5, 1.5)


def _lattice(white: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]] | None:
    """Half the period of a checked pattern along its two axes (full-size pixels: the
    period in half-size pixels), from the autocorrelation of the white pixels, or None."""
    small = cv2.resize(white, (white.shape[1] // 2, white.shape[0] // 2),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= small.mean()
    spectrum = np.fft.rfft2(small)
    auto = np.fft.fftshift(np.fft.irfft2(spectrum * np.conj(spectrum), s=small.shape))
    auto /= max(float(auto.max()), 1e-6)
    r = LATTICE_REACH
    cy, cx = auto.shape[0] // 2, auto.shape[1] // 2
    if min(cy, cx) <= r:
        return None
    win = np.ascontiguousarray(auto[cy - r:cy + r + 1, cx - r:cx + r + 1], np.float32)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    dist = np.hypot(xx, yy)
    peaks = ((win == cv2.dilate(win, np.ones((5, 5), np.uint8))) & (win > LATTICE_PEAK)
             & (dist >= 5) & (dist <= r))
    found = sorted(((float(win[y, x]), int(xx[y, x]), int(yy[y, x]))
                    for y, x in zip(*np.nonzero(peaks), strict=True)), reverse=True)
    if not found:
        return None
    # the shortest strong peak, then the shortest strong one across it
    strong = sorted((np.array([x, y], np.float32) for s, x, y in found if s > 0.6 * found[0][0]),
                    key=lambda v: float(np.hypot(*v)))
    for v in strong[1:]:
        if abs(float(v @ strong[0])) < 0.5 * float(np.hypot(*v) * np.hypot(*strong[0])):
            return strong[0], v
    return None


def _shifted(image: NDArray[Any], by: NDArray[Any]) -> NDArray[Any]:
    move = np.array([[1, 0, by[0]], [0, 1, by[1]]], np.float32)
    out: NDArray[Any] = cv2.warpAffine(image, move, (image.shape[1], image.shape[0]),
                                       flags=cv2.INTER_NEAREST,
                                       borderMode=cv2.BORDER_REPLICATE)
    return out


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


def _unchecked_quads(alike: NDArray[Any], min_area: float, shape: tuple[int, ...]) -> list[
        NDArray[Any]]:
    """The card-shaped regions of a half-size mask of paper, as full-size rectangles."""
    # no closing, which would join two cards lying side by side (a card's pips are filled
    # as holes); the thin lines left where the period drifts (perspective) are opened off
    parts = _solid_parts(alike, min_area, int(UNCHECKED_OPENING * np.sqrt(min_area) / 2) | 1)
    parts = [(2 * p + 0.5).astype(np.float32) for p in parts]
    found: list[NDArray[Any]] = []
    for part in parts:
        if cv2.contourArea(part) < min_area:
            continue
        hull = cv2.convexHull(part)
        box = cv2.minAreaRect(hull)
        long, short = max(box[1]), max(min(box[1]), 1.0)
        if (cv2.contourArea(hull) < UNCHECKED_FILL * long * short
                or not ASPECT[0] <= long / short <= ASPECT[1]
                or long * short > LARGEST * shape[0] ** 2):
            continue
        quad = order_corners(cv2.boxPoints(box).astype(np.float32))
        if not _near_edge(quad, shape) and _same(found, quad) is None:
            found.append(quad)
    return found


def _unchecked_cards(planes: _Planes, min_area: float, shape: tuple[int, ...]) -> list[
        NDArray[Any]]:
    """Cards on a checked cloth, found by the pattern's period: a white check differs from
    the checks half a period away on both sides, along both axes; a card's paper is like
    itself half (or one and a half) a period away on at least one side along each axis (a
    card is wider than a check's period). What is white and so alike is filled, opened,
    and its hull's smallest rectangle taken (the outline left is ragged: fitting its sides
    read worse)."""
    halves = _lattice(planes.white(1))
    if halves is None:
        return []
    # on a picture half as large (the area average blurs the cloth's noise): a quarter of
    # the cost; the rectangles are brought back to full size
    half_size = (shape[1] // 2, shape[0] // 2)
    lab = cv2.resize(planes.lab, half_size, interpolation=cv2.INTER_AREA)
    alike = cv2.threshold(cv2.resize(planes.white(0), half_size, interpolation=cv2.INTER_AREA),
                          127, 255, cv2.THRESH_BINARY)[1]
    # like itself half a period away (strict), or also one and a half (loose): a card's paper
    # between large pips lands on paper only there; but on a newspaper's columns the loose
    # test joins cards to the print, so both are searched and the strict one's cards kept
    strict, loose = alike, alike
    for half in halves:
        near = [np.zeros_like(alike), np.zeros_like(alike)]
        for m, step in ((m, sign * m * half) for m in PERIOD_STEPS for sign in (1, -1)):
            # the sum saturates at 255 in uint8, far above the bar
            diff = cv2.transform(cv2.absdiff(lab, _shifted(lab, step)), np.ones((1, 3)))
            # a faint cloth's checks differ less: the bar follows the table's own contrast
            median = float(byte_percentile(diff.reshape(-1, 1), 50)[0])
            bar = min(PERIOD_ALIKE, PERIOD_SHARE * median)
            like = cv2.threshold(diff, bar, 255, cv2.THRESH_BINARY_INV)[1]
            for k in (0, 1) if m == PERIOD_STEPS[0] else (0,):  # 0: loose, 1: strict
                near[k] = cv2.bitwise_or(near[k], like)
        loose = cv2.bitwise_and(loose, near[0])
        strict = cv2.bitwise_and(strict, near[1])
    found: list[NDArray[Any]] = []
    for mask in (strict, loose):
        for quad in _unchecked_quads(mask, min_area, shape):
            if _same(found, quad) is None and not _overlapping([quad, *found]):
                found.append(quad)
    return found


def _within(rect: tuple[int, int, int, int], box: tuple[int, int, int, int],
            here: tuple[int, int], full: tuple[int, int], margin: int) -> bool:
    """Whether a region's bounding rect (frame pixels) keeps ``margin`` from each side of
    ``box`` (outline pixels; a side on the outline's own edge does not count)."""
    x, y, w, h = rect[0] - here[0], rect[1] - here[1], rect[2], rect[3]
    x0, y0, x1, y1 = box
    return not ((x < margin and x0 > 0) or (y < margin and y0 > 0)
                or (x + w > x1 - x0 - margin and x1 < full[0])
                or (y + h > y1 - y0 - margin and y1 < full[1]))


def _opened_card(part: NDArray[Any], opened: NDArray[Any], offset: tuple[int, int],
                 min_area: float, shape: tuple[int, ...]) -> NDArray[Any] | None:
    """The card a region left by _opened_cards' opening is, if it is one."""
    area = cv2.contourArea(part)
    if area < min_area:
        return None
    box = cv2.minAreaRect(cv2.convexHull(part))
    long, short = max(box[1]), max(min(box[1]), 1.0)
    # far from a card's shape or filling too little of its box: not worth fitting
    if not 1.0 <= long / short <= 2.2 or area < 0.75 * long * short:
        return None
    rect = cv2.boxPoints(box)
    quad, _ = refine_quad(part.reshape(-1, 2).astype(np.float32),
                          order_corners(rect.astype(np.float32)), 0.3)
    quad = order_corners(quad)
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    ratio = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1.0)
    if not ASPECT[0] <= ratio <= ASPECT[1] or _near_edge(quad, shape):
        return None
    # the region fills the quadrilateral (but for its rounded corners) and little of it lies
    # beyond (pieces of the pattern that the opening left on a side)
    one: NDArray[Any] = np.zeros_like(opened)
    cv2.fillConvexPoly(one, np.round(quad - offset).astype(np.int32), 255)
    size = max(cv2.countNonZero(one), 1)
    inside = cv2.countNonZero(cv2.bitwise_and(one, opened)) / size
    mine: NDArray[Any] = np.zeros_like(opened)
    cv2.drawContours(mine, [part], -1, 255, -1, offset=(-offset[0], -offset[1]))
    beyond = cv2.countNonZero(cv2.bitwise_and(mine, cv2.bitwise_not(one))) / size
    if inside < 0.96 or beyond > 0.08:
        return None
    return quad


def _pattern_cards(planes: _Planes, roi: tuple[slice, slice], blob: NDArray[Any],
                   offset: tuple[int, int], min_area: float,
                   shape: tuple[int, ...]) -> list[NDArray[Any]]:
    """The cards _opened_cards finds, unless what the opening cut off holds a piece of card
    (colourless white of a card's size: the rest of a fan beside its top card, whose
    slivers an opening also cuts off) rather than a pattern's small pieces."""
    cards = _opened_cards(planes, roi, blob, offset, min_area, shape)
    if not cards:
        return []
    covered: NDArray[Any] = np.zeros_like(blob)
    for q in cards:
        cv2.fillConvexPoly(covered, np.round(q - offset).astype(np.int32), 255)
    # at the strictest level: a checked cloth's half-tone checks, paler at the first level,
    # would join its white checks into one piece
    rest = cv2.bitwise_and(cv2.bitwise_and(planes.white(len(WHITE_LEVELS) - 1, roi), blob),
                           cv2.bitwise_not(cv2.dilate(covered, np.ones((9, 9), np.uint8))))
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return [] if _has_piece(rest, FAN_PIECE * min_area) else cards


def _has_piece(mask: NDArray[Any], least: float) -> bool:
    """Whether a 4-connected piece of the mask has more than ``least`` pixels. Each lies
    within one 8-connected outline's box: only boxes larger than that are labelled, largest
    first (a third of the cost of labelling the whole frame; the same answer)."""
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = sorted((cv2.boundingRect(c) for c in outlines), key=lambda b: -b[2] * b[3])
    for x, y, w, h in boxes:
        if w * h <= least:
            return False
        # a piece cut by the box belongs to another outline: its part is a lower bound
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask[y:y + h, x:x + w],
                                                          connectivity=4)
        if stats[1:, cv2.CC_STAT_AREA].max(initial=0) > least:
            return True
    return False


# the largest piece cut off by _opened_cards (relative to the smallest card) that may be a
# pattern's (a white check); a larger one is part of a card
FAN_PIECE = 0.6


# the most of a refused outline, away from the cards found in it, that may have a card's
# colour (relative to a card's area) for the cards found by edges to be kept
LIKE_CARD = 0.02
# the least of a refused outline, beyond the cards found in it by edges, for them to be kept
# (relative to a card's area)
JOINED = 0.2


def _like_card(planes: _Planes, roi: tuple[slice, slice], blob: NDArray[Any],
               cards: list[NDArray[Any]], offset: tuple[int, int]) -> float:
    """How much of the outline, away from the cards found in it and unlike the table, has a
    card's own colour (another card of a fan; glare as white as a card), relative to the
    smallest card."""
    lab = planes.lab[roi]
    covered: NDArray[Any] = np.zeros_like(blob)
    worst = 0.0
    for q in cards:
        cv2.fillConvexPoly(covered, np.round(q - offset).astype(np.int32), 255)
    away = cv2.bitwise_and(blob, cv2.bitwise_not(cv2.dilate(covered, np.ones((25, 25),
                                                                             np.uint8))))
    # colourless: a pale table may have a card's colour within these bounds, not its lack
    # of colour (the saturation of WHITE_LEVELS[1])
    away = cv2.bitwise_and(away, planes.white(1, roi))
    for q in cards:
        card: NDArray[Any] = np.zeros_like(blob)
        cv2.fillConvexPoly(card, np.round(q - offset).astype(np.int32), 255)
        like = cv2.bitwise_and(_like_face(lab, card), away)
        worst = max(worst, cv2.countNonZero(like) / max(cv2.countNonZero(card), 1))
    return worst


def _part(planes: _Planes, contour: NDArray[Any], min_area: float, shape: tuple[int, ...],
          edges: bool = True) -> tuple[list[NDArray[Any]], list[NDArray[Any]], bool]:
    """Whole cards inside a refused outline, found with the stricter whiteness levels or,
    failing them, the image's edges; and whether the outline holds more than them (as white
    as they are at the level where the first was found, and as big as a quarter card: the
    rest of a fan, say, but not glare). Cards found by edges are kept only if nothing more
    is left. Returns the cards found by whiteness, those found by edges, and that flag."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x - 8, 0), max(y - 8, 0)
    x1, y1 = min(x + w + 8, shape[1]), min(y + h + 8, shape[0])
    roi = (slice(y0, y1), slice(x0, x1))
    blob: NDArray[Any] = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(-x0, -y0))
    blob = cv2.dilate(blob, np.ones((9, 9), np.uint8))
    unlike = cv2.bitwise_and(planes.unlike[roi], blob)
    # the same without what is merely paler than the table (glare or a pale table that the
    # first takes for ink next to a card)
    darker = cv2.bitwise_and(unlike, cv2.bitwise_not(planes.paler(roi)))
    found: list[NDArray[Any]] = []
    evidence: NDArray[Any] | None = None
    for level in range(1, len(WHITE_LEVELS)):
        white = cv2.bitwise_and(planes.white(level, roi), blob)
        for ink in (unlike, darker):
            mask = _outline_mask(white, ink, 7)
            parts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                        offset=(x0, y0))
            for part in parts:
                if cv2.contourArea(part) < min_area:
                    continue
                quad = judge(part, shape)
                if isinstance(quad, str) or _near_edge(quad, shape):
                    continue
                if evidence is None:
                    evidence = mask
                # the same card found again: keep the larger outline (a stricter level can
                # leave out a sliver of the card's edge)
                same = _same(found, quad)
                if same is None:
                    found.append(quad)
                elif cv2.contourArea(quad) > cv2.contourArea(found[same]):
                    found[same] = quad
    more = True if evidence is None else _rest(evidence, found, (x0, y0)) > 0.25
    if more and edges:
        # glare or a pale table joined to the card so closely that no whiteness parts them:
        # the image's edges may. What they find is kept only if the outline holds more
        # than the cards (the glare or table that was joined to them: else the edges only
        # gave a convex outline to cards the shape tests refused, such as two cards lying
        # almost on each other) and none of that has a card's colour (the rest of a fan)
        closed = [q for q in _edge_cards(planes, roi, blob, (x0, y0), min_area, shape)
                  if _same(found, q) is None]
        if (len(found + closed) >= 2 and not _overlapping(found + closed)
                and _rest(blob, found + closed, (x0, y0)) < SIDE_BY_SIDE):
            # cards lying side by side, touching: the edges part them into whole cards that
            # together are the whole outline (a fan's lower cards are never whole)
            return found, closed, False
        by_edges = [q for q in closed if _touching(planes, q) <= TOUCHING]
        if (by_edges and _rest(blob, found + by_edges, (x0, y0)) >= JOINED
                and _like_card(planes, roi, blob, found + by_edges, (x0, y0)) <= LIKE_CARD):
            return found, by_edges, False
        if not found:
            # a card joined to a white pattern (a checked cloth): cut the pattern off
            patterned = [q for q in _pattern_cards(planes, roi, blob, (x0, y0), min_area, shape)
                         if not _overlapping([q, *closed])]
            if patterned:
                return [], patterned, False
    return found, [], more


# the most of an outline left beyond the whole cards the edges found in it (relative to a
# card) for them to be cards lying side by side
SIDE_BY_SIDE = 0.1


def _overlapping(cards: list[NDArray[Any]]) -> bool:
    """Whether any two of the quads overlap by more than 2% of the smaller."""
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            area, _ = cv2.intersectConvexConvex(a, b)
            if area > 0.02 * min(cv2.contourArea(a), cv2.contourArea(b)):
                return True
    return False


# the most of a ring just outside a card found by edges (6..10 px) that may have the card's
# own colour: more is another card under or beside it (the rest of a fan)
TOUCHING = 0.03


def _touching(planes: _Planes, quad: NDArray[Any]) -> float:
    """The share of a ring 6..10 px outside the quad that has the card's own colour."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x0, y0 = max(x - 12, 0), max(y - 12, 0)
    x1, y1 = min(x + w + 12, planes.lab.shape[1]), min(y + h + 12, planes.lab.shape[0])
    card: NDArray[Any] = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(card, np.round(quad - [x0, y0]).astype(np.int32), 255)
    ring = cv2.bitwise_and(cv2.dilate(card, np.ones((21, 21), np.uint8)),
                           cv2.bitwise_not(cv2.dilate(card, np.ones((13, 13), np.uint8))))
    like = cv2.bitwise_and(ring, _like_face(planes.lab[y0:y1, x0:x1], card))
    return float(cv2.countNonZero(like) / max(cv2.countNonZero(ring), 1))


def _like_face(lab: NDArray[Any], card: NDArray[Any]) -> NDArray[Any]:
    """The pixels within a card face's colour (median of its inside) in Lab."""
    face = np.median(lab[cv2.erode(card, np.ones((9, 9), np.uint8)) > 0], axis=0)
    low = np.clip(face - [12, 5, 5], 0, 255).astype(np.uint8)
    high = np.clip(face + [12, 5, 5], 0, 255).astype(np.uint8)
    out: NDArray[Any] = cv2.inRange(lab, low, high)
    return out


def _rest(mask: NDArray[Any], cards: list[NDArray[Any]], offset: tuple[int, int]) -> float:
    """How much of the mask lies beyond the cards, relative to the smallest card's area."""
    covered: NDArray[Any] = np.zeros_like(mask)
    for q in cards:
        cv2.fillConvexPoly(covered, np.round(q - offset).astype(np.int32), 255)
    covered = cv2.dilate(covered, np.ones((7, 7), np.uint8))
    rest = cv2.countNonZero(cv2.bitwise_and(mask, cv2.bitwise_not(covered)))
    return float(rest / min(cv2.contourArea(q) for q in cards))


# an outline this big (share of the frame) is the table itself, as pale as a card: a white
# or linen cloth, a newspaper. Cards on it are found by _on_pale_table instead
TABLE_SHARE = 0.3
PALER = 14  # how much lighter than the table around it a card's paper is, at least
TABLE_SCALE = 4  # the table's lightness is judged on a picture this many times smaller


def _on_pale_table(planes: _Planes, min_area: float, shape: tuple[int, ...],
                   refitted: list[NDArray[Any]] | None = None) -> list[NDArray[Any]]:
    """Cards on a table as pale as they are: colourless pixels lighter by PALER than the
    table around them. The table's lightness there is the median of a window wider than a
    card, on a smaller picture with the table's print, weave and coloured checks closed
    over: its palest tone; a card is lighter than that, the table is not. ``refitted``:
    given, outlines judge refuses are fitted again (card_refit), and such cards put in it
    (not returned: the other searches may find them better)."""
    # a closing fills what is darker and narrow: the print of a newspaper and the weave of a
    # cloth turn into their paper's tone, the pips of a card into its paper's
    light = cv2.morphologyEx(planes.light, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    h, w = light.shape
    small = cv2.resize(light, (w // TABLE_SCALE, h // TABLE_SCALE), interpolation=cv2.INTER_AREA)
    # and on the small picture the same for larger print and a checked cloth's coloured
    # checks: the table's tone is its paper's or its white checks'
    small = cv2.morphologyEx(small, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    window = int(0.8 * h / TABLE_SCALE) | 1  # a card is at most half the picture's height
    around = cv2.resize(cv2.medianBlur(small, min(window, 255)), (w, h),
                        interpolation=cv2.INTER_LINEAR)
    lighter = cv2.threshold(cv2.subtract(light, around), PALER - 1, 255, cv2.THRESH_BINARY)[1]
    colourless = cv2.threshold(planes.sat, 60, 255, cv2.THRESH_BINARY_INV)[1]
    mask = cv2.bitwise_and(lighter, colourless)
    # a court card's picture leaves only its margin: close the gaps in that ring
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    width = int(0.25 * np.sqrt(min_area)) | 1  # cuts a newspaper's gutter off a card
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    found: list[NDArray[Any]] = []
    outlines = _big(contours, 0.5 * min_area)
    first = len(outlines)
    for k, contour in enumerate(outlines):
        before = len(found)
        # opened within its box (and the disc's width around it), not the whole frame
        x, y, w, h = cv2.boundingRect(contour)
        x0, y0 = max(x - width, 0), max(y - width, 0)
        one: NDArray[Any] = np.zeros((min(y + h + width, mask.shape[0]) - y0,
                                      min(x + w + width, mask.shape[1]) - x0), np.uint8)
        cv2.drawContours(one, [contour], -1, 255, -1, offset=(-x0, -y0))
        one = open_disc(one, disc)  # (OpenCV's own opening for a narrow disc)
        parts, _ = cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                    offset=(x0, y0))
        for part in parts:
            area = cv2.contourArea(part)
            hull = cv2.convexHull(part)
            if area >= min_area and area < SOLID * cv2.contourArea(hull):
                # large pips at a card's edge (knoll-vector's) notch its paper: closed, the
                # notches fill; two cards crossing keep their shape (issue 15)
                closed = _closed_notches(part, min_area)
                if closed is not None:
                    part, area = closed, cv2.contourArea(closed)
                    hull = cv2.convexHull(part)
            if area < min_area or area < SOLID * cv2.contourArea(hull):
                continue
            # two cards side by side (the hull would hide the notches between them; and
            # two cards together may have one card's shape)
            pair = _split_touching(part, min_area, shape)
            whole: list[NDArray[Any] | str] = [judge(_dense(hull), shape)] if pair is None else []
            if whole and isinstance(whole[0], str) and whole[0] == OVERLAP and (
                    refitted is not None):
                # its sides bumped by the table's pattern or bitten by its print: fitted
                # to the outline's own straight stretches (vision/card_refit.py)
                again = refit(part, _rough(hull))
                if again is not None and again.min() >= 0 and not _near_edge(
                        order_corners(again), shape):
                    refitted.append(order_corners(again))
            for quad in pair or whole:
                if not isinstance(quad, str) and not _near_edge(quad, shape) and _same(
                        found, quad) is None:
                    found.append(quad)
        # (a card's size only: closing a larger outline costs much and finds no card)
        if (len(found) == before and k < first
                and min_area <= cv2.contourArea(contour) <= LARGEST * shape[0] ** 2):
            # large pips in a chain to a card's edge leave strips of paper that the opening
            # cuts through: once more with the outline's notches closed first (issue 15)
            closed = _closed_notches(contour, min_area)
            if closed is not None:
                outlines.append(closed)
    return found


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


# --- backs on a pale table (issue 15, 2026-11-27) ---
# a card's back is a printed pattern in colour, not paler than a pale table: its pixels
# are coloured (saturation, after balance()) and, closed over the pattern's pale parts, make
# a solid card-shaped region
BACK_SATURATION = 15  # above the table's own median saturation


def _backs_on_pale_table(planes: _Planes, min_area: float, shape: tuple[int, ...],
                         found: list[NDArray[Any]]) -> list[NDArray[Any]]:
    """Card-shaped coloured regions on a pale table (found on a picture half as large):
    cards lying face down. A checked cloth's coloured bands are narrower than the opening's
    disc, or join into shapes no card has."""
    h, w = planes.sat.shape
    sat = cv2.resize(planes.sat, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    # the table's own colour sets the bar: a pinkish linen is more saturated than a
    # newspaper, and a tungsten bulb's cast is never all balanced away
    bar = max(float(np.median(sat[::4, ::4])) + BACK_SATURATION, 25.0)
    coloured = cv2.threshold(sat, bar, 255, cv2.THRESH_BINARY)[1]
    coloured = cv2.morphologyEx(coloured, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    out: list[NDArray[Any]] = []
    for part in _solid_parts(coloured, min_area, int(0.3 * np.sqrt(min_area)) | 1):
        area = 4 * cv2.contourArea(part)
        hull = cv2.convexHull(part) * 2
        if area < min_area or area < SOLID * cv2.contourArea(hull):
            continue
        quad = judge(_dense(hull), shape)
        if isinstance(quad, str) or _near_edge(quad, shape) or _overlapping([quad, *found]):
            continue
        out.append(quad)
    return out


# --- cards on a pale table closed off by their own edge (issue 15, 2026-11-27 evening) ---


# the region inside the card's edge lies this far (pixels) inside the card's side: the edge
# line is dilated, and opened off (a quad grown by it reads more cards right on validation)
BORDER_INSET = 1.7


def _grown(quad: NDArray[Any], by: float) -> NDArray[Any]:
    """The convex quad with each side moved ``by`` pixels outwards."""
    centre = quad.mean(axis=0)
    lines = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal = np.array([-along[1], along[0]], np.float32)
        if normal @ (a - centre) < 0:
            normal = -normal
        lines.append((a + by * normal, along))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t1, _ = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t1 * d1)
    return np.array(corners, np.float32)


def _bordered_cards(planes: _Planes, min_area: float, shape: tuple[int, ...],
                    found: list[NDArray[Any]]) -> list[NDArray[Any]]:
    """Cards on a pale table that no lightness level parts from it (its bright side
    clipped as white as the card): the card's edge is still a closed line of the image's
    edges. Each region the edges close off is judged on its hull, away from the cards and
    backs found. The edges of an index fuse with the card's edge and take the corners off
    the region: no opening (as _edge_cards'), which would take off more."""
    # the lightness's edges only: a third of the colour image's cost, and on validation
    # they closed off more cards (369 against 356 of 418 on pale tables; 316 before)
    edges = cv2.Canny(cv2.GaussianBlur(planes.light, (3, 3), 0), *EDGES)
    inside = cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    inside = cv2.morphologyEx(inside, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    regions, hierarchy = cv2.findContours(inside, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out: list[NDArray[Any]] = []
    if hierarchy is None:
        return out
    largest = LARGEST * shape[0] ** 2
    # outer outlines only (a region's holes are other regions' edges), of a card's size
    for i in np.flatnonzero((hierarchy[0][:, 3] == -1) & (_boxes(regions) >= min_area)):
        region = regions[int(i)]
        area = cv2.contourArea(region)
        if not min_area <= area <= largest:
            continue
        x, y, w, h = cv2.boundingRect(region)
        if x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1:
            continue  # cut by the picture's edge: judge's first refusal, before its cost
        middle = (x + w / 2, y + h / 2)
        if any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), middle, False) >= 0 for q in found):
            continue  # a card found already (its quad would overlap it): judge costs 1 ms
        hull = cv2.convexHull(region)
        if area < SOLID * cv2.contourArea(hull):
            continue
        quad = judge(_dense(hull), shape)
        if isinstance(quad, str) and quad == OVERLAP:
            # its edge joined by the table's (a gutter's, a band's) or bitten by an index
            again = refit(_dense(region), _rough(hull))
            quad = "" if again is None else order_corners(again)
        if isinstance(quad, str) or _near_edge(quad, shape):
            continue
        quad = _grown(quad, BORDER_INSET)
        if _same(found + out, quad) is None and not _overlapping([quad, *found, *out]):
            out.append(quad)
    return out


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


def find_cards(image: NDArray[Any], min_area: float, edges: bool = True) -> tuple[
        list[NDArray[Any]], list[Refused], list[bool]]:
    """Card quadrilaterals, refused outlines, and per card whether only the image's edges
    found it (``edges=False``: never; the training samples are taken so)."""
    planes = _Planes(image)
    contours, _ = cv2.findContours(_outline_mask(planes.white(0), planes.unlike),
                                   cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)  # every point: sides are fitted
    quads: list[NDArray[Any]] = []
    refused: list[Refused] = []
    by_edges: list[bool] = []
    frame = image.shape[0] * image.shape[1]
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        if cv2.contourArea(contour) > TABLE_SHARE * frame:
            # the table is as pale as a card: the cards are what is paler still
            refitted: list[NDArray[Any]] = []
            for quad in _on_pale_table(planes, min_area, image.shape,
                                       refitted if edges else None):
                if _same(quads, quad) is None:
                    quads.append(quad)
                    by_edges.append(False)
            # a checked cloth's white checks join into one outline too: cut them off
            blob: NDArray[Any] = np.zeros(image.shape[:2], np.uint8)
            cv2.drawContours(blob, [contour], -1, 255, -1)
            everywhere = (slice(None), slice(None))
            for quad in _pattern_cards(planes, everywhere, blob, (0, 0), min_area,
                                       image.shape):
                if _same(quads, quad) is None and not _overlapping([quad, *quads]):
                    quads.append(quad)
                    by_edges.append(True)
            rough: list[NDArray[Any]] = []  # the period's rectangles, often pixels off
            for quad in _unchecked_cards(planes, min_area, image.shape) if edges else []:
                if _same(quads, quad) is None and not _overlapping([quad, *quads]):
                    quads.append(quad)
                    by_edges.append(True)
                    rough.append(quad)
            if edges:  # face-down cards: coloured, not paler than the table
                backs = _backs_on_pale_table(planes, min_area, image.shape, quads)
                for quad in backs:
                    refused.append(Refused(tuple((float(x), float(y)) for x, y in quad),
                                           FACE_DOWN))
                # a card closed off by its own edge is fitted to it: it takes the place of
                # a rectangle of the period's where they overlap
                exact = [q for q in quads if not any(q is r for r in rough)]
                for quad in _bordered_cards(planes, min_area, image.shape, exact + backs):
                    for k in [k for k, q in enumerate(quads) if any(q is r for r in rough)
                              and _overlapping([quad, q])][::-1]:
                        del quads[k], by_edges[k]
                    quads.append(quad)
                    by_edges.append(True)
            # last, where no search found a card: one whose sides the table's pattern
            # bumps, fitted through (its two corners must read alike: cards.py)
            for quad in refitted:
                if _same(quads, quad) is None and not _overlapping([quad, *quads]):
                    quads.append(quad)
                    by_edges.append(True)
            continue
        # cards lying side by side (touching, or closer than the mask's closing) make one
        # outline with a notch at each end of where they meet (edges=False, the training
        # samples' finder, keeps the finder as it was trained on)
        pair = _split_touching(contour, min_area, image.shape) if edges else None
        if pair is not None:
            quads += pair
            by_edges += [False] * len(pair)
            continue
        verdict = judge(contour, image.shape)
        if isinstance(verdict, str) and verdict == OVERLAP and edges:
            verdict = _notched_card(contour, min_area, image.shape)
        if not isinstance(verdict, str):
            quads.append(verdict)
            by_edges.append(False)
            continue
        # a refused outline may still hold whole cards that a pale table or glare joined
        found, weak, more = _part(planes, contour, min_area, image.shape, edges)
        quads += found + weak
        by_edges += [False] * len(found) + [True] * len(weak)
        if more:
            refused.append(Refused(_box(contour), verdict))
    return quads, refused, by_edges
