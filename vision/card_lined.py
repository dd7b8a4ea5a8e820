"""A card inside a refused outline closed off by the lightness's edges (issue 15, 2026-11-28).

On a checked cloth whose white checks are as white as a card, the checks that touch a card
join its outline, and no whiteness level or colour edge parts them (the checks have the
card's own colour all round it, so the finder's fan test refuses what the colour edges find).
The card's own edge is still a closed line of the lightness's edges, and the checks beyond
it are regions a check's size. A card closed off so is kept only if nothing else in the
outline is a region of a quarter card or half its width (the rest of a fan, a card under
it). Used by
vision/card_finder.py as the last try on an outline refused as overlapping.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_pale import BORDER_INSET, _grown, _judged, _outlined
from vision.card_shapes import (
    SOLID,
    _near_edge,
    _Planes,
)

# the largest region beyond the cards found that may be left in the outline, by area
# (relative to the smallest card's) and by length (relative to its short side): a white
# check is a tenth of a card and a fifth of its width; the rest of a fan is more, or a
# long sliver
REST_AREA = 0.25
REST_LENGTH = 0.5


def _lined_cards(planes: _Planes, contour: NDArray[Any], min_area: float,
                 shape: tuple[int, ...]) -> list[NDArray[Any]]:
    """Whole cards closed off by the lightness's edges inside a refused outline, if the rest
    of the outline is in pieces smaller than a quarter card and half its width; else none."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x - 8, 0), max(y - 8, 0)
    x1, y1 = min(x + w + 8, shape[1]), min(y + h + 8, shape[0])
    blob: NDArray[Any] = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(-x0, -y0))
    # (the card's edge line lies just outside the white mask's outline)
    blob = cv2.dilate(blob, np.ones((9, 9), np.uint8))
    lines = cv2.bitwise_and(blob, planes.lines()[y0:y1, x0:x1])
    inside = cv2.bitwise_and(blob, cv2.bitwise_not(lines))
    inside = cv2.morphologyEx(inside, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    regions, hierarchy = cv2.findContours(inside, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE,
                                          offset=(x0, y0))
    cards: list[NDArray[Any]] = []
    rest: list[NDArray[Any]] = []  # the regions that are no card
    for k in [] if hierarchy is None else np.flatnonzero(hierarchy[0][:, 3] == -1):
        region = regions[int(k)]  # (a region's holes are other regions' edges)
        area = cv2.contourArea(region)
        if area < 0.05 * min_area:
            continue
        quad: NDArray[Any] | str = ""
        hull = cv2.convexHull(region)
        if area >= min_area and area >= SOLID * cv2.contourArea(hull):
            quad = _judged(region, hull, shape)
        if isinstance(quad, str) or _near_edge(quad, shape):
            rest.append(region)
        else:
            cards.append(_grown(quad, BORDER_INSET))
    if not cards:
        # large pips joined to the card's edge (knoll-vector's) cut its paper into pieces:
        # the card's edge line, joined to the pips' edges, closes it off whole
        cards = _outlined(lines, (x0, y0), min_area, shape, [])
    if not cards:
        return []
    least = min(cv2.contourArea(q) for q in cards)
    short = min(min(cv2.minAreaRect(q)[1]) for q in cards)
    core = cv2.erode(blob, np.ones((5, 5), np.uint8))
    for region in rest:
        points = region.reshape(-1, 2) - [x0, y0]
        if not core[points[:, 1], points[:, 0]].all():
            continue  # the table around the outline (the blob was grown over it)
        middle = np.mean(region.reshape(-1, 2), axis=0)
        if any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(middle[0]), float(middle[1])),
                                    False) >= 0 for q in cards):
            continue  # a piece of a card found (its paper cut by pips or a picture)
        if (cv2.contourArea(region) >= REST_AREA * least
                or max(cv2.minAreaRect(region)[1]) >= REST_LENGTH * short):
            return []
    return cards
