"""Finding cards in a picture: card-shaped quadrilaterals, and outlines refused with a reason.

Card faces are bright and nearly colourless; the mask of such pixels (and of the ink next to
them) is closed, filled and cleaned, and each outline's four sides are fitted as straight
lines. A convex outline lying on four straight sides with a card's aspect ratio is a card
(judge, vision/card_shapes.py). Inside an outline that fails, stricter whiteness levels
(WHITE_LEVELS) are tried, which part a card from a pale table or glare joined to it, and the
image's edges (_edge_cards); what they find must pass the same tests. Anything else big
enough to be cards (a fanned hand, overlapping cards, a card cut by the picture's edge) is
*refused*: listed with a reason, never guessed at. The searches find_cards asks besides:
cards lying side by side or notched by a pip (vision/card_touching.py), on a checked or
patterned cloth (vision/card_cloth.py), on a table as pale as a card, backs there reported
face down (vision/card_pale.py), a card closed off by its own edge line inside an outline
refused as overlapping (vision/card_lined.py). Reading what is found is vision/cards.py's.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_cloth import _pattern_cards, _unchecked_cards
from vision.card_lined import _lined_cards
from vision.card_pale import (
    _backs_on_pale_table,
    _bordered_cards,
    _edge_outlined_cards,
    _on_pale_table,
)
from vision.card_refit import refit
from vision.card_shapes import (
    EDGES,
    FACE_DOWN,
    OVERLAP,
    SOLID,
    WHITE_LEVELS,
    Refused,
    _box,
    _dense,
    _near_edge,
    _outline_mask,
    _overlapping,
    _Planes,
    _rough,
    _same,
    balance,
    judge,
    order_corners,
)
from vision.card_touching import _notched_card, _split_touching

# the finder's API (vision/cards.py's); the rest lives where it is used
__all__ = ["FACE_DOWN", "OVERLAP", "Refused", "balance", "find_cards", "judge"]


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
            if edges:  # court cards: closed off by their edge joined to their picture's
                for quad in _edge_outlined_cards(planes, min_area, image.shape,
                                                 quads + backs):
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
        if more and not found and not weak and verdict == OVERLAP and edges:
            again = refit(contour, _rough(cv2.convexHull(contour)))
            if again is not None:
                weak, more = [order_corners(again)], False
            else:  # white checks joined to a card: its own edge closes it off
                weak = _lined_cards(planes, contour, min_area, image.shape)
                more = not weak
        quads += found + weak
        by_edges += [False] * len(found) + [True] * len(weak)
        if more:
            refused.append(Refused(_box(contour), verdict))
    return quads, refused, by_edges
