"""Where the tray is: the floor the dice land on, learned at calibration.

``companion calibrate dice`` looks at the empty tray, then at the tray with one die in it. The
die is what changed between the two pictures (changed_spot), which a patterned rim or a busy
table cannot fool. The floor is the region around the die whose colour is the floor's there
(floor_around): its bounding box becomes the reader's tray area, so that a tray's rim, its
walls and the table around it are not searched (on the test photos of a tray with a patterned
rim, most candidates lay there) and a die outside the tray is not reported.

A table with no tray is one large floor: the area is then most of the frame, as before.

The floor's colour (floor_colour) is stored too. The reader does not use it: it estimates the
background in every picture, which follows the light. FloorWatch compares it with the tray at
rest during a game and says once when they differ beyond what one set-up varies by: the camera,
the tray or the light has moved, and the calibrated area may no longer be the tray.

Without a picture of the empty tray (the die was already in it), floor_from_dice paints the
dice read over, then looks around the one lying furthest from the others. The benchmark uses
it for the area a calibration would find on the test photos, which have no empty picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]


class Spot(Protocol):  # a vision.dice.Die (this module does not import the reader)
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def size(self) -> float: ...
    @property
    def confidence(self) -> float: ...


Area = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels
Colour = tuple[float, float, float]  # Lab, OpenCV's 8-bit scale (L 0..255, a and b 128 grey)

WORK_WIDTH = 480  # the pictures are compared at this width (noise and pips smooth out)
CHANGE = 20.0  # a colour difference (Lab, chroma counted twice) that is a die, not noise
MOST_CHANGED = 0.1  # more of the frame than this changed: the camera or the light moved
FLOOR_SPREAD = 4.0  # the floor is within this many times its own spread of its colour ...
FLOOR_LEAST = 12.0  # ... and never less than this (a very even floor, lit unevenly)
EDGE = (40, 100)  # Canny's thresholds for the edges that bound a floor (a rim, a wall)
SMALLEST_TRAY = 4.0  # a floor less than this many die sides across is not a tray
GROW = 0.5  # die sides added around the floor: a die against a wall has its centre there
# a floor colour this far from the calibrated one (lightness counted half, chroma twice) is
# another floor. Within a block of five photos of one set-up (train and val, dice in them)
# floors differ by at most 17. A lamp dimmed by a third stays below 30, half the light not
FLOOR_CHANGED = 30.0


def _work(image: Image) -> tuple[Image, Image, float]:
    """The picture at WORK_WIDTH, smoothed (BGR bytes) and in Lab (float), and its scale."""
    scale = min(1.0, WORK_WIDTH / image.shape[1])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    smooth = cv2.GaussianBlur(small, (5, 5), 0)
    return smooth, cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB).astype(np.float32), scale


def _distance(lab: Image, colour: Image, lightness: float = 1.0) -> Image:
    diff = lab - colour
    weights = np.array([lightness, 2.0, 2.0], np.float32)
    out: Image = np.sqrt((diff * diff) @ weights)
    return out


def changed_spot(before: Image, after: Image) -> tuple[float, float, float] | None:
    """The centre and side (frame pixels) of the largest spot that changed between two
    pictures from one camera: the die put in the empty tray. None if nothing changed, or if
    too much did (the camera or the light moved)."""
    if before.shape != after.shape:
        return None
    _, lab0, scale = _work(before)
    _, lab1, _ = _work(after)
    changed: Image = (_distance(lab1, lab0) > CHANGE).astype(np.uint8)
    if changed.mean() > MOST_CHANGED:
        return None
    # a white die on a white table changes little but its pips: closed into one spot
    changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    count, _, stats, centres = cv2.connectedComponentsWithStats(changed, connectivity=8)
    if count < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    side = float(max(stats[best, cv2.CC_STAT_WIDTH], stats[best, cv2.CC_STAT_HEIGHT]))
    x, y = centres[best]
    return float(x) / scale, float(y) / scale, side / scale


Polygon = list[tuple[float, float]]  # a floor's outline, in frame pixels


def floor_around(image: Image, x: float, y: float, die_side: float) -> Area | None:
    """The bounding box of floor_region (None where it finds no floor)."""
    found = floor_region(image, x, y, die_side)
    return found[0] if found else None


def floor_region(image: Image, x: float, y: float, die_side: float
                 ) -> tuple[Area, Polygon] | None:
    """The floor around a die at (x, y): its bounding box and its outline (frame pixels). Of
    the regions whose colour is within FLOOR_SPREAD times the ring's own spread of the
    median colour of a ring around the die, and which no edge crosses, the one most of the
    ring lies on (the die, crumbs and other dice leave holes in it, which its outline fills).
    The picture is median-filtered first at about a third of a die, so that felt's or
    cloth's grain is neither an edge nor a spread of colour that lets the floor run up the
    walls. Grown by GROW die sides, so that a die against a wall lies inside. The outline
    follows a round or slanted tray (its box takes in the walls at the corners). None if
    the floor is less than SMALLEST_TRAY die sides across."""
    smooth, _, scale = _work(image)
    h, w = smooth.shape[:2]
    cx, cy, side = x * scale, y * scale, max(2.0, die_side * scale)
    k = int(min(9, max(3, side * 0.3))) // 2 * 2 + 1
    smooth = cv2.medianBlur(smooth, k)
    lab = cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - cx, yy - cy)
    ring = (r > 1.0 * side) & (r < 2.5 * side)
    if ring.sum() < 20:
        return None
    colour = np.median(lab[ring], axis=0)
    dist = _distance(lab, colour, lightness=0.5)  # light varies over a floor; hue less
    level = max(FLOOR_LEAST, FLOOR_SPREAD * float(np.median(dist[ring])))
    # the floor: near the ring's colour and off the edges (a rim's edges keep a floor of the
    # table's colour apart from the floor of the tray)
    edges = cv2.dilate(cv2.Canny(smooth, *EDGE), np.ones((3, 3), np.uint8))
    floor = ((dist < level) & (edges == 0)).astype(np.uint8)
    floor = cv2.morphologyEx(floor, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(floor, connectivity=4)
    hits = np.bincount(labels[ring], minlength=count)
    hits[0] = 0
    which = int(np.argmax(hits))  # the region most of the ring lies on
    if hits[which] == 0:
        return None
    bw, bh = (int(v) for v in stats[which, 2:4])
    if min(bw, bh) < SMALLEST_TRAY * side:
        return None
    region = (labels == which).astype(np.uint8)
    grow = max(1, round(GROW * side))
    region = cv2.dilate(region, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    outline = cv2.convexHull(outline) if _solid(outline) else outline
    outline = cv2.approxPolyDP(outline, max(1.0, 0.01 * cv2.arcLength(outline, True)), True)
    points = outline.reshape(-1, 2).astype(np.float64)
    points[:, 0] = np.clip(points[:, 0], 0, w - 1)
    points[:, 1] = np.clip(points[:, 1], 0, h - 1)
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    area = (round(x0 / scale, 1), round(y0 / scale, 1), round(x1 / scale, 1),
            round(y1 / scale, 1))
    return area, [(round(px / scale, 1), round(py / scale, 1)) for px, py in points]


def _solid(outline: Image) -> bool:
    """Whether the region fills most of its convex hull (dice and crumbs left only holes
    and notches in it): its hull is then the floor. An L-shaped or cut floor keeps its
    own outline."""
    hull = cv2.contourArea(cv2.convexHull(outline))
    return bool(hull > 0 and cv2.contourArea(outline) >= 0.9 * hull)


def inside(polygon: Polygon, x: float, y: float) -> bool:
    """Whether (x, y) lies in the floor's outline (or on it)."""
    shape = np.array(polygon, np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(shape, (float(x), float(y)), False) >= 0)


def edge_distance(polygon: Polygon, x: float, y: float) -> float:
    """How far (x, y) lies inside the outline (negative: outside)."""
    shape = np.array(polygon, np.float32).reshape(-1, 1, 2)
    return float(cv2.pointPolygonTest(shape, (float(x), float(y)), True))


def floor_from_dice(image: Image, dice: Sequence[Spot]) -> Area | None:
    """The bounding box of floor_region_from_dice's floor (None where it finds none)."""
    found = floor_region_from_dice(image, dice)
    return found[0] if found else None


def floor_region_from_dice(image: Image, dice: Sequence[Spot]
                           ) -> tuple[Area, Polygon] | None:
    """The floor around the die read surely (confidence 0.9; any if none is) that lies
    furthest from the others, with all the dice painted over (an empty tray, emulated): its
    box and its outline."""
    if not dice:
        return None
    sure = [d for d in dice if d.confidence >= 0.9] or list(dice)

    def room(die: Spot) -> float:
        return min((float(np.hypot(die.x - o.x, die.y - o.y)) for o in dice if o is not die),
                   default=float("inf"))

    seed = max(sure, key=room)
    mask = np.zeros(image.shape[:2], np.uint8)
    for die in dice:
        cv2.circle(mask, (round(die.x), round(die.y)), round(0.75 * die.size) + 2, 255, -1)
    empty = cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA)
    return floor_region(empty, seed.x, seed.y, seed.size)


def floor_colour(image: Image, area: Area) -> Colour:
    """The median colour of the area: the floor's, as the floor is most of its box (dice on it
    and a round tray's corners are not)."""
    _, lab, scale = _work(image)
    h, w = lab.shape[:2]
    x0, y0 = max(0, int(area[0] * scale)), max(0, int(area[1] * scale))
    x1, y1 = min(w, int(area[2] * scale) + 1), min(h, int(area[3] * scale) + 1)
    region = lab[y0:y1, x0:x1].reshape(-1, 3) if x1 > x0 and y1 > y0 else lab.reshape(-1, 3)
    median = np.median(region, axis=0)
    return (round(float(median[0]), 1), round(float(median[1]), 1), round(float(median[2]), 1))


def colour_change(before: Colour, after: Colour) -> float:
    """How far apart two floor colours are, weighted as floor_around weighs them."""
    return float(_distance(np.array(after, np.float32), np.array(before, np.float32), 0.5))


@dataclass
class FloorWatch:
    """Compares the tray's floor at rest with the calibrated colour, every ``every`` frames it
    is fed; after ``times`` such checks in a row that differ by more than FLOOR_CHANGED it
    gives a sentence, once, until the floor matches again (a hand held still over the tray
    for a moment is not a moved camera)."""

    colour: Colour
    area: Area
    every: int = 15
    times: int = 6
    _fed: int = field(default=0, init=False)
    _differs: int = field(default=0, init=False)
    _said: bool = field(default=False, init=False)

    def feed(self, frame: Image) -> str | None:
        self._fed += 1
        if self._fed % self.every:
            return None
        now = floor_colour(frame, self.area)
        change = colour_change(self.colour, now)
        if change <= FLOOR_CHANGED:
            self._differs, self._said = 0, False
            return None
        self._differs += 1
        if self._differs < self.times or self._said:
            return None
        self._said = True
        return ("The tray does not look as it did at calibration (its floor's colour moved by "
                f"{change:.0f}): the camera, the tray or the light has moved. If dice are "
                "misread, run companion calibrate dice again.")
