"""``companion emulate camera``: recordings of dice thrown on a table, to try the camera input
without a camera.

    companion emulate camera [--throws 12] [--dice 1] [--seed 1] [--out throws.avi]
    companion calibrate dice --camera throws-calibration.avi
    companion play snakes-ladders --dice 'camera:throws.avi?realtime'

Each throw is a generated sequence (vision/roll_frames.py): real dice cut from the labelled
photos of a checkout (tests/data/dice-photos) roll in from the left, spin, slow down and rest on
a paper-like table under sensor noise; the next throw sweeps them away. The values printed are
the photos' labels, so you can see what the camera should read. Beside it, the set-up's two
pictures (the empty table, then one die on it) for ``calibrate dice``, as a camera over the
same table would send them. A demonstration, not a measure: the dice come from the photos the
reader learned from as well as the others.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.cli import GRAB
from vision.dice_photos import DATA_DIR, load_photos
from vision.roll_frames import Image, Sprite, cut_sprites, noisy, paper, paste, roll

SIZE = (960, 640)  # the table's width and height in pixels
DIE_SIDE = 40  # pixels: the dice of one table are one size (the photos' dice are 25 to 55)
FPS = 15  # the frame rate written in the file: camera:FILE?realtime plays it at this rate
MOVING, RESTING = 12, 24  # frames of each throw: rolling, then at rest
# a game that throws this many dice at once, to play the recording with
GAME_FOR = {1: "snakes-ladders --players Red,Blue", 2: "monopoly --players Car,Hat",
            5: "dice --players Ann,Bob"}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion emulate camera",
        description="Write a recording of generated dice throws (real dice from the photos) "
        "for --dice camera:FILE.")
    parser.add_argument("--throws", type=int, default=12, help="how many throws (1 to 100)")
    parser.add_argument("--dice", type=int, default=1, help="dice in each throw (1 to 6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("throws.avi"),
                        help="the recording to write (Motion JPEG in AVI)")
    args = parser.parse_args(argv)
    if not 1 <= args.throws <= 100 or not 1 <= args.dice <= 6:
        raise ValueError("--throws must be 1 to 100 and --dice 1 to 6")
    if not (DATA_DIR / "labels.csv").is_file():
        raise FileNotFoundError(f"companion emulate camera cuts dice from the labelled photos "
                                f"of a checkout ({DATA_DIR} is missing): run it from a clone "
                                "of the repository")
    rng = np.random.default_rng(args.seed)
    needed = args.throws * args.dice
    # some dice lie on a photo's edge and are skipped; one more die for the calibration
    cut = cut_sprites(load_photos(), 2 * needed + 2, rng)[: needed + 1]
    sprites = [to_side(s, DIE_SIDE) for s in cut]
    background = paper(SIZE, rng)
    calibration = args.out.with_name(f"{args.out.stem}-calibration{args.out.suffix}")
    with_die = background.copy()
    paste(with_die, sprites[-1], SIZE[0] / 2, SIZE[1] / 2, 20.0, 0.0)
    write_video(calibration, [noisy(background, rng) for _ in range(GRAB)]
           + [noisy(with_die, rng) for _ in range(GRAB)])
    frames: list[Image] = []
    for throw in range(args.throws):
        dice = sprites[throw * args.dice : (throw + 1) * args.dice]
        rolled = roll(dice, background, rng, moving=MOVING, resting=RESTING)
        frames.extend(rolled.frames)
        print(f"throw {throw + 1}: {' '.join(str(v) for v in rolled.values)}")
    write_video(args.out, frames)
    game = GAME_FOR.get(args.dice)
    play = (f"  companion play {game} --dice 'camera:{args.out}?realtime'" if game else
            f"  (no game here throws {args.dice} dice at once: --dice 1, 2 or 5 makes throws "
            "for one)")
    print(f"Wrote {args.out} and {calibration}. Try them:\n"
          f"  companion calibrate dice --camera {calibration}    "
          f"# replaces your dice calibration\n{play}", file=sys.stderr)
    return 0


def to_side(sprite: Sprite, die_side: int) -> Sprite:
    """The die scaled to die_side pixels (a sprite is 1.2 die sides across:
    vision/roll_frames.py)."""
    side = round(1.2 * die_side)
    mode = cv2.INTER_AREA if sprite.image.shape[0] > side else cv2.INTER_CUBIC
    return Sprite(sprite.value, cv2.resize(sprite.image, (side, side), interpolation=mode),
                  cv2.resize(sprite.mask, (side, side), interpolation=cv2.INTER_LINEAR))


def write_video(path: Path, frames: Iterable[Image], fps: int = FPS) -> None:
    """Frames (all of one size) as an MJPG recording that camera:FILE plays. A generator is
    written as it goes (a long recording held whole would take gigabytes)."""
    frames = iter(frames)
    first = next(frames)
    height, width = first.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (width, height))
    if not writer.isOpened():
        raise ValueError(f"cannot write a recording to {path}")
    try:
        writer.write(first)
        for frame in frames:
            writer.write(frame)
    finally:
        writer.release()
