"""``companion bench vision``: frames per second of each reader at 1280x720 on one core.

    companion bench vision [--frames N] [--json]

- dice: held-out photos of the test split set into 1280x720 frames (padded with the table's
  median colour), read at the scale and tray area a calibration for those dice would choose
  (the photo is the tray);
- dice, a game's throw: the same for the test photos of at most six dice (a game's throw;
  the photos above include crowded trays of twenty dice and more);
- cards: a generated 1280x720 card scene (three cards);
- motion: the rest detector's per-frame cost while dice move (the reader does not run then).
OpenCV is held to one thread (cv2.setNumThreads(1)); numpy's BLAS may still use more unless
OPENBLAS_NUM_THREADS=1 is set, which this script sets before importing numpy when it can.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

W, H = 1280, 720


def _fps(step: Callable[[np.ndarray], object], frames: list[np.ndarray]) -> float:
    step(frames[0])  # warm-up
    start = time.perf_counter()
    for frame in frames:
        step(frame)
    return len(frames) / (time.perf_counter() - start)


def dice_frames(count: int, most: int | None = None
                ) -> tuple[list[np.ndarray], float, tuple[float, float, float, float]]:
    from vision.dice_photos import imread, photos_in

    photos = [p for p in photos_in("test") if most is None or len(p.dice) <= most][:count]
    frames = []
    for photo in photos:
        img = imread(photo.path)
        scale = H / img.shape[0]
        img = cv2.resize(img, (round(img.shape[1] * scale), H))
        pad = (W - img.shape[1]) // 2
        table = [float(v) for v in np.median(img.reshape(-1, 3), axis=0)]
        frames.append(cv2.copyMakeBorder(img, 0, 0, pad, W - img.shape[1] - pad,
                                         cv2.BORDER_CONSTANT, value=table))
    sizes = [d.size for p in photos for d in p.dice]
    area = (float(pad), 0.0, float(pad + img.shape[1] - 1), float(H - 1))  # the photo: the tray
    return frames, float(np.median(sizes)) * scale / 1.25, area  # labelled box -> die side


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench vision")
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    from vision.dice_photos import DATA_DIR

    if not (DATA_DIR / "split.csv").is_file():
        print(f"companion bench vision reads the labelled dice photos of a checkout "
              f"({DATA_DIR} is missing): run it from a clone of the repository",
              file=sys.stderr)
        return 2
    from vision.cards import CardReader
    from vision.dice import DiceReader
    from vision.motion import RestDetector
    from vision.scenes import make_scene

    results: dict[str, float] = {}
    frames, die_side, area = dice_frames(args.frames)
    reader = DiceReader.load()
    reader.calibrate(die_side)
    reader.area = area  # as `companion calibrate dice` stores them
    results["dice_fps"] = _fps(reader.read, frames)
    few, few_side, few_area = dice_frames(args.frames, most=6)
    few_reader = DiceReader.load()
    few_reader.calibrate(few_side)
    few_reader.area = few_area
    results["dice_few_fps"] = _fps(few_reader.read, few)
    card_frames = [make_scene(np.random.default_rng(500 + i), size=(W, H), count=3).image
                   for i in range(args.frames)]
    results["cards_fps"] = _fps(CardReader.load().read, card_frames)
    detector = RestDetector(reader.read)
    moving = [np.roll(frames[0], 7 * i, axis=1) for i in range(args.frames)]
    results["motion_gate_fps"] = _fps(detector.feed, moving)
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in results.items()}))
    else:
        print(f"dice reader   {results['dice_fps']:7.1f} frames/s at {W}x{H}, one core "
              "(crowded tray photos)")
        print(f"dice reader   {results['dice_few_fps']:7.1f} frames/s at {W}x{H}, one core "
              "(test photos of at most six dice)")
        print(f"card reader   {results['cards_fps']:7.1f} frames/s at {W}x{H}, one core")
        print(f"motion gate   {results['motion_gate_fps']:7.1f} frames/s while dice move")
        print("target: 30 frames/s for each reader")
    return 0
