"""The near look (DiceReader.near_look, issue 15): a small die whose peak sits on its shadow."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.dice_setups import photo_number
from vision.dice import NEAR_LOOK_SHIFT, DiceReader, near_points
from vision.dice_photos import imread
from vision.dice_setups import photos_of


def test_near_points_only_beside_plausible_smallest_peaks() -> None:
    points = [(100.0, 50.0, 22.0), (200.0, 50.0, 27.0), (300.0, 50.0, 22.0)]
    probs = np.array([[0.5, 0.5, 0, 0, 0, 0, 0],  # P(die) 0.5, the smallest size: looked at
                      [0.1, 0.9, 0, 0, 0, 0, 0],  # a larger size: not
                      [0.95, 0.05, 0, 0, 0, 0, 0]])  # P(die) 0.05: not
    near = near_points(points, probs, 22.0)
    d = NEAR_LOOK_SHIFT * 22
    assert sorted(near) == sorted([(100 + d, 50.0, 22.0), (100 - d, 50.0, 22.0),
                                   (100.0, 50 + d, 22.0), (100.0, 50 - d, 22.0)])


def test_photo_number_splits_odd_and_even() -> None:
    assert photo_number("paper-007.jpg") == 7
    assert photo_number("paper-012.jpg") % 2 == 0
    assert photo_number("tray.jpg") == -1


def _points_read(reader: DiceReader, image: Any, monkeypatch: pytest.MonkeyPatch
                 ) -> list[tuple[float, float]]:
    """Every point the reader reads a crop at, in input pixels (all levels)."""
    seen: list[tuple[int, list[Any]]] = []
    inputs = DiceReader._inputs

    def record(self: DiceReader, work: Any, points: list[Any]) -> Any:
        seen.append((work.shape[1], list(points)))
        return inputs(self, work, points)

    monkeypatch.setattr(DiceReader, "_inputs", record)
    working = reader.working(image)
    assert working is not None
    full, factor, left, top = working
    reader.read(image)
    monkeypatch.setattr(DiceReader, "_inputs", inputs)
    return [(x * full.shape[1] / w / factor + left, y * full.shape[1] / w / factor + top)
            for w, points in seen for x, y, _ in points]


def test_near_look_reads_a_die_whose_peak_is_on_its_shadow(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    # paper-007 (an odd photo, looked at when tuning): a small white die on white paper whose
    # dark shadow above it takes the peak, 0.8 die sides off its face
    photo = next(p for p in photos_of("paper") if p.name == "paper-007.jpg")
    die = photo.dice[0]
    image = imread(photo.path)
    reader = DiceReader.load()

    def covered(points: list[tuple[float, float]]) -> bool:
        return any(np.hypot(x - die.centre[0], y - die.centre[1]) < 0.35 * die.size
                   for x, y in points)

    assert not covered(_points_read(reader, image, monkeypatch))
    reader.near_look = True
    assert covered(_points_read(reader, image, monkeypatch))
