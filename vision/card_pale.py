"""Cards on a table as pale as a card (a white or linen cloth, a newspaper).

There the table and the cards make one outline: cards are what is paler still than the
table around them (_on_pale_table), a back is a coloured card-shaped region (face down:
_backs_on_pale_table), and a card as white as the table is closed off by its own edge
(_bordered_cards), a court card by its edge line joined to its picture's
(_edge_outlined_cards). An outline whose sides the table's pattern bumps is fitted again
(vision/card_refit.py). Used by vision/card_finder.py.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_refit import refit
from vision.card_shapes import (
    LARGEST,
    OVERLAP,
    SOLID,
    _big,
    _boxes,
    _dense,
    _near_edge,
    _overlapping,
    _Planes,
    _rough,
    _same,
    _solid_parts,
    judge,
    order_corners,
)
from vision.card_touching import _closed_notches, _split_touching
from vision.morph import open_disc

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
    inside = cv2.bitwise_not(planes.lines())
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
        _add_if_new(_judged(region, hull, shape), BORDER_INSET, shape, found, out)
    return out


def _add_if_new(quad: NDArray[Any] | str, grow: float, shape: tuple[int, ...],
                found: list[NDArray[Any]], out: list[NDArray[Any]]) -> None:
    """Add a judged outline to ``out``, grown by ``grow``, unless it was refused, lies by
    the picture's edge, or is or overlaps a card found already."""
    if isinstance(quad, str) or _near_edge(quad, shape):
        return
    quad = _grown(quad, grow)
    if _same(found + out, quad) is None and not _overlapping([quad, *found, *out]):
        out.append(quad)


def _judged(region: NDArray[Any], hull: NDArray[Any], shape: tuple[int, ...]
            ) -> NDArray[Any] | str:
    """judge's verdict on a region closed off by edge lines (its hull); refused as
    overlapping, the region fitted to its own straight stretches instead (its edge joined
    by the table's, a gutter's, a band's, or bitten by an index), "" if that fails."""
    quad = judge(_dense(hull), shape)
    if isinstance(quad, str) and quad == OVERLAP:
        again = refit(_dense(region), _rough(hull))
        quad = "" if again is None else order_corners(again)
    return quad


SHRINK = -3.5  # the dilated edge line's outer side lies outside the card's side


def _edge_outlined_cards(planes: _Planes, min_area: float, shape: tuple[int, ...],
                         found: list[NDArray[Any]]) -> list[NDArray[Any]]:
    """Court cards on a pale table: their picture and indices cut the paper inside the
    edge into pieces no card's shape, and the table's lightness runs over part of their
    margin, but their own edge is one closed line joined to the picture's edges. Each
    joined set of edges, filled and opened (off the table's specks and hairs joined to it),
    is judged as a card."""
    return _outlined(planes.lines(), (0, 0), min_area, shape, found)


def _outlined(lines: NDArray[Any], offset: tuple[int, int], min_area: float,
              shape: tuple[int, ...], found: list[NDArray[Any]]) -> list[NDArray[Any]]:
    """_edge_outlined_cards' search in ``lines`` (edge lines of the frame, or of a part of
    it at ``offset``)."""
    contours, _ = cv2.findContours(lines, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=offset)
    largest = LARGEST * shape[0] ** 2
    width = int(0.25 * np.sqrt(min_area)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    out: list[NDArray[Any]] = []
    for i in np.flatnonzero(_boxes(contours) >= min_area):
        x, y, w, h = cv2.boundingRect(contours[int(i)])
        if x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1:
            continue
        if w * h > 2 * largest:
            continue  # the table's own pattern joined up: no one card
        middle = (x + w / 2, y + h / 2)
        if any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), middle, False) >= 0
               for q in found + out):
            continue
        one: NDArray[Any] = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(one, contours, int(i), 255, -1, offset=(1 - x, 1 - y))
        one = open_disc(one, disc)
        parts, _ = cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                    offset=(x - 1, y - 1))
        for part in parts:
            area = cv2.contourArea(part)
            if not min_area <= area <= largest:
                continue
            hull = cv2.convexHull(part)
            if area < SOLID * cv2.contourArea(hull):
                continue
            quad = judge(_dense(hull), shape)
            if not isinstance(quad, str) or quad == OVERLAP:
                # fitted to the outline's own straight stretches: hairs of the table's
                # edges and a shadow's edge joined to the card's push its hull out
                again = refit(part, _rough(hull))
                if again is not None:
                    quad = order_corners(again)
            _add_if_new(quad, SHRINK, shape, found, out)
    return out
