"""The dice reader: candidates, a learned crop classifier, a pip counter, combined.

    reader = DiceReader.load()
    dice = reader.read(cv2.imread("table.jpg"))   # [Die(value=5, x=.., y=.., ...), ...]

1. Candidates (vision/dice_features.py): colour distance from a smooth background, centre-
   surround peaks at several die sizes (on a half-size copy if the model was trained so).
2. Each candidate crop is turned square to the die and goes through a small CNN
   (vision/cnn.py, weights in vision/models/dice.npz): "none" or a face value 1..6. Around
   a large peak four offset points are read too: two touching dice make one blob whose peak
   lies between them.
3. Overlapping acceptances are merged (the most likely die wins); a die whose value is
   unsure is read again in its eight turned and mirrored views and the votes averaged.
4. The pip counter (vision/pips.py) counts blobs on the crop; its count k updates the
   classifier's probabilities by P(k | value) ** w, the table measured on the training
   photos and the weight w chosen on the validation photos (0: not used).

Confidence is P(die) * P(value | die). The learned model is reproduced by
``python -m vision.train.train_dice`` (training needs PyTorch; reading needs only numpy).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cnn import ConvNet
from vision.dice_features import (
    SCALES,
    WORK_SIZE,
    background_distance,
    candidates,
    crop,
    net_input,
)
from vision.pips import count_pips

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice.npz"
OFFSET = 0.4  # extra candidates this many die sizes from each peak
PEAK_WINDOW = {1: 7, 2: 3}  # local-maximum window per candidate step (pixels of that copy)
OFFSET_MIN_SIZE = 33  # ... of at least this size (working pixels) when reading
DIE_SIDE = 32.0  # median Die.size (working pixels) on the photos the model learned from
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


def find_peaks(work: NDArray[Any], step: int = 1, threshold: float = 10.0,
               limit: int = 200) -> list[tuple[float, float, float]]:
    """Candidate centres and sizes in working pixels (no offset points). ``step`` 2 finds them
    on a half-size copy (background, response and peaks all cost a quarter). Reading uses a
    higher bar than training, which wants more hard negatives; up to 200 peaks (tray photos
    in the train split have up to 140)."""
    if step > 1:
        h, w = work.shape[:2]
        work = cv2.resize(work, (w // step, h // step), interpolation=cv2.INTER_AREA)
    dist = background_distance(cv2.cvtColor(work, cv2.COLOR_BGR2LAB))
    found = candidates(dist, threshold=threshold, limit=limit, peak=PEAK_WINDOW[step],
                       scales=tuple(max(3, round(s / step)) for s in SCALES))
    return [((c.x + 0.5) * step - 0.5, (c.y + 0.5) * step - 0.5, c.size * step) for c in found]


def offsets(x: float, y: float, size: float) -> list[tuple[float, float, float]]:
    return [(x + dx * OFFSET * size, y + dy * OFFSET * size, size)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]


class DiceReader:
    def __init__(self, net: ConvNet, pips: NDArray[Any] | None, accept: float = 0.5,
                 work_size: int = WORK_SIZE) -> None:
        self.net = net
        self.pips = pips  # P(pip count | value), rows 0..6, columns 0..9
        self.accept = accept
        self.pip_weight = 1.0  # exponent on P(count | value): how far to trust the counter
        self.recheck = 0.97  # P(value | die) under this: read the eight views
        self.work_size = work_size
        self.candidate_step = 1  # 2: candidates found on a half-size copy
        # optional tray area (x0, y0, x1, y1) in input pixels; dice outside are ignored
        self.area: tuple[float, float, float, float] | None = None
        # input-to-working scale; None: fit the longer side to work_size. Calibration sets it
        # from the die size so that dice are about DIE_SIDE working pixels across.
        self.scale: float | None = None

    def calibrate(self, die_size: float) -> None:
        """Use a die side measured in input pixels (``companion calibrate dice``)."""
        self.scale = DIE_SIDE / die_size

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> DiceReader:
        if not path.is_file():
            raise FileNotFoundError(f"no dice model at {path}: run python -m "
                                    "vision.train.train_dice")
        net, extra = ConvNet.load(path)
        reader = cls(net, extra["pip_confusion"].astype(np.float32), float(extra["accept"]))
        reader.pip_weight = float(extra.get("pip_weight", 1.0))
        reader.candidate_step = int(extra.get("candidate_step", 1))  # what it was trained on

        return reader

    def peaks(self, work: NDArray[Any]) -> list[tuple[float, float, float]]:
        return find_peaks(work, self.candidate_step)

    def read(self, image: NDArray[Any]) -> list[Die]:
        if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
            raise ValueError("not a colour image of at least 32x32 pixels")
        h, w = image.shape[:2]
        factor = self.scale or self.work_size / max(h, w)
        work = image
        if abs(factor - 1) > 0.05:
            work = cv2.resize(image, (round(w * factor), round(h * factor)),
                              interpolation=cv2.INTER_AREA)
        else:
            factor = 1.0
        # offset points around large peaks: two touching dice make one blob whose peak lies
        # between them, where the crop looks like no die
        points = []
        for x, y, s in self.peaks(work):
            points += [(x, y, s), *offsets(x, y, s)] if s >= OFFSET_MIN_SIZE else [(x, y, s)]
        if self.area is not None:
            x0, y0, x1, y1 = (v * factor for v in self.area)
            points = [p for p in points if x0 <= p[0] <= x1 and y0 <= p[1] <= y1]
        if not points:
            return []
        inputs = np.stack([net_input(crop(work, x, y, s)) for x, y, s in points])
        probs = self.net.probabilities(inputs)
        die_prob = 1 - probs[:, 0]
        order = np.argsort(-die_prob)
        chosen: list[int] = []
        for i in order:
            if die_prob[i] < self.accept:
                break
            x, y, s = points[i]
            if any(np.hypot(points[j][0] - x, points[j][1] - y) < MERGE * max(points[j][2], s)
                   for j in chosen):
                continue
            chosen.append(int(i))
        if not chosen:
            return []
        # an unsure value is read again: the average over the crop's eight turns and mirror
        # images (+2.7 points on the validation dice; sure ones skip it, for speed)
        votes = probs[chosen].copy()
        unsure = [k for k in range(len(chosen)) if votes[k, 1:].max() < self.recheck * (
            1 - votes[k, 0])]
        if unsure:
            views = inputs[[chosen[k] for k in unsure]]
            again = np.zeros((len(unsure), 7), np.float32)
            for turn in range(4):
                turned = np.rot90(views, turn, axes=(1, 2))
                again += self.net.probabilities(np.ascontiguousarray(turned))
                again += self.net.probabilities(np.ascontiguousarray(turned[:, :, ::-1]))
            votes[unsure] = again / 8
        kept: list[Die] = []
        for k, i in enumerate(chosen):
            x, y, s = points[i]
            present = float(1 - votes[k, 0])
            values = votes[k, 1:] / max(present, 1e-6)
            pips = -1
            if self.pips is not None and self.pip_weight > 0:  # weight 0: the count is moot
                pips = count_pips(crop(work, x, y, s, side=64))
                values = values * self.pips[1:, min(pips, 9)] ** self.pip_weight
                values = values / values.sum()
            value = int(np.argmax(values)) + 1
            confidence = float(min(present, 1.0) * values[value - 1])
            kept.append(Die(value, x, y, s, confidence, pips))
        # back to input pixels; size reported as the die's side (about 1.2 x blob scale)
        return [Die(d.value, d.x / factor, d.y / factor, d.size * 1.2 / factor, d.confidence,
                    d.pips) for d in kept]
