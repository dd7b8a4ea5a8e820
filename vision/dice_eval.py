"""Scoring a dice reader on labelled photos: per die (missed and spurious dice are errors)
and per photo (every die right, nothing extra)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from vision.dice_photos import Photo, imread

MATCH_RADIUS = 0.5  # a reading matches a labelled die if its centre is within half its size


class Reads(Protocol):
    def read(self, image: np.ndarray) -> list: ...  # list of vision.dice.Die


@dataclass
class Score:
    labelled: int = 0
    correct: int = 0
    wrong_value: int = 0
    missed: int = 0
    spurious: int = 0
    photos: int = 0
    photos_right: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def die_accuracy(self) -> float:
        return self.correct / max(1, self.labelled + self.spurious)

    @property
    def photo_accuracy(self) -> float:
        return self.photos_right / max(1, self.photos)

    def summary(self) -> str:
        return (f"per die {self.die_accuracy:.2%} ({self.correct}/{self.labelled} right, "
                f"{self.wrong_value} wrong value, {self.missed} missed, {self.spurious} "
                f"spurious); per photo {self.photo_accuracy:.2%} "
                f"({self.photos_right}/{self.photos})")


def match(photo: Photo, dice: list) -> tuple[int, int, int, int]:
    """Greedy one-to-one matching by centre distance: (correct, wrong, missed, spurious)."""
    pairs = []
    for i, label in enumerate(photo.dice):
        lx, ly = label.centre
        for j, die in enumerate(dice):
            dist = float(np.hypot(die.x - lx, die.y - ly))
            if dist < MATCH_RADIUS * label.size:
                pairs.append((dist, i, j))
    used_l: set[int] = set()
    used_d: set[int] = set()
    correct = wrong = 0
    for _, i, j in sorted(pairs):
        if i in used_l or j in used_d:
            continue
        used_l.add(i)
        used_d.add(j)
        if dice[j].value == photo.dice[i].value:
            correct += 1
        else:
            wrong += 1
    return correct, wrong, len(photo.dice) - len(used_l), len(dice) - len(used_d)


def evaluate(reader: Reads, photos: Iterable[Photo]) -> Score:
    score = Score()
    for photo in photos:
        image = imread(photo.path)
        correct, wrong, missed, spurious = match(photo, reader.read(image))
        score.labelled += len(photo.dice)
        score.correct += correct
        score.wrong_value += wrong
        score.missed += missed
        score.spurious += spurious
        score.photos += 1
        if correct == len(photo.dice) and spurious == 0:
            score.photos_right += 1
        else:
            score.failures.append(f"{photo.name}: {wrong} wrong, {missed} missed, "
                                  f"{spurious} spurious")
    return score
