"""Learning the players' own dice from a few confirmed throws (``companion calibrate dice``).

The reader's network ends in one linear layer over its features (vision/cnn.py). Shown a
few throws of the players' dice at the calibrated scale, with the values the player
confirmed, that layer is fitted again: the candidates at each die are that value, the
candidates away from every die (the tray, its walls, the table) are "none", each in its four
turns and their mirror images. The fit is pulled towards the shipped layer (``PULL``), so that
a handful of throws moves it towards these dice without forgetting values it was not shown.
With a pair of networks (vision.cnn.NetMean) each learns its own layers (``partners``).
Besides, the faces' and pips' colour and the die size are measured and said back in words,
and the pips' contrast sets a bar for extra candidates where pips are (learn_pips,
vision/dice_pip_points.py), for dice the finder does not propose.

Stored in vision.json under ``dice.learned`` (docs/vision.md): the layer (float16, base64),
the shipped model's fingerprint (a layer learned on another model is not used) and what was
learned, in words.
"""

from __future__ import annotations

import base64
import hashlib
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cnn import ConvNet, NetMean
from vision.dice import DIE_SIDE, MERGE, THRESHOLD, DiceReader, Die, Point
from vision.dice_pip_points import PipPoints, map_at, pip_map

POSITIVE = 0.3  # a candidate within this many die sides of a confirmed die shows it ...
NEGATIVE = 0.8  # ... and one farther than this from every die shows none
NEGATIVES = 40  # the most "none" candidates taken from one throw
# weight of the pull towards the shipped layer: on close-ups left out of training, 0.02 and
# 0.5 read the other photos worse after learning (53.6%, 54.7% against 55.7%), 5 better
# (56.4%). 2 since 2026-11-28, with the layer moving along HEAD_DIRECTIONS: chosen on the
# validation half of the tray's other photos (docs/vision.md)
PULL = 2.0
STEPS = 300
# fewer dice shown than this are not learned from: a layer over 1,200 features fitted on six
# dice read paper photos worse (22.3% -> 20.2%, though each throw read better from the
# others). Added after that measure: the paper figure with it is not an independent one
MIN_DICE = 12
SIGN_CHANCE = 0.2  # Learned.used: the most the left-out throws' gain may owe to luck
BALANCE = True  # each class shown weighs as much in all (else each crop the same)


@dataclass
class Throw:
    """One throw shown to the camera: the picture and the dice in it as confirmed (centre in
    the picture's pixels, value; value 0: the reading was not a die)."""

    image: NDArray[Any]
    dice: list[tuple[float, float, int]]
    scale: float | None = None  # the reader's scale for it (None: the reader's own)


@contextmanager
def _at_scale(reader: DiceReader, throw: Throw) -> Iterator[None]:
    """The reader at the throw's scale for a while (throws of photos of other sizes)."""
    kept = reader.scale
    reader.scale = throw.scale or kept
    try:
        yield
    finally:
        reader.scale = kept


@contextmanager
def _at_bar(reader: DiceReader, bar: float) -> Iterator[None]:
    """The reader with candidate bar ``bar`` for a while (learn_bar's trials, the player's
    count looking at fainter candidates)."""
    kept = reader.threshold
    reader.threshold = bar
    try:
        yield
    finally:
        reader.threshold = kept


@dataclass
class Learned:
    """What calibrate dice learned of the players' dice."""

    fc: NDArray[Any]
    fcb: NDArray[Any]
    model: str  # fingerprint of the network it was learned on
    faces: str = ""
    pips: str = ""
    dice: int = 0  # dice shown
    counts: dict[int, int] = field(default_factory=dict)  # dice shown per value
    # crops of the shown dice read right more by the learned layer than the shipped one,
    # each throw left out of the fit in turn: the learned layer is used only when positive
    gain: int = 0
    # the learned correction of P(die) (None: not learned, as in entries before 2026-11-27)
    # and its gain: crops of the shown throws (dice and not) on the right side of the
    # acceptance bar, each throw left out in turn, less the shipped layer's
    dfc: NDArray[Any] | None = None
    dfcb: float = 0.0
    die_gain: int = 0
    added: int = 0  # dice the reader had missed that the player's count added
    # the learned candidate bar (None: not learned, as in entries before this evening) and
    # what it did on the shown throws, each left out in turn (learn_bar): dice found and
    # lost, and errors (wrong values, readings at no confirmed die) added less removed
    bar: float | None = None
    bar_found: int = 0
    bar_lost: int = 0
    bar_errors: int = 0

    # left-out throws the learned value layer read better and worse (None: not counted, as
    # in entries before the evening of 2026-11-27, judged by ``gain`` alone)
    throws_better: int | None = None
    throws_worse: int | None = None
    # the same layers learned on each other network of a pair (vision.cnn.NetMean), each
    # guarded on its own (2026-11-28; entries before have none: the others read as shipped)
    partners: list[Learned] = field(default_factory=list)
    # the pip-map bar for extra candidates (None: not learned, as in entries before the
    # fourth session of 2026-11-28) and what they did on the shown throws (learn_pips)
    pip_bar: float | None = None
    pip_found: int = 0
    pip_lost: int = 0
    pip_errors: int = 0

    @property
    def used(self) -> bool:
        """The value layer is used when its left-out crops read better (``gain``) and, since
        the evening of 2026-11-27, the left-out throws reading better are too many for luck
        (sign_chance at most SIGN_CHANCE): gains of a few crops in 3 throws against 2 let in
        layers that read a set-up's other photos worse (docs/vision.md)."""
        luck = (0.0 if self.throws_better is None or self.throws_worse is None
                else sign_chance(self.throws_better, self.throws_worse))
        return self.gain > 0 and self.dice >= MIN_DICE and luck <= SIGN_CHANCE

    @property
    def bar_used(self) -> bool:
        """A lower candidate bar is used when, each shown throw left out in turn, it found
        more dice than it lost and added no more errors than it removed."""
        return (self.bar is not None and self.bar < THRESHOLD and self.dice >= MIN_DICE
                and self.bar_found > self.bar_lost
                and self.bar_lost + self.bar_errors <= self.bar_found)

    @property
    def pips_used(self) -> bool:
        """The pips' extra candidates are used when, each shown throw left out in turn, they
        lost no more dice than they found and the dice found less those lost and the errors
        added come above 0. (Not learn_bar's "finds more than it loses": the shown throws
        hold few dice the reader missed, the close-ups' 19 only 3, so the pips could find
        none there, while on the other close-ups they found 30 of 71 missed: docs/vision.md.)"""
        return (self.pip_bar is not None and self.dice >= MIN_DICE
                and self.pip_found >= self.pip_lost
                and self.pip_found - self.pip_lost - self.pip_errors > 0)

    @property
    def die_used(self) -> bool:
        return self.dfc is not None and self.die_gain > 0 and self.dice >= MIN_DICE

    def to_json(self) -> dict[str, Any]:
        out = {"model": self.model, "faces": self.faces, "pips": self.pips, "gain": self.gain,
               "dice": self.dice, "values": {str(k): v for k, v in sorted(self.counts.items())},
               "fc": _pack(self.fc), "fcb": _pack(self.fcb)}
        if self.dfc is not None:
            out.update({"die_fc": _pack(self.dfc), "die_fcb": round(self.dfcb, 5),
                        "die_gain": self.die_gain, "added": self.added})
        if self.throws_better is not None:
            out.update({"values_better": self.throws_better,
                        "values_worse": self.throws_worse})
        if self.bar is not None:
            out.update({"candidate_bar": self.bar, "candidate_found": self.bar_found,
                        "candidate_lost": self.bar_lost, "candidate_errors": self.bar_errors})
        if self.pip_bar is not None:
            out.update({"pip_bar": round(self.pip_bar, 4), "pip_found": self.pip_found,
                        "pip_lost": self.pip_lost, "pip_errors": self.pip_errors})
        if self.partners:
            out["partners"] = [p.to_json() for p in self.partners]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], shape: tuple[int, int]) -> Learned:
        """Raises ValueError when the stored layer does not fit the network's shape. An
        entry without a P(die) correction (before 2026-11-27) loads without one."""
        fc = _unpack(data["fc"]).reshape(shape)
        fcb = _unpack(data["fcb"]).reshape(shape[1])
        counts = {int(k): int(v) for k, v in dict(data.get("values", {})).items()}
        dfc = _unpack(data["die_fc"]).reshape(shape[0]) if "die_fc" in data else None
        bar = float(data["candidate_bar"]) if "candidate_bar" in data else None
        return cls(fc, fcb, str(data["model"]), str(data.get("faces", "")),
                   str(data.get("pips", "")), int(data.get("dice", 0)), counts,
                   int(data.get("gain", 0)), dfc, float(data.get("die_fcb", 0.0)),
                   int(data.get("die_gain", 0)), int(data.get("added", 0)), bar,
                   int(data.get("candidate_found", 0)), int(data.get("candidate_lost", 0)),
                   int(data.get("candidate_errors", 0)),
                   int(data["values_better"]) if "values_better" in data else None,
                   int(data["values_worse"]) if "values_worse" in data else None,
                   [cls.from_json(p, shape) for p in data.get("partners", [])],
                   float(data["pip_bar"]) if "pip_bar" in data else None,
                   int(data.get("pip_found", 0)), int(data.get("pip_lost", 0)),
                   int(data.get("pip_errors", 0)))


def _pack(array: NDArray[Any]) -> str:
    return base64.b64encode(np.ascontiguousarray(array, np.float16).tobytes()).decode("ascii")


def _unpack(text: str) -> NDArray[Any]:
    return np.frombuffer(base64.b64decode(text.encode("ascii")), np.float16).astype(np.float32)


def fingerprint(reader: DiceReader) -> str:
    """Which network a learned layer belongs to: a hash of its shipped layer (of a pair's
    first network)."""
    return net_fingerprint(reader.net.alone)


def net_fingerprint(net: ConvNet) -> str:
    digest = hashlib.sha256(np.ascontiguousarray(net.params["fc"], np.float16)
                            .tobytes()).hexdigest()
    return digest[:16]


def _with_learned(net: ConvNet, learned: Learned) -> ConvNet:
    """One network with the layers learned on it that its guards let in."""
    if learned.used:
        net = net.with_values(learned.fc, learned.fcb)
    if learned.die_used and learned.dfc is not None:
        net = net.with_die(learned.dfc, np.array([learned.dfcb]))
    return net


def use(reader: DiceReader, learned: Learned) -> None:
    """The reader reads with the learned layer (the caller checked the fingerprint), when it
    read throws it was not fitted on better than the shipped one (Learned.used); a pair's
    other networks with the layers learned on each (``partners``, matched by fingerprint:
    a network without its own reads as shipped)."""
    if isinstance(reader.net, NetMean):
        nets = list(reader.net.nets)
        nets[0] = _with_learned(nets[0], learned)
        for i, net in enumerate(nets[1:], 1):
            mine = [p for p in learned.partners if p.model == net_fingerprint(net)]
            if mine:
                nets[i] = _with_learned(net, mine[0])
        reader.net = NetMean(nets)
    else:
        reader.net = _with_learned(reader.net, learned)
    if learned.bar_used and learned.bar is not None:
        reader.threshold = learned.bar
    if learned.pips_used and learned.pip_bar is not None:
        reader.propose = PipPoints(learned.pip_bar)


def examples(reader: DiceReader, throw: Throw
             ) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The network's inputs and labels from one confirmed throw, at the reader's scale: the
    candidates at each confirmed die (and the die's own centre) as its value, up to
    NEGATIVES candidates away from every die as "none"; each in its four turns. Third, what
    each crop is, for the guard: the die's index for a candidate at a die in its first turn,
    NONE_CROP for a "none" candidate in its first turn, OTHER_CROP for the rest (the die's
    own centre, which is no candidate, and the other turns)."""
    with _at_scale(reader, throw):
        working = reader.working(throw.image)
        if working is None:
            return np.zeros((0, 1)), np.zeros(0, np.int64), np.zeros(0, np.int64)
        work, factor, left, top = working
        peaks = reader.peaks(work, factor, left, top)
    dice = [((x - left) * factor, (y - top) * factor, v) for x, y, v in throw.dice]
    side = DIE_SIDE  # the reader is calibrated: a die is this many working pixels
    points: list[Point] = []
    labels: list[int] = []
    kinds: list[int] = []
    negatives: list[Point] = []
    for x, y, s in peaks:
        gaps = [np.hypot(x - dx, y - dy) / side for dx, dy, _ in dice]
        nearest = int(np.argmin(gaps)) if gaps else -1
        fits = 0.75 <= s / (side / 1.2) <= 1.35  # the die's own size, not a pip or a blob
        if nearest >= 0 and gaps[nearest] < POSITIVE and dice[nearest][2] > 0 and fits:
            points.append((x, y, s))
            labels.append(dice[nearest][2])
            kinds.append(nearest)
        elif nearest < 0 or gaps[nearest] > NEGATIVE or dice[nearest][2] == 0:
            negatives.append((x, y, s))
    for x, y, v in dice:  # each die at its own centre and the candidate size it reads at
        points.append((x, y, side / 1.2))
        labels.append(v)
        kinds.append(OTHER_CROP)
    step = max(1, len(negatives) // NEGATIVES)
    for p in negatives[::step][:NEGATIVES]:
        points.append(p)
        labels.append(0)
        kinds.append(NONE_CROP)
    if not points:
        return np.zeros((0, 1)), np.zeros(0, np.int64), np.zeros(0, np.int64)
    inputs = reader._inputs(work, points)
    looks = [np.rot90(inputs, k, axes=(1, 2)) for k in range(4)]
    if MIRRORS:  # a die's face seen in a mirror is a face of the same value
        looks += [np.flip(look, axis=2) for look in looks]
    return (np.concatenate(looks), np.tile(np.array(labels, np.int64), len(looks)),
            np.concatenate([np.array(kinds, np.int64),
                            np.full((len(looks) - 1) * len(kinds), OTHER_CROP)]))


MIRRORS = True  # (2026-11-28)


NONE_CROP, OTHER_CROP = -1, -2


def missed_dice(reader: DiceReader, image: NDArray[Any], read: list[Die], count: int
                ) -> list[Die]:
    """The dice the reader missed when the player counts ``count`` dice and it read fewer:
    the candidates it was surest of among those it called "none", away from the dice read
    and from each other (the most likely value each, its confidence P(die) times that)."""
    wanted = count - len(read)
    if wanted <= 0:
        return []
    working = reader.working(image)
    if working is None:
        return []
    work, factor, left, top = working
    # the player says a die is there: fainter candidates too (down to the lowest bar
    # learn_bar may choose), so that a die with no candidate at the reader's bar can be
    # confirmed and teach the bar
    with _at_bar(reader, min(reader.threshold, BARS[-1])):
        points = reader.peaks(work, factor, left, top)
    if reader.scale is not None and COUNT_PIPS:
        # and where pips are, so that a die the finder never proposes (a grey die on a grey
        # floor) can be confirmed and teach the pips' candidates (learn_pips)
        side = DIE_SIDE * factor / reader.scale
        points += reader._inside(PipPoints(COUNT_PIP_BAR)(work, side, points), factor, left,
                                 top)
    if not points:
        return []
    probs = reader.net.probabilities(reader._inputs(work, points))
    taken = [((d.x - left) * factor, (d.y - top) * factor, d.size / 1.2 * factor)
             for d in read]
    found: list[Die] = []
    for i in map(int, np.argsort(probs[:, 0])):
        if len(found) == wanted:
            break
        x, y, s = points[i]
        if any(np.hypot(x - tx, y - ty) < MERGE * max(s, ts) for tx, ty, ts in taken):
            continue
        taken.append((x, y, s))
        value = int(probs[i, 1:].argmax()) + 1
        found.append(Die(value, x / factor + left, y / factor + top, s * 1.2 / factor,
                         float(probs[i, value])))
    return found


def fit_head(features: NDArray[Any], labels: NDArray[Any], fc: NDArray[Any],
             fcb: NDArray[Any], pull: float | None = None, steps: int | None = None,
             basis: NDArray[Any] | None = None) -> tuple[NDArray[Any], NDArray[Any]]:
    """The linear layer refitted on ``features`` (n, f) and ``labels``: softmax cross-entropy
    with each class shown weighing as much in all (a few dice against many "none" crops),
    plus ``pull`` times the squared distance from the shipped layer (``fc``, ``fcb``).
    Gradient descent with Adam, in numpy (milliseconds for a few hundred crops). With
    ``basis`` (f, k), orthonormal columns, the layer moves only along them (head_basis: 128
    of 1,200 directions, a third of the time a fit on eight throws' crops)."""
    pull = PULL if pull is None else pull
    steps = STEPS if steps is None else steps
    if basis is not None:
        return _fit_head_along(features, labels, fc, fcb, pull, steps, basis)
    x = features.astype(np.float64)
    scale = float(np.abs(x).mean()) or 1.0
    x = x / scale  # Adam's steps then suit every network
    w0, b0 = fc.astype(np.float64) * scale, fcb.astype(np.float64)
    w, b = w0.copy(), b0.copy()
    classes = fc.shape[1]
    onehot = np.eye(classes)[labels]
    counts = np.bincount(labels, minlength=classes).astype(np.float64)
    shown = counts > 0
    weight = np.where(shown, 1.0 / np.maximum(counts, 1), 0.0)[labels] if BALANCE else \
        np.ones(len(labels))
    weight /= weight.sum()
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    rate, beta1, beta2 = 0.01 * float(np.abs(w0).mean() + 1e-3), 0.9, 0.999
    x32 = x.astype(np.float32)  # the two products in float32: half the time
    for t in range(1, steps + 1):
        logits = (x32 @ w.astype(np.float32)).astype(np.float64) + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        err = (p - onehot) * weight[:, None]
        grads = [(x32.T @ err.astype(np.float32)).astype(np.float64) + 2 * pull * (w - w0),
                 err.sum(axis=0) + 2 * pull * (b - b0)]
        for k, (param, g) in enumerate(zip((w, b), grads, strict=True)):
            m[k] = beta1 * m[k] + (1 - beta1) * g
            v[k] = beta2 * v[k] + (1 - beta2) * g * g
            step = rate * (m[k] / (1 - beta1 ** t)) / (np.sqrt(v[k] / (1 - beta2 ** t)) + 1e-12)
            param -= step
    return (w / scale).astype(np.float32), b.astype(np.float32)


def _fit_head_along(features: NDArray[Any], labels: NDArray[Any], fc: NDArray[Any],
                    fcb: NDArray[Any], pull: float, steps: int, basis: NDArray[Any]
                    ) -> tuple[NDArray[Any], NDArray[Any]]:
    """fit_head with the layer's change ``basis @ u`` (the pull on |u|^2 is the pull on the
    change, the columns being orthonormal): the products are (n, k) instead of (n, f)."""
    x = features.astype(np.float32)
    scale = float(np.abs(x).mean()) or 1.0
    xb = (x @ basis.astype(np.float32)).astype(np.float64) / scale
    base = (x @ fc.astype(np.float32)).astype(np.float64)  # the shipped layer's logits
    w0 = fc.astype(np.float64) * scale
    u = np.zeros((basis.shape[1], fc.shape[1]))
    b0 = fcb.astype(np.float64)
    b = b0.copy()
    classes = fc.shape[1]
    onehot = np.eye(classes)[labels]
    counts = np.bincount(labels, minlength=classes).astype(np.float64)
    weight = np.where(counts > 0, 1.0 / np.maximum(counts, 1), 0.0)[labels]
    weight /= weight.sum()
    m = [np.zeros_like(u), np.zeros_like(b)]
    v = [np.zeros_like(u), np.zeros_like(b)]
    # each coordinate of u moves about as far as one of the full layer's: the same step
    # over fewer coordinates would move the layer sqrt(f / k) times less
    rate = 0.01 * float(np.abs(w0).mean() + 1e-3) * math.sqrt(len(basis) / basis.shape[1])
    beta1, beta2 = 0.9, 0.999
    for t in range(1, steps + 1):
        logits = base + xb @ u + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        err = (p - onehot) * weight[:, None]
        grads = [xb.T @ err + 2 * pull * u, err.sum(axis=0) + 2 * pull * (b - b0)]
        for k, (param, g) in enumerate(zip((u, b), grads, strict=True)):
            m[k] = beta1 * m[k] + (1 - beta1) * g
            v[k] = beta2 * v[k] + (1 - beta2) * g * g
            step = rate * (m[k] / (1 - beta1 ** t)) / (np.sqrt(v[k] / (1 - beta2 ** t)) + 1e-12)
            param -= step
    w = fc.astype(np.float64) + basis @ u / scale
    return w.astype(np.float32), b.astype(np.float32)


# the value layer moves along this many main directions of the shown dice's features (0:
# all): as good on the validation photos, a third of the time (docs/vision.md, 2026-11-28)
HEAD_DIRECTIONS = 128


def head_basis(features: NDArray[Any], directions: int) -> NDArray[Any]:
    """The shown crops' main feature directions, orthonormal (f, directions)."""
    centred = (features - features.mean(axis=0)).astype(np.float64)
    # a randomized range finder (two power steps) instead of the full SVD: a tenth of the
    # time on a dozen throws' crops, the same leading directions within noise
    probe = np.random.default_rng(0).normal(size=(centred.shape[1], directions + 8))
    q = np.linalg.qr(centred @ probe)[0]
    for _ in range(2):
        q = np.linalg.qr(centred @ (centred.T @ q))[0]
    _, _, vt = np.linalg.svd(q.T @ centred, full_matrices=False)
    out: NDArray[Any] = vt[:directions].T
    return out


def learn(reader: DiceReader, throws: list[Throw], die: bool = True, bar: bool = True,
          pips: bool = True) -> Learned:
    """A layer for the players' dice from confirmed throws (read at the reader's calibrated
    scale), and their colours in words; with ``die``, a correction of P(die) too (the dice
    the reader missed are mostly candidates it called "none": docs/vision.md). Raises
    ValueError when the reader has no calibrated scale or no die was shown. With ``bar``, a
    lower candidate bar too, for faint dice that have no candidate (learn_bar); with ``pips``,
    extra candidates where the players' pips are (learn_pips)."""
    if reader.scale is None:
        raise ValueError("the die size is not calibrated")
    parts = [examples(reader, t) for t in throws]
    parts = [(x, y, k) for x, y, k in parts if len(y)]
    labels = np.concatenate([y for _, y, _ in parts]) if parts else np.zeros(0, np.int64)
    if not (labels > 0).any():
        raise ValueError("no die was shown")
    crops = np.concatenate([x for x, _, _ in parts])
    kinds = np.concatenate([k for _, _, k in parts])
    throw = np.concatenate([np.full(len(y), i) for i, (_, y, _) in enumerate(parts)])
    if not die:
        keep = labels > 0
        crops, labels, throw, kinds = crops[keep], labels[keep], throw[keep], kinds[keep]
    counts: dict[int, int] = {}
    for t in throws:
        for _, _, value in t.dice:
            if value > 0:
                counts[value] = counts.get(value, 0) + 1
    nets = list(reader.net.nets) if isinstance(reader.net, NetMean) else [reader.net]
    if not PARTNERS:
        nets = nets[:1]
    fitted = [_learn_net(net, crops, labels, throw, kinds, reader.accept, die) for net in nets]
    for one in fitted:
        one.dice, one.counts = sum(counts.values()), counts
    learned = fitted[0]
    learned.partners = fitted[1:]
    learned.faces, learned.pips = colours(reader, throws)
    if (bar or pips) and learned.dice >= MIN_DICE:
        # judged with the layers just learned in use, as the bar would read (they were
        # fitted on the left-out throw too: the guard is a little kind to them)
        net, kept, propose = reader.net, reader.threshold, reader.propose
        use(reader, learned)
        try:
            if bar:
                learned.bar, learned.bar_found, learned.bar_lost, learned.bar_errors = \
                    learn_bar(reader, throws)
            if pips:
                # judged with the layers and the bar in use, as they would read
                if learned.bar_used and learned.bar is not None:
                    reader.threshold = learned.bar
                (learned.pip_bar, learned.pip_found, learned.pip_lost,
                 learned.pip_errors) = learn_pips(reader, throws)
        finally:
            reader.net, reader.threshold, reader.propose = net, kept, propose
    return learned


PARTNERS = True  # a pair's other networks learn their own layers too (2026-11-28)


def _learn_net(net: ConvNet, crops: NDArray[Any], labels: NDArray[Any], throw: NDArray[Any],
               kinds: NDArray[Any], accept: float, die: bool) -> Learned:
    """The value layer and the P(die) correction learned on one network's features of the
    shown crops, each with its guard's figures (the colours and counts are the caller's)."""
    dice = labels > 0
    features = net.features(crops)
    values = labels[dice] - 1
    shipped = net.params["fc"][:, 1:], net.params["fcb"][1:]
    # one basis from every shown die's crops, left-out throws too (as die_directions)
    basis = head_basis(features[dice], HEAD_DIRECTIONS) if HEAD_DIRECTIONS else None
    better, throws_better, throws_worse = held_out_throws(features[dice], values, throw[dice],
                                                          shipped, basis=basis)
    fc, fcb = fit_head(features[dice], values, *shipped, basis=basis)
    learned = Learned(fc, fcb, net_fingerprint(net), gain=better,
                      throws_better=throws_better, throws_worse=throws_worse)
    if die and (~dice).any():
        offset = net.die_logits(features)
        learned.dfc, learned.dfcb, learned.die_gain = fit_die_chosen(
            features, dice, offset, throw, kinds, accept)
    return learned


BARS = (THRESHOLD, 8.0, 6.0, 4.0)  # candidate bars learn_bar may choose (the shipped one first)
REACH = 0.35  # a candidate this many die sides from a confirmed die is one of its candidates


def _needed_bar(reader: DiceReader, throw: Throw) -> float | None:
    """The highest bar of BARS at which every confirmed die of the throw has a candidate
    within REACH sides (None: some die has none even at the lowest)."""
    dice = [(x, y) for x, y, v in throw.dice if v > 0]
    with _at_scale(reader, throw):
        working = reader.working(throw.image)
        if working is None or not dice:
            return BARS[0]
        work, factor, left, top = working
        for bar in BARS:
            with _at_bar(reader, bar):
                peaks = reader.peaks(work, factor, left, top)
            dice = [d for d in dice if not any(
                np.hypot((d[0] - left) * factor - x, (d[1] - top) * factor - y)
                < REACH * DIE_SIDE for x, y, _ in peaks)]
            if not dice:
                return bar
            # only the dice still missing need a lower bar
    return None


def _score_throw(reader: DiceReader, throw: Throw, bar: float, propose: Any = None
                 ) -> tuple[set[int], int]:
    """The throw read at candidate bar ``bar`` (with ``propose``'s extra candidates): which
    confirmed dice were read (any value), and its errors (a wrong value at a confirmed die,
    or a reading at no confirmed die)."""
    kept = reader.propose
    reader.propose = propose
    try:
        with _at_bar(reader, bar), _at_scale(reader, throw):
            read = reader.read(throw.image)
            side = DIE_SIDE / (reader.scale or 1.0)
    finally:
        reader.propose = kept
    return _matched(throw, read, side)


def _matched(throw: Throw, read: list[Die], side: float) -> tuple[set[int], int]:
    """_score_throw's figures of a reading."""
    found: set[int] = set()
    errors = 0
    for die in read:
        near = [i for i, (x, y, v) in enumerate(throw.dice)
                if v > 0 and np.hypot(die.x - x, die.y - y) < 0.5 * side]
        if near:
            found.add(near[0])
            errors += int(throw.dice[near[0]][2] != die.value)
        else:
            errors += 1
    return found, errors


def learn_bar(reader: DiceReader, throws: list[Throw]) -> tuple[float, int, int, int]:
    """A candidate bar for the players' dice: the lowest bar (of BARS) at which every
    confirmed die has a candidate (a throw with a die that has none even at the lowest gives
    no bar, the other throws choose it). Guarded:
    each throw left out in turn, the bar chosen on the others reads it, against the reader's
    own bar; the bar (from all throws), the dice found and lost by it, and its errors added
    less removed (Learned.bar_used keeps it only when it finds more than it loses and adds
    no more errors than it removes)."""
    needed = [_needed_bar(reader, t) for t in throws]
    bars = [b for b in needed if b is not None]

    def chosen(sample: list[float]) -> float:
        return min(sample, default=reader.threshold)

    cache: dict[tuple[int, float], tuple[set[int], int]] = {}

    def scored(i: int, bar: float) -> tuple[set[int], int]:
        if (i, bar) not in cache:
            cache[i, bar] = _score_throw(reader, throws[i], bar)
        return cache[i, bar]

    found = lost = errors = 0
    for i in range(len(throws)):
        bar = chosen([b for j, b in enumerate(needed) if j != i and b is not None])
        if bar >= reader.threshold:
            continue
        (was, was_err), (now, now_err) = scored(i, reader.threshold), scored(i, bar)
        found += len(now - was)
        lost += len(was - now)
        errors += now_err - was_err
    return chosen(bars), found, lost, errors


COUNT_PIPS = True  # the player's count looks at the pips' peaks too (missed_dice)
COUNT_PIP_BAR = 0.05  # ... down to this response (P(die) ranks them with the rest)
PIP_SHARE = 0.5  # the pip bar: this share of the shown dice's 10th-percentile pip response
PIP_LOW = 10  # ... (the percentile)


def pip_responses(reader: DiceReader, throw: Throw) -> list[float]:
    """The pip map (vision/dice_pip_points.py) at each confirmed die of a throw, at the
    throw's scale."""
    dice = [(x, y) for x, y, v in throw.dice if v > 0]
    with _at_scale(reader, throw):
        working = reader.working(throw.image)
    if working is None or not dice:
        return []
    work, factor, left, top = working
    response = pip_map(work, DIE_SIDE)
    return [map_at(response, (x - left) * factor, (y - top) * factor) for x, y in dice]


def pip_bar(responses: list[float]) -> float | None:
    """The bar of the pips' extra candidates from the confirmed dice's responses (None:
    none shown)."""
    if not responses:
        return None
    # never under the count's own bar: near 0, every flat stretch of the map is a peak, and
    # each peak a crop for the network (the bars learned on the three set-ups: 0.18 to 0.92)
    return max(COUNT_PIP_BAR, PIP_SHARE * float(np.percentile(responses, PIP_LOW)))


def learn_pips(reader: DiceReader, throws: list[Throw]
               ) -> tuple[float | None, int, int, int]:
    """A pip-map bar for extra candidates where the players' pips are (PipPoints), from the
    confirmed dice; guarded as learn_bar: each throw left out in turn, the bar from the
    other throws' dice reads it with the extra candidates and without; the bar (from all
    throws), the dice found and lost, and the errors added less removed."""
    responses = [pip_responses(reader, t) for t in throws]
    found = lost = errors = 0
    for i, throw in enumerate(throws):
        bar = pip_bar([r for j, rs in enumerate(responses) if j != i for r in rs])
        if bar is None or not any(v > 0 for _, _, v in throw.dice):
            continue
        was, was_err = _score_throw(reader, throw, reader.threshold)
        now, now_err = _score_throw(reader, throw, reader.threshold, PipPoints(bar))
        found += len(now - was)
        lost += len(was - now)
        errors += now_err - was_err
    return pip_bar([r for rs in responses for r in rs]), found, lost, errors


# tried in turn; the one that reads left-out throws best is kept (0.1 added 2026-11-28, on
# the validation half of the tray's other photos: 3 more dice of 723 found)
DIE_PULLS = (0.1, 1.0, 10.0, 100.0)
DIE_DIRECTIONS = 32  # the P(die) correction lies in the shown crops' main feature directions
DIE_STEPS = 200


def fit_die(x: NDArray[Any], dice: NDArray[Any], offset: NDArray[Any], pull: float
            ) -> tuple[NDArray[Any], float]:
    """A correction of the log-odds of a die: ``offset`` (the shipped layer's) plus
    ``x @ u + b``, ``x`` the crops' features in a few main directions (die_directions),
    fitted by logistic loss with dice and "none" crops weighing as much in all, ``pull``
    times (|u|^2 + b^2) / len(u) keeping it near the shipped layer. Adam in numpy
    (milliseconds)."""
    y = dice.astype(np.float64)
    weight = np.where(dice, 0.5 / max(1, int(dice.sum())), 0.5 / max(1, int((~dice).sum())))
    u, b = np.zeros(x.shape[1]), 0.0
    m, v = np.zeros(x.shape[1] + 1), np.zeros(x.shape[1] + 1)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    for t in range(1, DIE_STEPS + 1):
        z = np.clip(offset + x @ u + b, -60, 60)
        err = (1 / (1 + np.exp(-z)) - y) * weight
        # the bias pulled too: free, it moved every crop's P(die) and lost dice on the tray's
        # shown throws left out (found 2, lost 3 at 25 dice; 3 and 1 pulled)
        g = np.concatenate([x.T @ err + 2 * pull * u / len(u),
                            [err.sum() + 2 * pull * b / len(u)]])
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        step = rate * (m / (1 - beta1 ** t)) / (np.sqrt(v / (1 - beta2 ** t)) + 1e-12)
        u, b = u - step[:-1], b - float(step[-1])
    return u, b


def die_directions(features: NDArray[Any]) -> NDArray[Any]:
    """The shown crops' main feature directions (features, DIE_DIRECTIONS), scaled so that
    the crops' coordinates along them are about 1: the correction's few free numbers. From
    every shown crop, its label unused (so each left-out throw's crops shape them too)."""
    basis = head_basis(features, DIE_DIRECTIONS)
    scale = float(np.abs(features @ basis).mean()) or 1.0
    out: NDArray[Any] = basis / scale
    return out


def die_gain(x: NDArray[Any], dice: NDArray[Any], offset: NDArray[Any],
             throw: NDArray[Any], kinds: NDArray[Any], accept: float, pull: float) -> int:
    """Errors fewer with the correction than without on the shown throws, each judged by a
    correction fitted on the other throws: a die is found when one of its candidates is at
    or above the acceptance bar, a "none" candidate there is a spurious die (first turns
    only: examples' ``kinds``); dice found less dice lost less spurious ones added, and
    below 0 unless it finds more dice than it loses. Counted per die, not per crop: per crop,
    a correction that read paper photos worse (docs/vision.md, 2026-11-27) was let in by the
    many "none" crops it rejected."""
    bar = float(np.log(accept / (1 - accept)))
    found = lost = spurious = 0
    for i in np.unique(throw):
        out = throw == i
        if out.all() or not dice[~out].any() or dice[~out].all():
            continue
        u, b = fit_die(x[~out], dice[~out], offset[~out], pull)
        after = offset[out] + x[out] @ u + b >= bar
        before = offset[out] >= bar
        kind = kinds[out]
        for d in np.unique(kind[kind >= 0]):
            was, now = bool(before[kind == d].any()), bool(after[kind == d].any())
            found += int(now and not was)
            lost += int(was and not now)
        none = kind == NONE_CROP
        spurious += int(after[none].sum()) - int(before[none].sum())
    # it is there to find dice the shipped layer misses: one that finds no more than it loses
    # is refused even when it rejects spurious ones (on paper photos it lost real dice, each
    # a silent error, for fewer spurious ones, mostly asked about anyway)
    return found - lost - spurious if found > lost else min(-1, found - lost - spurious)


def fit_die_chosen(features: NDArray[Any], dice: NDArray[Any], offset: NDArray[Any],
                   throw: NDArray[Any], kinds: NDArray[Any], accept: float
                   ) -> tuple[NDArray[Any], float, int]:
    """The P(die) correction (a weight per feature and a bias) at the pull (DIE_PULLS)
    whose left-out throws read best, fitted on all throws, and that gain (the correction is
    used only when it is above 0)."""
    basis = die_directions(features)
    x = features @ basis
    gains = [die_gain(x, dice, offset, throw, kinds, accept, p) for p in DIE_PULLS]
    best = int(np.argmax(gains))
    u, b = fit_die(x, dice, offset, DIE_PULLS[best])
    return (basis @ u).astype(np.float32), b, gains[best]


def held_out_gain(features: NDArray[Any], values: NDArray[Any], throw: NDArray[Any],
                  shipped: tuple[NDArray[Any], NDArray[Any]]) -> int:
    """held_out_throws' gain alone."""
    return held_out_throws(features, values, throw, shipped)[0]


def sign_chance(better: int, worse: int) -> float:
    """The chance that a coin tossed for each throw that changed gives ``better`` or more
    heads: how likely so many left-out throws read better by luck alone."""
    n = better + worse
    return sum(math.comb(n, k) for k in range(better, n + 1)) / 2 ** n if n else 1.0


def held_out_throws(features: NDArray[Any], values: NDArray[Any], throw: NDArray[Any],
                    shipped: tuple[NDArray[Any], NDArray[Any]], pull: float | None = None,
                    basis: NDArray[Any] | None = None) -> tuple[int, int, int]:
    """How many more of the shown dice's crops the learned layer reads right than the
    shipped one, each throw's crops read by a layer learned from the other throws only
    (leave one throw out). A layer that does not read throws it was not fitted on better
    is not used: on close-ups the tray-only model read other photos worse after learning."""
    gain = better = worse = 0
    for i in np.unique(throw):
        out = throw == i
        if out.all():
            continue
        fc, fcb = fit_head(features[~out], values[~out], *shipped, pull=pull, basis=basis)
        learned = (features[out] @ fc + fcb).argmax(axis=1) == values[out]
        before = (features[out] @ shipped[0] + shipped[1]).argmax(axis=1) == values[out]
        change = int(learned.sum()) - int(before.sum())
        gain += change
        better, worse = better + int(change > 0), worse + int(change < 0)
    return gain, better, worse


def colours(reader: DiceReader, throws: list[Throw]) -> tuple[str, str]:
    """The faces' and the pips' colour in words, from the confirmed dice: the face is the
    median colour of the middle of each die, the pips the median of its pixels far from it."""
    faces: list[NDArray[Any]] = []
    pips: list[NDArray[Any]] = []
    for t in throws:
        with _at_scale(reader, t):
            working = reader.working(t.image)
        if working is None:
            continue
        work, factor, left, top = working
        lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB).astype(np.float32)
        half = max(2, round(DIE_SIDE * 0.4))
        for x, y, v in t.dice:
            if v <= 0:
                continue
            cx, cy = round((x - left) * factor), round((y - top) * factor)
            patch = lab[max(0, cy - half) : cy + half, max(0, cx - half) : cx + half]
            if patch.size == 0:
                continue
            pixels = patch.reshape(-1, 3)
            face = np.median(pixels, axis=0)
            far = pixels[np.hypot(*(pixels[:, 1:] - face[1:]).T) * 2
                         + np.abs(pixels[:, 0] - face[0]) > 40]
            faces.append(face)
            if len(far) >= 3:
                pips.append(np.median(far, axis=0))
    face_name = colour_name(np.median(faces, axis=0)) if faces else ""
    pip_name = colour_name(np.median(pips, axis=0)) if pips else ""
    return face_name, pip_name


HUES = ((10, "red"), (22, "orange"), (35, "yellow"), (85, "green"), (130, "blue"),
        (160, "purple"), (175, "pink"), (180, "red"))  # OpenCV hue (0..180) upper bounds


def colour_name(lab: NDArray[Any]) -> str:
    """A plain name for a colour given as Lab on OpenCV's 8-bit scale."""
    pixel = np.clip(np.asarray(lab, np.float32), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    h, s, v = (int(c) for c in cv2.cvtColor(cv2.cvtColor(pixel, cv2.COLOR_LAB2BGR),
                                            cv2.COLOR_BGR2HSV)[0, 0])
    if s < 50 or v < 40:
        return "black" if v < 70 else "grey" if v < 180 else "white"
    name = next(n for top, n in HUES if h < top)
    return f"dark {name}" if v < 110 else name


FACES = ("one", "two", "three", "four", "five", "six")


def _listed(words: list[str], last: str) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def describe(learned: Learned, die_size: float, before: int, after: int) -> str:
    """What was learned, in plain words, for the player."""
    shown = [f"{n} {FACES[v - 1]}{'' if n == 1 else 'es' if v == 6 else 's'}"
             for v in range(1, 7) if (n := learned.counts.get(v, 0))]
    faces = f"{learned.faces} faces" if learned.faces else "their faces"
    pips = f" with {learned.pips} pips" if learned.pips else ""
    unseen = [FACES[v - 1] for v in range(1, 7) if not learned.counts.get(v)]
    missing = (f" I saw no {_listed(unseen, 'or')}: I read {'it' if len(unseen) == 1 else 'those'}"
               " as before." if unseen else "")
    finding = ""
    if learned.dfc is not None and learned.dice >= MIN_DICE:
        finding = (" I also learned to tell your dice from the tray: on throws I did not "
                   "learn from, I told them apart better." if learned.die_used else
                   " Telling your dice from the tray did not get better on throws I did not "
                   "learn from, so I find them as before.")
    if learned.bar is not None and learned.bar < THRESHOLD:
        finding += (f" I also look for fainter dice now: with a candidate bar of "
                    f"{learned.bar:.0f} instead of {THRESHOLD:.0f}, on throws I did not learn "
                    f"from I found {learned.bar_found} dice more and lost {learned.bar_lost}."
                    if learned.bar_used else
                    " Looking for fainter dice did not read the throws I did not learn from "
                    "better, so I look for them as before.")
    if learned.pip_bar is not None and learned.dice >= MIN_DICE:
        finding += (f" I also look for your dice by their pips now: on throws I did not learn "
                    f"from I found {learned.pip_found} dice more and lost {learned.pip_lost}."
                    if learned.pips_used else
                    " Looking for your dice by their pips did not read the throws I did not "
                    "learn from better, so I do not.")
    if not learned.used and not learned.die_used:
        why = (f"That is too few to learn from (at least {MIN_DICE})"
               if learned.dice < MIN_DICE else
               "Learning their values did not read one throw better from the others"
               if learned.gain <= 0 else "Learning their values read too few of the throws "
               "I did not learn from better to be more than luck")
        return (f"I looked at your dice: {faces}{pips}, about {die_size:.0f} pixels across, "
                f"{learned.dice} dice ({_listed(shown, 'and')}). {why}, so I keep reading "
                f"them with the general model ({before} of {learned.dice} right on those "
                f"throws).{finding}")
    values = ("" if learned.used else " Their values I read with the general model: learning "
              "them did not read one throw better from the others." if learned.gain <= 0 else
              " Their values I read with the general model: learning them read too few of the "
              "throws I did not learn from better to be more than luck.")
    return (f"I learned your dice: {faces}{pips}, about {die_size:.0f} pixels across, from "
            f"{learned.dice} dice ({_listed(shown, 'and')}). On those throws I read {before} of "
            f"{learned.dice} right before learning and {after} after.{finding}{values}"
            f"{missing if learned.used else ''}")
