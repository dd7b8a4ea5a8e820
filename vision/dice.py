"""The dice reader: candidates, a learned crop classifier, a pip counter, combined.

    reader = DiceReader.load()
    dice = reader.read(cv2.imread("table.jpg"))   # [Die(value=5, x=.., y=.., ...), ...]

1. Candidates (vision/dice_features.py): colour distance from a smooth background, centre-
   surround peaks at several die sizes, plus four offset points around each peak so that two
   touching dice each get a candidate near their centre.
2. Each candidate crop goes through a small MLP (vision/mlp.py, weights in
   vision/models/dice.npz) over HOG and pixel features: "none" or a face value 1..6.
3. The pip counter (vision/pips.py) counts blobs on the crop; its count k updates the
   classifier's probabilities by P(k | value), a table measured on the training photos.
4. Overlapping acceptances are merged (the most confident wins).

Confidence is P(die) * P(value | die). The learned model is reproduced by
``python -m vision.train.train_dice``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_features import WORK_SIZE, background_distance, candidates, crop, features
from vision.mlp import MLP
from vision.pips import count_pips

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice.npz"
OFFSET = 0.4  # extra candidates this many die sizes from each peak
MERGE = 1.05  # accepted dice closer than this many sizes are one die


@dataclass(frozen=True)
class Die:
    value: int
    x: float  # centre, in the input image's pixels
    y: float
    size: float  # approximate side in pixels
    confidence: float
    pips: int = -1  # the pip counter's count (-1: not run)

    @property
    def box(self) -> tuple[int, int, int, int]:
        half = self.size / 2
        return (round(self.x - half), round(self.y - half), round(self.x + half),
                round(self.y + half))

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


def candidate_points(dist: NDArray[np.float32]) -> list[tuple[float, float, float]]:
    points = []
    for c in candidates(dist):
        points.append((c.x, c.y, c.size))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            points.append((c.x + dx * OFFSET * c.size, c.y + dy * OFFSET * c.size, c.size))
    return points


class DiceReader:
    def __init__(self, net: MLP, pips: NDArray[np.float32] | None, accept: float = 0.5,
                 work_size: int = WORK_SIZE) -> None:
        self.net = net
        self.pips = pips  # P(pip count | value), rows 0..6, columns 0..9
        self.accept = accept
        self.work_size = work_size
        # optional tray area (x0, y0, x1, y1) in input pixels; dice outside are ignored
        self.area: tuple[float, float, float, float] | None = None

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> DiceReader:
        if not path.is_file():
            raise FileNotFoundError(f"no dice model at {path}: run python -m "
                                    "vision.train.train_dice")
        net, extra = MLP.load(path)
        return cls(net, extra["pip_confusion"].astype(np.float32), float(extra["accept"]))

    def read(self, image: NDArray[np.uint8]) -> list[Die]:
        if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
            raise ValueError("not a colour image of at least 32x32 pixels")
        h, w = image.shape[:2]
        factor = self.work_size / max(h, w)
        work = image
        if abs(factor - 1) > 0.05:
            work = cv2.resize(image, (round(w * factor), round(h * factor)),
                              interpolation=cv2.INTER_AREA)
        else:
            factor = 1.0
        lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
        points = candidate_points(background_distance(lab))
        if self.area is not None:
            x0, y0, x1, y1 = (v * factor for v in self.area)
            points = [p for p in points if x0 <= p[0] <= x1 and y0 <= p[1] <= y1]
        if not points:
            return []
        feats = np.stack([features(crop(work, x, y, s)) for x, y, s in points])
        probs = self.net.probabilities(feats)
        die_prob = 1 - probs[:, 0]
        order = np.argsort(-die_prob)
        kept: list[Die] = []
        for i in order:
            if die_prob[i] < self.accept:
                break
            x, y, s = points[i]
            if any(np.hypot(d.x - x, d.y - y) < MERGE * max(d.size, s) for d in kept):
                continue
            values = probs[i, 1:] / max(float(die_prob[i]), 1e-6)
            pips = -1
            if self.pips is not None:
                pips = count_pips(crop(work, x, y, s, side=64))
                values = values * self.pips[1:, min(pips, 9)]
                values = values / values.sum()
            value = int(np.argmax(values)) + 1
            confidence = float(die_prob[i] * values[value - 1])
            kept.append(Die(value, x, y, s, confidence, pips))
        # back to input pixels; size reported as the die's side (about 1.2 x blob scale)
        return [Die(d.value, d.x / factor, d.y / factor, d.size * 1.2 / factor, d.confidence,
                    d.pips) for d in kept]
