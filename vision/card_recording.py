"""``companion emulate cards``: a recording of real card faces being laid on a table, to try
the camera's card reader (and ``calibrate cards``) without a camera.

    companion emulate cards [--deal crazy-eights|cribbage] [--design neoclassical]
                            [--light normal|warm|dim] [--seed 1] [--out cards.avi]
    companion calibrate cards --camera cards-calibration.avi
    companion play crazy-eights --players Ann,Bob --cards 'camera:cards.avi?realtime'

The faces are a real deck design from tests/data/card-art (by default ``neoclassical``, which
the reader was never trained on; ``paris-french-index`` or ``atlas-german-index`` need
``calibrate cards`` first). A crazy-eights recording lays one card after another in the
middle of the table, plays the game takes (each matches the last card's rank or suit), a
hand bringing each in and taking it away, as cards are dealt and played; a cribbage
recording lays a hand of four and the starter side by side, as for the
show. Beside it, a calibration recording shows each of the 52 cards alone for
``calibrate cards`` (answer n to the first question, then press Enter for each card). The
cards printed are what the camera should read. A demonstration on rendered scenes, not a
measure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.cards import FULL_DECK, Card
from vision.card_art import (
    ART_DIR,
    HELD_OUT_DESIGNS,
    LIGHTS,
    Deck,
    Image,
    card_quad,
    light_up,
    load_deck,
    paste,
    shadow,
    table,
)
from vision.cli import GRAB
from vision.recording import write_video

SIZE = (960, 540)
FPS = 15
MOVING, RESTING = 8, 20  # frames of a card being brought in, then lying still
GAME_CARDS = 13  # a Crazy Eights game laid: the up card, then six plays each
DEALS = ("crazy-eights", "cribbage")
GAME_FOR = {"crazy-eights": "crazy-eights --players Ann,Bob",
            "cribbage": "cribbage --players Ann,Bob"}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion emulate cards",
        description="Write a recording of real card faces laid on a table for "
        "--cards camera:FILE, and one for calibrate cards.")
    parser.add_argument("--deal", choices=DEALS, default="crazy-eights")
    parser.add_argument("--cards", type=int, default=10, help=f"cards laid (1 to "
                        f"{GAME_CARDS}; cribbage lays 5)")
    parser.add_argument("--design", default=HELD_OUT_DESIGNS[0],
                        help="a folder of tests/data/card-art")
    parser.add_argument("--light", choices=LIGHTS, default="normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("cards.avi"),
                        help="the recording to write (Motion JPEG in AVI)")
    args = parser.parse_args(argv)
    if not 1 <= args.cards <= GAME_CARDS:
        raise ValueError(f"--cards must be 1 to {GAME_CARDS} (the up card, then six plays "
                         "each: a hand of seven is not played out)")
    if not (ART_DIR / args.design).is_dir():
        designs = ", ".join(sorted(p.name for p in ART_DIR.iterdir() if p.is_dir())) \
            if ART_DIR.is_dir() else "none: run it from a clone of the repository"
        raise ValueError(f"no card design {args.design!r} (there are: {designs})")
    deck = load_deck(args.design)
    rng = np.random.default_rng(args.seed)
    background = table("wood", SIZE, rng).astype(np.float32)
    if args.deal == "cribbage":
        cards = [FULL_DECK[int(i)] for i in rng.choice(52, 5, replace=False)]
    else:  # plays the game takes: a demonstration of refusals teaches nothing
        cards = crazy_eights_plays(FULL_DECK, args.cards, rng)
    height = 0.34 * SIZE[1]
    light_seed = int(rng.integers(1 << 30))
    noisy = _Noise(rng, SIZE)
    frames, _ = _lay_out(deck, cards, background, height, args.deal == "cribbage", args.light,
                         light_seed, rng, noisy, SIZE)
    write_video(args.out, frames, FPS)
    calibration = args.out.with_name(f"{args.out.stem}-calibration{args.out.suffix}")
    shown: list[Image] = []
    for card in FULL_DECK:
        canvas = background.copy()
        quad = card_quad(SIZE[0] / 2, SIZE[1] / 2, height, _aspect(deck),
                          rng.uniform(-0.3, 0.3))
        shadow(canvas, quad, np.array([2.0, 3.0], np.float32), 3, 0.25)
        paste(canvas, deck.faces[str(card)], quad)
        lit = _lit(canvas, args.light, light_seed)
        shown += [noisy(lit) for _ in range(GRAB)]
    write_video(calibration, shown, FPS)
    print(" ".join(str(c) for c in cards))
    print(f"Wrote {args.out} ({args.design} deck, {args.light} light, {len(cards)} cards) and "
          f"{calibration}. Try them:\n"
          f"  companion calibrate cards --camera {calibration}    # answer n, then Enter for "
          f"each card; replaces your deck calibration\n"
          f"  companion play {GAME_FOR[args.deal]} --cards 'camera:{args.out}?realtime'",
          file=sys.stderr)
    return 0


def crazy_eights_plays(deck: Sequence[Card], n: int, rng: np.random.Generator) -> list[Card]:
    """``n`` cards a two-player Crazy Eights game accepts laid in turn: the up card, then
    each matching the last in rank or suit, none seen twice, no eight (an eight waits for a
    suit to be named, which the camera cannot do). Six plays each (GAME_CARDS) never empties
    a hand of seven, so every card is a play the game takes and says something about."""
    cards = [c for c in deck if c.rank != 8]
    while True:  # a walk that runs out of matching cards starts again (rare)
        order = [cards[int(i)] for i in rng.permutation(len(cards))]
        game = [order.pop()]
        while len(game) < n:
            top = game[-1]
            nxt = next((c for c in order if c.rank == top.rank or c.suit == top.suit), None)
            if nxt is None:
                break
            order.remove(nxt)
            game.append(nxt)
        if len(game) == n:
            return game


def _aspect(deck: Deck) -> float:
    face = next(iter(deck.faces.values()))
    return float(face.shape[1] / face.shape[0])


def lay_out(deck: Deck, cards: list[Card], size: tuple[int, int], light: str,
            rng: np.random.Generator, *, keep: bool) -> tuple[list[Image], list[int]]:
    """The frames of ``cards`` laid one by one on a wooden table of ``size`` pixels, and for
    each card the first frame in which it lies still (companion bench camera)."""
    background = table("wood", size, rng).astype(np.float32)
    light_seed = int(rng.integers(1 << 30))
    return _lay_out(deck, cards, background, 0.34 * size[1], keep, light, light_seed, rng,
                    _Noise(rng, size), size)


def _lay_out(deck: Deck, cards: list[Card], background: Image, height: float, keep: bool,
             light: str, light_seed: int, rng: np.random.Generator,
             noisy: _Noise, size: tuple[int, int]) -> tuple[list[Image], list[int]]:
    """Each card brought in from the bottom edge by a hand, then lying still; ``keep``: the
    cards stay side by side (a hand shown), else each is taken away before the next. Also
    the first frame in which each card lies still."""
    w, h = size
    aspect = _aspect(deck)
    step = height * aspect * 1.25
    lying: list[tuple[Card, Image]] = []
    frames: list[Image] = []
    still_from: list[int] = []
    for k, card in enumerate(cards):
        x = (w / 2 + (k - (len(cards) - 1) / 2) * step) if keep else w / 2
        target = card_quad(x, h / 2, height, aspect, rng.uniform(-0.15, 0.15))
        start = target + np.array([0.0, h * 0.75], np.float32)
        for t in np.linspace(0, 1, MOVING):
            canvas = _table_with(deck, background, lying)
            quad = (start + (target - start) * t).astype(np.float32)
            paste(canvas, deck.faces[str(card)], quad)
            _hand_on(canvas, quad)
            frames.append(noisy(_lit(canvas, light, light_seed)))
        lying.append((card, target))
        still_from.append(len(frames))
        still = _lit(_table_with(deck, background, lying), light, light_seed)
        frames += [noisy(still) for _ in range(RESTING)]
        if not keep:
            lying.clear()
            empty = _lit(background.copy(), light, light_seed)
            frames += [noisy(empty) for _ in range(6)]
    return frames, still_from


def _table_with(deck: Deck, background: Image, lying: list[tuple[Card, Image]]) -> Image:
    canvas = background.copy()
    for card, quad in lying:
        shadow(canvas, quad, np.array([2.0, 3.0], np.float32), 3, 0.25)
        paste(canvas, deck.faces[str(card)], quad)
    return canvas


def _hand_on(canvas: Image, quad: Image) -> None:
    """Fingers and a palm holding the card's near end (a flat skin tone, softly edged)."""
    near = (quad[2] + quad[3]) / 2
    mask = np.zeros(canvas.shape[:2], np.float32)
    cv2.ellipse(mask, (int(near[0]), int(near[1]) + 40), (70, 90), 0, 0, 360, 1.0, -1)
    soft = cv2.GaussianBlur(mask, (0, 0), 2)[..., None]
    canvas[:] = canvas * (1 - soft) + np.array([120, 150, 200], np.float32) * soft


def _lit(canvas: Image, light: str, seed: int) -> Image:
    """The table under the recording's light (the same gradient in every frame)."""
    out: Image = light_up(canvas, light, np.random.default_rng(seed), white_balance=0.3)
    return out


class _Noise:
    """Sensor noise: a few frames of it, shifted at random for each frame (fast)."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int]) -> None:
        self.rng = rng
        self.width = size[0]
        self.bank = [rng.normal(0, 2.0, (size[1], size[0], 3)).astype(np.float32)
                     for _ in range(3)]

    def __call__(self, frame: Image) -> Image:
        noise = np.roll(self.bank[int(self.rng.integers(3))],
                        int(self.rng.integers(self.width)), axis=1)
        out: Image = np.clip(frame + noise, 0, 255).astype(np.uint8)
        return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
