"""Whether an upright card face (as straighten gives it) looks like a card's back: the same
all over. A back is a pattern repeating across the card (a lattice, dots, tartan lines) or
one plain colour; a face always has paper left blank between its pips, or a picture whose
parts differ in colour. The inner part of the card (the indices and a back's border left
out) is cut into cells: a back's cells have nearly one mean colour, and each either carries
the pattern's texture or all are plain.

The rank network's back class was trained on made-up backs and a few real ones, and missed
most of a back of thin tartan lines on white (issue 15, atlas-german-index): this test is
asked besides it, only where the corners give no sure reading.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

INSET = 0.15  # of the face's width and height: past the indices and a back's border
# chosen on validation scenes (seeds 6,000,000..6,000,011 and 6,000,100..6,000,119, the five
# designs with backs, normal and dim light; and the tartan back of 6,000,020): every back's
# cell means (Lab) lay within 17 of their median in 6 x 4 cells (22 for that tartan, whose
# wide period spreads small cells) and within 10.4 in 4 x 3 cells; no face whose cells all
# have texture (9s, 8s: pips in every cell) came within 14 in 4 x 3 cells and 35 in 6 x 4
FINE, COARSE = (6, 4), (4, 3)  # rows, columns
FINE_SPREAD, COARSE_SPREAD = 30.0, 12.0
TEXTURE = 8.0  # every fine cell's lightness varies this much (std) on a patterned back
PLAIN = 5.0  # fine cells this close together: one plain colour (no face is)
BORDER = 20.0  # a plain back's border differs this much from its middle (Lab)
FRAMED = 0.2  # of the band outside the middle: a border


def _means(inner: NDArray[Any], grid: tuple[int, int]) -> NDArray[Any]:
    """Per cell of a rows x columns grid, the mean of each channel (one row per cell)."""
    rows, cols = grid
    h, w = inner.shape[:2]
    cut = inner[:h - h % rows, :w - w % cols]
    out: NDArray[Any] = cv2.resize(cut, (cols, rows), interpolation=cv2.INTER_AREA).reshape(
        rows * cols, -1)
    return out


def _spread(means: NDArray[Any]) -> float:
    return float(np.linalg.norm(means - np.median(means, axis=0), axis=1).max())


def looks_like_back(face: NDArray[Any]) -> bool:
    h, w = face.shape[:2]
    if h < 40 or w < 40:
        return False
    y0, x0 = int(h * INSET), int(w * INSET)
    inner = cv2.cvtColor(np.ascontiguousarray(face[y0:h - y0, x0:w - x0]),
                         cv2.COLOR_BGR2LAB).astype(np.float32)
    spread = _spread(_means(inner, FINE))
    if spread < PLAIN:  # one colour: a back only if a border frames it (a table does not)
        lab = cv2.cvtColor(np.ascontiguousarray(face), cv2.COLOR_BGR2LAB).astype(np.float32)
        ring = np.ones((h, w), bool)
        ring[y0:h - y0, x0:w - x0] = False
        colour = inner.reshape(-1, 3).mean(axis=0)
        unlike = np.linalg.norm(lab[ring] - colour, axis=1) > BORDER
        return float(unlike.mean()) > FRAMED
    if spread >= FINE_SPREAD or _spread(_means(inner, COARSE)) >= COARSE_SPREAD:
        return False
    light = inner[..., 0]
    mean, square = _means(light[..., None], FINE)[:, 0], _means((light * light)[..., None],
                                                                 FINE)[:, 0]
    return float(np.sqrt(np.maximum(square - mean * mean, 0)).min()) > TEXTURE
