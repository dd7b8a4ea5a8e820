"""Extra candidate centres from the players' pips (``calibrate dice``, issue 15).

The finder's candidates are blobs of colour far from the estimated background: a grey die on
a grey floor, or a dark die by a dark vignette, makes none, though its pips stand out. Here
the pips are found as small blobs of either polarity (the determinant of the Hessian of the
lightness at the pips' scale: positive on a spot, about 0 on an edge or a line), and the
map is blurred over a die's face so that a die's pips, laid out symmetrically about its
centre, peak at the centre. Peaks at least ``bar`` strong become candidate centres of the
die's size, read by the same network (P(die) judges them). The bar is learned from the
confirmed dice (the players' pips' contrast): vision/dice_learn.py learn_pips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

PIP_SIGMA = 1.5 / 32  # the pips' blob scale, in die sides (a pip is about a sixth of a side)
PIP_BLUR = 0.22  # the blur over the face, in die sides (chosen on the close-ups' val half)
PIP_WINDOW = 0.5  # a peak is the largest in a square this many die sides across
NEW_REACH = 0.35  # a peak this near (die sides) a finder's candidate adds nothing


def pip_map(work: NDArray[Any], side: float) -> NDArray[Any]:
    """The blurred pip response of a working image (BGR) whose dice are ``side`` pixels
    across: scale-normalised, so the same die reads alike at any zoom."""
    sigma = PIP_SIGMA * side
    light = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    smooth = cv2.GaussianBlur(light, (0, 0), sigma)
    xx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)
    yy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)
    xy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)
    spots = np.sqrt(np.maximum(xx * yy - xy * xy, 0)) * sigma * sigma / 10
    out: NDArray[Any] = cv2.GaussianBlur(spots, (0, 0), PIP_BLUR * side)
    return out


def map_at(response: NDArray[Any], x: float, y: float) -> float:
    """The map at a point (0 outside)."""
    h, w = response.shape
    col, row = round(x), round(y)
    return float(response[row, col]) if 0 <= row < h and 0 <= col < w else 0.0


@dataclass(frozen=True)
class PipPoints:
    """DiceReader.propose: pip-map peaks at least ``bar`` strong, away from the finder's
    candidates."""

    bar: float

    def __call__(self, work: NDArray[Any], side: float,
                 known: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
        response = pip_map(work, side)
        window = max(3, round(PIP_WINDOW * side) | 1)
        top = cv2.dilate(response, np.ones((window, window), np.uint8))
        rows, cols = np.nonzero((response >= top) & (response >= self.bar))
        size = side / 1.2  # the candidate size a die of that side reads at
        out: list[tuple[float, float, float]] = []
        for x, y in zip(cols.tolist(), rows.tolist(), strict=True):
            if not any(np.hypot(x - kx, y - ky) < NEW_REACH * side for kx, ky, _ in known):
                out.append((float(x), float(y), size))
        return out
