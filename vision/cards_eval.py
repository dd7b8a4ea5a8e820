"""The card reader measured on rendered scenes of real card art (vision/card_art.py).

    python -m vision.cards_eval [--scenes 100] [--designs neoclassical] [--light warm]
                                [--calibrated] [--model PATH] [--by-table]

Prints, per design and light, the per-card accuracy and how many readings said without
asking (confidence >= 0.9) were wrong. ``--by-table`` also prints the finder's figures per
table kind, for cards touching another and for face-down cards: how many cards were found
(read, rightly or not), refused (inside a refused outline), missed, and spurious readings.
``--kind felt --pairs`` renders only two cards touching on that table kind.
Seeds from ART_TEST_SEED on are never trained on or tuned on; the designs in
HELD_OUT_DESIGNS were never trained on at all.
These are rendered scenes of real card art, not camera photos of real cards.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import FULL_DECK
from vision.card_art import HELD_OUT_DESIGNS, LIGHTS, art_scene, load_deck
from vision.cards import MODEL_PATH, CardReader, SeenCards
from vision.scenes import PlacedCard, Scene, nearest_card

ART_TEST_SEED = 7_000_000  # held-out art scenes; training uses seeds below ART_VAL_SEED
ART_VAL_SEED = 6_000_000
SURE = 0.9


@dataclass
class ArtScore:
    cards: int = 0  # face-up cards lying whole and uncovered
    correct: int = 0
    wrong: int = 0
    sure: int = 0  # readings at >= 0.9 of a face-up card
    sure_wrong: int = 0  # readings at >= 0.9 that are wrong (or of a back, or of nothing)
    missed: int = 0
    spurious: int = 0
    face_down: int = 0
    face_down_seen: int = 0  # backs reported as face down
    face_down_spurious: int = 0  # reported face down where no back lies
    failures: list[str] = field(default_factory=list)
    # the finder's figures per group (a table kind, "touching", "face down"):
    # [cards, found, refused, spurious]
    groups: dict[str, list[int]] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.correct / max(1, self.cards + self.spurious)

    def summary(self) -> str:
        return (f"per card {self.accuracy:.2%} ({self.correct}/{self.cards} right, "
                f"{self.wrong} wrong, {self.missed} missed or refused, {self.spurious} "
                f"spurious); sure readings wrong {self.sure_wrong}/{self.sure}; face down "
                f"{self.face_down_seen}/{self.face_down} reported, "
                f"{self.face_down_spurious} spurious")

    def by_group(self) -> str:
        return "\n".join(f"    {name:<14} {n:4d} cards: found {found:4d}, refused {refused:3d}, "
                         f"missed {n - found - refused:4d}; spurious {spurious}"
                         for name, (n, found, refused, spurious) in sorted(self.groups.items()))

    def _count(self, group: str, slot: int) -> None:
        self.groups.setdefault(group, [0, 0, 0, 0])[slot] += 1

    def add(self, scene: Scene, seen: SeenCards, label: str) -> None:
        kind = scene.background.split(",")[0]
        found: set[int] = set()
        for card in seen.cards:
            i = nearest_card(scene, np.array(card.corners).mean(axis=0))
            placed = None if i is None else scene.cards[i]
            sure = card.confidence >= SURE
            if placed is None or i in found or placed.face_down:
                self.spurious += 1
                self._count(kind, 3)
                self.sure_wrong += sure
                self.sure += sure
                self.failures.append(f"{label}: spurious {card.card} at {card.confidence:.2f}")
                continue
            assert i is not None
            found.add(i)
            if placed.hidden:  # covered or cut: may be read, must not be read wrong surely
                if placed.card != card.card and sure:
                    self.sure_wrong += 1
                    self.sure += 1
                continue
            self.sure += sure
            if placed.card == card.card:
                self.correct += 1
            else:
                self.wrong += 1
                self.sure_wrong += sure
                self.failures.append(f"{label}: {placed.card} read as {card.card} at "
                                     f"{card.confidence:.2f}")
        downs = [nearest_card(scene, np.array(r.corners).mean(axis=0)) for r in seen.face_down]
        for i in downs:
            if i is None or not scene.cards[i].face_down:
                self.face_down_spurious += 1
                self._count("face down", 3)
        for i, placed in enumerate(scene.cards):
            if placed.face_down:
                self.face_down += 1
                self.face_down_seen += i in downs
                self._count("face down", 0)
                if i in downs or _refused(seen, placed):
                    self._count("face down", 1 if i in downs else 2)
            elif not placed.hidden:
                self.cards += 1
                groups = [kind] + (["touching"] if _touching(scene, i) else [])
                slot = 1 if i in found else 2 if _refused(seen, placed) else -1
                for group in groups:
                    self._count(group, 0)
                    if slot > 0:
                        self._count(group, slot)
                if i not in found:
                    self.missed += 1
                    self.failures.append(f"{label}: {placed.card} missed at {centre_of(placed)}")


def _refused(seen: SeenCards, placed: PlacedCard) -> bool:
    """Whether the card's centre lies inside a refused outline's box."""
    x, y = np.array(placed.corners).mean(axis=0)
    for r in seen.refused:
        box = np.array(r.corners)
        if box[:, 0].min() <= x <= box[:, 0].max() and box[:, 1].min() <= y <= box[:, 1].max():
            return True
    return False


def _touching(scene: Scene, i: int, gap: float = 6.0) -> bool:
    """Whether another card (face up or down) lies within ``gap`` pixels of card i."""
    mine = np.array(scene.cards[i].corners, np.float32)
    for j, other in enumerate(scene.cards):
        if j == i:
            continue
        theirs = np.array(other.corners, np.float32).reshape(-1, 1, 2)
        if any(cv2.pointPolygonTest(theirs, (float(x), float(y)), True) > -gap
               for x, y in mine) or any(
                cv2.pointPolygonTest(mine.reshape(-1, 1, 2), (float(x), float(y)), True) > -gap
                for x, y in theirs.reshape(-1, 2)):
            return True
    return False


def centre_of(placed: object) -> str:
    corners = np.array(placed.corners)  # type: ignore[attr-defined]
    x, y = corners.mean(axis=0)
    return f"({x:.0f}, {y:.0f})"


def measure(read: Callable[[np.ndarray], SeenCards], designs: tuple[str, ...],
            seeds: range, light: str | None = None, kind: str | None = None,
            pairs: bool = False) -> ArtScore:
    """Scores the reader on one scene per seed; ``pairs``: two cards touching, no hand."""
    decks = [load_deck(d) for d in designs]
    result = ArtScore()
    shown: dict[str, Any] = {"count": 2, "touching": 1.0, "hand": 0.0} if pairs else {}
    for seed in seeds:
        scene = art_scene(np.random.default_rng(seed), decks, light=light, kind=kind, **shown)
        result.add(scene, read(scene.image), f"seed {seed} {scene.background}")
    return result


CALIBRATION_SEED = 8_000_000  # the single-card scenes calibration learns from


def calibrated(reader: CardReader, design: str, tries: int = 3) -> CardReader:
    """The reader after ``calibrate cards`` on a deck of ``design``, as the command does it:
    each card shown alone (a scene on felt in normal light; another scene if the card is not
    found alone), both its corners learned, and the model's wrong readings recorded."""
    deck = [load_deck(design)]
    feats: list[np.ndarray] = []
    names: list[str] = []
    misread: set[str] = set()
    for i, card in enumerate(FULL_DECK):
        for k in range(tries):
            scene = art_scene(np.random.default_rng(CALIBRATION_SEED + 50 * i + k), deck,
                              cards=[card], light="normal", kind="felt", hand=0.0)
            corners = reader.corners_of_single_card(scene.image)
            if corners is None:
                continue
            seen = reader.read(scene.image).cards
            if seen and seen[0].card != card:
                misread.add(str(seen[0].card))
            feats += corners
            names += [str(card)] * len(corners)
            break
    out = CardReader(reader.rank_net, reader.suit_net)
    out.learn(np.array(feats), names, tuple(sorted(misread)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--designs", default=",".join(HELD_OUT_DESIGNS))
    parser.add_argument("--light", default="normal,warm,dim",
                        help=f"comma-separated, from {', '.join(LIGHTS)}, or 'any'")
    parser.add_argument("--seed", type=int, default=ART_TEST_SEED)
    parser.add_argument("--failures", type=int, default=0)
    parser.add_argument("--model", type=Path, default=MODEL_PATH,
                        help="the networks STEM_rank.npz and STEM_suit.npz to read with "
                             "(a leave-one-design-out fold's, say)")
    parser.add_argument("--kind", default=None, help="only this table kind")
    parser.add_argument("--pairs", action="store_true", help="two cards touching per scene")
    parser.add_argument("--by-table", action="store_true",
                        help="also the finder's figures per table kind, touching, face down")
    parser.add_argument("--calibrated", action="store_true",
                        help="read after calibrating on single-card scenes of each design")
    args = parser.parse_args(argv)
    model = CardReader.load(args.model)
    for design in args.designs.split(","):
        reader = calibrated(model, design) if args.calibrated else model
        for light in args.light.split(","):
            result = measure(reader.read, (design,), range(args.seed, args.seed + args.scenes),
                             None if light == "any" else light, args.kind, args.pairs)
            how = ", calibrated" if args.calibrated else ""
            print(f"{design}{how}, {light} light, {args.scenes} scenes: {result.summary()}",
                  flush=True)
            if args.by_table:
                print(result.by_group(), flush=True)
            for line in result.failures[: args.failures]:
                print("   ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
