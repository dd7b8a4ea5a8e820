"""The rendered die crops (vision/train/dice_render.py): the layouts, a plain rendered die
read by the pip counter, and the same crops from the same seed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice_features import CROP
from vision.pips import count_pips
from vision.train.dice_render import SUPER, Backgrounds, Style, draw_die, layout, rendered


@pytest.mark.parametrize("value", range(1, 7))
def test_layouts_hold_the_value_in_pips(value: int) -> None:
    for turned in (False, True):
        pips = layout(value, turned)
        assert len(pips) == len(set(pips)) == value
        assert all(max(abs(x), abs(y)) <= 1 for x, y in pips)
    # 2, 3 and 6 are drawn both ways round; the others look the same turned a quarter
    assert (set(layout(value)) != set(layout(value, True))) == (value in (2, 3, 6))


def _plain(value: int, seed: int) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """A white die with round black pips, seen from above on a grey table, at the crop
    geometry (its box spans the crop)."""
    side = CROP * SUPER
    canvas = np.full((side, side, 3), 110.0, np.float32)
    st = Style(face=np.array([235.0, 235, 235]), pip=np.array([20.0, 20, 20]), alpha=1.0,
               marble=0.0, corner=0.15, spacing=0.27, radius=0.09, oval=1.0, kind="dot",
               side_shade=0.6)
    pips = draw_die(canvas, value, side / 2, side / 2, side, np.random.default_rng(seed), st,
                    max_tilt=0.0, shadow=False)
    small = cv2.resize(np.clip(canvas, 0, 255), (64, 64), interpolation=cv2.INTER_AREA)
    return small.astype(np.uint8), pips


@pytest.mark.parametrize("value", range(1, 7))
def test_a_plain_rendered_die_shows_its_value(value: int) -> None:
    for seed in range(3):
        patch, pips = _plain(value, seed)
        assert len(pips) == value
        assert all(0 < x < CROP * SUPER and 0 < y < CROP * SUPER for x, y in pips)
        assert count_pips(patch) == value


def test_rendered_crops_are_the_same_from_the_same_seed() -> None:
    def make(seed: int) -> tuple[list[np.ndarray], list[int]]:
        rng = np.random.default_rng(seed)
        table = np.full((120, 160, 3), 90, np.uint8)
        table[:, 80:] = (40, 120, 30)
        boxes = np.array([[10.0, 10, 40, 40]])
        return rendered(40, rng, Backgrounds([(table, boxes)], rng, count=10))

    xs, ys = make(3)
    again, labels = make(3)
    other, _ = make(4)
    assert ys == labels and all(np.array_equal(a, b) for a, b in zip(xs, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(xs, other, strict=True))
    assert all(x.shape == (CROP, CROP, 3) and x.dtype == np.uint8 for x in xs)
    assert set(ys) <= set(range(7)) and 0 in ys and len(set(ys)) > 3
