"""A plain pip counter: blobs that differ in colour from the die face, counted.

It reads only a die crop (centred, the die filling the middle): the face colour is the median
of a central disc, pips are round blobs in a disc that holds every pip at any turn of the die,
and blobs touching that disc's rim (the table beyond the die's edges) are left out. On its
own it reads about two dice in three right on the validation photos, so the reader combines
its count with the learned classifier through a table P(count | value) measured on the
training photos.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_features import CROP_FACTOR


def count_pips(patch_bgr: NDArray[Any]) -> int:
    side = patch_bgr.shape[0]
    die = side / CROP_FACTOR * 1.2  # expected die side in pixels (size ratio 1.2)
    yy, xx = np.indices((side, side)) - (side - 1) / 2
    radius = np.hypot(xx, yy)
    disc = radius < 0.55 * die  # holds every pip at any turn of the die
    lab = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    body = np.median(lab[radius < 0.4 * die], axis=0)
    dist = np.sqrt(((lab - body) ** 2 * (1.0, 2.0, 2.0)).sum(axis=2))
    dist_u8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    dist_u8[~disc] = 0
    level, _ = cv2.threshold(dist_u8[disc].reshape(-1, 1), 0, 255,
                             cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu splits face from pips; a floor keeps grain on a blank face from becoming pips
    _, mask = cv2.threshold(dist_u8, max(level, 50.0), 255, cv2.THRESH_BINARY)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    edge = set(np.unique(labels[(radius >= 0.55 * die - 1.5) & disc]).tolist())
    pip_area = (die * 0.09) ** 2 * np.pi
    count = 0
    for i in range(1, n):
        _x, _y, w, h, area = stats[i]
        if i in edge:
            continue  # touches the rim of the disc: the table beyond the die's edge
        if not 0.3 * pip_area <= area <= 3.0 * pip_area:
            continue
        if max(w, h) > 2.2 * min(w, h) or area < 0.45 * w * h:
            continue
        count += 1
    return count
