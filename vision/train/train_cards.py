"""Reproduce vision/models/cards_rank.npz and cards_suit.npz from real card art, fonts and
generated faces.

    python -m vision.train.train_cards [--leave-out DESIGN] [--cache DIR] [--out PATH]

Per English-index design (vision/card_art.py, tests/data/card-art) but the one left out
(``--leave-out``, neoclassical by default, the held-out design of the tests): scenes read
through the reader's own finder, index corners cut from the faces directly under residual
colour casts, dim light, blur, noise and JPEG, and corners whose index is set anew in one
of the machine's fonts (vision/train/font_index.py: needs Pillow and font packages, and says
what to install if they are missing); card backs (the designs' and made-up ones) as the rank
network's last class; and faces of the generated designs of vision/scenes.py. The designs of
OTHER_INDEX_DESIGNS are never used. ``--cache DIR`` keeps each design's samples, so that the
leave-one-design-out folds (one run per design, read with ``python -m vision.cards_eval
--model PATH --designs DESIGN``) compute them once. The generated scenes' held-out split is
seeds from TEST_SEED on; the art scenes' from ART_TEST_SEED on (vision/cards_eval.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from companion.cards import FULL_DECK, RANKS, SUITS
from vision.card_art import HELD_OUT_DESIGNS, TRAIN_DESIGNS, art_scene, load_deck, random_back
from vision.cards import BACK, FACE_H, FACE_W, INDEX_AREA, MODEL_PATH, CardReader, corner_features
from vision.mlp import MLP
from vision.scenes import (
    CARD_H,
    CARD_W,
    Design,
    card_mask,
    make_scene,
    nearest_card,
    render_card,
)

TEST_SEED = 1_000_000
# every choice of the reader (thresholds, levels) is made on scenes VAL_SEED..VAL_SEED+199;
# the held-out scenes from TEST_SEED on are only measured
VAL_SEED = 500_000


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
        w, h = INDEX_AREA[0] + 8, INDEX_AREA[1] + 8  # only the corner (and a margin)
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


NO_SUIT = -1  # a back's suit label: left out of the suit network's training


def _seen_corner(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The top-left index corner of an upright BGR face (FACE_W x FACE_H) as the reader sees
    it after straightening a fitted outline: corner error, lower resolution, what balance()
    leaves of a coloured or dim light, a gradient, glare, blur, noise and JPEG."""
    dst = np.array([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]],
                   np.float32)
    if rng.random() < 0.4:  # a lighter or bolder stroke than the design's
        kernel = np.ones((2, 2), np.uint8)
        face = cv2.erode(face, kernel) if rng.random() < 0.5 else cv2.dilate(face, kernel)
    # another design's index: larger or smaller, narrower or wider, slanted, elsewhere
    scale = rng.uniform(0.8, 1.2)
    affine = np.array([[scale * rng.uniform(0.85, 1.2), rng.uniform(-0.12, 0.12),
                        rng.uniform(-4, 4)], [0, scale, rng.uniform(-4, 4)], [0, 0, 1]],
                      np.float32)
    jitter = dst + rng.normal(0, 2.5, dst.shape).astype(np.float32)
    m = cv2.getPerspectiveTransform(dst, jitter) @ affine
    w, h = INDEX_AREA[0] + 8, INDEX_AREA[1] + 8
    view = cv2.warpPerspective(face, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    low = rng.uniform(0.4, 0.95)
    small = cv2.resize(view, None, fx=low, fy=low, interpolation=cv2.INTER_AREA)
    lit = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    cast = rng.uniform(0.72, 1.08, 3) if rng.random() < 0.6 else np.ones(3)
    lit *= cast * rng.uniform(0.45, 1.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    lit *= (1 + 0.3 * ((xx / FACE_W - 0.5) * rng.normal() + (yy / FACE_H - 0.5)
                       * rng.normal()))[..., None]
    if rng.random() < 0.2:
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, 80)
        lit += rng.uniform(30, 90) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / r**2)[
            ..., None]
    sigma = rng.uniform(0, 1.5)
    if sigma > 0.3:
        lit = np.asarray(cv2.GaussianBlur(lit, (0, 0), sigma), np.float32)
    lit += rng.normal(0, 1, lit.shape) * (np.sqrt(np.maximum(lit, 0)) * rng.uniform(0.1, 0.4)
                                          + rng.uniform(0.5, 3))
    view = np.clip(lit, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 92))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else view


def art_face_samples(count: int, rng: np.random.Generator,
                     designs: tuple[str, ...] = TRAIN_DESIGNS) -> tuple[
                         np.ndarray, np.ndarray, np.ndarray]:
    """Index corners cut from the real designs' faces (and backs), both ways up."""
    decks = [load_deck(d) for d in designs]
    xs, ranks, suits = [], [], []
    for _ in range(count):
        deck = decks[int(rng.integers(len(decks)))]
        if rng.random() < 0.08:
            art = deck.back if deck.back is not None and rng.random() < 0.4 else random_back(rng)
            rank, suit = len(RANKS), NO_SUIT
        else:
            card = FULL_DECK[int(rng.integers(52))]
            art = deck.faces[str(card)]
            rank, suit = card.rank - 1, SUITS.index(card.suit)
        face = cv2.resize(art, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
        alpha = face[..., 3:].astype(np.float32) / 255
        table = rng.uniform(20, 230, 3).astype(np.float32)
        bgr = (face[..., :3] * alpha + table * (1 - alpha)).astype(np.uint8)
        if rng.random() < 0.5:
            bgr = np.ascontiguousarray(bgr[::-1, ::-1])
        xs.append(corner_features(_seen_corner(bgr, rng)))
        ranks.append(rank)
        suits.append(suit)
    return np.array(xs, np.float32), np.array(ranks), np.array(suits)


def font_samples(count: int, rng: np.random.Generator, designs: tuple[str, ...],
                 narrowest: float = 0.7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index corners lettered in real fonts (vision/train/font_index.py) on the designs'
    faces, their own index painted out: the networks learn glyphs, not three designs."""
    from vision.train.font_index import font_index_face, paint_out_index

    decks = [load_deck(d) for d in designs]
    xs, ranks, suits = [], [], []
    for _ in range(count):
        deck = decks[int(rng.integers(len(decks)))]
        art = deck.faces[str(FULL_DECK[int(rng.integers(52))])]  # its pictures, pips, frame
        face = cv2.resize(art, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
        alpha = face[..., 3:].astype(np.float32) / 255
        table = rng.uniform(20, 230, 3).astype(np.float32)
        base = paint_out_index((face[..., :3] * alpha + table * (1 - alpha)).astype(np.uint8))
        card = FULL_DECK[int(rng.integers(52))]
        lettered = font_index_face(base, str(card), rng, narrowest)
        xs.append(corner_features(_seen_corner(lettered, rng)))
        ranks.append(card.rank - 1)
        suits.append(SUITS.index(card.suit))
    return np.array(xs, np.float32), np.array(ranks), np.array(suits)


def art_scene_samples(seeds: range, designs: tuple[str, ...] = TRAIN_DESIGNS) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """Both index corners of each card the reader's finder finds in art scenes."""
    reader = CardReader(None, None)  # type: ignore[arg-type]  # only faces() is used
    decks = [load_deck(d) for d in designs]
    xs, ranks, suits = [], [], []
    for seed in seeds:
        scene = art_scene(np.random.default_rng(seed), decks)
        quads, faces, _, _, _ = reader.faces(scene.image)
        for quad, face in zip(quads, faces, strict=True):
            i = nearest_card(scene, quad.mean(axis=0))
            if i is None:
                continue
            placed = scene.cards[i]
            rank = len(RANKS) if placed.face_down else placed.card.rank - 1
            suit = NO_SUIT if placed.face_down else SUITS.index(placed.card.suit)
            for view in (face, face[::-1, ::-1]):
                xs.append(corner_features(np.ascontiguousarray(view)))
                ranks.append(rank)
                suits.append(suit)
    return np.array(xs, np.float32), np.array(ranks), np.array(suits)


def samples(seeds: range) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    reader = CardReader(None, None)  # type: ignore[arg-type]  # only faces() is used
    xs, ranks, suits = [], [], []
    for seed in seeds:
        scene = make_scene(np.random.default_rng(seed))
        # the cards the whiteness levels find (the shipped weights were trained on these)
        quads, faces, _, _, _ = reader.faces(scene.image, edges=False)
        for quad, face in zip(quads, faces, strict=True):
            i = nearest_card(scene, quad.mean(axis=0))
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
            i = nearest_card(scene, np.array(card.corners).mean(axis=0))
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


Part = tuple[np.ndarray, np.ndarray, np.ndarray]


def cached(cache: Path | None, name: str, make: Callable[[], Part]) -> Part:
    """A part of the training samples, kept in ``cache`` (if given) under ``name``, so that
    the leave-one-design-out folds compute each design's samples once."""
    path = None if cache is None else cache / f"{name}.npz"
    if path is not None and path.is_file():
        with np.load(path) as data:
            return data["x"], data["ranks"], data["suits"]
    part = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=part[0], ranks=part[1], suits=part[2])
    print(f"{name}: {len(part[0])} corners", flush=True)
    return part


ENGLISH_DESIGNS = (*TRAIN_DESIGNS, *HELD_OUT_DESIGNS)


def fold_samples(leave_out: str, cache: Path | None, scenes: int = 60, faces: int = 10000,
                 art_scenes: int = 70, art_faces: int = 10000, font_faces: int = 10000,
                 narrowest: float = 0.7) -> Part:
    """The training corners' features, rank and suit labels of the fold without
    ``leave_out`` (the generated designs' and each other English design's parts, kept in
    ``cache`` if given)."""
    designs = tuple(d for d in ENGLISH_DESIGNS if d != leave_out)
    print("trained on", ", ".join(designs), flush=True)
    parts = [cached(cache, f"generated-scenes-{scenes}", lambda: samples(range(scenes))),
             cached(cache, f"generated-faces-{faces}",
                    lambda: face_samples(faces, np.random.default_rng(0)))]
    for k, design in enumerate(ENGLISH_DESIGNS):
        if design not in designs:
            continue
        seeds = range(100_000 * k, 100_000 * k + art_scenes)  # below ART_VAL_SEED
        parts.append(cached(cache, f"{design}-scenes-{art_scenes}",
                            partial(art_scene_samples, seeds, (design,))))
        parts.append(cached(cache, f"{design}-faces-{art_faces}",
                            partial(art_face_samples, art_faces,
                                    np.random.default_rng(1 + k), (design,))))
        if font_faces:
            narrow = "" if narrowest == 0.7 else f"-narrowest-{narrowest}"
            parts.append(cached(cache, f"{design}-fonts-{font_faces}{narrow}",
                                partial(font_samples, font_faces,
                                        np.random.default_rng(11 + k), (design,),
                                        narrowest)))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=60, help="generated-design scenes")
    parser.add_argument("--faces", type=int, default=10000, help="generated-design corners")
    parser.add_argument("--art-scenes", type=int, default=70,
                        help="real-design scenes per design")
    parser.add_argument("--art-faces", type=int, default=10000,
                        help="real-design corners per design")
    parser.add_argument("--font-faces", type=int, default=10000,
                        help="corners lettered in fonts, per design (0: none)")
    parser.add_argument("--narrowest", type=float, default=0.7,
                        help="the font lettering's narrowest stretch (of the font's width)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=256, help="the rank network's width")
    parser.add_argument("--report", type=int, default=0)
    parser.add_argument("--leave-out", default=HELD_OUT_DESIGNS[0],
                        help="the English-index design not trained on (leave-one-design-out: "
                             "train once per design and read it with vision.cards_eval), "
                             "or 'none'")
    parser.add_argument("--out", type=Path, default=MODEL_PATH,
                        help="model path (the networks go to STEM_rank.npz and STEM_suit.npz)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep each design's samples here (delete it after changing the "
                             "features or the sampling)")
    args = parser.parse_args(argv)
    if args.font_faces:
        from vision.train.font_index import fonts

        print(len(fonts()[0]), "fonts", flush=True)  # says what to install if missing
    x, ranks, suits = fold_samples(args.leave_out, args.cache, args.scenes, args.faces,
                                   args.art_scenes, args.art_faces, args.font_faces,
                                   args.narrowest)
    print(len(x), "corner samples", flush=True)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    rank_net = MLP.create([x.shape[1], args.hidden, len(RANKS) + 1], mean, scale,
                          (*RANKS, BACK), seed=1)
    rank_net.fit(x, ranks, epochs=args.epochs, weight_decay=1e-3)
    faces = suits != NO_SUIT
    suit_net = MLP.create([x.shape[1], 64, 4], mean, scale, SUITS, seed=2)
    suit_net.fit(x[faces], suits[faces], epochs=args.epochs, weight_decay=1e-3)
    rank_path = args.out.with_name(args.out.stem + "_rank.npz")
    suit_path = args.out.with_name(args.out.stem + "_suit.npz")
    rank_net.save(rank_path)
    suit_net.save(suit_path)
    print("saved", rank_path, suit_path)
    if args.report:
        reader = CardReader.load(args.out)
        print("held-out:", score(reader, range(TEST_SEED, TEST_SEED + args.report)).summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
