"""Cross-validate the dice recipe on the train photos: a measure that the validation photos
can no longer give (the readers read 185 or 186 of their 188 dice).

    python -m vision.train.cv_dice [--folds 4] [--fold F] [--channels 2|4] [--out DIR]
    python -m vision.train.cv_dice --score DIR        # score saved fold models again

The train photos are cut into folds by their blocks of five (block b goes to fold b mod K, so
that the same dice thrown again never sit on both sides). For each fold a network is trained
on the other folds with the recipe of vision/train/train_dice.py (its thresholds included:
ACCEPT, PIP_WEIGHT) and the reader reads the held-out fold. The sum over the folds is a per-die
figure on photos the networks never learned from (1,059 dice against validation's 188).
Neither the validation nor the test photos are read. Needs PyTorch, like train_dice; about
seven minutes a fold on one core, and folds can run as separate processes (``--fold``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from vision.dice import DiceReader
from vision.dice_eval import Score, evaluate
from vision.dice_features import net_input
from vision.dice_photos import BLOCK, Photo, photos_in
from vision.train.train_dice import ACCEPT, CHANNELS, PIP_WEIGHT

CLASSES = ("none", "1", "2", "3", "4", "5", "6")
FIELDS = ("labelled", "correct", "wrong_value", "missed", "spurious", "photos", "photos_right")


def folds(count: int) -> list[list[Photo]]:
    """The train photos in ``count`` folds of whole blocks."""
    train = photos_in("train")
    blocks = [train[i : i + BLOCK] for i in range(0, len(train), BLOCK)]
    return [[p for b, block in enumerate(blocks) if b % count == k for p in block]
            for k in range(count)]


def reader_for(path: Path) -> DiceReader:
    """A fold's network (and pip count table) read with the recipe's thresholds (also for
    fold models saved before they changed)."""
    reader = DiceReader.load(path)
    reader.accept, reader.pip_weight = ACCEPT, PIP_WEIGHT
    return reader


def train_fold(k: int, count: int, channels: int, out: Path) -> Score:
    from vision.train import train_dice
    from vision.train.torch_fit import fit

    parts = folds(count)
    fit_on = [p for j, part in enumerate(parts) if j != k for p in part]
    patches, y = train_dice.crops(fit_on, np.random.default_rng(0))
    x = np.array([net_input(p, channels) for p in patches])
    del patches
    net = fit(x, y, train_dice.WIDTHS, CLASSES, epochs=train_dice.EPOCHS, log=False)
    del x
    out.mkdir(parents=True, exist_ok=True)
    net.save(out / f"fold{k}.npz", pip_confusion=train_dice.pip_confusion(fit_on),
             accept=np.array(ACCEPT, np.float32), pip_weight=np.array(PIP_WEIGHT, np.float32),
             candidate_step=np.array(1))
    return score_fold(k, count, out)


def score_fold(k: int, count: int, out: Path) -> Score:
    score = evaluate(reader_for(out / f"fold{k}.npz"), folds(count)[k])
    (out / f"fold{k}.json").write_text(json.dumps({f: getattr(score, f) for f in FIELDS}))
    print(f"fold {k}: {score.summary()}", flush=True)
    return score


def total(out: Path, count: int) -> Score:
    """The sum of the fold scores saved in ``out``."""
    whole = Score()
    for k in range(count):
        saved = json.loads((out / f"fold{k}.json").read_text())
        for f in FIELDS:
            setattr(whole, f, getattr(whole, f) + saved[f])
    return whole


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--fold", type=int, help="train and score only this fold")
    parser.add_argument("--channels", type=int, choices=(2, 4),
                        help="the network's input channels (default: train_dice's)")
    parser.add_argument("--out", type=Path, default=Path("cv-dice"))
    parser.add_argument("--score", type=Path, help="score the fold models saved in this folder")
    args = parser.parse_args(argv)
    if args.score:
        for k in range(args.folds):
            score_fold(k, args.folds, args.score)
        print(f"all folds: {total(args.score, args.folds).summary()}")
        return 0
    for k in [args.fold] if args.fold is not None else range(args.folds):
        train_fold(k, args.folds, args.channels or CHANNELS, args.out)
    if all((args.out / f"fold{k}.json").is_file() for k in range(args.folds)):
        print(f"all folds: {total(args.out, args.folds).summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
