"""vision/card_refit.py: a card's sides fitted through bumps and bites (issue 15)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_refit import refit
from vision.card_shapes import _rough, judge, order_corners


def _outline(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _card(angle: float) -> tuple[np.ndarray, np.ndarray]:
    mask = np.zeros((400, 500), np.uint8)
    corners = cv2.boxPoints(((250, 200), (120, 170), angle)).astype(np.float32)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    return mask, corners


def test_a_card_bumped_by_a_gutter_and_bitten_by_an_index_is_fitted() -> None:
    mask, corners = _card(20)
    cv2.line(mask, (200, 0), (200, 399), 255, 9)  # a newspaper's gutter, 6 px out
    mask[:, :] = cv2.bitwise_and(mask, cv2.dilate(
        cv2.fillConvexPoly(np.zeros_like(mask), np.round(corners).astype(np.int32), 255),
        np.ones((13, 13), np.uint8)))
    bite = np.round(corners[0] + 0.25 * (corners[1] - corners[0])).astype(int)
    cv2.circle(mask, (int(bite[0]), int(bite[1])), 9, 0, -1)  # an index at the edge
    # opened as _on_pale_table opens the paper's mask (the gutter's stub is left)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    outline = _outline(mask)
    hull = cv2.convexHull(outline)
    assert isinstance(judge(outline, mask.shape), str)  # refused as it stands
    quad = refit(outline, _rough(hull))
    assert quad is not None
    quad = order_corners(quad)
    assert max(min(float(np.linalg.norm(c - p)) for p in corners) for c in quad) < 3


def test_two_cards_overlapping_are_not_one_card() -> None:
    mask, _ = _card(0)
    other = cv2.boxPoints(((300, 260), (120, 170), 35))
    cv2.fillConvexPoly(mask, np.round(other).astype(np.int32), 255)
    outline = _outline(mask)
    assert refit(outline, _rough(cv2.convexHull(outline))) is None
