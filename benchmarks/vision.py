"""``companion bench vision``: frames per second of each reader at 1280x720 on one core.

    companion bench vision [--frames N] [--json]

- dice: held-out photos of the test split set into 1280x720 frames (padded with the table's
  median colour), read at the scale a calibration for those dice would choose, and in two
  tray areas: the floor calibration finds (vision/tray.py; here floor_from_dice, as the
  photos have no picture of the empty tray; found before the clock starts, as calibration is
  done once) and the whole photo (what a calibration without a tray to find would choose);
- dice, a game's throw: the same for the test photos of at most six dice (a game's throw;
  the photos above include crowded trays of twenty dice and more);
- the dice rows above time the camera's reading of each still frame (DiceReader.read_quick,
  at the calibrated scale alone); ``dice_throw_tray_fps`` times the whole reading a throw
  is told from, once a throw (DiceReader.read: at every calibrated scale, SCALE_LEVELS),
  on the photos of at most six dice with the tray floor;
- dice, crowded trays: the same for the test photos of CROWDED dice or more alone (the
  slowest frames: most crops for the network);
- cards: a generated 1280x720 card scene (three cards); and scenes of real card art
  (vision/card_art.py, the held-out design, three cards) on each kind of table in turn,
  pale cloth and newspaper among them (``cards_art_fps``);
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
from collections.abc import Callable, Sequence  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

W, H = 1280, 720
CROWDED = 12  # dice from which a photo is a crowded tray (the test split's five tray photos)


def _fps(step: Callable[[Any], object], frames: Sequence[Any], warm: Any = None) -> float:
    step(frames[0] if warm is None else warm)  # warm-up
    start = time.perf_counter()
    for frame in frames:
        step(frame)
    return len(frames) / (time.perf_counter() - start)


Area = tuple[float, float, float, float]


def tray_areas(reader: Any, frames: list[np.ndarray], photo: Area) -> list[Area]:
    """Per frame, the tray floor a calibration would find (the photo where it finds none)."""
    from vision.tray import floor_from_dice

    reader.area = photo
    areas = []
    for frame in frames:
        floor = floor_from_dice(frame, reader.read(frame))
        if floor is None:
            areas.append(photo)
            continue
        areas.append((max(floor[0], photo[0]), max(floor[1], photo[1]),
                      min(floor[2], photo[2]), min(floor[3], photo[3])))
    return areas


def _dice_fps(reader: Any, frames: list[np.ndarray], areas: list[Area],
              whole: bool = False) -> float:
    """The camera's reading of each still frame (DiceReader.read_quick: at the calibrated
    scale alone), or with ``whole`` the whole reading a throw is told from (read: at every
    calibrated scale; vision/motion.py), frames per second."""
    def read(i: int) -> object:
        reader.area = areas[i]  # each photo is its own set-up
        return reader.read(frames[i]) if whole else reader.read_quick(frames[i])

    return _fps(read, range(len(frames)))


def dice_frames(count: int, most: int | None = None, least: int = 0
                ) -> tuple[list[np.ndarray], float, tuple[float, float, float, float]]:
    from vision.dice_photos import imread, photos_in

    photos = [p for p in photos_in("test")
              if least <= len(p.dice) and (most is None or len(p.dice) <= most)][:count]
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
    for key, most, least in (("dice_few", 6, 0), ("dice_crowded", None, CROWDED),
                             ("dice", None, 0)):
        frames, die_side, area = dice_frames(args.frames, most, least)
        reader = DiceReader.load()
        reader.calibrate(die_side)  # as `companion calibrate dice` stores it
        floors = tray_areas(reader, frames, area)
        results[f"{key}_tray_fps"] = _dice_fps(reader, frames, floors)
        results[f"{key}_fps"] = _dice_fps(reader, frames, [area] * len(frames))
        if key == "dice_few":  # a game's throw, told from the whole reading once
            results["dice_throw_tray_fps"] = _dice_fps(reader, frames, floors, whole=True)
    card_frames = [make_scene(np.random.default_rng(500 + i), size=(W, H), count=3).image
                   for i in range(args.frames)]
    results["cards_fps"] = _fps(CardReader.load().read, card_frames)
    from vision.card_art import TABLES, art_scene, load_deck

    # real card art (the held-out design) on each kind of table, pale ones included
    art_frames = [art_scene(np.random.default_rng(700 + i), [load_deck("neoclassical")],
                            size=(W, H), count=3, kind=TABLES[i % len(TABLES)]).image
                  for i in range(args.frames)]
    results["cards_art_fps"] = _fps(CardReader.load().read, art_frames)
    reads = 0

    def read(frame: np.ndarray) -> list[Any]:
        nonlocal reads
        reads += 1
        return reader.read(frame)

    detector = RestDetector(read)  # the reader of all the test photos, last above
    moving = [np.roll(frames[0], 7 * i, axis=1) for i in range(args.frames)]
    # warmed up on a frame of its own: the first frame fed twice would be a still table
    # for two frames, which since the detector settles after 2 (not 3) runs the reader
    # (1,203 -> 209 frames/s on 2026-11-27, issue 15)
    results["motion_gate_fps"] = _fps(detector.feed, moving, warm=np.roll(frames[0], -7, axis=1))
    if reads:
        print(f"motion gate: the reader ran {reads} times on moving frames", file=sys.stderr)
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in results.items()}))
    else:
        for key, which in (("dice", "test photos, crowded trays among them"),
                           ("dice_few", "test photos of at most six dice"),
                           ("dice_crowded", f"test photos of {CROWDED} dice or more")):
            print(f"dice reader   {results[f'{key}_tray_fps']:7.1f} frames/s at {W}x{H}, one "
                  f"core ({which}; tray area: the floor calibration finds)")
            print(f"dice reader   {results[f'{key}_fps']:7.1f} frames/s at {W}x{H}, one core "
                  f"({which}; tray area: the whole photo)")
        print(f"dice reader   {results['dice_throw_tray_fps']:7.1f} frames/s at {W}x{H}, one "
              "core (the whole reading a throw is told from, at every calibrated scale, once "
              "a throw; test photos of at most six dice; tray area: the floor)")
        print(f"card reader   {results['cards_fps']:7.1f} frames/s at {W}x{H}, one core")
        print(f"card reader   {results['cards_art_fps']:7.1f} frames/s at {W}x{H}, one core "
              "(real card art on each kind of table)")
        print(f"motion gate   {results['motion_gate_fps']:7.1f} frames/s while dice move")
        print("target: 30 frames/s for each reader")
    return 0
