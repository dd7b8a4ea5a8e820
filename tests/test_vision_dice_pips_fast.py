"""The pip counter's blobs, found for all crops in one labelling (issue 15, 2026-11-27), are
counted the same as crop by crop."""

import cv2
import numpy as np

from vision.dice_features import crop
from vision.dice_photos import imread, photos_in
from vision.pips import _count_blobs, _count_blobs_plain, _pip_distances, count_pips_many


def test_blobs_are_counted_as_crop_by_crop_on_photo_crops() -> None:
    photo = next(p for p in photos_in("test") if len(p.dice) >= 12)  # a crowded tray
    image = imread(photo.path)
    rng = np.random.default_rng(11)
    h, w = image.shape[:2]
    # the dice, off centre by up to half a die (neighbours' pips cross the disc's rim), and
    # random places of the tray
    points = [((d.box[0] + d.box[2]) / 2 + dx * d.size, (d.box[1] + d.box[3]) / 2, d.size / 1.5)
              for d in photo.dice for dx in (0.0, 0.25, -0.5)]
    points += [(float(rng.uniform(30, w - 30)), float(rng.uniform(30, h - 30)),
                float(rng.uniform(15, 50))) for _ in range(100)]
    patches = np.stack([crop(image, x, y, s, side=64) for x, y, s in points])
    dist = _pip_distances(patches)
    counts = _count_blobs(dist)
    assert counts == _count_blobs_plain(dist)
    assert count_pips_many(patches) == counts
    assert sum(c > 0 for c in counts[: len(photo.dice)]) >= len(photo.dice) // 2  # pips seen
    assert _count_blobs(dist[:1]) == counts[:1]


def test_blobs_are_counted_as_crop_by_crop_on_noise() -> None:
    rng = np.random.default_rng(12)
    patches = rng.integers(0, 256, (60, 64, 64, 3)).astype(np.uint8)
    # blurred noise makes blobs of every size and shape, some on the disc's rim
    for blur in (5, 9, 13):
        patches[blur : blur + 15] = cv2.GaussianBlur(
            patches[blur : blur + 15].reshape(-1, 64, 3), (blur, blur), 0).reshape(15, 64, 64, 3)
    dist = _pip_distances(patches)
    assert _count_blobs(dist) == _count_blobs_plain(dist)
    assert count_pips_many(patches[:0]) == []
