"""Cards on a checked cloth or a patterned table, whose white pattern joins them.

A card's outline there takes in the white checks next to it: an opening about as wide as a
card's side cuts them off (_opened_cards, _pattern_cards); where the cloth's checks repeat
with a period (_lattice), a card's paper is the part that does not change half a period away
(_unchecked_cards). Used by vision/card_finder.py.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_shapes import (
    ASPECT,
    LARGEST,
    WHITE_LEVELS,
    _big,
    _near_edge,
    _overlapping,
    _Planes,
    _same,
    _solid_parts,
    order_corners,
    refine_quad,
)
from vision.morph import open_disc
from vision.quantiles import byte_percentile

# a card on a checked cloth or a patterned table is joined by the white pattern next to it;
# an opening this wide (relative to the smallest card's side) cuts the pattern off
OPENING = 0.6


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
