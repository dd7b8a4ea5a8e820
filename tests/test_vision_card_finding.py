"""The card finder's faster checked-cloth search (vision/cards.py, _opened_cards): it looks
for places on a picture half as large and opens exactly at full size around each, and must
find the same cards as the plain opening of the whole outline at full size."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_art import art_scene, load_deck
from vision.cards import (
    OPENING,
    WHITE_LEVELS,
    CardReader,
    _opened_card,
    _opened_cards,
    _Planes,
    _same,
    balance,
)


def _plain_opening(planes: _Planes, min_area: float) -> list[np.ndarray]:
    """The search as it was: the whole frame opened with the disc at every level."""
    everywhere = (slice(None), slice(None))
    blob = np.full(planes.image.shape[:2], 255, np.uint8)
    width = int(OPENING * np.sqrt(min_area)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    found: list[np.ndarray] = []
    for level in range(len(WHITE_LEVELS)):
        white = cv2.bitwise_and(planes.white(level, everywhere), blob)
        white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(white)
        cv2.drawContours(filled, [c for c in contours if cv2.contourArea(c) >= 0.5 * min_area],
                         -1, 255, -1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel)
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for part in parts:
            quad = _opened_card(part, opened, (0, 0), min_area, planes.image.shape)
            if quad is not None and _same(found, quad) is None:
                found.append(quad)
    return found


# validation scenes (never the held-out test seeds) on checked cloth and other tables
@pytest.mark.parametrize("seed,kind", [(6_100_000, "checked cloth"), (6_100_014, "checked cloth"),
                                       (6_100_027, "checked cloth"), (6_100_003, "pale cloth"),
                                       (6_100_005, "newspaper")])
def test_half_size_search_finds_what_the_full_opening_finds(seed: int, kind: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("anglo-poker")], kind=kind,
                      light="normal")
    image = balance(scene.image)
    planes = _Planes(image)
    min_area = CardReader.load().min_area_fraction * image.shape[0] * image.shape[1]
    everywhere = (slice(None), slice(None))
    blob = np.full(image.shape[:2], 255, np.uint8)
    fast = _opened_cards(planes, everywhere, blob, (0, 0), min_area, image.shape)
    plain = _plain_opening(planes, min_area)
    assert len(fast) == len(plain)
    assert plain  # each scene has a card the opening finds
    for quad in plain:
        same = _same(fast, quad)
        assert same is not None
        assert np.abs(fast[same] - quad).max() < 0.5
