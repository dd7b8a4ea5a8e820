"""np.percentile's figures (its default, linear method), found faster for the small arrays
the card reader takes them of: a histogram for bytes, a partition for floats. The same
order statistics and the same interpolation as numpy's, so the same bits
(tests/test_vision_quantiles.py compares them)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


def _between(a: NDArray[Any], b: NDArray[Any], gamma: float) -> NDArray[Any]:
    """numpy's _lerp: from the nearer of the two order statistics."""
    diff = b - a
    if gamma >= 0.5:
        out: NDArray[Any] = b - diff * (1 - gamma)
        return out
    out = a + diff * gamma
    return out


def _ranks(n: int, q: float) -> tuple[int, int, float]:
    virtual = (n - 1) * (q / 100)
    below = int(np.floor(virtual))
    return below, min(below + 1, n - 1), float(virtual - below)


def byte_percentile(values: NDArray[Any], q: float) -> NDArray[Any]:
    """np.percentile(values, q, axis=0) of uint8 values (n, channels): float64 (channels,)."""
    if values.dtype != np.uint8:
        return np.asarray(np.percentile(values, q, axis=0), np.float64)
    n, channels = values.shape
    below, above, gamma = _ranks(n, q)
    a, b = np.empty(channels), np.empty(channels)
    for c in range(channels):
        cumulative = np.bincount(values[:, c], minlength=256).cumsum()
        # the value of rank k (from 0) is the first whose cumulative count exceeds k
        a[c], b[c] = np.searchsorted(cumulative, (below, above), side="right")
    return _between(a, b, gamma)


def float_percentile(values: NDArray[Any], q: float) -> float:
    """np.percentile(values, q) of a float array (no NaN), over all its values."""
    flat = values.ravel()
    below, above, gamma = _ranks(flat.size, q)
    part = np.partition(flat, (below, above))
    return float(_between(part[below], part[above], gamma))


def byte_median_spread(values: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Per channel of uint8 values (n, channels), as float32 figures: the median, and the
    median of the values' distances from it; the same as np.median of the values as float32
    and of their absolute differences from that median (whole and half numbers below 256,
    so that their means of two are exact), from histograms instead of partitions."""
    n, channels = values.shape
    middle = ((n - 1) // 2, n // 2)  # the one or two middle ranks np.median averages
    median = np.empty(channels, np.float32)
    spread = np.empty(channels, np.float32)
    doubled = 2 * np.arange(256)
    for c in range(channels):
        counts = np.bincount(values[:, c], minlength=256)
        low, high = np.searchsorted(counts.cumsum(), middle, side="right")
        median[c] = (low + high) / 2
        # twice each value's distance from the median: a whole number
        far = np.bincount(np.abs(doubled - (low + high)), weights=counts, minlength=512)
        a, b = np.searchsorted(far.cumsum(), middle, side="right")
        spread[c] = (a + b) / 4
    return median, spread


def twice_median(values: NDArray[Any]) -> NDArray[Any]:
    """Twice the median of each row's bytes per channel, (n, m, c) -> (n, c) whole numbers:
    from the rows' histograms (np.median sorts a copy of each row)."""
    n, m, c = values.shape
    offsets = (np.arange(n * c) * 256).reshape(n, 1, c)
    hist = np.bincount((values + offsets).ravel(), minlength=n * c * 256)
    below = np.cumsum(hist.reshape(n, c, 256), axis=2)
    low = (below > (m - 1) // 2).argmax(axis=2)  # the middle value, or the lower of two
    high = (below > m // 2).argmax(axis=2)
    twice: NDArray[Any] = (low + high).astype(np.int32)
    return twice
