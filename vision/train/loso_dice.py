"""Leave one set-up out: the dice recipe measured on set-ups it never learned from.

    python -m vision.train.loso_dice [--setup NAME]... [--out DIR]   # train and score
    python -m vision.train.loso_dice --score DIR                     # score saved models

For the close-up and paper set-ups (vision/dice_setups.py) a model is trained with the
recipe of vision/train/train_dice.py on the other set-ups only, and reads every photo of the
left-out one, uncalibrated (``--calibrated``: also at the scale its labelled dice give, what
`calibrate dice` sets). The tray set-up cannot be left out of the fine-tuned recipe (its base
network learned from it); ``--scratch`` trains the from-scratch recipe (train_dice
SCRATCH_*), which leaves out all three set-ups in turn (tray: all 200 photos, its test
split reported apart). The readings (confidence, right or wrong) are saved too: the
bar from which the shipped model says a reading without asking is chosen on them
(``--sure``), for each set-up on
the other set-ups' readings only, so that the figure reported for a set-up never used its
own photos.
``--render N`` adds N rendered die crops (vision/train/dice_render.py) to either recipe.
Needs PyTorch, like train_dice; a few minutes a set-up on one core (``--setup`` runs one,
so that set-ups can run as separate processes).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.dice import DiceReader  # noqa: E402
from vision.dice_photos import imread  # noqa: E402
from vision.dice_setups import SETUPS, SURE, labelled_scale, photos_of, score_photo  # noqa: E402

BARS = (0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998)
SURE_ERRORS = 1 / 200  # the most wrong readings among those said without asking


LEFT_OUT = ("close-up", "paper")  # the base network learned from the tray photos: not these
# Trained from scratch (--scratch) no network has seen the tray photos, so it can be left out
# too; its test split is reported apart, comparable with the shipped model's figure there
TRAY_TEST = "tray, test split"


def score(reader: DiceReader, setup: str, calibrated: bool, every: int = 1
          ) -> dict[str, object]:
    """The left-out set-up's figures and its readings' (confidence, right) pairs (on every
    n-th photo: ``every``)."""
    from vision.dice_photos import DATA_DIR, read_split
    from vision.dice_setups import SetupScore, group_of

    totals: dict[str, SetupScore] = {}
    readings: list[tuple[float, bool]] = []
    test = {name for name, part in read_split(DATA_DIR).items() if part == "test"}
    for photo in photos_of(setup)[::every]:
        if calibrated:
            reader.calibrate(labelled_scale(photo))
        dice = reader.read(imread(photo.path))
        one = score_photo(photo, dice)
        tray_test = TRAY_TEST if setup == "tray" and photo.name in test else ""
        for key in (setup, group_of(photo), tray_test):
            if key:
                totals.setdefault(key, SetupScore()).add(one)
        for die in dice:
            right = any(label.value == die.value
                        and np.hypot(die.x - label.centre[0], die.y - label.centre[1])
                        < 0.5 * label.size for label in photo.dice)
            readings.append((round(die.confidence, 5), right))
    reader.scale = None
    return {"scores": {k: v.to_json() for k, v in totals.items()}, "readings": readings}


def choose_bar(readings: list[tuple[float, bool]]) -> float:
    """The least raw confidence bar above which at most SURE_ERRORS of the readings are
    wrong (the highest tried when none is): the reader's sure_from."""
    for bar in BARS:
        sure = [right for conf, right in readings if conf >= bar]
        if sure and sure.count(False) <= SURE_ERRORS * len(sure):
            return bar
    return BARS[-1]


def train_fold(setup: str, out: Path, epochs: int, scratch: bool = False,
               render: int | None = None) -> None:
    from vision.train import train_dice

    others = tuple(s for s in SETUPS if s != setup)
    reader = train_dice.train(train_dice.training_photos(others, scratch), epochs=epochs,
                              log=True, scratch=scratch, render=render)
    out.mkdir(parents=True, exist_ok=True)
    train_dice.save(reader, out / f"without-{setup}.npz")


def score_saved(setup: str, out: Path, calibrated: bool = False, every: int = 1,
                modes: tuple[str, ...] = ("plain", "calibrated"), levels: str = "") -> None:
    reader = DiceReader.load(out / f"without-{setup}.npz")
    if levels:
        reader.levels = tuple(float(v) for v in levels.split(","))
    result = {}
    if "plain" in modes:
        result["plain"] = score(reader, setup, False, every)
    if calibrated and "calibrated" in modes:
        result["calibrated"] = score(reader, setup, True, every)
    name = f"without-{setup}" + ("" if modes == ("plain", "calibrated") else f"-{modes[0]}")
    name += f"-levels-{levels}" if levels else ""
    (out / f"{name}.json").write_text(json.dumps(result))
    report(setup, result)


def report(setup: str, result: dict[str, Any], bar: float = SURE) -> None:
    for mode, part in result.items():
        for key, s in part["scores"].items():
            readings = part["readings"] if key == setup else []
            sure = [r for c, r in readings if c >= bar]
            extra = (f"; sure from {bar}: {sure.count(False)}/{len(sure)} wrong"
                     if readings else "")
            print(f"held out {key} ({mode}): per die {s['per_die']:.1%} ({s['correct']}/"
                  f"{s['dice']}, {s['wrong_value']} wrong value, {s['missed']} missed, "
                  f"{s['spurious']} spurious: {s['spurious'] / s['photos']:.2f} a photo), "
                  f"per photo {s['per_photo']:.1%} of {s['photos']}, sure wrong "
                  f"{s['sure_wrong']}/{s['sure']}{extra}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setup", action="append", choices=SETUPS)
    from vision.train.train_dice import FINE_TUNE

    parser.add_argument("--scratch", action="store_true", default=not FINE_TUNE,
                        help="train from random weights (the tray can be left out too)")
    parser.add_argument("--fine-tune", dest="scratch", action="store_false",
                        help="the shipped recipe (the default), fine-tuned from dice-tray.npz")
    parser.add_argument("--calibrated", action="store_true",
                        help="also read the left-out photos at their labelled scale")
    parser.add_argument("--out", type=Path, default=Path("loso-dice"))
    parser.add_argument("--epochs", type=int, default=0)
    parser.add_argument("--score", action="store_true", help="score the saved models again")
    parser.add_argument("--every", type=int, default=1,
                        help="score every n-th photo of the left-out set-up (a shared machine)")
    parser.add_argument("--levels", help="image sizes read uncalibrated, e.g. 1,0.5,0.25 "
                        "(default: the model file's)")
    parser.add_argument("--only", choices=("plain", "calibrated"),
                        help="score only uncalibrated or only calibrated reading")
    parser.add_argument("--sure", action="store_true",
                        help="choose the sure bar per set-up on the others' readings")
    parser.add_argument("--render", type=int, default=None,
                        help="rendered die crops (vision/train/dice_render.py; default "
                        "train_dice.SCRATCH_RENDER with --scratch)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    for setup in args.setup or (SETUPS if args.scratch else LEFT_OUT):
        if args.sure:
            continue
        if setup not in LEFT_OUT and not args.scratch and not args.score:
            parser.error("the tray set-up can be left out only with --scratch")
        if not args.score:
            train_fold(setup, args.out, args.epochs, args.scratch, args.render)
        score_saved(setup, args.out, args.calibrated, args.every,
                    (args.only,) if args.only else ("plain", "calibrated"), args.levels or "")
    if args.sure:
        results: dict[str, Any] = {}
        for s in SETUPS:  # a set-up's readings, whole or scored in parts (--only)
            for path in sorted(args.out.glob(f"without-{s}*.json")):
                results.setdefault(s, {}).update(json.loads(path.read_text()))
        for setup, result in results.items():
            others = [tuple(r) for s, other in results.items() if s != setup
                      for mode in other.values() for r in mode["readings"]]
            bar = choose_bar(others)
            print(f"{setup}: sure from {bar} (chosen on the other set-ups' readings)")
            report(setup, result, bar)
        every = [tuple(r) for other in results.values() for mode in other.values()
                 for r in mode["readings"]]
        print(f"the shipped model's sure bar (all held-out readings): {choose_bar(every)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
