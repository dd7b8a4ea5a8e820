"""The card reader's fast percentiles give np.percentile's figures, to the bit."""

import numpy as np

from vision.quantiles import byte_percentile, float_percentile


def test_byte_percentile_is_numpys() -> None:
    rng = np.random.default_rng(3)
    for i in range(300):
        n = 7168 if i % 2 else int(rng.integers(1, 5000))
        lo, hi = sorted(int(v) for v in rng.integers(0, 256, 2))
        values = rng.integers(lo, hi + 1, (n, 3)).astype(np.uint8)
        for q in (85, 20, 99.7, 0, 100):
            expected = np.percentile(values, q, axis=0)
            got = byte_percentile(values, q)
            assert got.dtype == expected.dtype
            assert np.array_equal(got, expected), (n, q)


def test_float_percentile_is_numpys() -> None:
    rng = np.random.default_rng(4)
    for i in range(300):
        values = rng.normal(size=(int(rng.integers(1, 120)), 64)) * 80
        if i % 3 == 0:
            values = np.round(values)  # ties, as a card's ink has many
        for q in (20, 85, 50, 0, 100):
            assert float_percentile(values, q) == np.percentile(values, q)


def test_byte_percentile_takes_other_types_as_numpy_does() -> None:
    values = np.random.default_rng(5).random((50, 3)) * 300
    assert np.array_equal(byte_percentile(values, 85), np.percentile(values, 85, axis=0))
