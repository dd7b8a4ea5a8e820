"""open_disc gives cv2.morphologyEx's opening to the pixel, for the discs the card finder
uses and others, on masks and on grey images, at the image's edges too."""

import cv2
import numpy as np
import pytest

from vision.morph import close_disc, open_disc


def _masks(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    images = []
    for i in range(count):
        h, w = (int(v) for v in rng.integers(3, 160, 2))
        blurred = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0),
                                   float(rng.uniform(1, 8)))
        mask = (blurred > rng.uniform(0.4, 0.6)).astype(np.uint8) * 255
        images.append(mask if i % 3 else rng.integers(0, 256, (h, w)).astype(np.uint8))
    return images


@pytest.mark.parametrize("width", [17, 19, 25, 33, 41, 55])
def test_open_disc_is_opencvs(width: int) -> None:
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    for image in _masks(np.random.default_rng(width), 40):
        assert np.array_equal(open_disc(image, disc),
                              cv2.morphologyEx(image, cv2.MORPH_OPEN, disc))


def test_open_disc_on_a_view_and_other_kernels() -> None:
    rng = np.random.default_rng(2)
    frame = _masks(rng, 2)[1]
    frame = cv2.resize(frame, (300, 200), interpolation=cv2.INTER_NEAREST)
    view = frame[20:150, 30:280]  # a part of a larger picture, as _opened_cards opens
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (33, 33))
    assert np.array_equal(open_disc(view, disc), cv2.morphologyEx(view, cv2.MORPH_OPEN, disc))
    for kernel in (np.ones((21, 21), np.uint8), np.ones((9, 9), np.uint8),
                   cv2.getStructuringElement(cv2.MORPH_CROSS, (21, 21))):
        assert np.array_equal(open_disc(view, kernel),
                              cv2.morphologyEx(view, cv2.MORPH_OPEN, kernel))


@pytest.mark.parametrize("width", [17, 27, 33])
def test_close_disc_is_opencvs(width: int) -> None:
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    for image in _masks(np.random.default_rng(100 + width), 40):
        assert np.array_equal(close_disc(image, disc),
                              cv2.morphologyEx(image, cv2.MORPH_CLOSE, disc))
