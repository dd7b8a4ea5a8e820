"""Dice candidates and the crop features the learned classifier sees.

Shared by the reader (vision/dice.py) and the training script (vision/train/train_dice.py), so
that training and reading see exactly the same crops.

Candidates: the colour distance of each pixel from a smooth background estimate, then a
centre-surround box response at a few die sizes; every local maximum is a candidate centre with
a size. Most candidates are dice; the classifier's "none" class throws the rest away (tray
walls, screw holes, shadows, crumbs).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.quantiles import twice_median

FloatImage = NDArray[Any]
WORK_SIZE = 640  # the reader works on images whose longer side is this (dice ~25-55 px)
SCALES = (22, 27, 33, 40, 48, 58)  # candidate die sizes in working pixels
CROP = 48  # classifier crop side (pixels)
CROP_FACTOR = 1.5  # crop side / candidate size (1.8 before: more of the crop is die now)


@dataclass(frozen=True)
class Candidate:
    x: float
    y: float
    size: float
    response: float


# the square of each channel's difference, looked up (one table for the three channels:
# twice as fast as one per channel), then summed with weights L, a, b: chroma counts twice
_SQUARES = (np.arange(256, dtype=np.float32) ** 2)[None, :]
_SUM = np.array([[1.0, 2.0, 2.0]], np.float32)


def background_distance(lab: NDArray[Any]) -> FloatImage:
    """Per-pixel colour distance from a median-filtered background (dice are small)."""
    h, w = lab.shape[:2]
    # on the largest part whose sides are multiples of 8 (OpenCV's block average is four
    # times faster there than at a fractional factor), the last few rows and columns copied
    h8, w8 = max(h // 8, 8) * 8, max(w // 8, 8) * 8
    if h8 > h or w8 > w:  # an image under 64 pixels: stretched instead
        h8, w8 = h, w
    small = cv2.resize(lab[:h8, :w8], (max(w // 8, 8), max(h // 8, 8)),
                       interpolation=cv2.INTER_AREA)
    bg = cv2.medianBlur(small, 9)
    bg = cv2.resize(bg, (w8, h8), interpolation=cv2.INTER_LINEAR)
    bg = cv2.copyMakeBorder(bg, 0, h - h8, 0, w - w8, cv2.BORDER_REPLICATE)
    # the differences are whole numbers, so their weighted squares come from a table, exactly
    # (sums of whole numbers below 2 ** 24 in float32): a fifth faster than squaring floats
    squares = cv2.transform(cv2.LUT(cv2.absdiff(lab, bg), _SQUARES), _SUM)
    dist: FloatImage = cv2.sqrt(squares)
    return dist


FIXED = 64  # fixed-point steps per unit of colour distance (fast=True)


def candidates(dist: FloatImage, threshold: float = 6.0, limit: int = 120, peak: int = 7,
               scales: tuple[int, ...] = SCALES, fast: bool = False) -> list[Candidate]:
    """Peaks of the centre-surround response. ``fast`` box-filters the distance as 16-bit
    fixed point (1/64 steps), twice as fast as float and within a rounding of it; the reader
    uses it, training keeps the float figures its weights were made from."""
    source = dist
    if fast:
        source = np.empty(dist.shape, np.uint16)
        np.multiply(np.minimum(dist, 65535 / FIXED), FIXED, out=source, casting="unsafe")
    # each size's response is kept, and the size of a peak is read off at the peaks only:
    # marking the best size at every pixel (a masked write per size) cost about as much as
    # the box filters. Of sizes that tie, the first wins, as before
    response = np.empty((len(scales), *dist.shape), np.float32)
    outer = np.empty(dist.shape, np.float32)
    for i, k in enumerate(scales):
        cv2.boxFilter(source, cv2.CV_32F, (k, k), dst=response[i])
        cv2.boxFilter(source, cv2.CV_32F, (2 * k, 2 * k), dst=outer,
                      borderType=cv2.BORDER_REFLECT)
        # the box minus the mean of the ring around it is 4/3 (inner - outer): the factor is
        # applied once, at the end
        cv2.subtract(response[i], outer, dst=response[i])
    best = response[0].copy()
    for i in range(1, len(scales)):
        cv2.max(best, response[i], dst=best)
    best *= 4 / 3 / FIXED if fast else 4 / 3
    # the local maxima above the threshold, in OpenCV calls (numpy's nonzero alone cost more
    # than all of them); in row order, as np.nonzero gives them
    peaks = cv2.bitwise_and(
        cv2.compare(best, cv2.dilate(best, np.ones((peak, peak), np.uint8)), cv2.CMP_EQ),
        (best > threshold).view(np.uint8))
    found = cv2.findNonZero(peaks)
    if found is None:
        return []
    xs, ys = found.reshape(-1, 2).T  # (n, 1, 2) or (n, 2) by OpenCV version
    order = np.argsort(-best[ys, xs])[:limit]
    ys, xs = ys[order], xs[order]
    size = np.asarray(scales)[response[:, ys, xs].argmax(axis=0)]
    return [Candidate(float(x), float(y), float(k), float(best[y, x]))
            for x, y, k in zip(xs, ys, size, strict=True)]


def crop(image: NDArray[Any], x: float, y: float, size: float, angle: float = 0.0,
         flip: bool = False, side: int = CROP) -> NDArray[Any]:
    """A side x side crop centred on (x, y) spanning CROP_FACTOR * size, optionally rotated."""
    span = CROP_FACTOR * size
    scale = side / span
    m = cv2.getRotationMatrix2D((x, y), angle, scale)
    m[0, 2] += side / 2 - x
    m[1, 2] += side / 2 - y
    out = cv2.warpAffine(image, m, (side, side), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    if flip:
        out = np.ascontiguousarray(out[:, ::-1])
    return out


@functools.lru_cache(maxsize=8)
def _cell_index(h: int, w: int, cell: int) -> NDArray[Any]:
    cy, cx = np.indices((h, w))
    index: NDArray[Any] = (cy // cell) * (w // cell) + (cx // cell)
    return index


def hog(channel: NDArray[Any] | FloatImage, cell: int = 8, bins: int = 9) -> FloatImage:
    """Histogram of oriented gradients (OpenCV 5 dropped HOGDescriptor from the main module)."""
    img = channel.astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy)
    b = (ang * (bins / np.pi)).astype(np.int32) % bins  # unsigned orientation
    h, w = img.shape
    cell_index = _cell_index(h, w, cell)
    n_cells = (h // cell) * (w // cell)
    flat = cell_index.ravel() * bins + b.ravel()
    hist = np.bincount(flat, weights=mag.ravel(), minlength=n_cells * bins)
    hist = hist.reshape(n_cells, bins).astype(np.float32)
    hist = np.sqrt(hist)
    out: FloatImage = (hist / (np.linalg.norm(hist) + 1e-3)).ravel()
    return out



def _standardise_many(channels: FloatImage) -> FloatImage:
    """Each of ``channels`` (n, h, w) less its mean, over its standard deviation + 4 (at
    once: a loop of cv2.meanStdDev calls, crop by crop, cost a thirtieth of a crowded
    frame); the sums in float64, as meanStdDev's."""
    mean = channels.mean(axis=(1, 2), dtype=np.float64)
    std = channels.std(axis=(1, 2), dtype=np.float64)
    out: FloatImage = ((channels - mean[:, None, None].astype(np.float32))
                       / (std[:, None, None] + 4.0).astype(np.float32))
    return out


_LAB_WEIGHTS = np.array([1.0, 2.0, 2.0], np.float32)  # chroma counts twice


_YY, _XX = np.indices((CROP, CROP)) - (CROP - 1) / 2
_DISC = (np.hypot(_XX, _YY) < CROP * 0.42).astype(np.float32)


NET_SIDE = 40  # 32 before: small dice keep their pips (val, 8 views: 96.8% -> 98.4%)


def net_input(patch_bgr: NDArray[Any], channels: int = 2) -> FloatImage:
    """The convolutional classifier's input for one crop (see net_inputs)."""
    out: FloatImage = net_inputs(patch_bgr[None], channels)[0]
    return out


def square_angles(patches: NDArray[Any]) -> NDArray[Any]:
    """Each crop's turn, in degrees, that sets its die square: the dominant gradient
    orientation modulo 90 degrees, weighed in a disc (contiguous uint8 crops, stacked)."""
    n = len(patches)
    grey = cv2.cvtColor(patches.reshape(n * CROP, CROP, 3), cv2.COLOR_BGR2GRAY)
    grey = grey.astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag, ang = cv2.cartToPolar(gx, gy)
    weight = (mag.reshape(n, CROP, CROP) * _DISC).reshape(n, -1)
    ang = ang.reshape(n, -1)
    s = (weight * np.sin(4 * ang)).sum(axis=1)
    c = (weight * np.cos(4 * ang)).sum(axis=1)
    angles = np.degrees(np.arctan2(s.astype(np.float64), c.astype(np.float64))) / 4
    return angles


def net_inputs(patches: NDArray[Any], channels: int = 2) -> FloatImage:
    """The convolutional classifier's inputs for CROP x CROP colour crops (n, CROP, CROP, 3):
    each die turned square, 40x40, in ``channels`` channels, each standardised: the grey
    level and the colour distance from the face, and for 4 the Lab a* and b* as well;
    (n, 40, 40, channels). The model file says which (ConvNet.channels).

    The crops are stacked into one tall image for the per-pixel steps, which gives the same
    figures as crop by crop (the Sobel rows that cross from one crop into the next lie outside
    the disc that weighs the orientation) in about half the time."""
    if channels not in (2, 4):
        raise ValueError(f"the dice network takes 2 or 4 input channels, not {channels}")
    n = len(patches)
    if n == 0:
        return np.zeros((0, NET_SIDE, NET_SIDE, channels), np.float32)
    patches = np.ascontiguousarray(patches, np.uint8)
    angles = square_angles(patches)
    # the die turned square (the dominant gradient orientation modulo 90 degrees), then 40x40
    turned = np.empty((n, CROP, CROP, 3), np.uint8)
    centre = ((CROP - 1) / 2, (CROP - 1) / 2)
    for i in range(n):
        m = cv2.getRotationMatrix2D(centre, float(angles[i]), 1.0)
        cv2.warpAffine(patches[i], m, (CROP, CROP), dst=turned[i], flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    # all crops shrunk in one call, stacked: a whole number of rows per crop on both sides
    # (48 -> 40), so each output row averages its own crop's rows, the same bytes as crop by
    # crop (tests/test_vision_dice_features_fast.py), a third of the time
    flat = cv2.resize(turned.reshape(n * CROP, CROP, 3), (NET_SIDE, n * NET_SIDE),
                      interpolation=cv2.INTER_AREA)
    grey40 = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab8 = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).reshape(n, NET_SIDE, NET_SIDE, 3)
    lab = lab8.astype(np.float32)
    grey40 = grey40.reshape(n, NET_SIDE, NET_SIDE)
    q = NET_SIDE // 4
    # np.median's figures of the centre's bytes (whole numbers or halves) from histograms
    face = twice_median(lab8[:, q : NET_SIDE - q, q : NET_SIDE - q].reshape(n, -1, 3)) / 2
    diff = lab - face.astype(np.float32)[:, None, None, :]
    contrast = np.sqrt((diff * diff) @ _LAB_WEIGHTS)
    planes = [grey40, contrast]
    if channels == 4:  # a* and b*: red pips on a dark die hardly show in the other two
        planes += [lab[..., 1], lab[..., 2]]
    out: FloatImage = np.stack([_standardise_many(p) for p in planes], axis=-1)
    return out
