"""The labelled real dice photos (tests/data/dice-photos) and their fixed train/val/test split.

The split is by photo, in blocks of five consecutive photos (consecutive shots show the same
dice thrown again, so splitting single photos would leak near-copies into the test split).
It is written once to ``split.csv`` beside the labels; nothing is tuned on ``test``.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
from numpy.typing import NDArray

DATA_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "dice-photos"
VALUE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
SPLIT_SEED = 20191208
BLOCK = 5
SPLIT_BLOCKS = {"train": 28, "val": 6, "test": 6}  # 40 blocks of 5 photos


@dataclass(frozen=True)
class LabelledDie:
    value: int
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels

    @property
    def centre(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2

    @property
    def size(self) -> float:
        return ((self.box[2] - self.box[0]) + (self.box[3] - self.box[1])) / 2


@dataclass(frozen=True)
class Photo:
    path: Path
    dice: tuple[LabelledDie, ...]

    @property
    def name(self) -> str:
        return self.path.name


def imread(path: Path) -> NDArray[Any]:
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"cannot read the image {path}")
    return image


def load_photos(data_dir: Path = DATA_DIR) -> list[Photo]:
    groups: dict[str, list[LabelledDie]] = {}
    with (data_dir / "labels.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            die = LabelledDie(VALUE_WORDS[row["class"]], box)  # type: ignore[arg-type]
            groups.setdefault(row["filename"], []).append(die)
    return [Photo(data_dir / "images" / name, tuple(dice)) for name, dice in sorted(groups.items())]


def make_split(names: list[str]) -> dict[str, str]:
    """The deterministic block split (used once to write split.csv)."""
    ordered = sorted(names)
    blocks = [ordered[i : i + BLOCK] for i in range(0, len(ordered), BLOCK)]
    order = list(range(len(blocks)))
    random.Random(SPLIT_SEED).shuffle(order)
    split: dict[str, str] = {}
    start = 0
    for part, count in SPLIT_BLOCKS.items():
        for index in order[start : start + count]:
            for name in blocks[index]:
                split[name] = part
        start += count
    for index in order[start:]:  # any remainder trains
        for name in blocks[index]:
            split[name] = "train"
    return split


def read_split(data_dir: Path = DATA_DIR) -> dict[str, str]:
    with (data_dir / "split.csv").open(newline="") as handle:
        return {row["filename"]: row["split"] for row in csv.DictReader(handle)}


def photos_in(part: str, data_dir: Path = DATA_DIR) -> list[Photo]:
    split = read_split(data_dir)
    return [p for p in load_photos(data_dir) if split.get(p.name) == part]


def write_split(data_dir: Path = DATA_DIR) -> None:
    split = make_split([p.name for p in load_photos(data_dir)])
    with (data_dir / "split.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["filename", "split"])
        for name in sorted(split):
            writer.writerow([name, split[name]])


if __name__ == "__main__":
    write_split()
