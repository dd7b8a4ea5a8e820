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

from vision.card_pale import BORDER_INSET, _grown
from vision.card_refit import refit
from vision.card_shapes import (
    OVERLAP,
    SOLID,
    _dense,
    _near_edge,
    _Planes,
    _rough,
    judge,
    order_corners,
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
    of the outline is in pieces smaller than a quarter card; else none."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x - 4, 0), max(y - 4, 0)
    x1, y1 = min(x + w + 4, shape[1]), min(y + h + 4, shape[0])
    blob: NDArray[Any] = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(-x0, -y0))
    inside = cv2.bitwise_and(blob, cv2.bitwise_not(planes.lines()[y0:y1, x0:x1]))
    inside = cv2.morphologyEx(inside, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    regions, hierarchy = cv2.findContours(inside, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE,
                                          offset=(x0, y0))
    if hierarchy is None:
        return []
    cards: list[NDArray[Any]] = []
    rest: list[tuple[float, float]] = []  # each other region's area and length
    for region, parent in zip(regions, hierarchy[0][:, 3], strict=True):
        if parent != -1:
            continue  # a region's holes are other regions' edges
        area = cv2.contourArea(region)
        if area < 0.05 * min_area:
            continue
        quad: NDArray[Any] | str = ""
        hull = cv2.convexHull(region)
        if area >= min_area and area >= SOLID * cv2.contourArea(hull):
            quad = judge(_dense(hull), shape)
            if isinstance(quad, str) and quad == OVERLAP:
                again = refit(_dense(region), _rough(hull))
                quad = "" if again is None else order_corners(again)
        if isinstance(quad, str) or _near_edge(quad, shape):
            rest.append((area, max(cv2.minAreaRect(region)[1])))
            continue
        cards.append(_grown(quad, BORDER_INSET))
    if not cards:
        return []
    least = min(cv2.contourArea(q) for q in cards)
    short = min(min(cv2.minAreaRect(q)[1]) for q in cards)
    if any(a >= REST_AREA * least or n >= REST_LENGTH * short for a, n in rest):
        return []
    return cards
