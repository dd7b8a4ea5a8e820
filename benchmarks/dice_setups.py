"""``companion bench dice-setups``: the dice reader scored per set-up (vision/dice_setups.py).

    companion bench dice-setups [--model PATH]... [--setup NAME]... [--tray-part test]
                                [--photos odd|even] [--near-look] [--calibrated]
                                [--known-count] [--failures] [--json]
                                [--learn DICE [--count] [--values-only | --die-only]
                                 [--rest val|test]]

Per set-up and finer group: per-die accuracy (missed and spurious dice count as errors),
per-photo accuracy (every die right and nothing extra), spurious dice a photo, and how many
readings at 0.9 or more (said without asking) were wrong. ``--calibrated`` sets each photo's
scale from its labelled dice, as `calibrate dice` would from one die; ``--known-count`` reads
each photo knowing its labelled number of dice (DiceReader.read_ranked, by_count), as the
session reads a throw of the count the game needs. The figures mean
"never trained on" only for set-ups the model did not learn from: the shipped model learned
from all of them, the leave-one-set-up-out models (vision/train/loso_dice.py) from the others.
With several ``--model`` files the reader reads with all their networks, the mean of their
probabilities (vision.cnn.NetMean).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402


def main(argv: list[str]) -> int:
    from vision.dice import SHIPPED_MODELS, DiceReader
    from vision.dice_setups import SETUPS, evaluate, photos_of

    parser = argparse.ArgumentParser(prog="companion bench dice-setups",
                                     description="the dice reader scored per set-up")
    parser.add_argument("--model", type=Path, action="append",
                        help="a model file (default the shipped pair, dice.npz and "
                        "dice-rendered.npz); repeated: read with all their networks, their "
                        "probabilities averaged (the first file's bars)")
    parser.add_argument("--setup", action="append", choices=SETUPS,
                        help="score only this set-up (repeatable; default all)")
    parser.add_argument("--tray-part", choices=("train", "val", "test"),
                        help="only this split of the tray photos (default all 200)")
    parser.add_argument("--photos", choices=("odd", "even"),
                        help="only the photos whose file number is odd (or even): a split for "
                        "tuning on one half and checking on the other")
    parser.add_argument("--calibrated", action="store_true",
                        help="each photo read at the scale its labelled dice give")
    parser.add_argument("--known-count", action="store_true",
                        help="each photo read knowing how many dice it holds (its labels), "
                        "as the session reads a throw of the count the game needs")
    parser.add_argument("--learn", type=int, metavar="DICE",
                        help="per set-up, learn its dice from a few photos holding this many "
                        "dice (as calibrate dice does from confirmed throws), then read the "
                        "others at their labelled scale")
    parser.add_argument("--count", action="store_true",
                        help="with --learn: the player says how many dice each shown photo "
                        "holds, and the reader adds the dice it missed (calibrate dice's count)")
    parser.add_argument("--values-only", action="store_true",
                        help="with --learn: learn P(value | die) only, as before 2026-11-27")
    parser.add_argument("--die-only", action="store_true",
                        help="with --learn: use the learned P(die) correction only, not the "
                        "learned value layer")
    parser.add_argument("--no-bar", action="store_true",
                        help="with --learn: do not learn a candidate bar (as before the "
                        "evening of 2026-11-27)")
    parser.add_argument("--no-pips", action="store_true",
                        help="with --learn: do not learn extra candidates from the players' "
                        "pips (as before the fourth session of 2026-11-28)")
    parser.add_argument("--rest", choices=("val", "test"),
                        help="with --learn: read only half of the other photos, every other "
                        "one from the first (val) or from the second (test): choose on one "
                        "half, report the other")
    parser.add_argument("--near-look", action="store_true",
                        help="read again beside plausible smallest-size peaks (DiceReader."
                        "near_look, off by default)")
    parser.add_argument("--failures", action="store_true", help="list the photos read wrong")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    models = args.model or list(SHIPPED_MODELS)
    try:
        reader = DiceReader.load(*models)
    except (FileNotFoundError, KeyError, ValueError) as exc:
        print(f"The dice model cannot be loaded: {exc}.")
        return 1
    reader.near_look = args.near_look
    photos = [p for setup in args.setup or SETUPS
              for p in photos_of(setup, args.tray_part if setup == "tray" else None)]
    if args.photos:
        photos = [p for p in photos if photo_number(p.name) % 2 == (args.photos == "odd")]
    if args.learn:
        return _learn(reader, args.setup or SETUPS, args.tray_part, args.learn, args.json,
                      args.count, not args.values_only, not args.die_only, not args.no_bar,
                      args.rest, not args.no_pips)
    scores = evaluate(reader, photos, reader.calibrate if args.calibrated else None,
                      args.known_count)
    if args.json:
        print(json.dumps({"model": " + ".join(map(str, models)), "calibrated": args.calibrated,
                          "known_count": args.known_count,
                          "setups": {k: v.to_json() for k, v in scores.items()}}, indent=2))
        return 0
    for name, score in scores.items():
        print(f"{name}: {score.summary()}")
        if args.failures:
            for line in score.failures:
                print(f"    {line}")
    return 0


def photo_number(name: str) -> int:
    """The number in a photo's file name (paper-007.jpg: 7; -1 when it has none)."""
    digits = "".join(c for c in Path(name).stem if c.isdigit())
    return int(digits) if digits else -1


def _learn(reader: Any, setups: Sequence[str], part: str | None, dice: int,
           as_json: bool, count: bool = False, die: bool = True, values: bool = True,
           bar: bool = True, rest: str | None = None, pips: bool = True) -> int:
    from vision.dice_setups import learn_and_evaluate, photos_of

    out: dict[str, Any] = {}
    for setup in setups:
        photos = photos_of(setup, part if setup == "tray" else None)
        before, scores, learned = learn_and_evaluate(reader, photos, dice, count, die, values,
                                                      bar, rest, pips)
        out[setup] = {"learned": learned, "before": {k: v.to_json() for k, v in before.items()},
                      "setups": {k: v.to_json() for k, v in scores.items()}}
        if not as_json:
            print(f"{setup}: learned from {learned['shown_photos']} photos "
                  f"({learned['shown_dice']} of their {learned['shown_labelled']} dice "
                  f"confirmed, {learned['added']} of them added by the count; values layer "
                  f"used: {learned['values_used']} (gain {learned['gain']}), P(die) used: "
                  f"{learned['die_used']} (gain {learned['die_gain']}), candidate bar "
                  f"{learned['bar']} used: {learned['bar_used']} (found "
                  f"{learned['bar_found']}, lost {learned['bar_lost']}, errors "
                  f"{learned['bar_errors']:+d}); pips' candidates at {learned['pip_bar']} "
                  f"used: {learned['pips_used']} (found {learned['pip_found']}, lost "
                  f"{learned['pip_lost']}, errors {learned['pip_errors']:+d}); the pair's "
                  "other networks: "
                  f"{learned['partners']}): {learned['said']}")
            for name, score in scores.items():
                if name != "all":
                    print(f"  {name}, the other photos, before learning: "
                          f"{before[name].summary()}")
                    print(f"  {name}, the other photos, after: {score.summary()}")
    if as_json:
        print(json.dumps({"learn": dice, "setups": out}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
