"""The back test by look (vision/card_backs.py): a card's back is the same all over."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cards import FULL_DECK
from vision.card_art import ART_DIR, load_deck, paste
from vision.card_backs import looks_like_back
from vision.cards import FACE_H, FACE_W

DESIGNS = sorted(p.name for p in ART_DIR.iterdir() if (p / "back.png").is_file())


def _upright(art: np.ndarray) -> np.ndarray:
    """A card's art as straighten gives it: the face's size, on a green table."""
    canvas = np.full((FACE_H, FACE_W, 3), (40, 90, 40), np.uint8)
    quad = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    paste(canvas, art, quad)
    return canvas


@pytest.mark.parametrize("design", DESIGNS)
def test_every_designs_back_looks_like_a_back(design: str) -> None:
    back = load_deck(design).back
    assert back is not None
    assert looks_like_back(_upright(back)), design


@pytest.mark.parametrize("design", DESIGNS)
def test_no_face_looks_like_a_back(design: str) -> None:
    deck = load_deck(design)
    backs = [str(card) for card in FULL_DECK if looks_like_back(_upright(deck.faces[str(card)]))]
    assert backs == [], design


def test_a_plain_back_needs_its_border() -> None:
    plain = np.full((FACE_H, FACE_W, 3), (120, 40, 30), np.uint8)
    assert not looks_like_back(plain)  # a patch of table as large as a card
    m = FACE_W // 14
    plain[:m], plain[-m:], plain[:, :m], plain[:, -m:] = (235, 235, 235), (235, 235, 235), (
        235, 235, 235), (235, 235, 235)
    assert looks_like_back(plain)
