"""Reproduce vision/models/cards_rank.npz and cards_suit.npz from generated scenes.

    python -m vision.train.train_cards [--scenes N] [--report M]

Training uses scenes with seeds 0..N-1 of vision/scenes.py and many more straightened faces
rendered directly (fast); the held-out split is scenes with seeds from TEST_SEED on (never
used for training or for choosing anything); the validation split, on which the reader's
choices are made, is scenes from VAL_SEED on. ``--report M`` scores M held-out scenes after
training.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.cards import FULL_DECK, RANKS, SUITS
from vision.cards import CORNER, FACE_H, FACE_W, MODEL_PATH, CardReader, corner_features
from vision.mlp import MLP
from vision.scenes import CARD_H, CARD_W, Design, Scene, card_mask, make_scene, render_card

TEST_SEED = 1_000_000
# every choice of the reader (thresholds, levels) is made on scenes VAL_SEED..VAL_SEED+199;
# the held-out scenes from TEST_SEED on are only measured
VAL_SEED = 500_000


def match(scene: Scene, centre: np.ndarray) -> int | None:
    """Index of the scene card whose centre is nearest (within a fifth of a card)."""
    best, index = 1e9, None
    for i, placed in enumerate(scene.cards):
        corners = np.array(placed.corners)
        dist = float(np.linalg.norm(corners.mean(axis=0) - centre))
        size = float(np.linalg.norm(corners[0] - corners[2]))
        if dist < 0.2 * size and dist < best:
            best, index = dist, i
    return index


def face_samples(count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """Straightened faces without whole scenes (fast): a rendered card seen at a scene's
    resolution, with the corner error of a fitted outline, lighting, glare, blur and noise."""
    xs, ranks, suits = [], [], []
    src = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]],
                   np.float32)
    dst = np.array([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]],
                   np.float32)
    for _ in range(count):
        card = FULL_DECK[int(rng.integers(52))]
        design = Design.random(rng)
        face = render_card(card, design, corner_only=True)
        face[card_mask(design) == 0] = rng.integers(20, 200, 3)
        jitter = dst + rng.normal(0, 2.5, dst.shape).astype(np.float32)
        outline = src
        if design.border is not None and rng.random() < 0.3:
            # the reader may take the inside of a border line (the colour of the table) for
            # the card's outline: the face is then seen zoomed in by the border's inset
            inset = rng.uniform(5, 9)
            outline = src + np.array([[inset, inset], [-inset, inset], [-inset, -inset],
                                      [inset, -inset]], np.float32)
        m = cv2.getPerspectiveTransform(outline, jitter)
        w, h = CORNER[2] + 8, CORNER[3] + 8  # only the corner (and a margin) is needed
        view = cv2.warpPerspective(face, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
        low = rng.uniform(0.45, 0.9)  # the card was this many face pixels per scene pixel
        small = cv2.resize(view, None, fx=low, fy=low, interpolation=cv2.INTER_AREA)
        view = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        lit = view.astype(np.float32) * rng.uniform(0.6, 1.1)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        lit *= (1 + 0.3 * ((xx / FACE_W - 0.5) * rng.normal() + (yy / FACE_H - 0.5)
                           * rng.normal()))[..., None]
        if rng.random() < 0.3:
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, 80)
            lit += rng.uniform(30, 90) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / r**2)[
                ..., None]
        sigma = rng.uniform(0, 1.5)
        if sigma > 0.3:
            lit = np.asarray(cv2.GaussianBlur(lit, (0, 0), sigma), np.float32)
        lit += rng.normal(0, rng.uniform(1, 6), lit.shape)
        view = np.clip(lit, 0, 255).astype(np.uint8)
        xs.append(corner_features(view))
        ranks.append(card.rank - 1)
        suits.append(SUITS.index(card.suit))
    return np.array(xs, np.float32), np.array(ranks), np.array(suits)


def samples(seeds: range) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    reader = CardReader(None, None)  # type: ignore[arg-type]  # only faces() is used
    xs, ranks, suits = [], [], []
    for seed in seeds:
        scene = make_scene(np.random.default_rng(seed))
        # the cards the whiteness levels find (the shipped weights were trained on these)
        quads, faces, _, _, _ = reader.faces(scene.image, edges=False)
        for quad, face in zip(quads, faces, strict=True):
            i = match(scene, quad.mean(axis=0))
            if i is None:
                continue
            card = scene.cards[i].card
            for view in (face, face[::-1, ::-1]):  # both index corners
                xs.append(corner_features(np.ascontiguousarray(view)))
                ranks.append(card.rank - 1)
                suits.append(SUITS.index(card.suit))
    return np.array(xs, np.float32), np.array(ranks), np.array(suits)


@dataclass
class CardScore:
    cards: int = 0
    correct: int = 0
    wrong: int = 0
    missed: int = 0
    spurious: int = 0
    refused_overlaps: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / max(1, self.cards + self.spurious)

    def summary(self) -> str:
        return (f"per card {self.accuracy:.2%} ({self.correct}/{self.cards} right, {self.wrong} "
                f"wrong, {self.missed} missed or refused, {self.spurious} spurious)")


def score(reader: CardReader, seeds: range, overlap: bool = False) -> CardScore:
    result = CardScore()
    for seed in seeds:
        scene = make_scene(np.random.default_rng(seed), overlap=overlap)
        seen = reader.read(scene.image)
        result.cards += len(scene.cards)
        result.refused_overlaps += len(seen.refused)
        found = set()
        for card in seen.cards:
            i = match(scene, np.array(card.corners).mean(axis=0))
            if i is None or i in found:
                result.spurious += 1
                result.failures.append(f"seed {seed}: spurious {card.card}")
            elif scene.cards[i].card == card.card:
                found.add(i)
                result.correct += 1
            else:
                found.add(i)
                result.wrong += 1
                result.failures.append(f"seed {seed}: {scene.cards[i].card} read as {card.card}")
        result.missed += len(scene.cards) - len(found)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--faces", type=int, default=30000)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--report", type=int, default=0)
    args = parser.parse_args(argv)
    x1, r1, s1 = samples(range(args.scenes))
    x2, r2, s2 = face_samples(args.faces, np.random.default_rng(0))
    x, ranks, suits = np.concatenate([x1, x2]), np.concatenate([r1, r2]), np.concatenate([s1,
                                                                                          s2])
    print(f"{len(x1)} corner samples from scenes, {len(x2)} from faces", flush=True)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    rank_net = MLP.create([x.shape[1], 256, 13], mean, scale, RANKS, seed=1)
    rank_net.fit(x, ranks, epochs=args.epochs, weight_decay=1e-3)
    suit_net = MLP.create([x.shape[1], 64, 4], mean, scale, SUITS, seed=2)
    suit_net.fit(x, suits, epochs=args.epochs, weight_decay=1e-3)
    rank_net.save(MODEL_PATH.with_name("cards_rank.npz"))
    suit_net.save(MODEL_PATH.with_name("cards_suit.npz"))
    print("saved", MODEL_PATH.with_name("cards_rank.npz"), MODEL_PATH.with_name("cards_suit.npz"))
    if args.report:
        reader = CardReader.load()
        print("held-out:", score(reader, range(TEST_SEED, TEST_SEED + args.report)).summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
