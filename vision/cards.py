"""The card reader: find card-shaped quadrilaterals, straighten them, read the corner index.

    reader = CardReader.load()
    seen = reader.read(cv2.imread("table.jpg"))   # SeenCards(cards=[...], refused=[...])

1. vision/card_finder.py finds card-shaped quadrilaterals and refuses, with a reason,
   outlines it will not guess at (fanned or overlapping cards, a card cut by the picture's
   edge); backs it finds are reported face down.
2. Each card is warped to an upright 200x280 face. Both corners that carry the index look the
   same after a half turn, so the top-left corner is read whichever way up the card lies.
3. Two small MLPs (vision/mlp.py, weights in vision/models/cards_rank.npz and cards_suit.npz,
   trained on generated scenes by ``python -m vision.train.train_cards``) read the rank and
   the suit from the corner.
   Confidence is P(rank) * P(suit).
4. After ``companion calibrate cards`` the user's deck is known: each corner is also matched
   to the calibrated corners (nearest, with a ratio test). Where both agree the reading is
   surer; where they disagree the surer one is said, under 0.9 so that the session asks,
   unless the model's reading is one it gave wrongly for this deck at calibration (a French
   D read as Q): then the calibrated deck decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import RANKS, SUITS, Card
from vision.card_backs import looks_like_back
from vision.card_finder import FACE_DOWN, OVERLAP, Refused, balance, find_cards
from vision.card_pairs import (
    PAIR_MOST,
    PAIR_SURE,
    SEAM_SHARE,
    could_be_pair,
    half_faces,
    half_quads,
    seam,
)
from vision.cnn import ConvNet
from vision.dice_features import hog
from vision.memory import keep_freed_memory
from vision.mlp import MLP
from vision.picture import unreadable
from vision.quantiles import byte_percentile, float_percentile

MODEL_PATH = Path(__file__).resolve().parent / "models" / "cards.npz"
FACE_W, FACE_H = 200, 280
WORK_WIDTH = 960
LINEAR_FROM = 0.7  # a frame scaled by this or more to WORK_WIDTH is interpolated
BACK = "back"  # the rank network's last class: the corner of a card's back


@dataclass(frozen=True)
class SeenCard:
    card: Card
    corners: tuple[tuple[float, float], ...]  # TL, TR, BR, BL of the upright face, in pixels
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"card": str(self.card), "corners": [[round(x, 1), round(y, 1)]
                                                    for x, y in self.corners],
                "confidence": round(self.confidence, 3)}



@dataclass
class SeenCards:
    cards: list[SeenCard] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    face_down: list[Refused] = field(default_factory=list)  # backs up: seen, not read


def straighten(image: NDArray[Any], quad: NDArray[Any]) -> NDArray[Any]:
    dst = np.array([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]],
                   np.float32)
    m = cv2.getPerspectiveTransform(quad, dst)
    face: NDArray[Any] = cv2.warpPerspective(image, m, (FACE_W, FACE_H),
                                                  flags=cv2.INTER_LINEAR)
    return face


# the index is looked for in this part of the upright face (x1, y1): every design seen keeps
# its rank and suit symbol within it, wherever it puts them and however large
INDEX_AREA = (64, 112)
# the ink level (0..1, of the darkest ink in the area) of an index glyph's strokes: a thin red
# stroke, blurred, reaches about a third of a large black pip's
INK = 0.22
# a straight run of ink this long (of the index area's width, of its height) is a line:
# a card's frame or the table's edge, never a rank's or suit's stroke
LINE_ROW = 0.45
LINE_COLUMN = 0.4
LINE_BAND = 8  # pixels from the area's edge where such a line is looked for
# a shape beside the line taken off, lower or narrower than this (of the area's height,
# of its width), is what is left of the line: a rank glyph is taller, a suit wider
LINE_REST = 0.1
# a shape beside the rank glyph is part of it (the 0 of a 10) only if at most this much
# taller than the first glyph, and reaching at most this much (of its height) lower
BESIDE_TALLER = 1.2
BESIDE_LOWER = 0.12
EDGE_GLYPH = 0.4  # a glyph cut by the area's edge is at most this wide (high) of the area
RANK_SIZE = (16, 24)  # the rank glyph, stretched to this (w, h) whatever its size
SUIT_SIZE = (16, 16)


def _ink(patch: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Ink (0..1) of a BGR patch: how far its darkest channel lies below the paper's, so
    that red, green or yellow ink counts as well as black; and the patch with its paper
    (85th percentile per channel) made white: what is left of a warm bulb's cast after
    balance() must not make black ink red (black read as diamonds was the worst failure)."""
    # (byte_percentile and float_percentile: np.percentile's figures, a fifth of its time)
    paper = byte_percentile(patch.reshape(-1, 3), 85)
    balanced = np.clip(patch.astype(np.float32) * (235.0 / np.maximum(paper, 20.0)), 0, 255)
    # the least of the three channels (min over the last axis: twenty times slower)
    ink = 235.0 - np.minimum(np.minimum(balanced[..., 0], balanced[..., 1]), balanced[..., 2])
    ink -= float_percentile(ink, 20)  # paper to zero, whatever the lighting
    out: NDArray[Any] = np.clip(ink / (ink.max() + 8.0), 0, 1)
    return out, balanced


def _box_of(stats: NDArray[Any] | list[list[int]], picked: list[int]
            ) -> tuple[int, int, int, int]:
    """The box around the picked shapes of connectedComponentsWithStats' ``stats`` (or of
    its rows as lists: find_index reads them so, a third faster than numpy's scalars)."""
    rows = [[int(v) for v in stats[i][:4]] for i in picked]
    return (min(r[0] for r in rows), min(r[1] for r in rows),
            max(r[0] + r[2] for r in rows), max(r[1] + r[3] for r in rows))


def _cut_glyph(labels: NDArray[Any], stats: NDArray[Any], i: int, width: int) -> None:
    """A shape reaching from the index's column far to the right is a glyph touching a large
    pip or a picture (a court card's): cut it at its thinnest column between 6 pixels and
    0.45 of the area's width, and keep the left part (labels and stats changed in place)."""
    x, y, bw, bh = (int(v) for v in stats[i, :4])
    inside = labels[y:y + bh, x:x + bw] == i
    columns = inside.sum(axis=0)
    lo, hi = 6, min(int(0.45 * width) - x, bw - 1)
    if hi <= lo:
        return
    cut = lo + int(np.argmin(columns[lo:hi]))
    inside[:, cut:] = False
    ys, xs = np.nonzero(inside)
    region = labels[y:y + bh, x:x + bw]
    region[(region == i) & ~inside] = 0
    if len(xs):
        stats[i] = (x + xs.min(), y + ys.min(), xs.max() + 1 - xs.min(),
                    ys.max() + 1 - ys.min(), len(xs))
    else:
        stats[i, 4] = 0


def find_index(ink: NDArray[Any]) -> tuple[list[int], list[int], NDArray[Any], NDArray[Any]]:
    """The connected ink shapes of the rank glyph and of the suit symbol under it in an index
    area's ink: the rank is the shape nearest the corner (with the shapes beside it of about
    its height: the 1 and 0 of a 10), the suit the first shape below it. Shapes that run
    along the area's edge (a border line, the table beyond the card) or out of it (a court
    picture, a large pip) are not the index. Returns the two lists of labels, the labels
    image and the shapes' stats (empty lists when no index is found)."""
    binary = (ink > INK).astype(np.uint8)
    found = _index_shapes(binary, None)
    if found[0] and found[1]:
        return found
    # a dark frame along the card's edge, or the table beyond a quad fitted a little inside
    # the card, joins a glyph set close to the edge (bellot's index) into one shape along
    # the area's edge, which is no index: where no whole index was found, long straight
    # runs of ink along the top and the left edge (a pip is wider than a line, but never
    # this near the edge) are taken off, with a pixel round them, and the shapes found
    # again; kept only if a rank and a suit are found so (an index found whole stays as
    # it was, as the networks were trained on it)
    h, w = ink.shape
    straight: NDArray[Any] = np.zeros_like(binary)
    for band, kernel in (((slice(0, LINE_BAND), slice(None)), (1, int(LINE_ROW * w))),
                         ((slice(None), slice(0, LINE_BAND)), (int(LINE_COLUMN * h), 1))):
        straight[band] |= cv2.morphologyEx(binary[band], cv2.MORPH_OPEN,
                                           np.ones(kernel, np.uint8),
                                           borderType=cv2.BORDER_CONSTANT, borderValue=0)
    line: NDArray[Any] | None = None
    if straight.any():
        line = cv2.dilate(straight, np.ones((3, 3), np.uint8))
        binary[line > 0] = 0
        again = _index_shapes(binary, line)
        if again[0] and again[1]:
            return again
    # a design whose index stands a few pixels from the card's edge (bellot's) has its
    # rank cut by the top (or left) of a face fitted a little inside the card: a glyph
    # touching one edge of the area, no wider than a rank, is taken too, last
    cut = _index_shapes(binary, line, edge=True)
    return cut if cut[0] and cut[1] else found


def _index_shapes(binary: NDArray[Any], line: NDArray[Any] | None, edge: bool = False
                  ) -> tuple[list[int], list[int], NDArray[Any], NDArray[Any]]:
    """find_index on the ink's mask (``line``: the line taken off it, or None; ``edge``:
    shapes touching the top or the left edge of the area, not both, are glyphs too if
    narrow)."""
    h, w = binary.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    # what is left of a line taken off (a rounded corner's arc, a slanted line's steps)
    # lies beside it: low, narrow, or within the band
    beside = set() if line is None else set(np.unique(
        labels[cv2.dilate(line, np.ones((3, 3), np.uint8)) > 0]).tolist())
    shapes = []
    rows = stats.tolist()  # Python ints: the loops below read them often
    for i in range(1, count):
        x, y, bw, bh, area = rows[i]
        if i in beside and (bh < LINE_REST * h or bw <= LINE_REST * w
                            or x + bw <= LINE_BAND + 1):
            continue
        if x < 0.3 * w and x + bw > 0.6 * w and area >= 6:
            _cut_glyph(labels, stats, i, w)
            rows[i] = stats[i].tolist()
            x, y, bw, bh, area = rows[i]
        if area < 6 or bh < 5:
            continue
        if x + bw >= w - 1 or y + bh >= h - 1:  # runs out of the area
            continue
        if (x <= 0 or y <= 0) and not (edge and (x > 0 or y > 0) and bw <= EDGE_GLYPH * w
                                       and bh <= EDGE_GLYPH * h):
            continue  # a line along the card's edge, or the table beyond it
        if bh > 0.45 * h or bw > 0.8 * w:
            continue
        shapes.append(i)
    if not shapes:
        return [], [], labels, stats
    first = min(shapes, key=lambda i: rows[i][0] + rows[i][1])
    rank = [first]
    height = int(rows[first][3])
    for i in sorted(shapes, key=lambda i: rows[i][0]):
        if i == first:
            continue
        x0, y0, x1, y1 = _box_of(rows, rank)
        x, y, bw, bh = rows[i][:4]
        overlap = min(y1, y + bh) - max(y0, y)
        # the 0 of a 10 stands on the 1's line; a design's large pip beside a court
        # letter (neoclassical's J and Q) is taller and reaches lower
        if (overlap >= 0.6 * min(bh, height) and 0.6 <= bh / height <= BESIDE_TALLER
                and y + bh - y1 <= BESIDE_LOWER * height
                and x >= x0 and x - x1 <= 0.6 * height
                and max(x1, x + bw) - x0 <= 1.7 * height):
            rank.append(i)
    x0, y0, x1, y1 = _box_of(rows, rank)
    below = [i for i in shapes if i not in rank and rows[i][1] >= y1 - 2
             and x0 - 0.6 * height <= rows[i][0] + rows[i][2] / 2 <= x1 + 0.6 * height
             and rows[i][1] - y1 <= 1.5 * height]
    if not below:
        return rank, [], labels, stats
    top = min(below, key=lambda i: rows[i][1])
    sx0, sy0, sx1, sy1 = _box_of(rows, [top])
    suit = [top] + [i for i in below if i != top and sx0 - 3 <= rows[i][0] + rows[i][2] / 2
                    <= sx1 + 3 and sy0 - 3 <= rows[i][1] + rows[i][3] / 2 <= sy1 + 3]
    return rank, suit, labels, stats


def _glyph(ink: NDArray[Any], labels: NDArray[Any], stats: NDArray[Any], picked: list[int],
           size: tuple[int, int]) -> NDArray[Any]:
    """The ink of the picked shapes only, cut to their box and stretched to ``size``."""
    x0, y0, x1, y1 = _box_of(stats, picked)
    chosen = np.zeros(len(stats), np.uint8)  # per label: picked (np.isin's, by lookup)
    chosen[picked] = 1
    mine: NDArray[Any] = cv2.dilate(chosen[labels[y0:y1, x0:x1]], np.ones((3, 3), np.uint8))
    crop = (ink[y0:y1, x0:x1] * mine).astype(np.float32)
    out: NDArray[Any] = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return out


def corner_features(face: NDArray[Any]) -> NDArray[Any]:
    """Features of the index in the top-left corner of an upright face: the rank glyph and
    the suit symbol each cut to its own box and scaled to one size (designs put their index
    at other places and sizes), their ink and gradients, the ink's colour, and a coarse
    picture of the whole corner (a card's back has no index)."""
    w, h = INDEX_AREA
    patch = face[:h, :w]
    ink, balanced = _ink(patch)
    rank, suit, labels, stats = find_index(ink)
    if rank:
        glyph = _glyph(ink, labels, stats, rank, RANK_SIZE)
        rx0, ry0, rx1, ry1 = _box_of(stats, rank)
    else:
        glyph = cv2.resize(ink[: h // 3, : w // 2], RANK_SIZE, interpolation=cv2.INTER_AREA)
        rx0, ry0, rx1, ry1 = 0, 0, w // 2, h // 3
    if suit:
        pip = _glyph(ink, labels, stats, suit, SUIT_SIZE)
        sx0, sy0, sx1, sy1 = _box_of(stats, suit)
    else:
        pip = cv2.resize(ink[h // 3: 2 * h // 3, : w // 2], SUIT_SIZE,
                         interpolation=cv2.INTER_AREA)
        sx0, sy0, sx1, sy1 = 0, h // 3, w // 2, 2 * h // 3
    rh = max(ry1 - ry0, 1)
    shape = np.array([float(bool(rank)), float(bool(suit)), (rx1 - rx0) / rh,
                      (sx1 - sx0) / max(sy1 - sy0, 1), (sy1 - sy0) / rh], np.float32)
    mask = np.zeros(ink.shape, bool)
    for x0, y0, x1, y1 in ((rx0, ry0, rx1, ry1), (sx0, sy0, sx1, sy1)):
        mask[y0:y1, x0:x1] = True
    mask &= ink > INK
    b, g, r = (balanced[..., i].astype(np.float32) for i in range(3))
    if mask.any():
        colour = np.array([(r - np.maximum(g, b))[mask].mean(), (b - r)[mask].mean(),
                           (g - r)[mask].mean()], np.float32) / 128.0
    else:
        colour = np.zeros(3, np.float32)
    glyph_u8 = np.clip(glyph * 255, 0, 255).astype(np.uint8)
    pip_u8 = np.clip(pip * 255, 0, 255).astype(np.uint8)
    coarse = cv2.resize(ink, (8, 14), interpolation=cv2.INTER_AREA)
    parts = [glyph.ravel(), hog(cv2.resize(glyph_u8, (24, 32)), cell=8), pip.ravel(),
             hog(cv2.resize(pip_u8, (24, 24)), cell=6), shape, colour, coarse.ravel(),
             np.array([ink.mean(), (ink > 0.4).mean()], np.float32)]
    return np.concatenate(parts).astype(np.float32)


TEMPLATES_FILE = "vision_cards.npz"
# the networks are overconfident on index lettering they never saw: a temperature on their
# logits (p ** (1 / T), renormalised) before the confidence is taken. Chosen on validation
# scenes of the French deck's number cards (English-like indices, never trained on; seeds
# 6,000,000..6,000,069, three lights, 231 corners): at T = 1, 4 of 96 sure readings were
# wrong; at 1.5, 0 of 12; at 2, none was sure. Not chosen on the held-out test design.
# Raised to 2 (2026-11-27, issue 15): on validation scenes of the four English designs, each
# read by networks trained without it (seeds 6,000,000..6,000,199, three lights), 18 of
# 3,405 sure readings were wrong at 1.5 (anglo-poker's 3 read as 5 in both corners), 9 of
# 3,154 at 1.75, 4 of 2,752 at 2: the least T with at most 1 in 400 (the test seeds had
# shown twice validation's rate before)
TEMPERATURE = 2.0


def _soften(p: NDArray[Any]) -> NDArray[Any]:
    q = np.power(np.maximum(p, 1e-12), 1.0 / TEMPERATURE)
    out: NDArray[Any] = q / q.sum(axis=1, keepdims=True)
    return out


def _agree(p: NDArray[Any], q: NDArray[Any]) -> NDArray[Any]:
    """Per row, the normalised geometric mean of two probability vectors."""
    g = np.sqrt(p * q)
    out: NDArray[Any] = g / np.maximum(g.sum(axis=1, keepdims=True), 1e-12)
    return out


# where corner_features puts the rank glyph (its ink and gradients), the suit symbol's and
# the ink's colour: calibration matches a deck's glyphs on these
_RANK_LEN = RANK_SIZE[0] * RANK_SIZE[1] + (32 // 8) * (24 // 8) * 9
_SUIT_LEN = SUIT_SIZE[0] * SUIT_SIZE[1] + (24 // 6) * (24 // 6) * 9
_COLOUR = slice(_RANK_LEN + _SUIT_LEN + 5, _RANK_LEN + _SUIT_LEN + 8)
RATIO = 0.8  # a learned glyph is used where it is this much nearer than another class's
# both corners' glyphs together pick the rank, where the model's rank is one it gave wrongly
# for this deck at calibration and neither corner alone matched a learned rank (issue 15)
VOTE_RATIO = 0.97


_GLYPH_LEN = RANK_SIZE[0] * RANK_SIZE[1]  # the rank glyph's ink leads corner_features


class GlyphRanks:
    """The rank read by the rank MLP and a small convolutional network (vision/cnn.py) on
    the rank glyph's ink (the first part of corner_features, RANK_SIZE) as a picture: the
    mean of the two networks' probabilities. Whether the corner is a card's back is the
    MLP's alone (the glyph alone tells a back badly: a court letter's ink was read as one).
    Reads feature rows as the MLP does, with its classes (the ranks, then the back)."""

    def __init__(self, mlp: MLP, cnn: ConvNet) -> None:
        self.mlp = mlp
        self.cnn = cnn
        self.classes = mlp.classes

    def probabilities(self, feats: NDArray[Any]) -> NDArray[Any]:
        return self.both(feats)[0]

    def both(self, feats: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        """The mean's probabilities, and the MLP's own (read_features checks an outline
        found by edges alone by them too)."""
        rows = np.asarray(feats, np.float32)
        mlp = self.mlp.probabilities(rows)
        back = mlp[:, len(RANKS):]
        glyphs = rows[:, :_GLYPH_LEN].reshape(len(rows), RANK_SIZE[1], RANK_SIZE[0], 1)
        ranks = self.cnn.probabilities(glyphs)[:, :len(RANKS)]
        # the CNN's ranks share what the MLP leaves to the ranks, then meet the MLP's halfway
        ranks = ranks / np.maximum(ranks.sum(axis=1, keepdims=True), 1e-12)
        ranks = 0.5 * (mlp[:, :len(RANKS)] + ranks * (1 - back.sum(axis=1, keepdims=True)))
        out: NDArray[Any] = np.concatenate([ranks, back], axis=1).astype(np.float32)
        return out, mlp


def _both_corners(faces: list[NDArray[Any]]) -> tuple[NDArray[Any], NDArray[Any]]:
    """The index corners' features of upright faces: the top left one's, and the other's
    (the same corner after a half turn), one row per face."""
    feats = np.stack([corner_features(f) for f in faces])
    other = np.stack([corner_features(np.ascontiguousarray(f[::-1, ::-1])) for f in faces])
    return feats, other


def _unit(x: NDArray[Any]) -> NDArray[Any]:
    x = x - x.mean(axis=1, keepdims=True)
    out: NDArray[Any] = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-6)
    return out


def _rank_part(feats: NDArray[Any]) -> NDArray[Any]:
    return _unit(np.asarray(feats, np.float32)[:, :_RANK_LEN])


def _suit_part(feats: NDArray[Any]) -> NDArray[Any]:
    """The suit symbol's shape and the ink's colour (a four-colour deck's suits differ in
    colour as much as in shape)."""
    feats = np.asarray(feats, np.float32)
    shape = _unit(feats[:, _RANK_LEN:_RANK_LEN + _SUIT_LEN])
    out: NDArray[Any] = np.concatenate([shape, 0.5 * feats[:, _COLOUR]], axis=1)
    return out


def _nearest(bank: NDArray[Any], classes: NDArray[Any], row: NDArray[Any]) -> tuple[
        int | None, float]:
    """The class of the nearest row of ``bank``, if the nearest of any other class is
    clearly farther (RATIO), and the margin (1 - the ratio of the two distances)."""
    dist = np.linalg.norm(bank - row, axis=1)
    best = int(np.argmin(dist))
    others = dist[classes != classes[best]]
    if not len(others):
        return None, 0.0
    ratio = float(dist[best] / max(float(others.min()), 1e-6))
    return (int(classes[best]), 1 - ratio) if ratio <= RATIO else (None, 0.0)


class CardReader:
    def __init__(self, rank_net: MLP | GlyphRanks, suit_net: MLP) -> None:
        self.rank_net = rank_net
        self.suit_net = suit_net
        self.min_area_fraction = 0.006  # of the frame; smaller outlines are not cards
        # the user's own deck (companion calibrate cards): corner features and card names
        self.templates: tuple[NDArray[Any], NDArray[Any], list[str]] | None = None
        self.misread: frozenset[str] = frozenset()  # readings wrong for this deck
        self.misread_ranks: frozenset[str] = frozenset()  # their ranks

    def learn(self, templates: NDArray[Any], names: list[str],
              misread: tuple[str, ...] = ()) -> None:
        """Use a calibrated deck: corner features (as corner_features gives) per card, and
        the readings the general model gave wrongly for this deck's cards at calibration
        (for a French deck's D, say, it may read Q surely: such a reading is no evidence).
        The rank glyphs and the suit symbols are learned apart: a rank is matched to the
        deck's glyphs of that rank in every suit, a suit to its symbols under every rank."""
        feats = np.asarray(templates, np.float32)
        self.templates = (_rank_part(feats), _suit_part(feats), list(names))
        self.misread = frozenset(misread)
        self.misread_ranks = frozenset(m[:-1] for m in misread)

    def corners_of_single_card(self, image: NDArray[Any]) -> list[NDArray[Any]] | None:
        """Both corner features of the one card in the picture (calibration), else None."""
        _, faces, refused, _, _ = self.faces(image)
        if len(faces) != 1 or refused:
            return None
        face = faces[0]
        return [corner_features(face), corner_features(np.ascontiguousarray(face[::-1, ::-1]))]

    def _by_template(self, feats: NDArray[Any]) -> list[tuple[int | None, int | None, float]]:
        """Per corner, the rank and the suit of the nearest learned glyphs, each only if
        clearly nearer than any glyph of another rank (suit): the distance to the nearest
        other at least 1.25 times the distance to the nearest (ratio test); and the least
        margin of the two (0..1)."""
        if self.templates is None:
            return [(None, None, 0.0)] * len(feats)
        rank_bank, suit_bank, names = self.templates
        ranks = np.array([RANKS.index(n[:-1]) for n in names])
        suits = np.array([SUITS.index(n[-1]) for n in names])
        out: list[tuple[int | None, int | None, float]] = []
        for r_row, s_row in zip(_rank_part(feats), _suit_part(feats), strict=True):
            rank, r_margin = _nearest(rank_bank, ranks, r_row)
            suit, s_margin = _nearest(suit_bank, suits, s_row)
            margins = [m for m, v in ((r_margin, rank), (s_margin, suit)) if v is not None]
            out.append((rank, suit, min(margins) if margins else 0.0))
        return out

    def _one_learned_card(self, a: NDArray[Any], b: NDArray[Any]) -> bool:
        """Whether both corners clearly match one learned card (rank and suit): a calibrated
        deck's own index that the model reads as two cards (a French A as 10 and J)."""
        (ra, sa, _), (rb, sb, _) = self._by_template(np.stack([a, b]))
        return ra is not None and sa is not None and (ra, sa) == (rb, sb)

    def _rank_vote(self, a: NDArray[Any], b: NDArray[Any]) -> tuple[int | None, float]:
        """The rank whose learned glyphs lie nearest to both corners' glyphs together (per
        rank, the nearest glyph's distance from each corner, summed), if the next rank's sum
        is at least VOTE_RATIO times farther; and that ratio."""
        if self.templates is None:
            return None, 1.0
        rank_bank, _, names = self.templates
        ranks = np.array([RANKS.index(n[:-1]) for n in names])
        rows = _rank_part(np.stack([a, b]))
        total = np.zeros(len(RANKS), np.float32)
        for row in rows:
            dist = np.linalg.norm(rank_bank - row, axis=1)
            total += np.array([dist[ranks == k].min() if (ranks == k).any() else np.inf
                               for k in range(len(RANKS))], np.float32)
        best, second = np.argsort(total)[:2]
        if not np.isfinite(total[second]):  # one rank learned: nothing to choose between
            return None, 1.0
        ratio = float(total[best] / max(float(total[second]), 1e-6))
        return (int(best), ratio) if ratio <= VOTE_RATIO else (None, ratio)

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> CardReader:
        rank_path = path.with_name(path.stem + "_rank.npz")
        suit_path = path.with_name(path.stem + "_suit.npz")
        if not rank_path.is_file() or not suit_path.is_file():
            raise FileNotFoundError(f"no card model at {rank_path}: run python -m "
                                    "vision.train.train_cards")
        rank_mlp, _ = MLP.load(rank_path)
        suit_net, _ = MLP.load(suit_path)
        # the rank glyph's network (STEM_glyph.npz), where there is one, reads the rank
        glyph_path = path.with_name(path.stem + "_glyph.npz")
        rank_net: MLP | GlyphRanks = rank_mlp
        if glyph_path.is_file():
            rank_net = GlyphRanks(rank_mlp, ConvNet.load(glyph_path)[0])
        keep_freed_memory()  # a frame's arrays reused, not page-faulted afresh (vision/memory.py)
        return cls(rank_net, suit_net)

    def faces(self, image: NDArray[Any], edges: bool = True) -> tuple[
            list[NDArray[Any]], list[NDArray[Any]], list[Refused], float, list[bool]]:
        """Card quadrilaterals (input pixels), upright faces, refusals, the work scale, and
        per card whether only the image's edges found it (see find_cards)."""
        why = unreadable(image)
        if why:
            raise ValueError(f"the picture cannot be read: {why}")
        h, w = image.shape[:2]
        factor = min(1.0, WORK_WIDTH / w)
        # averaging over areas costs five times more than interpolating from 1280 to 960,
        # where every pixel still counts in a sample (a step of 4/3); at steps of 1.43 or
        # more, pixels would fall between the samples
        how = cv2.INTER_LINEAR if factor >= LINEAR_FROM else cv2.INTER_AREA
        work = image if factor == 1.0 else cv2.resize(image, (round(w * factor),
                                                              round(h * factor)),
                                                      interpolation=how)
        work = balance(work)
        quads, refused, by_edges = find_cards(
            work, self.min_area_fraction * work.shape[0] * work.shape[1], edges)
        faces = [straighten(work, q) for q in quads]
        quads = [q / factor for q in quads]
        refused = [Refused(tuple((x / factor, y / factor) for x, y in r.corners), r.reason)
                   for r in refused]
        return quads, faces, refused, factor, by_edges

    def warm_up(self, width: int, height: int) -> SeenCards:
        """Read a drawn card (white, a 7 in its corner, on green) on a picture of the
        camera's size before the first frame is due: a process's first reading pays for
        OpenCV's Lab tables and numpy's lazy imports, about 100 ms of CPU that would
        otherwise fall on the first card laid (as DiceReader.warm_up). What it read is
        returned."""
        width, height = max(width, 320), max(height, 240)
        frame = np.full((height, width, 3), (40, 90, 40), np.uint8)
        side = height * 0.28
        x0, y0 = round(width / 2 - side * 0.36), round(height / 2 - side / 2)
        x1, y1 = round(width / 2 + side * 0.36), round(height / 2 + side / 2)
        cv2.rectangle(frame, (x0, y0), (x1, y1), (235, 235, 235), -1)
        cv2.putText(frame, "7", (x0 + 4, y0 + round(side * 0.16)), cv2.FONT_HERSHEY_SIMPLEX,
                    side / 200, (20, 20, 20), 2)
        return self.read(frame)

    def read(self, image: NDArray[Any]) -> SeenCards:
        quads, faces, refused, _, by_edges = self.faces(image)
        if not faces:
            return self.read_faces(quads, faces, refused, by_edges)
        feats, other = _both_corners(faces)
        seen = self.read_features(quads, feats, other, refused, by_edges, faces)
        return self._pairs_apart(seen, quads, faces, feats, other)

    def _pairs_apart(self, seen: SeenCards, quads: list[NDArray[Any]],
                     faces: list[NDArray[Any]], feats: NDArray[Any],
                     other: NDArray[Any]) -> SeenCards:
        """Two cards touching along their long sides have one card's outline, whose two
        corners read differently (asked, refused as overlapping, or read as a back): each
        such outline with a seam across its middle is cut in two (vision/card_pairs.py),
        kept so if each half's own corners read one card."""
        rank_a, rank_b = self.rank_net.probabilities(feats), self.rank_net.probabilities(other)
        suit_a, suit_b = self.suit_net.probabilities(feats), self.suit_net.probabilities(other)
        differ = ((rank_a.argmax(axis=1) != rank_b.argmax(axis=1))
                  | (suit_a.argmax(axis=1) != suit_b.argmax(axis=1)))
        for k in np.flatnonzero(differ):
            quad = quads[k]
            corners = tuple((float(x), float(y)) for x, y in quad)
            mine = [c for c in seen.cards if c.corners == corners]
            refused = [r for r in seen.refused if r.corners == corners and r.reason == OVERLAP]
            down = [r for r in seen.face_down if r.corners == corners]
            if not (mine or refused or down) or not could_be_pair(quad) or (
                    seam(faces[k]) < SEAM_SHARE):
                continue  # (reading the halves costs 11 ms; the seam 0.1)
            # as found by edges: a half whose corners disagree is refused, not read
            two = self.read_faces(half_quads(quad), half_faces(faces[k]), [], [True, True])
            if (len(two.cards) != 2 or two.refused or two.face_down
                    or min(c.confidence for c in two.cards) < PAIR_SURE):
                continue  # halves of one card, or of a card and the table, read as cards
            # the cut is a guess about the outline: never said without asking
            halves = [SeenCard(c.card, c.corners, min(c.confidence, PAIR_MOST)) for c in two.cards]
            seen.cards = [c for c in seen.cards if c not in mine] + halves
            seen.refused = [r for r in seen.refused if r not in refused]
            seen.face_down = [r for r in seen.face_down if r not in down]
        return seen

    def read_faces(self, quads: list[NDArray[Any]], faces: list[NDArray[Any]],
                   refused: list[Refused], by_edges: list[bool]) -> SeenCards:
        """read() on the finder's outlines and upright faces (as faces() gives them)."""
        if not faces:
            empty = np.zeros((0, 0), np.float32)
            return self.read_features(quads, empty, empty, refused, by_edges)
        feats, other = _both_corners(faces)
        return self.read_features(quads, feats, other, refused, by_edges, faces)

    def read_features(self, quads: list[NDArray[Any]], feats: NDArray[Any],
                      other: NDArray[Any], refused: list[Refused],
                      by_edges: list[bool], faces: list[NDArray[Any]] | None = None
                      ) -> SeenCards:
        """read_faces() on both index corners' features (corner_features of the upright
        face and of the face turned half round), one row per outline; ``faces``, if given,
        are looked at for a back the network missed (vision/card_backs.py)."""
        # backs found by the finder itself (on a pale table) come as refusals
        out = SeenCards(refused=[r for r in refused if r.reason != FACE_DOWN],
                        face_down=[r for r in refused if r.reason == FACE_DOWN])
        if not quads:
            return out
        # the geometric mean of both corners' readings, so that a corner spoilt by glare
        # or blur is outvoted
        alone_a = alone_b = None
        if isinstance(self.rank_net, GlyphRanks):
            # with the MLP's own ranks: an outline found by edges alone must read one card
            # by them too (the mean is softer, and a fan's two cards' corners agreed by it:
            # generated validation fan 500,011)
            (rank_a, mlp_a), (rank_b, mlp_b) = self.rank_net.both(feats), self.rank_net.both(other)
            alone_a, alone_b = mlp_a.argmax(axis=1), mlp_b.argmax(axis=1)
        else:
            rank_a, rank_b = self.rank_net.probabilities(feats), self.rank_net.probabilities(other)
        suit_a, suit_b = self.suit_net.probabilities(feats), self.suit_net.probabilities(other)
        ranks, suits = _agree(rank_a, rank_b), _agree(suit_a, suit_b)
        backs = np.zeros(len(quads), np.float32)
        if len(self.rank_net.classes) > len(RANKS):  # the last class is a card's back
            backs = ranks[:, len(RANKS)]
            ranks = ranks[:, : len(RANKS)] / np.maximum(
                ranks[:, : len(RANKS)].sum(axis=1, keepdims=True), 1e-9)
            rank_a, rank_b = rank_a[:, : len(RANKS)], rank_b[:, : len(RANKS)]
        ranks, suits = _soften(ranks), _soften(suits)
        for k, (quad, pr, ps, known) in enumerate(zip(quads, ranks, suits,
                                                      self._by_template(feats), strict=True)):
            corners = tuple((float(x), float(y)) for x, y in quad)
            if backs[k] >= 0.5:  # a card lying face down: seen, never read
                out.face_down.append(Refused(corners, FACE_DOWN))
                continue
            first = (int(np.argmax(rank_a[k])), int(np.argmax(suit_a[k])))
            second = (int(np.argmax(rank_b[k])), int(np.argmax(suit_b[k])))
            sure = min(rank_a[k].max(), suit_a[k].max(), rank_b[k].max(), suit_b[k].max())
            red = (SUITS[first[1]] in "HD", SUITS[second[1]] in "HD")
            if faces is not None and (first != second or sure < 0.9) and looks_like_back(
                    faces[k]):
                # the same all over, and no sure index in its corners: a back the network
                # does not know (a sure reading in both corners is a face, kept)
                out.face_down.append(Refused(corners, FACE_DOWN))
                continue
            if by_edges[k] and (first != second or (
                    alone_a is not None and alone_b is not None and alone_a[k] != alone_b[k])):
                # found by edges alone, the outline may still be two cards (a fan whose
                # cards the edges do not part): only if both corners read the same card
                out.refused.append(Refused(corners, OVERLAP))
                continue
            if sure >= 0.9 and (first[0] != second[0] or red[0] != red[1]) and not (
                    self._one_learned_card(feats[k], other[k])):
                # two different cards, each clearly read (a rank, or a suit's colour: a
                # club and a spade can be confused), in the two index corners of one
                # outline: two cards lying almost exactly on each other
                out.refused.append(Refused(corners, OVERLAP))
                continue
            rank = int(np.argmax(pr))
            suit = int(np.argmax(ps))
            card = Card.parse(RANKS[rank] + SUITS[suit])
            confidence = float(pr[rank] * ps[suit])
            t_rank, t_suit, margin = known
            # a learned glyph's own confidence: sure (0.9) only where the nearest other
            # class is five times farther (a scene's glyph is seldom that close to its own)
            learned_sure = 0.5 + 0.5 * margin
            if t_rank is not None or t_suit is not None:
                learned = Card.parse(RANKS[rank if t_rank is None else t_rank]
                                     + SUITS[suit if t_suit is None else t_suit])
                if learned == card:  # both say so: surer
                    confidence = max(confidence, learned_sure)
                elif str(card) in self.misread:
                    # the model gave this reading wrongly for this deck's cards at
                    # calibration: the learned deck decides, as sure as its own match
                    card, confidence = learned, min(learned_sure, 0.99)
                else:
                    # they disagree: the reading said is the surer one's, but never sure,
                    # so that the session asks (a calibrated deck never raises a reading
                    # the model disagrees with)
                    if confidence < learned_sure:
                        card = learned
                    confidence = min(confidence, learned_sure, 0.85)
            if t_rank is None and str(card)[:-1] in self.misread_ranks:
                # the learned deck matched no rank glyph (none clearly nearest), and the
                # model gave this rank wrongly for this deck at calibration (a German D read
                # as 10, a B as 8, surely): not sure without the deck's confirmation
                confidence = min(confidence, 0.85)
                voted, _ = self._rank_vote(feats[k], other[k])
                if voted is not None and RANKS[voted] != str(card)[:-1]:
                    # both corners' glyphs together are nearer another rank of this deck
                    # (its B and 8 differ by little): that rank is said, and asked
                    card = Card.parse(RANKS[voted] + str(card)[-1])
                    confidence = min(confidence, 0.5)
            if first != second:  # the corners disagree: ask
                confidence = min(confidence, 0.5)
            out.cards.append(SeenCard(card, corners, min(confidence, 1.0)))
        return out
