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


def _plain_table_model(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """vision.card_shapes._table_model as it was before issue 15's speed work (np.median)."""
    rim = np.concatenate([lab[:8].reshape(-1, 3), lab[-8:].reshape(-1, 3),
                          lab[:, :8].reshape(-1, 3), lab[:, -8:].reshape(-1, 3)]).astype(
                              np.float32)
    rim = np.ascontiguousarray(rim.T)
    table = np.median(rim, axis=1)
    spread = np.median(np.abs(rim - table[:, None]), axis=1) * 1.48 + 3.0
    values = np.arange(256, dtype=np.float32)[:, None]
    lut = (((values - table) / spread) ** 2).astype(np.float32).reshape(256, 1, 3)
    return lut, float(table[0] + 3 * spread[0])


def test_table_model_is_the_plain_one() -> None:
    from vision.card_shapes import _table_model

    rng = np.random.default_rng(6)
    for i in range(200):
        h, w = (int(v) for v in rng.integers(17, 200, 2))
        lo, hi = sorted(int(v) for v in rng.integers(0, 256, 2))
        lab = rng.integers(lo, hi + 1, (h, w, 3)).astype(np.uint8)
        if i % 5 == 0:
            lab[:] = lab[:1, :1]  # one colour: no spread
        lut, pale = _table_model(lab)
        plain_lut, plain_pale = _plain_table_model(lab)
        assert lut.dtype == plain_lut.dtype and np.array_equal(lut, plain_lut)
        assert pale == plain_pale


def test_table_distance_is_the_three_channel_lookup() -> None:
    """table_distance (three one-channel lookups, added) gives the bits of the lookup into
    three channels summed by cv2.transform, on real card-art frames and random pictures."""
    import cv2

    from vision.card_art import TABLES, art_scene, load_deck
    from vision.card_shapes import _table_model, table_distance

    rng = np.random.default_rng(7)
    pictures = [art_scene(np.random.default_rng(700 + i), [load_deck("neoclassical")],
                          size=(480, 270), count=2, kind=TABLES[i]).image
                for i in range(len(TABLES))]
    pictures += [rng.integers(0, 256, (int(h), int(w), 3)).astype(np.uint8)
                 for h, w in rng.integers(17, 120, (20, 2))]
    for picture in pictures:
        lab = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB)
        lut, _ = _table_model(lab)
        plain = cv2.transform(cv2.LUT(lab, lut), np.ones((1, 3), np.float32))
        got = table_distance(lab, lut)
        assert got.dtype == np.float32 and got.shape == lab.shape[:2]
        assert np.array_equal(got, plain)


def test_balance_is_the_three_channel_lookup() -> None:
    """balance's channel-by-channel lookup gives the bytes of the three-table lookup."""
    import cv2

    from vision.card_shapes import MOST_GAIN, WHITE_SHARE, WHITE_TARGET, balance

    rng = np.random.default_rng(8)
    changed = 0
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(8, 150, 2))
        top = rng.integers(40, 256, 3)  # a cast and a dimness of its own
        image = (rng.random((h, w, 3)) * top).astype(np.uint8)
        got = balance(image)
        white = np.percentile(image[::4, ::4].reshape(-1, 3), 100 - WHITE_SHARE, axis=0)
        gains = np.clip(WHITE_TARGET / np.maximum(white, 1.0), 1.0, MOST_GAIN)
        if np.all(gains < 1.03):
            assert got is image
            continue
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains, 0, 255).astype(
            np.uint8)
        assert np.array_equal(got, cv2.LUT(image, lut.reshape(256, 1, 3)))
        changed += 1
    assert changed > 30
