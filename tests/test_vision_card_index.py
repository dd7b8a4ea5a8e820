"""Finding the index (rank glyph and suit symbol) in a card's corner (vision/cards.py,
find_index), on real card art: a court letter beside a large pip is read alone with the small
suit under it, and a rank cut by the top of a face fitted a little inside the card is
still found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_art import load_deck
from vision.cards import FACE_H, FACE_W, INDEX_AREA, _box_of, _ink, find_index


def _corner(design: str, card: str, scale: float = 0.6, up: int = 0) -> np.ndarray:
    """The index area of ``card``'s upright face on a grey table, seen at ``scale`` face
    pixels per scene pixel; ``up``: the face fitted this many pixels inside the card's top."""
    art = cv2.resize(load_deck(design).faces[card], (FACE_W, FACE_H),
                     interpolation=cv2.INTER_AREA)
    alpha = art[..., 3:].astype(np.float32) / 255
    face = (art[..., :3] * alpha + 90 * (1 - alpha)).astype(np.uint8)
    small = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    seen = cv2.resize(small, (FACE_W, FACE_H), interpolation=cv2.INTER_LINEAR)
    w, h = INDEX_AREA
    return np.ascontiguousarray(seen[up:up + h, :w])


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_a_court_letter_beside_a_large_pip_is_read_alone(rank: str) -> None:
    # neoclassical sets its court cards' letter beside a large pip of about its height:
    # before, the pip was taken as the second glyph of the rank (as the 0 of a 10) and the
    # small suit under the letter was missed
    for suit in "SHDC":
        ink, _ = _ink(_corner("neoclassical", rank + suit))
        ranks, suits, _, stats = find_index(ink)
        assert ranks and suits, rank + suit
        x0, y0, x1, y1 = _box_of(stats, ranks)
        assert x1 - x0 < 0.8 * (y1 - y0), (rank + suit, x0, x1, y0, y1)
        assert _box_of(stats, suits)[1] >= y1 - 2, rank + suit


@pytest.mark.parametrize("design", ["neoclassical", "anglo-poker", "bellot-svg-cards"])
def test_the_ten_keeps_both_its_glyphs(design: str) -> None:
    for suit in "SH":
        ink, _ = _ink(_corner(design, "10" + suit))
        ranks, suits, _, stats = find_index(ink)
        assert ranks and suits
        x0, y0, x1, y1 = _box_of(stats, ranks)
        assert x1 - x0 > 0.5 * (y1 - y0), (design, suit, x0, x1, y0, y1)


def test_a_rank_cut_by_the_faces_top_is_found() -> None:
    # bellot's index stands a few pixels below the card's edge: a face fitted that much
    # inside the card cuts the rank glyph at the area's top, and the rank was taken for a
    # line along the edge (its 8 read as 10, as the small suit symbol was taken for the rank)
    cut = 0
    for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J"]:  # its Q and K: not yet
        for suit in "SD":
            ink, _ = _ink(_corner("bellot-svg-cards", rank + suit))
            ranks, _, _, stats = find_index(ink)
            top = _box_of(stats, ranks)[1]
            ink, _ = _ink(_corner("bellot-svg-cards", rank + suit, up=top + 1))
            found, suits, _, stats = find_index(ink)
            assert found and suits, rank + suit
            x0, y0, x1, y1 = _box_of(stats, found)
            assert y0 == 0 and _box_of(stats, suits)[1] >= y1 - 2, rank + suit
            cut += 1
    assert cut == 20
