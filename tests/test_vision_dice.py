"""The dice reader on the held-out real photos, and the pieces it is built from."""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest

from vision.dice import MODEL_PATH, DiceReader, Die
from vision.dice_eval import evaluate, match
from vision.dice_photos import (
    DATA_DIR,
    LabelledDie,
    Photo,
    imread,
    load_photos,
    make_split,
    read_split,
)
from vision.pips import count_pips

# Measured on the test split when the model was trained (docs/vision.md); the test guards
# against regressions. The target is 0.97 per die.
TEST_PER_DIE_FLOOR = 0.93
TEST_PER_PHOTO_FLOOR = 0.70


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader.load()


def test_photos_and_labels_are_all_there() -> None:
    photos = load_photos()
    assert len(photos) == 200
    assert sum(len(p.dice) for p in photos) == 1487
    assert all(p.path.is_file() for p in photos)
    assert (DATA_DIR / "LICENSE").is_file()


def test_split_file_is_fixed_disjoint_and_by_photo() -> None:
    split = read_split()
    assert split == make_split(list(split))  # the file is what the documented rule gives
    counts = {part: sum(1 for v in split.values() if v == part) for part in ("train", "val",
                                                                              "test")}
    assert counts == {"train": 140, "val": 30, "test": 30}
    with (DATA_DIR / "split.csv").open() as handle:
        names = [row["filename"] for row in csv.DictReader(handle)]
    assert len(names) == len(set(names)) == 200


def test_model_is_small_and_loads_offline() -> None:
    assert MODEL_PATH.stat().st_size < 2_000_000
    net = DiceReader.load().net
    assert net.classes == ("none", "1", "2", "3", "4", "5", "6")


def test_accuracy_on_held_out_photos(reader: DiceReader) -> None:
    photos = [p for p in load_photos() if read_split()[p.name] == "test"]
    score = evaluate(reader, photos)
    print(score.summary())
    assert score.labelled == 240
    assert score.die_accuracy >= TEST_PER_DIE_FLOOR, score.summary()
    assert score.photo_accuracy >= TEST_PER_PHOTO_FLOOR, score.summary()


def test_every_error_on_held_out_photos_is_asked_about(reader: DiceReader) -> None:
    """Unsure, it says so: a wrong value or a die that is not there never comes with a
    confidence of 0.9 or more (the session confirms anything below)."""
    told = []
    for photo in [p for p in load_photos() if read_split()[p.name] == "test"]:
        dice = reader.read(imread(photo.path))
        for die in dice:
            if die.confidence < 0.9:
                continue
            near = sorted((float(np.hypot(die.x - label.centre[0], die.y - label.centre[1])),
                           label.value) for label in photo.dice)
            if not near or near[0][0] > 0.5 * die.size or near[0][1] != die.value:
                told.append((photo.name, die))
    assert told == []


def test_scoring_counts_missed_and_spurious_dice_as_errors() -> None:
    photo = Photo(DATA_DIR / "x.jpg", (LabelledDie(3, (0, 0, 40, 40)),
                                       LabelledDie(5, (100, 0, 140, 40))))
    read = [Die(3, 21, 19, 40, 0.99), Die(6, 300, 300, 40, 0.99)]
    assert match(photo, read) == (1, 0, 1, 1)  # one right, one missed, one spurious
    read = [Die(3, 21, 19, 40, 0.99), Die(4, 118, 22, 40, 0.99)]
    assert match(photo, read) == (1, 1, 0, 0)
    read = [Die(3, 21, 19, 40, 0.99), Die(3, 25, 19, 40, 0.99)]  # counted twice
    assert match(photo, read) == (1, 0, 1, 1)


def test_blank_table_has_no_dice(reader: DiceReader) -> None:
    table = np.full((480, 640, 3), 200, np.uint8)
    table += np.random.default_rng(0).integers(0, 4, table.shape, dtype=np.uint8)
    assert reader.read(table) == []


def test_tray_area_ignores_dice_outside(reader: DiceReader) -> None:
    photo = next(p for p in load_photos() if read_split()[p.name] == "test")
    image = cv2.imread(str(photo.path))
    everything = reader.read(image)
    reader.area = (0, 0, 320, 640)
    try:
        left = reader.read(image)
    finally:
        reader.area = None
    assert all(d.x <= 320 for d in left)
    assert len(left) == sum(1 for d in everything if d.x <= 320)


def test_reader_refuses_what_is_not_a_colour_image(reader: DiceReader) -> None:
    with pytest.raises(ValueError, match="colour image"):
        reader.read(np.zeros((480, 640), np.uint8))


def _drawn_face(value: int, angle: float) -> np.ndarray:
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    img = np.full((64, 64, 3), 200, np.uint8)
    side = 64 / 1.8 * 1.2  # the die side the pip counter expects in its crop
    c = 32
    cv2.rectangle(img, (int(c - side / 2), int(c - side / 2)), (int(c + side / 2),
                  int(c + side / 2)), (40, 40, 180), -1)
    for dx, dy in spots:
        cv2.circle(img, (int(c + dx * side * 0.28), int(c + dy * side * 0.28)),
                   max(2, int(side * 0.08)), (250, 250, 250), -1)
    m = cv2.getRotationMatrix2D((c, c), angle, 1.0)
    return cv2.warpAffine(img, m, (64, 64), borderValue=(200, 200, 200))


@pytest.mark.parametrize("value", range(1, 7))
def test_pip_counter_counts_a_clean_face(value: int) -> None:
    for angle in (0, 20, 45):
        assert count_pips(_drawn_face(value, angle)) == value
