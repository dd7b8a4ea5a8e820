"""The dice reader: candidates, a learned crop classifier, a pip counter, combined.

    reader = DiceReader.load()
    dice = reader.read(cv2.imread("table.jpg"))   # [Die(value=5, x=.., y=.., ...), ...]

1. Candidates (vision/dice_features.py): colour distance from a smooth background, centre-
   surround peaks at several die sizes, found on a half-size copy and refined at full size.
   Peaks on an edge (a tray's rim: the response stays along a line) are not read.
2. Each candidate crop is turned square to the die and goes through a small CNN
   (vision/cnn.py, weights in vision/models/dice.npz): "none" or a face value 1..6.
3. Overlapping acceptances are merged (the most likely die wins, but two touching dice read
   surely as different values stay two); a second look finds dice with no peak of their own
   next to the accepted ones; a die whose value is unsure (and not the pip counter's count,
   step 4) is read again in its four turns, and at two neighbouring scales, and the votes
   averaged.
4. The pip counter (vision/pips.py) counts blobs on the crop; its count k updates the
   classifier's probabilities by P(k | value) ** w, the table measured on the training
   photos and the weight w chosen on their cross-validation folds and the validation photos
   (0: not used).

Confidence is P(die) * P(value | die). The learned model is reproduced by
``python -m vision.train.train_dice`` (training needs PyTorch; reading needs only numpy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cnn import ConvNet, NetMean
from vision.dice_features import (
    SCALES,
    WORK_SIZE,
    background_distance,
    candidates,
    crop,
    net_inputs,
)
from vision.memory import keep_freed_memory
from vision.picture import unreadable
from vision.pips import count_pips_many

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice.npz"
# a second network, trained from scratch with rendered dice (vision/train/dice_render.py),
# averaged with the first in the whole reading (NetMean; read_quick reads the first alone):
# on set-ups neither learned from, the pair read 9 to 13 points more close-up dice per die
# than the first recipe alone, 1 to 4 more paper dice (5 to 9 on photos of few dice): see
# docs/vision.md, issue 15
PARTNER_PATH = MODEL_PATH.parent / "dice-rendered.npz"
SHIPPED_MODELS = (MODEL_PATH, PARTNER_PATH)  # what DiceReader.load() reads
OFFSET = 0.4  # training's offset points (more hard negatives) lie this many sizes from a peak
THRESHOLD = 10.0  # the least centre-surround response of a candidate when reading ...
LIMIT = 200  # ... and the most candidates (tray photos in the train split have up to 140)
PEAK_WINDOW = {1: 7, 2: 3}  # local-maximum window per candidate step (pixels of that copy)
DIE_SIDE = 32.0  # median Die.size (working pixels) on the photos the model learned from
REFINE_REACH = 3  # a peak found on the half-size copy moves to the best response this near
# calibrate dice reads its one die (and the empty tray's ghosts) at the bar the reader had
# until 2026-11-27: at the game's 0.8 a die on felt was no longer seen (tests/test_vision_tray.py)
# and fewer ghosts of a tray's edge; the game reads at the model file's bar
CALIBRATION_ACCEPT = 0.6
MERGE = 1.05  # accepted dice closer than this many sizes are one die, unless ...
# ... both values are read surely (P(value | die) at least DIFFER_SURE), they differ, and the
# two are at least DIFFER_APART sizes apart: two touching dice, not one die read twice (on the
# cross-validation folds, 95.6% -> 96.6% per die; docs/vision.md)
DIFFER_SURE = 0.7
DIFFER_APART = 0.6
# a small white die on white paper seen at an angle: its dark side and shadow make more of the
# distance map than its face, and the smallest candidate size (larger than the die) peaks on
# them, half a die off its face (issue 15). Peaks of the smallest size the network finds
# plausible (P(die) at least NEAR_LOOK_BAR) are read again NEAR_LOOK_SHIFT sizes away in
# the four directions (DiceReader.near_look, off by default: see there)
NEAR_LOOK_BAR = 0.2
NEAR_LOOK_SHIFT = 0.4
SECOND_LOOK_RADIUS = 0.5  # accepted dice are blanked out this many die sides around
SECOND_LOOK_REACH = 1.3  # ... and peaks this many die sides from them are read
BLOCK = 8  # busy_peaks marks the frame in blocks of this many pixels ...
BUSY = 0.6  # ... and searches it whole when more than this share of it is busy
AREA_MARGIN = 64  # working pixels searched around a tray area: more than a large die's surround
# a peak on an edge (a tray's rim) keeps its response one and 1.5 sizes along a line both ways
# and loses it one size across: above EDGE_ALONG and below EDGE_ACROSS times its own
EDGE_ALONG = 0.6
EDGE_ACROSS = 0.0
SURE = 0.9  # the session says a reading at or above this without asking
# read_ranked: candidates under the reader's bar are ranked down to this P(die) (fainter ones
# are no plausible die, whatever the count) ...
PLAUSIBLE = 0.02
# ... and when fewer than wanted, peaks are searched again down to this centre-surround
# response (the lowest bar calibrate dice may learn, vision/dice_learn.py BARS)
RANK_BAR = 4.0
MOST_DICE = 6  # the camera ranks candidates for throws of up to this many dice
# image sizes read when the die size is not calibrated: half and a quarter for dice too large
# for the candidate sizes (close-ups). (Twice the size too, for crowds of tiny dice, was
# measured and not kept: docs/vision.md)
LEVELS = (1.0, 0.5, 0.25)
# calibrated, a picture is read at these multiples of the calibrated scale and the readings
# merged as the levels' are (the surest of overlapping dice wins). On set-ups the network
# never learned from, at the scale their labelled dice give and knowing the count: tray
# 71.3% -> 78.0% per die, close-ups 64.7% -> 77.4%, paper photos of a few dice 44.9% ->
# 54.8%; 2.25 times the pixels for 2.6 times the CPU (docs/vision.md, 2026-11-28). 1.5 alone
# read close-ups worse (68.8%), (1.25, 1.0) a little less well, (2.0, 1.0) as well for more
SCALE_LEVELS = (1.0, 1.5)  # the first alone: read_quick
# the larger scales are read only in a window around the first scale's candidates, this many
# die sides beyond them (a die there may have no candidate of its own at the first scale)
WINDOW_REACH = 2.0
# uncalibrated, read/read_ranked read the working image at this size too (made from the
# picture), after LEVELS, in the same window: WINDOW_REACH times DIE_SIDE working pixels
# beyond the first level's candidates (not times each candidate's size: the dice this
# level is for are those too small for the candidate sizes, whose candidates, if any, are
# the smallest; a large candidate, a shadow or a rim, would widen the window for nothing).
# read_quick reads LEVELS alone. Measured on set-ups never trained on: docs/vision.md
ZOOM_LEVEL = 1.5
MIN_LEVEL_SIDE = 64  # a smaller copy than this is not read
SMALLEST_WARM = 128  # the least side of the warm-up picture
_DIRECTIONS = np.array([(1.0, 0.0), (0.7071, 0.7071), (0.0, 1.0), (-0.7071, 0.7071)])


Point = tuple[float, float, float]  # centre x, y and candidate size, in working pixels


@dataclass(frozen=True)
class Die:
    value: int
    x: float  # centre, in the input image's pixels
    y: float
    size: float  # approximate side in pixels
    confidence: float
    pips: int = -1  # the pip counter's count (-1: not run)
    # the raw P(die) and P(value | die) behind the confidence (read_ranked's candidates are
    # ranked by the first; a reading knowing its count keeps the second's doubt)
    present: float = 1.0
    value_sure: float = 1.0
    accepted: bool = True  # False: a candidate under the reader's bar (read_ranked)

    @property
    def box(self) -> tuple[int, int, int, int]:
        half = self.size / 2
        return (round(self.x - half), round(self.y - half), round(self.x + half),
                round(self.y + half))

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class Ranked:
    """DiceReader.read_ranked: the dice accepted, and the plausible candidates under the
    reader's bar, likeliest die first (accepted False)."""

    dice: list[Die]
    rest: list[Die] = field(default_factory=list)
    sure_from: float = SURE  # the reader's (trusted)
    # the dice accepted at the quick reading's scale or levels, when it read more; None: the
    # same as ``dice``. read_quick's reading of the picture with one network (with the
    # shipped pair read_quick reads with the first alone, this with both)
    first: list[Die] | None = None

    @property
    def quick(self) -> list[Die]:
        """The reading at read_quick's scale or levels, by the reader's every network."""
        return self.dice if self.first is None else self.first

    def by_count(self, most: int = MOST_DICE) -> list[tuple[int, list[Die]]]:
        """The best reading of each count 1..most there are candidates for: see by_count."""
        return by_count(self.dice + self.rest, most, self.sure_from)


def _sizes(step: int) -> tuple[int, ...]:
    """The candidate sizes on a copy 1/step the size of the working image."""
    return tuple(max(3, round(s / step)) for s in SCALES)


def _ring(step: int) -> int:
    """How far inside a window the response equals the whole map's: the largest candidate's
    surround and the local-maximum window."""
    return max(_sizes(step)) + PEAK_WINDOW[step] // 2 + 1


def find_peaks(work: NDArray[Any], step: int = 1, threshold: float = THRESHOLD,
               limit: int = LIMIT) -> list[Point]:
    """Candidate centres and sizes in working pixels (no offset points). ``step`` 2 finds them
    on a half-size copy (background, response and peaks all cost a quarter). Reading uses a
    higher bar than training, which wants more hard negatives; up to 200 peaks (tray photos
    in the train split have up to 140)."""
    return peaks_in(distance_map(work, step), step, threshold, limit)


def distance_map(work: NDArray[Any], step: int = 1) -> NDArray[Any]:
    """Colour distance from the background, on a copy 1/step the size of ``work``."""
    if step > 1:
        h, w = work.shape[:2]
        work = cv2.resize(work, (w // step, h // step), interpolation=cv2.INTER_AREA)
    return background_distance(cv2.cvtColor(work, cv2.COLOR_BGR2LAB))


def busy_peaks(dist: NDArray[Any], step: int = 1, threshold: float = THRESHOLD,
               limit: int = LIMIT, fast: bool = False) -> list[Point]:
    """peaks_in, searched only in windows around the places that could make a peak: a dice
    throw on a plain table leaves most of the frame without any. The same peaks, because:
    a peak's response is 4/3 (inner box mean - ring mean) > threshold, so its inner box (side
    k) has a mean above 3/4 of the threshold; ceil(k / c) ** 2 squares of side c (half the
    smallest k) cover it, so one of them has a mean above k^2 / (ceil(k / c)^2 c^2) of that
    (the distance is never negative): above half the threshold for the reader's sizes. The
    windows reach the largest ring beyond the largest inner box around every such square,
    and only peaks whose ring lies inside their window count. A frame busy all over (a
    crowded tray, a patterned cloth) is searched whole."""
    scales = _sizes(step)
    kmax, cell = max(scales), max(3, min(scales) // 2)
    margin = int(np.ceil((kmax + cell) * 0.71)) + _ring(step)  # + half the boxes' diagonals
    h, w = dist.shape
    # a c x c mean above 3/4 x k^2 / (ceil(k / c)^2 c^2) of the threshold (1/2 for the
    # reader's sizes), less a tenth for fixed-point rounding
    share = min(k * k / (-(-k // cell) * cell) ** 2 for k in scales)
    level = 0.9 * 0.75 * share * threshold
    hot: NDArray[Any] = (cv2.boxFilter(dist, -1, (cell, cell)) > level).astype(np.uint8)
    rows, cols = -(-h // BLOCK), -(-w // BLOCK)
    hot = cv2.copyMakeBorder(hot * 255, 0, rows * BLOCK - h, 0, cols * BLOCK - w,
                             cv2.BORDER_CONSTANT, value=0)
    # a block is marked when any of its pixels is: its mean of 0s and 255s is then at least
    # 4 (255 / 64, rounded). In OpenCV, fifteen times faster than numpy's max over blocks
    blocks: NDArray[Any] = (cv2.resize(hot, (cols, rows), interpolation=cv2.INTER_AREA) > 0
                            ).astype(np.uint8)
    return _window_peaks(dist, blocks, margin, step, threshold, limit, fast)


def _window_peaks(dist: NDArray[Any], blocks: NDArray[Any], margin: int, step: int,
                  threshold: float, limit: int, fast: bool) -> list[Point]:
    """The peaks of ``dist`` in windows around the marked BLOCK x BLOCK blocks (grown by
    ``margin`` pixels), with the response of the whole map: a window's peaks nearer its edge
    than the largest ring are dropped. The whole map when the windows would cover most of it."""
    exact = _ring(step)
    h, w = dist.shape
    grow = 2 * -(-margin // BLOCK) + 1
    blocks = cv2.dilate(blocks, np.ones((grow, grow), np.uint8))
    if blocks.mean() > BUSY:
        return peaks_in(dist, step, threshold, limit, fast)
    count, _, stats, _ = cv2.connectedComponentsWithStats(blocks, connectivity=8)
    found: dict[tuple[float, float], tuple[float, float]] = {}
    for bx, by, bw, bh, _area in stats[1:count]:
        x0, y0 = int(bx) * BLOCK, int(by) * BLOCK
        x1, y1 = min(w, int(bx + bw) * BLOCK), min(h, int(by + bh) * BLOCK)
        for c in candidates(dist[y0:y1, x0:x1], threshold=threshold, limit=limit,
                            peak=PEAK_WINDOW[step], scales=_sizes(step), fast=fast):
            inside = ((x0 == 0 or c.x >= exact) and (y0 == 0 or c.y >= exact)
                      and (x1 == w or x1 - x0 - 1 - c.x >= exact)
                      and (y1 == h or y1 - y0 - 1 - c.y >= exact))
            if inside:
                found[(c.x + x0, c.y + y0)] = (c.response, c.size)
    best = sorted(found.items(), key=lambda item: -item[1][0])[:limit]
    return [((x + 0.5) * step - 0.5, (y + 0.5) * step - 0.5, size * step)
            for (x, y), (_, size) in best]


def peaks_in(dist: NDArray[Any], step: int = 1, threshold: float = THRESHOLD,
             limit: int = LIMIT, fast: bool = False) -> list[Point]:
    found = candidates(dist, threshold=threshold, limit=limit, peak=PEAK_WINDOW[step],
                       scales=_sizes(step), fast=fast)
    return [((c.x + 0.5) * step - 0.5, (c.y + 0.5) * step - 0.5, c.size * step) for c in found]


def _search_copy(dist: NDArray[Any], step: int, coarse: bool) -> tuple[NDArray[Any], int]:
    """The map the peaks are searched on and its step: the half-size copy for a coarse
    search of a full-size map (refined afterwards), else the map itself."""
    return (half_size(dist), 2) if coarse and step == 1 else (dist, step)


def half_size(dist: NDArray[Any]) -> NDArray[Any]:
    """The distance map at half size (pairs of pixels averaged; an odd last row or column
    left out, which keeps OpenCV on its fast whole-factor path)."""
    h, w = dist.shape
    half: NDArray[Any] = cv2.resize(dist[: h // 2 * 2, : w // 2 * 2], (w // 2, h // 2),
                                    interpolation=cv2.INTER_AREA)
    return half


def refine(dist: NDArray[Any], peaks: list[Point], threshold: float = THRESHOLD
           ) -> list[Point]:
    """Each peak (found on a half-size copy: its centre a whole pixel and a half) moved to the
    pixel and size of the best response within REFINE_REACH pixels. Peaks that land on one
    pixel are one; those under ``threshold`` there are dropped. Strongest first."""
    if not peaks:
        return []
    table = cv2.integral(dist, sdepth=cv2.CV_64F)
    h, w = dist.shape
    sizes = np.array(_sizes(1), np.intp)
    shift = np.arange(-REFINE_REACH, REFINE_REACH + 1)
    centres = np.floor(np.array([(x, y) for x, y, _ in peaks])).astype(np.intp)
    # the centres along each axis (peak, shift, 1) and the box edges along it (peak, shift,
    # size): a box's corners and area come from one edge of each axis, so the responses of
    # every (peak, dy, dx, size) are gathered from these small arrays by broadcasting
    xs = np.clip(centres[:, 0, None] + shift, 0, w - 1)[..., None]
    ys = np.clip(centres[:, 1, None] + shift, 0, h - 1)[..., None]
    response = _grid_responses(table, xs, ys, sizes).reshape(len(peaks), -1)
    pick = response.argmax(axis=1)  # over (dy, dx, size), in that order
    dy, rest = np.divmod(pick, len(shift) * len(sizes))
    dx, size = np.divmod(rest, len(sizes))
    rows = np.arange(len(peaks))
    found: dict[tuple[float, float], tuple[float, float]] = {}
    for x, y, k, r in zip(xs[rows, dx, 0], ys[rows, dy, 0], sizes[size], response[rows, pick],
                          strict=True):
        key = (float(x), float(y))
        if r > threshold and (key not in found or found[key][0] < r):
            found[key] = (float(r), float(k))
    best = sorted(found.items(), key=lambda item: -item[1][0])
    return [(x, y, k) for (x, y), (_, k) in best]


def _grid_responses(table: NDArray[Any], xs: NDArray[Any], ys: NDArray[Any],
                    sizes: NDArray[Any]) -> NDArray[Any]:
    """The candidate map's centre-surround response at every (x, y, size) of a grid per
    peak, from an integral image: ``xs`` and ``ys`` (peak, shift, 1) whole pixels, ``sizes``
    (size,) whole; (peak, dy, dx, size). OpenCV's box anchors (the k-box from x - k // 2, the
    2k-box from x - k), boxes cut at the map's edge (where the map reflects instead). Each
    box's edges are clipped once per axis, not once per point (refine: 2.5 -> 2.2 ms on a
    crowded frame)."""
    hi_x, hi_y = table.shape[1] - 1, table.shape[0] - 1
    width, flat = table.shape[1], table.reshape(-1)

    def mean(x0: NDArray[Any], y0: NDArray[Any], size: NDArray[Any]) -> NDArray[Any]:
        # edges (peak, shift, size), clipped at the map's edge, as _box_mean clips them
        left, right = np.clip(x0, 0, hi_x), np.clip(x0 + size, 0, hi_x)
        top, bottom = np.clip(y0, 0, hi_y), np.clip(y0 + size, 0, hi_y)
        t, b = top[:, :, None, :], bottom[:, :, None, :]
        lo, ro = left[:, None, :, :], right[:, None, :, :]
        # gathered by flat index (np.take): the same values as table[row, column], faster
        tw, bw = t * width, b * width
        total = (np.take(flat, bw + ro) - np.take(flat, tw + ro) - np.take(flat, bw + lo)
                 + np.take(flat, tw + lo))
        area = (ro - lo) * (b - t)
        out: NDArray[Any] = total / np.maximum(area, 1)
        return out

    inner = mean(xs - sizes // 2, ys - sizes // 2, sizes)
    outer = mean(xs - sizes, ys - sizes, 2 * sizes)
    out: NDArray[Any] = 4 / 3 * (inner - outer)
    return out


def _box_mean(table: NDArray[Any], x0: NDArray[Any], y0: NDArray[Any], x1: NDArray[Any],
              y1: NDArray[Any]) -> NDArray[Any]:
    """The mean of the map over the boxes [x0, x1) x [y0, y1) (whole pixels), from its
    integral image ``table``; boxes are cut at the map's edge."""
    h, w = table.shape[0] - 1, table.shape[1] - 1
    x0, x1 = np.clip(x0, 0, w).astype(np.intp), np.clip(x1, 0, w).astype(np.intp)
    y0, y1 = np.clip(y0, 0, h).astype(np.intp), np.clip(y1, 0, h).astype(np.intp)
    flat, width = table.reshape(-1), table.shape[1]  # flat gathers, as _grid_responses
    y0w, y1w = y0 * width, y1 * width
    total = (np.take(flat, y1w + x1) - np.take(flat, y0w + x1) - np.take(flat, y1w + x0)
             + np.take(flat, y0w + x0))
    mean: NDArray[Any] = total / np.maximum((x1 - x0) * (y1 - y0), 1)
    return mean


def _responses(table: NDArray[Any], x: NDArray[Any], y: NDArray[Any], k: NDArray[Any]
               ) -> NDArray[Any]:
    """The centre-surround response (the candidates' one) at points and sizes, from an
    integral image: 4/3 (mean of the k-box - mean of the 2k-box around it), boxes cut at
    the map's edge."""
    def mean(half: NDArray[Any]) -> NDArray[Any]:
        return _box_mean(table, np.round(x - half), np.round(y - half), np.round(x + half),
                         np.round(y + half))

    return 4 / 3 * (mean(k / 2) - mean(k))


def on_edge(dist: NDArray[Any], peaks: list[Point], step: int = 1) -> NDArray[Any]:
    """Which peaks lie on an edge rather than on a die: along some line through the peak the
    response stays above EDGE_ALONG of its own one and 1.5 sizes away both ways, and across
    that line it falls below EDGE_ACROSS of it one size away on both sides. A tray's rim
    makes a row of such peaks (a hundred on a photo of a tray with a dark rim), each of which
    the classifier would have to read. A die's response falls off within a size in every
    direction, and a crowded tray has dice across a row too; the middle of a long straight
    row of touching dice could pass for an edge. Chosen on the train photos (the validation
    photos have no rim, and no peak there is an edge): skipping these peaks lost no die the
    full reading found and dropped three spurious ones; at EDGE_ALONG 0.4 a die was lost."""
    if not peaks:
        return np.zeros(0, bool)
    table = cv2.integral(dist, sdepth=cv2.CV_64F)
    p = np.array(peaks, np.float64)
    x, y, k = (p[:, 0] + 0.5) / step - 0.5, (p[:, 1] + 0.5) / step - 0.5, p[:, 2] / step
    # the response at each peak and at the 16 points around it, in one call: distance,
    # direction and side as the leading axes
    shift = np.array((1.0, 1.5))[:, None, None, None] * np.array((1, -1))[None, None, :, None]
    xs = x + shift * _DIRECTIONS[None, :, 0, None, None] * k
    ys = y + shift * _DIRECTIONS[None, :, 1, None, None] * k
    ks = np.broadcast_to(k, xs.shape)
    own = np.maximum(_responses(table, x, y, k), 1e-6)
    share = np.moveaxis(_responses(table, xs, ys, ks) / own, -1, 0)  # peaks first
    along = share.min(axis=(1, 3))  # peaks x directions
    across = np.roll(share[:, 0].max(axis=2), -2, axis=1)  # the perpendicular direction's
    edge: NDArray[Any] = ((along > EDGE_ALONG) & (across < EDGE_ACROSS)).any(axis=1)
    return edge


def near_points(points: list[Point], probs: NDArray[Any], smallest: float) -> list[Point]:
    """The points NEAR_LOOK_SHIFT sizes from each peak of the ``smallest`` candidate size
    whose P(die) is at least NEAR_LOOK_BAR, in the four directions (see NEAR_LOOK_BAR)."""
    out: list[Point] = []
    for (x, y, s), none in zip(points, probs[:, 0], strict=True):
        if s <= smallest and 1 - none >= NEAR_LOOK_BAR:
            d = NEAR_LOOK_SHIFT * s
            out += [(x + d, y, s), (x - d, y, s), (x, y + d, s), (x, y - d, s)]
    return out


def offsets(x: float, y: float, size: float) -> list[Point]:
    return [(x + dx * OFFSET * size, y + dy * OFFSET * size, size)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]


class DiceReader:
    def __init__(self, net: ConvNet | NetMean, pips: NDArray[Any] | None,
                 accept: float = 0.5, work_size: int = WORK_SIZE) -> None:
        self.net = net
        self.pips = pips  # P(pip count | value), rows 0..6, columns 0..9
        self.accept = accept
        self.pip_weight = 1.0  # exponent on P(count | value): how far to trust the counter
        # P(value | die) under this: read again in the eight views and at the scales below.
        # Every bar from 0.6 to 0.97 scores the same on val (0.5 loses two dice); on train
        # photos 0.8 and lower lose one. 0.9 reads again fewer dice than 0.97
        self.recheck = 0.9
        # the candidate size is a step off now and then: val 97.87% -> 98.94% with (0.9, 1.1)
        self.recheck_scales: tuple[float, ...] = (0.9, 1.1)
        # an unsure value that the pip counter counts too is not read again: on the folds
        # the same readings, calibrated or not (and as many asked about); on val one die
        # fewer at a calibrated scale, asked about. A fifth fewer crops (2026-11-22)
        self.pips_spare_recheck = True
        self.work_size = work_size
        self.candidate_step = 1  # 2: candidates found on a half-size copy
        # the least centre-surround response of a candidate; calibrate dice may learn a lower
        # one for faint dice (vision/dice_learn.py learn_bar)
        self.threshold = THRESHOLD
        # with candidate_step 1: search a half-size copy and refine at full size (_first_peaks)
        self.coarse_search = True
        # read again beside plausible smallest-size peaks (see NEAR_LOOK_BAR): off, as it
        # found paper dice but added spurious ones on close-ups and a fifth more CPU on
        # calibrated tray frames (docs/vision.md, issue 15)
        self.near_look = False
        self.second_look = True  # look again for peaks with the accepted dice blanked out
        self.skip_edges = True  # peaks on an edge (a tray's rim) are not read: see on_edge
        # extra candidate centres from what calibrate dice learned of the players' dice
        # (vision/dice_pip_points.py): called with a working image, its die side in its
        # pixels and the finder's candidates; None (the shipped reader): the finder's alone
        self.propose: Callable[[NDArray[Any], float, list[Point]], list[Point]] | None = None
        # optional tray area (x0, y0, x1, y1) in input pixels; dice outside are ignored
        self.area: tuple[float, float, float, float] | None = None
        # optional tray floor outline (points in input pixels, from calibrate dice): dice
        # whose centre lies outside it are ignored too (a round tray's corners, its walls)
        self.floor: list[tuple[float, float]] | None = None
        # input-to-working scale; None: fit the longer side to work_size. Calibration sets it
        # from the die size so that dice are about DIE_SIDE working pixels across.
        self.scale: float | None = None
        self.levels: tuple[float, ...] = LEVELS  # read uncalibrated (model file: levels)
        self.scale_levels: tuple[float, ...] = SCALE_LEVELS  # read calibrated (see read_quick)
        self.zoom_level: float | None = ZOOM_LEVEL  # uncalibrated, after levels (None: not)
        # the raw confidence from which a reading is said without asking (0.9 after
        # trusted): chosen on the readings of set-ups left out of training (loso_dice)
        self.sure_from = SURE

    def calibrate(self, die_size: float) -> None:
        """Use a die side measured in input pixels (``companion calibrate dice``)."""
        self.scale = DIE_SIDE / die_size

    @classmethod
    def load(cls, *paths: Path) -> DiceReader:
        """The reader of model files: no file named, the shipped pair (MODEL_PATH and
        PARTNER_PATH); several, all their networks averaged (NetMean: the mean of their
        probabilities), with the first file's bars, pip counter and levels; the first
        network reads alone in read_quick."""
        paths = paths or SHIPPED_MODELS
        for p in paths:
            if not p.is_file():
                raise FileNotFoundError(f"no dice model at {p}: run python -m "
                                        "vision.train.train_dice")
        # each frame frees and allocates again megabytes of arrays: kept for reuse instead of
        # handed back to the kernel, they are not page-faulted afresh (vision/memory.py)
        keep_freed_memory()
        first, extra = ConvNet.load(paths[0])
        more = [ConvNet.load(p)[0] for p in paths[1:]]
        net = NetMean([first, *more]) if more else first
        reader = cls(net, extra["pip_confusion"].astype(np.float32), float(extra["accept"]))
        reader.pip_weight = float(extra.get("pip_weight", 1.0))
        reader.candidate_step = int(extra.get("candidate_step", 1))  # what it was trained on
        # a model trained on one image size per photo (before 2026-11-24) reads only that
        reader.levels = tuple(float(v) for v in extra.get("levels", [1.0]))
        reader.sure_from = float(extra.get("sure_from", SURE))

        return reader

    def warm_up(self, width: int, height: int) -> list[Die]:
        """Read a drawn die (a five, white on grey, in the middle of the tray area) on a
        picture of the camera's size, before the first frame is due: the first reading of a
        process pays for OpenCV's Lab tables and numpy's lazy imports (np.median imports
        numpy.ma), 100 to 140 ms of CPU that would otherwise fall on the first throw
        (``companion bench camera``, issue 15). The dice read are returned."""
        frame = np.full((max(SMALLEST_WARM, height), max(SMALLEST_WARM, width), 3), 150,
                        np.uint8)
        x0, y0, x1, y1 = self.area or (0, 0, frame.shape[1], frame.shape[0])
        side = DIE_SIDE / self.scale if self.scale else max(24.0, max(frame.shape[:2]) / 20)
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, side / 2
        cv2.rectangle(frame, (round(cx - half), round(cy - half)),
                      (round(cx + half), round(cy + half)), (235, 235, 235), -1)
        for dx, dy in ((0, 0), (-1, -1), (1, 1), (-1, 1), (1, -1)):
            cv2.circle(frame, (round(cx + dx * side / 4), round(cy + dy * side / 4)),
                       max(1, round(side / 10)), (20, 20, 20), -1)
        return self.read(frame)

    def read(self, image: NDArray[Any]) -> list[Die]:
        """The dice accepted on ``image`` (input pixels)."""
        return self.read_ranked(image, 0).dice

    def read_quick(self, image: NDArray[Any]) -> list[Die]:
        """The dice accepted on ``image`` read at the calibrated scale alone (uncalibrated,
        at levels alone, without zoom_level): the camera's reading of each still frame,
        until a throw is reported from the whole reading (vision/motion.py). A third of
        read's CPU calibrated."""
        return self.read_ranked(image, 0, quick=True).dice

    def read_ranked(self, image: NDArray[Any], most: int = MOST_DICE,
                    quick: bool = False) -> Ranked:
        """The dice accepted and, beside them, the plausible candidates under the bar ranked
        by P(die) (as many as a throw of ``most`` dice needs, and one more for the doubt):
        what a reading knowing its count chooses from (by_count). ``most`` 0: read.
        ``quick``: at the calibrated scale alone, uncalibrated at levels alone, with the
        first network alone (read_quick); else every network averaged (NetMean)."""
        why = unreadable(image)
        if why:
            raise ValueError(f"the picture cannot be read: {why}")
        whole = self.net
        if quick:
            self.net = whole.alone
        try:
            return self._read_ranked(image, most, quick)
        finally:
            self.net = whole

    def _read_ranked(self, image: NDArray[Any], most: int, quick: bool) -> Ranked:
        # the quick reading's levels, then the others, read in a window around the first
        # level's candidates: calibrated, 1.5 times the calibrated scale; uncalibrated, the
        # working image 1.5 times as large (ZOOM_LEVEL) after its half and quarter
        if self.scale is not None:
            levels, more = self.scale_levels[:1], self.scale_levels[1:]
        else:
            levels, more = self.levels, (self.zoom_level,) if self.zoom_level else ()
        if quick:
            more = ()
        kept: list[Die] = []
        quick_kept = 0  # the first dice of kept, read at ``levels``: the quick reading's
        places: list[Point] = []  # the first picture's candidates, input pixels
        pictures = self._pictures(image, levels, more, places)
        for i, (work, factor, left, top, extra) in enumerate(pictures):
            found, points = self._read_work(work, factor, left, top, most)
            # back to input pixels (the size still the blob scale: merged on it)
            kept.extend(replace(d, x=d.x / factor + left, y=d.y / factor + top,
                                size=d.size / factor) for d in found)
            if not extra:
                quick_kept = len(kept)
            if i == 0 and more:
                places.extend((x / factor + left, y / factor + top, s / factor)
                              for x, y, s in points)
        first: list[Die] | None = None
        if more:  # read_quick's levels (read by every network, read_quick by the first)
            quick_dice = [d for d in kept[:quick_kept] if d.accepted]
            if len(levels) > 1:
                quick_dice = merge_levels(quick_dice)
            first = [self._reported(d) for d in quick_dice]
        if len(levels) + len(more) > 1:
            accepted = merge_levels([d for d in kept if d.accepted])
            kept = accepted + rank_rest(accepted, [d for d in kept if not d.accepted])
        out = [self._reported(d) for d in kept]
        return Ranked([d for d in out if d.accepted], [d for d in out if not d.accepted],
                      self.sure_from, first)

    def _reported(self, die: Die) -> Die:
        """A reading as reported: its size the die's side (about 1.2 x blob scale), its
        confidence trusted."""
        return replace(die, size=die.size * 1.2,
                       confidence=trusted(die.confidence, self.sure_from))

    def _pictures(self, image: NDArray[Any], levels: tuple[float, ...],
                  more: tuple[float, ...], places: list[Point]
                  ) -> Iterator[tuple[NDArray[Any], float, int, int, bool]]:
        """The working images a picture is read on (working()'s figures for each), their
        readings then merged (the surest of overlapping dice wins). Uncalibrated, the die
        size is not known: the working image, then at ``levels`` (half and a quarter) its
        size, for dice too large for the candidate sizes (a close-up). Calibrated, at
        ``levels`` times the calibrated scale, made from the picture. Then at ``more`` times
        the working scale, made from the picture, only in the window around ``places``, the
        first picture's candidates, which the caller fills in after reading it (this
        generator runs on only when asked for the next). Last: whether it is one of
        ``more`` (not read by read_quick)."""
        base = self._base_scale(image)
        if self.scale is not None:
            for zoom in levels:
                working = self.working(image, zoom)
                if working is not None:
                    yield (*working, False)
        else:
            working = self.working(image)
            if working is None:
                return
            work, factor, left, top = working
            for level in levels:
                if level == 1.0:
                    yield (*working, False)
                    continue
                lw, lh = round(work.shape[1] * level), round(work.shape[0] * level)
                if min(lw, lh) >= MIN_LEVEL_SIDE:
                    yield (cv2.resize(work, (lw, lh), interpolation=level_mode(level)),
                           factor * level, left, top, False)
        for zoom in more:
            working = self.working(image, zoom, self._window(places, base))
            if working is not None:
                yield (*working, True)

    def _window(self, places: list[Point], base: float
                ) -> tuple[float, float, float, float] | None:
        """The tray area cut to WINDOW_REACH die sides around ``places`` (input pixels;
        a die side: DIE_SIDE working pixels at the working scale ``base``, the size the
        network learned dice at); the tray area itself when there are none."""
        if not places:
            return self.area
        reach = WINDOW_REACH * DIE_SIDE / base
        x0 = min(p[0] for p in places) - reach
        y0 = min(p[1] for p in places) - reach
        x1 = max(p[0] for p in places) + reach
        y1 = max(p[1] for p in places) + reach
        if self.area is not None:
            ax0, ay0, ax1, ay1 = self.area
            x0, y0, x1, y1 = max(x0, ax0), max(y0, ay0), min(x1, ax1), min(y1, ay1)
        return (x0, y0, x1, y1)

    def _base_scale(self, image: NDArray[Any]) -> float:
        """Input to working pixels at zoom 1: the calibrated scale, else the longer side
        fitted to work_size."""
        return self.scale or self.work_size / max(image.shape[:2])

    def working(self, image: NDArray[Any], zoom: float = 1.0,
                area: tuple[float, float, float, float] | None = None
                ) -> tuple[NDArray[Any], float, int, int] | None:
        """The working image (the tray area, or ``area`` when given, and a margin, at the
        working scale times ``zoom``), its scale and where it starts in ``image``; None when
        the area leaves too little to read."""
        factor = self._base_scale(image) * zoom
        if abs(factor - 1) <= 0.05:
            factor = 1.0
        # with a tray area, only the area (and a margin for the background estimate and the
        # largest candidate's surround) is searched: the rest of the frame costs nothing
        left = top = 0
        area = self.area if area is None else area
        if area is not None:
            margin = AREA_MARGIN * zoom / factor  # input pixels: the same at any zoom
            x0, y0, x1, y1 = area
            left, top = max(0, int(x0 - margin)), max(0, int(y0 - margin))
            right = min(image.shape[1], int(x1 + margin) + 1)
            bottom = min(image.shape[0], int(y1 + margin) + 1)
            if right - left < 32 or bottom - top < 32:
                return None
            image = image[top:bottom, left:right]
        h, w = image.shape[:2]
        work = image
        if factor != 1.0:
            # a mild reduction is as good bilinear and five times cheaper than INTER_AREA
            mode = cv2.INTER_LINEAR if 0.75 <= factor < 1 else cv2.INTER_AREA
            work = cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=mode)
        return work, factor, left, top

    def peaks(self, work: NDArray[Any], factor: float, left: int, top: int) -> list[Point]:
        """The first pass's candidates on a working image (in its pixels) inside the area."""
        step = self.candidate_step
        return self._inside(self._first_peaks(distance_map(work, step), step), factor, left,
                            top)

    def _read_work(self, work: NDArray[Any], factor: float, left: int, top: int,
                   most: int = 0) -> tuple[list[Die], list[Point]]:
        """The dice on one working image, in its pixels (size: the candidate's); with
        ``most``, the plausible candidates under the bar too (accepted False), up to
        ``most`` + 1 in all. Second, the first pass's candidates (in its pixels)."""
        step = self.candidate_step
        dist = distance_map(work, step)
        # (until 2026-11-21 four offset points around each large peak were read too, for
        # two touching dice whose blob peaks between them; since the second look and the
        # merge of touching dice they gained nothing for 30% more crops: docs/vision.md)
        points = self._inside(self._first_peaks(dist, step), factor, left, top)
        if self.propose is not None and self.scale is not None:
            side = DIE_SIDE * factor / self.scale  # the zoom this picture is read at
            points += self._inside(self.propose(work, side, points), factor, left, top)
        first = list(points)
        if not points:
            return [], first
        inputs = self._inputs(work, points)
        probs = self.net.probabilities(inputs)
        if self.near_look:
            more = self._inside(near_points(points, probs, min(_sizes(step)) * step), factor,
                                left, top)
            if more:
                points, inputs, probs = self._read_more(work, points, inputs, probs, more)
        chosen = self._choose(points, probs, [])
        if not chosen:
            return [], first
        # a die pressed against others can have no peak of its own: the accepted dice are
        # blanked out of the distance map and the peaks that appear next to them are read too
        if self.second_look:
            accepted = [points[j] for j in chosen]
            found = self._second_look(dist, step, accepted, self.coarse_search,
                                      self.threshold)
            inside = self._inside(found, factor, left, top)
            known = set(points)
            more = [p for p, near in zip(inside, _near_any(inside, accepted), strict=True)
                    if not near and p not in known]
            if more:
                points, inputs, probs = self._read_more(work, points, inputs, probs, more)
                chosen = self._choose(points, probs, chosen)
        agreed = len(chosen)  # the dice accepted; the rest only ranked
        if most > agreed:
            points, inputs, probs, chosen = self._rank(work, dist, factor, left, top, points,
                                                       inputs, probs, chosen, most + 1)
        # an unsure value is read again: the average over the four turns of the crop and of
        # crops 0.9 and 1.1 times as large (sure ones skip it, for speed, and so do those
        # the pip count agrees with: pips_spare_recheck). The mirror images too (16 looks,
        # until 2026-11-21) read the same on the folds and val; fewer turns at the other
        # scales lost up to three dice
        votes = probs[chosen].copy()
        unsure = [k for k in range(len(chosen)) if votes[k, 1:].max() < self.recheck * (
            1 - votes[k, 0])]
        counts = [-1] * len(chosen)
        if self.pips is not None and self.pip_weight > 0:  # weight 0: the count is moot
            counts = count_pips_many(np.stack([crop(work, *points[i], side=64)
                                               for i in chosen]))
        if self.pips_spare_recheck:
            unsure = [k for k in unsure if counts[k] != int(votes[k, 1:].argmax()) + 1]
        if unsure:
            votes[unsure] = self._recheck(work, points, inputs, [chosen[k] for k in unsure],
                                          votes[unsure])
        kept: list[Die] = []
        for k, i in enumerate(chosen):
            x, y, s = points[i]
            present = float(1 - votes[k, 0])
            values = votes[k, 1:] / max(present, 1e-6)
            pips = counts[k]
            if self.pips is not None and pips >= 0:
                values = values * self.pips[1:, min(pips, 9)] ** self.pip_weight
                values = values / values.sum()
            value = int(np.argmax(values)) + 1
            confidence = float(min(present, 1.0) * values[value - 1])
            kept.append(Die(value, x, y, s, confidence, pips, min(present, 1.0),
                            float(values[value - 1]), k < agreed))
        return kept, first

    def _read_more(self, work: NDArray[Any], points: list[Point], inputs: NDArray[Any],
                   probs: NDArray[Any], more: list[Point]
                   ) -> tuple[list[Point], NDArray[Any], NDArray[Any]]:
        """``points`` with ``more`` added, and their network inputs and probabilities with
        those of ``more`` read now."""
        extra = self._inputs(work, more)
        return (points + more, np.concatenate([inputs, extra]),
                np.concatenate([probs, self.net.probabilities(extra)]))

    def _rank(self, work: NDArray[Any], dist: NDArray[Any], factor: float, left: int,
              top: int, points: list[Point], inputs: NDArray[Any], probs: NDArray[Any],
              chosen: list[int], wanted: int
              ) -> tuple[list[Point], NDArray[Any], NDArray[Any], list[int]]:
        """``chosen`` followed by the plausible candidates under the bar (P(die) at least
        PLAUSIBLE, not one die with a chosen one), likeliest first, up to ``wanted`` in all.
        When too few, peaks are searched again down to RANK_BAR (a die too faint for a peak
        at the reader's bar) and read too."""
        chosen = self._choose(points, probs, chosen, PLAUSIBLE, wanted)
        if len(chosen) < wanted and self.threshold > RANK_BAR:
            step = self.candidate_step
            low = self.threshold
            try:
                self.threshold = RANK_BAR
                found = self._inside(self._first_peaks(dist, step), factor, left, top)
            finally:
                self.threshold = low
            taken = [points[i] for i in chosen]
            known = set(points)
            more = [p for p, near in zip(found, _near_any(found, taken), strict=True)
                    if not near and p not in known]
            if more:
                points, inputs, probs = self._read_more(work, points, inputs, probs, more)
                chosen = self._choose(points, probs, chosen, PLAUSIBLE, wanted)
        return points, inputs, probs, chosen

    def _recheck(self, work: NDArray[Any], points: list[Point], inputs: NDArray[Any],
                 which: list[int], first: NDArray[Any]) -> NDArray[Any]:
        """The mean probabilities of the crops ``which`` over their four turns and over the
        four turns of crops recheck_scales times as large; ``first`` is what the crops
        themselves read (their first turn at their own scale, not read again)."""
        # (reading again only the scale-1 turns first, and the other scales only if still
        # unsure, read the same but saved few crops: on crowded trays the unsure stay unsure)
        again = [self.net.turned_probabilities(inputs[which], (1, 2, 3))]
        if self.recheck_scales:
            # the other scales' crops, all in one call (each crop's inputs are its own)
            other = self._inputs(work, [(points[i][0], points[i][1], points[i][2] * f)
                                        for f in self.recheck_scales for i in which])
            again.append(self.net.turned_probabilities(other).reshape(-1, len(which),
                                                                      first.shape[1]))
        # the turns at each scale read with the network's first stage shared (the same
        # figures as reading the turned crops, to float rounding; ConvNet._turned_features)
        looks = np.concatenate(again)
        mean: NDArray[Any] = (looks.sum(axis=0) + first) / (len(looks) + 1)
        return mean

    def _first_peaks(self, dist: NDArray[Any], step: int) -> list[Point]:
        """The first pass's candidate peaks, without those on an edge (skip_edges). With
        coarse_search, at a quarter of the cost: busy_peaks on a half-size copy of the
        distance map, each peak then moved to the best centre-surround response (at every
        candidate size) within REFINE_REACH working pixels on the full-size map. On the
        cross-validation folds and val, with and without calibration, that reads within a die
        of the full-size search (docs/vision.md), for a few more crops: the half-size peak
        window (3 pixels, 6 at full size) keeps a few more neighbours apart than the full-size
        one (7)."""
        search, search_step = _search_copy(dist, step, self.coarse_search)
        peaks = busy_peaks(search, search_step, self.threshold, fast=True)
        if self.skip_edges:
            # on the map the peaks were found on: only the rest are refined (on the folds
            # and val the same dice right as testing the refined peaks, one or two spurious
            # fewer, and most of a crowded tray's refinement saved)
            edges = on_edge(search, peaks, search_step)
            peaks = [p for p, edge in zip(peaks, edges, strict=True) if not edge]
        return refine(dist, peaks, self.threshold) if search_step != step else peaks

    @staticmethod
    def _second_look(dist: NDArray[Any], step: int, dice: list[Point], coarse: bool = False,
                     threshold: float = THRESHOLD) -> list[Point]:
        """Peaks within SECOND_LOOK_REACH die sides of the accepted ``dice`` once they are
        blanked out. Only windows around the dice are searched (overlapping ones as one),
        wide enough that the largest candidate's surround fits: the response there is the
        whole map's. ``coarse`` (with step 1): searched on a half-size copy and refined, as
        the first pass does (_first_peaks)."""
        blank = dist.copy()
        for x, y, s in dice:
            centre = (round((x + 0.5) / step - 0.5), round((y + 0.5) / step - 0.5))
            cv2.circle(blank, centre, max(1, round(SECOND_LOOK_RADIUS * 1.2 * s / step)),
                       0.0, -1)
        search, search_step = _search_copy(blank, step, coarse)
        h, w = search.shape
        blocks = np.zeros((-(-h // BLOCK), -(-w // BLOCK)), np.uint8)
        for x, y, s in dice:
            reach = SECOND_LOOK_REACH * 1.2 * s / search_step
            cx = (x + 0.5) / search_step - 0.5
            cy = (y + 0.5) / search_step - 0.5
            blocks[max(0, int((cy - reach) // BLOCK)) : int((cy + reach) // BLOCK) + 1,
                   max(0, int((cx - reach) // BLOCK)) : int((cx + reach) // BLOCK) + 1] = 1
        peaks = _window_peaks(search, blocks, _ring(search_step), search_step, threshold,
                              LIMIT, True)
        if search_step != step:
            # only peaks that can end within reach are refined: refining moves a peak less
            # than REFINE_REACH + 1 pixels along each axis (the same peaks as refining all)
            peaks = refine(blank, [peaks[i] for i in np.flatnonzero(
                _within_reach(peaks, dice, (REFINE_REACH + 1) * 1.5))], threshold)
        return sorted(peaks[i] for i in np.flatnonzero(_within_reach(peaks, dice)))

    def _inside(self, points: list[Point], factor: float, left: int, top: int) -> list[Point]:
        """The points whose centre lies in the tray area and floor outline (all of them
        without an area)."""
        if self.area is None:
            return points
        x0, y0, x1, y1 = self.area
        kept = [p for p in points
                if x0 <= p[0] / factor + left <= x1 and y0 <= p[1] / factor + top <= y1]
        if self.floor is not None and len(self.floor) >= 3:
            outline = np.array(self.floor, np.float32).reshape(-1, 1, 2)
            kept = [p for p in kept if cv2.pointPolygonTest(
                outline, (p[0] / factor + left, p[1] / factor + top), False) >= 0]
        return kept

    def _inputs(self, work: NDArray[Any], points: list[Point]) -> NDArray[Any]:
        return net_inputs(np.stack([crop(work, x, y, s) for x, y, s in points]),
                          self.net.channels)

    @staticmethod
    def _near(point: Point, dice: list[Point]) -> bool:
        """Closer to one of ``dice`` than MERGE sizes (the larger of the two)."""
        return any(_distance(point, die) < MERGE * max(point[2], die[2]) for die in dice)

    def _choose(self, points: list[Point], probs: NDArray[Any], chosen: list[int],
                bar: float | None = None, most: int = LIMIT) -> list[int]:
        """Add to ``chosen`` the points read as a die, most likely first, that are not one
        die with a point already chosen: nearer than MERGE sizes, unless both read a value
        surely, the values differ and they lie DIFFER_APART sizes apart (two touching dice)."""
        chosen = list(chosen)
        die_prob = 1 - probs[:, 0]
        values = probs[:, 1:] / np.maximum(die_prob, 1e-6)[:, None]
        value, sure = values.argmax(axis=1), values.max(axis=1) >= DIFFER_SURE

        # which pairs are one die, all at once (the same figures as pair by pair, in a
        # twentieth of the time on a crowded tray)
        at = np.array([p[:2] for p in points], np.float64)
        apart = np.hypot(at[:, None, 0] - at[None, :, 0], at[:, None, 1] - at[None, :, 1])
        sizes = np.array([p[2] for p in points], np.float64)
        size = np.maximum(sizes[:, None], sizes[None, :])
        two = ((sure[:, None] & sure[None, :]) & (value[:, None] != value[None, :])
               & (apart >= DIFFER_APART * size))
        one_die = (apart < MERGE * size) & ~two
        bar = self.accept if bar is None else bar
        for i in map(int, np.argsort(-die_prob)):
            if die_prob[i] < bar or len(chosen) >= most:
                break
            if i not in chosen and not one_die[i, chosen].any():
                chosen.append(i)
        return chosen


def trusted(confidence: float, sure_from: float) -> float:
    """The confidence reported for a raw one: unchanged up to 0.5, then stretched so that
    ``sure_from`` becomes SURE (0.9, the session's bar for saying a reading without asking)
    and 1 stays 1. The bar 0.35 below which a throw is refused does not move."""
    if confidence <= 0.5 or sure_from == SURE:
        return confidence
    if confidence < sure_from:
        return 0.5 + (confidence - 0.5) * (SURE - 0.5) / (sure_from - 0.5)
    return SURE + (confidence - sure_from) * (1 - SURE) / max(1e-9, 1 - sure_from)


def by_count(candidates: list[Die], most: int = MOST_DICE, sure_from: float = SURE
             ) -> list[tuple[int, list[Die]]]:
    """For each count n from 1 to ``most`` (while there are n candidates), the reading of a
    throw known to hold n dice: the n likeliest dice (raw P(die)), left to right. Knowing the
    count, a chosen die's doubt of being a die is no longer its own P(die) but how clearly it
    beats the others: P(it is among the n) ~ 1 / (1 + sum of the others' odds / its odds),
    the throws that swap it for one of the rest (or for a die that is no candidate at all,
    odds of PLAUSIBLE) weighed against this one. Its value's doubt stays: the confidence is
    that times P(value | die), made trusted as the reader's."""
    ranked = sorted(candidates, key=lambda d: -d.present)
    odds = [_odds(d.present) for d in ranked]
    out: list[tuple[int, list[Die]]] = []
    for n in range(1, min(most, len(ranked)) + 1):
        others = sum(odds[n:]) + _odds(PLAUSIBLE)
        dice = [replace(d, confidence=trusted(d.value_sure / (1 + others / odds[k]),
                                              sure_from))
                for k, d in enumerate(ranked[:n])]
        out.append((n, sorted(dice, key=lambda d: d.x)))
    return out


def _odds(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return p / (1 - p)


def rank_rest(kept: list[Die], others: list[Die]) -> list[Die]:
    """Candidates of several image sizes as one: likeliest die first, one dropped when its
    centre lies within MERGE sizes (the larger) of one kept or ranked before it."""
    taken = list(kept)
    out: list[Die] = []
    for die in sorted(others, key=lambda d: -d.present):
        if not any(np.hypot(die.x - k.x, die.y - k.y) < MERGE * max(die.size, k.size)
                   for k in taken):
            taken.append(die)
            out.append(die)
    return out


def level_mode(level: float) -> int:
    """How a working image is resized to another level: averaged down, interpolated up."""
    return cv2.INTER_AREA if level < 1 else cv2.INTER_LINEAR


def merge_levels(dice: list[Die]) -> list[Die]:
    """Readings of several image sizes as one: surest first, a reading dropped when its
    centre lies within MERGE sizes (the larger) of one kept."""
    kept: list[Die] = []
    for die in sorted(dice, key=lambda d: -d.confidence):
        if not any(np.hypot(die.x - k.x, die.y - k.y) < MERGE * max(die.size, k.size)
                   for k in kept):
            kept.append(die)
    return kept


def _within_reach(points: list[Point], dice: list[Point], more: float = 0.0) -> NDArray[Any]:
    """Which points lie within SECOND_LOOK_REACH die sides (+ ``more`` pixels) of a die."""
    if not points or not dice:
        return np.zeros(len(points), bool)
    p, d = np.array(points)[:, None, :2], np.array(dice)[None]
    gap = np.hypot(p[..., 0] - d[..., 0], p[..., 1] - d[..., 1])
    near: NDArray[Any] = (gap <= SECOND_LOOK_REACH * 1.2 * d[..., 2] + more).any(axis=1)
    return near


def _near_any(points: list[Point], dice: list[Point]) -> list[bool]:
    """DiceReader._near of each point, all pairs at once (the same hypot of the same
    differences: on a crowded tray a few thousand pairs, looped in Python before)."""
    if not points or not dice:
        return [False] * len(points)
    p, d = np.array(points, np.float64), np.array(dice, np.float64)
    apart = np.hypot(p[:, None, 0] - d[None, :, 0], p[:, None, 1] - d[None, :, 1])
    near = apart < MERGE * np.maximum(p[:, None, 2], d[None, :, 2])
    return [bool(v) for v in np.asarray(near.any(axis=1))]


def _distance(a: Point, b: Point) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))
