"""A plain pip counter: blobs that differ in colour from the die face, counted.

It reads only a die crop (centred, the die filling the middle): the face colour is the median
of a central disc, pips are round blobs in a disc that holds every pip at any turn of the die,
and blobs touching that disc's rim (the table beyond the die's edges) are left out. On its
own it reads about two dice in three right on the validation photos, so the reader combines
its count with the learned classifier through a table P(count | value) measured on the
training photos.
"""

from __future__ import annotations

import functools
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_features import CROP_FACTOR
from vision.quantiles import twice_median


@functools.lru_cache(maxsize=4)
def _geometry(side: int) -> tuple[float, NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The expected die side, and the masks of the face's centre, of the disc that holds the
    pips and of that disc's rim, for crops ``side`` pixels across."""
    die = side / CROP_FACTOR * 1.2  # expected die side in pixels (size ratio 1.2)
    yy, xx = np.indices((side, side)) - (side - 1) / 2
    radius = np.hypot(xx, yy)
    disc = radius < 0.55 * die  # holds every pip at any turn of the die
    rim = (radius >= 0.55 * die - 1.5) & disc
    return die, radius < 0.4 * die, disc, rim


# floor(sqrt(s)) for s up to 255 ** 2: twice the colour distance, as a byte (255 above)
_SQRT = np.sqrt(np.arange(255 * 255 + 1, dtype=np.float64)).astype(np.uint8)


def _twice_distance(lab: NDArray[Any], centre: NDArray[Any]) -> NDArray[Any]:
    """Twice each pixel's colour distance (chroma counted twice) from the median colour of
    the ``centre`` pixels, as a byte (255 at most), for Lab crops (n, side, side, 3) of bytes.
    In whole numbers: the median of whole numbers is whole or a half, so 2 x (Lab - median)
    is whole, and twice the distance is the square root of a whole number, looked up. The
    same bytes as the float formula, in half the time."""
    twice_body = twice_median(lab[:, centre])
    steps = 2 * lab.astype(np.int32) - twice_body[:, None, None, :]
    steps *= steps
    squares = steps[..., 0] + 2 * (steps[..., 1] + steps[..., 2])
    out: NDArray[Any] = _SQRT[np.minimum(squares, len(_SQRT) - 1)]
    return out


def count_pips(patch_bgr: NDArray[Any]) -> int:
    return count_pips_many(patch_bgr[None])[0]


def count_pips_many(patches: NDArray[Any]) -> list[int]:
    """count_pips for each of n crops (n, side, side, 3): the colour steps for all at once,
    and the blobs of all crops found and measured in one call (_count_blobs; the same
    counts as one crop at a time, _count_blobs_plain, in less than half the time)."""
    if len(patches) == 0:
        return []
    return _count_blobs(_pip_distances(patches))


def _pip_distances(patches: NDArray[Any]) -> NDArray[Any]:
    """Twice each pixel's colour distance from the face, 0 outside the disc (n, side, side)."""
    n, side = len(patches), patches.shape[1]
    _, centre, disc, _ = _geometry(side)
    lab = cv2.cvtColor(np.ascontiguousarray(patches, np.uint8).reshape(n * side, side, 3),
                       cv2.COLOR_BGR2LAB).reshape(n, side, side, 3)
    dist_u8 = _twice_distance(lab, centre)
    dist_u8[:, ~disc] = 0
    return dist_u8


def _levels(dist_u8: NDArray[Any], disc: NDArray[Any]) -> list[float]:
    """Each crop's bar between face and pips: Otsu's over the disc, at least 50 (a floor
    that keeps grain on a blank face from becoming pips)."""
    inside = dist_u8[:, disc]
    return [max(cv2.threshold(row.reshape(-1, 1), 0, 255,
                              cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0], 50.0)
            for row in inside]


def _count_blobs(dist_u8: NDArray[Any]) -> list[int]:
    """The pips of each crop: the crops' masks stacked into one tall image and labelled in
    one call. No blob crosses from one crop into the next: the masks are 0 outside the disc,
    which keeps a few pixels from every side of its crop (_geometry), so each blob and its
    box and area are the same as crop by crop."""
    n, side = dist_u8.shape[:2]
    die, _, disc, rim = _geometry(side)
    # the bars are whole numbers (Otsu's on bytes, or 50): the pixels above them, as
    # cv2.threshold's binary mask gives them
    levels = np.array(_levels(dist_u8, disc))
    mask = (dist_u8 > levels[:, None, None]).view(np.uint8).reshape(n * side, side)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    touching = np.zeros(count, bool)
    touching[labels.reshape(n, side, side)[:, rim]] = True
    _x, y, w, h, area = stats[1:].T
    pip_area = (die * 0.09) ** 2 * np.pi
    pip = (~touching[1:] & (0.3 * pip_area <= area) & (area <= 3.0 * pip_area)
           & ~(np.maximum(w, h) > 2.2 * np.minimum(w, h)) & ~(area < 0.45 * w * h))
    return [int(v) for v in np.bincount(y[pip] // side, minlength=n)]


def _count_blobs_plain(dist_u8: NDArray[Any]) -> list[int]:
    """_count_blobs one crop at a time (the reader's way until 2026-11-27; tests compare)."""
    side = dist_u8.shape[1]
    die, _, disc, rim = _geometry(side)
    pip_area = (die * 0.09) ** 2 * np.pi
    counts = []
    for one in dist_u8:
        level, _ = cv2.threshold(one[disc].reshape(-1, 1), 0, 255,
                                 cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        # Otsu splits face from pips; a floor keeps grain on a blank face from becoming pips
        _, mask = cv2.threshold(one, max(level, 50.0), 255, cv2.THRESH_BINARY)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        edge = set(np.unique(labels[rim]).tolist())
        pips = 0
        for i in range(1, count):
            _x, _y, w, h, area = stats[i]
            if i in edge:
                continue  # touches the rim of the disc: the table beyond the die's edge
            if not 0.3 * pip_area <= area <= 3.0 * pip_area:
                continue
            if max(w, h) > 2.2 * min(w, h) or area < 0.45 * w * h:
                continue
            pips += 1
        counts.append(pips)
    return counts
