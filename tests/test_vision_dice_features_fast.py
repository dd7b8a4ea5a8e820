"""The dice network's inputs, found the fast way (all crops shrunk in one call, the face's
median from histograms), are the same bytes as crop by crop with np.median."""

import cv2
import numpy as np

from vision.dice_features import (
    _LAB_WEIGHTS,
    CROP,
    NET_SIDE,
    _standardise_many,
    crop,
    net_inputs,
    square_angles,
)
from vision.dice_photos import imread, photos_in


def _plain_net_inputs(patches: np.ndarray, channels: int) -> np.ndarray:
    """net_inputs as it was before issue 15's speed work (2026-11-27)."""
    n = len(patches)
    patches = np.ascontiguousarray(patches, np.uint8)
    angles = square_angles(patches)  # unchanged by the speed work
    small = np.empty((n, NET_SIDE, NET_SIDE, 3), np.uint8)
    centre = ((CROP - 1) / 2, (CROP - 1) / 2)
    for i in range(n):
        m = cv2.getRotationMatrix2D(centre, float(angles[i]), 1.0)
        turned = cv2.warpAffine(patches[i], m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
        cv2.resize(turned, (NET_SIDE, NET_SIDE), dst=small[i], interpolation=cv2.INTER_AREA)
    flat = small.reshape(n * NET_SIDE, NET_SIDE, 3)
    grey40 = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey40 = grey40.reshape(n, NET_SIDE, NET_SIDE)
    lab = lab.reshape(n, NET_SIDE, NET_SIDE, 3)
    q = NET_SIDE // 4
    face = np.median(lab[:, q : NET_SIDE - q, q : NET_SIDE - q].reshape(n, -1, 3), axis=1)
    diff = lab - face.astype(np.float32)[:, None, None, :]
    contrast = np.sqrt((diff * diff) @ _LAB_WEIGHTS)
    planes = [grey40, contrast]
    if channels == 4:
        planes += [lab[..., 1], lab[..., 2]]
    return np.stack([_standardise_many(p) for p in planes], axis=-1)


def test_net_inputs_are_the_plain_ones_on_photo_crops() -> None:
    photo = next(p for p in photos_in("test") if len(p.dice) >= 12)  # a crowded tray
    image = imread(photo.path)
    rng = np.random.default_rng(8)
    h, w = image.shape[:2]
    points = [(float(rng.uniform(30, w - 30)), float(rng.uniform(30, h - 30)),
               float(rng.uniform(15, 60))) for _ in range(300)]
    points += [((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2, d.size / 1.2)
               for d in photo.dice]  # the dice themselves
    patches = np.stack([crop(image, x, y, s) for x, y, s in points])
    for channels in (2, 4):
        for count in (1, 7, len(patches)):
            fast = net_inputs(patches[:count], channels)
            assert fast.dtype == np.float32
            assert np.array_equal(fast, _plain_net_inputs(patches[:count], channels))


def test_net_inputs_are_the_plain_ones_on_noise() -> None:
    rng = np.random.default_rng(9)
    patches = rng.integers(0, 256, (64, CROP, CROP, 3)).astype(np.uint8)
    patches[:16] = cv2.GaussianBlur(patches[:16].reshape(-1, CROP, 3), (7, 7), 0).reshape(
        16, CROP, CROP, 3)
    assert np.array_equal(net_inputs(patches, 4), _plain_net_inputs(patches, 4))


def test_near_any_is_near_point_by_point() -> None:
    from vision.dice import DiceReader, _near_any

    rng = np.random.default_rng(10)

    def some(most: int) -> list[tuple[float, float, float]]:
        rows = rng.uniform((0, 0, 10), (200, 200, 40), (int(rng.integers(0, most)), 3))
        return [(float(x), float(y), float(s)) for x, y, s in rows]

    for _ in range(50):
        points, dice = some(30), some(12)
        assert _near_any(points, dice) == [DiceReader._near(p, dice) for p in points]
