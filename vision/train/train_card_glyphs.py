"""Reproduce vision/models/cards_glyph.npz: the small convolutional network that reads a
card's rank from its rank glyph (vision/cards.py GlyphRanks).

    python -m vision.train.train_card_glyphs [--leave-out DESIGN] [--cache DIR] [--out PATH]

The same training corners as vision/train/train_cards.py (the same fold, the same cache
names: ``--cache`` shares its samples), read as the rank glyph's ink only (RANK_SIZE, the
first part of corner_features): 3x3 convolution, ReLU and 2x2 max-pool stages and a linear
layer, trained with PyTorch (vision/train/torch_fit.py: needs the ``train`` extra), never
turned or mirrored (a 6 turned is a 9). The back class is trained too, but the reader takes
whether a corner is a back from the rank MLP. Deterministic on one thread.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from companion.cards import RANKS
from vision.card_art import HELD_OUT_DESIGNS
from vision.cards import BACK, MODEL_PATH, RANK_SIZE
from vision.train.torch_fit import fit
from vision.train.train_cards import fold_samples

WIDTHS = (16, 32)  # channels of the two stages: 24x16 -> 12x8 -> 6x4
EPOCHS = 12


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--leave-out", default=HELD_OUT_DESIGNS[0],
                        help="the English-index design not trained on, or 'none'")
    parser.add_argument("--out", type=Path, default=MODEL_PATH,
                        help="model path (the network goes to STEM_glyph.npz)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="train_cards' sample cache (the same names)")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--smoothing", type=float, default=0.0,
                        help="label smoothing (0: the confidences stay as sharp as the MLP's)")
    args = parser.parse_args(argv)
    from vision.train.font_index import fonts

    print(len(fonts()[0]), "fonts", flush=True)  # says what to install if missing
    x, ranks, _ = fold_samples(args.leave_out, args.cache)
    glyphs = x[:, : RANK_SIZE[0] * RANK_SIZE[1]].reshape(-1, RANK_SIZE[1], RANK_SIZE[0], 1)
    print(len(glyphs), "rank glyphs", flush=True)
    started = time.process_time()
    net = fit(glyphs, ranks, WIDTHS, (*RANKS, BACK), epochs=args.epochs,
              smoothing=args.smoothing, turns=False)
    print(f"trained in {time.process_time() - started:.0f} s of CPU", flush=True)
    path = args.out.with_name(args.out.stem + "_glyph.npz")
    net.save(path)
    print("saved", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
