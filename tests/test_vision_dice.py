"""The dice reader on the held-out real photos, and the pieces it is built from."""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest

from companion.observations import CONFIRM_BELOW
from vision.dice import (
    MODEL_PATH,
    DiceReader,
    Die,
    _box_mean,
    _grid_responses,
    busy_peaks,
    distance_map,
    find_peaks,
    on_edge,
    peaks_in,
)
from vision.dice_eval import evaluate, match
from vision.dice_features import CROP, NET_SIDE, crop, net_inputs
from vision.dice_photos import (
    DATA_DIR,
    LabelledDie,
    Photo,
    imread,
    load_photos,
    make_split,
    photos_in,
    read_split,
)
from vision.pips import _twice_distance, count_pips, count_pips_many
from vision.quantiles import twice_median as _twice_median

# Measured on the test split (docs/vision.md lists every reading); the test guards against
# regressions. The target is 0.97 per die.
# 0.975 with the reader of 2026-11-21 late (0.955 before it), 0.971 with the model of
# 2026-11-24; 0.967 (233/240) with the model of 2026-11-25, which reads set-ups it never
# learned from better (docs/vision.md): one die fewer here
TEST_PER_DIE_FLOOR = 0.965
# 0.800 with the model of 2026-11-24, which learned from three set-ups (234 of 240 dice, 24
# of 30 photos, against 238 and 26 for the tray-only model; it reads set-ups it never saw
# far better: docs/vision.md)
TEST_PER_PHOTO_FLOOR = 0.75  # 0.867 (0.767) before; 0.80, then 0.767 with the 2026-11-25 model
# Errors said without asking (confidence 0.9 or more): 8 of 1,062 readings on the
# cross-validation folds of the train photos (seven of them label errors: four dice nobody
# labelled, three labelled with another face), 1 of 244 readings on the test photos
SURE_ERRORS_AT_MOST = 0.01


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader.load()


def test_photos_and_labels_are_all_there() -> None:
    photos = load_photos()
    assert len(photos) == 200
    assert sum(len(p.dice) for p in photos) == 1487
    assert all(p.path.is_file() for p in photos)
    assert (DATA_DIR / "LICENSE").is_file()


def test_split_file_is_fixed_disjoint_and_by_photo() -> None:
    split = read_split()
    assert split == make_split(list(split))  # the file is what the documented rule gives
    counts = {part: sum(1 for v in split.values() if v == part) for part in ("train", "val",
                                                                              "test")}
    assert counts == {"train": 140, "val": 30, "test": 30}
    with (DATA_DIR / "split.csv").open() as handle:
        names = [row["filename"] for row in csv.DictReader(handle)]
    assert len(names) == len(set(names)) == 200


def test_model_is_small_and_loads_offline() -> None:
    assert MODEL_PATH.stat().st_size < 2_000_000
    net = DiceReader.load().net
    assert net.classes == ("none", "1", "2", "3", "4", "5", "6")


def test_accuracy_on_held_out_photos(reader: DiceReader) -> None:
    photos = [p for p in load_photos() if read_split()[p.name] == "test"]
    score = evaluate(reader, photos)
    print(score.summary())
    assert score.labelled == 240
    assert score.die_accuracy >= TEST_PER_DIE_FLOOR, score.summary()
    assert score.photo_accuracy >= TEST_PER_PHOTO_FLOOR, score.summary()


def test_errors_on_held_out_photos_are_nearly_all_asked_about(reader: DiceReader) -> None:
    """Unsure, it says so: a wrong value or a die that is not there comes with a confidence
    of 0.9 or more (said without asking) in at most one reading in a hundred."""
    told = []
    readings = 0
    for photo in [p for p in load_photos() if read_split()[p.name] == "test"]:
        dice = reader.read(imread(photo.path))
        readings += len(dice)
        for die in dice:
            if die.confidence < CONFIRM_BELOW:
                continue
            near = sorted((float(np.hypot(die.x - label.centre[0], die.y - label.centre[1])),
                           label.value) for label in photo.dice)
            if not near or near[0][0] > 0.5 * die.size or near[0][1] != die.value:
                told.append((photo.name, die))
    assert len(told) <= SURE_ERRORS_AT_MOST * readings, told


def test_scoring_counts_missed_and_spurious_dice_as_errors() -> None:
    photo = Photo(DATA_DIR / "x.jpg", (LabelledDie(3, (0, 0, 40, 40)),
                                       LabelledDie(5, (100, 0, 140, 40))))
    read = [Die(3, 21, 19, 40, 0.99), Die(6, 300, 300, 40, 0.99)]
    assert match(photo, read) == (1, 0, 1, 1)  # one right, one missed, one spurious
    read = [Die(3, 21, 19, 40, 0.99), Die(4, 118, 22, 40, 0.99)]
    assert match(photo, read) == (1, 1, 0, 0)
    read = [Die(3, 21, 19, 40, 0.99), Die(3, 25, 19, 40, 0.99)]  # counted twice
    assert match(photo, read) == (1, 0, 1, 1)


def test_blank_table_has_no_dice(reader: DiceReader) -> None:
    table = np.full((480, 640, 3), 200, np.uint8)
    table += np.random.default_rng(0).integers(0, 4, table.shape, dtype=np.uint8)
    assert reader.read(table) == []


def test_warm_up_reads_its_drawn_die(reader: DiceReader) -> None:
    """The camera's warm-up (vision/source.py) runs the whole reading on a drawn five."""
    assert [d.value for d in reader.warm_up(640, 480)] == [5]
    assert [d.value for d in reader.warm_up(0, 0)] == [5]  # a size unknown: a small picture


def test_tray_area_ignores_dice_outside(reader: DiceReader) -> None:
    photo = next(p for p in load_photos() if read_split()[p.name] == "test")
    image = cv2.imread(str(photo.path))
    everything = reader.read(image)
    reader.area = (0, 0, 320, 640)
    try:
        left = reader.read(image)
    finally:
        reader.area = None
    assert all(d.x <= 320 for d in left)
    assert len(left) == sum(1 for d in everything if d.x <= 320)


def test_reader_refuses_what_is_not_a_colour_image(reader: DiceReader) -> None:
    with pytest.raises(ValueError, match="colour image"):
        reader.read(np.zeros((480, 640), np.uint8))


def _drawn_face(value: int, angle: float) -> np.ndarray:
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    img = np.full((64, 64, 3), 200, np.uint8)
    side = 64 / 1.8 * 1.2  # the die side the pip counter expects in its crop
    c = 32
    cv2.rectangle(img, (int(c - side / 2), int(c - side / 2)), (int(c + side / 2),
                  int(c + side / 2)), (40, 40, 180), -1)
    for dx, dy in spots:
        cv2.circle(img, (int(c + dx * side * 0.28), int(c + dy * side * 0.28)),
                   max(2, int(side * 0.08)), (250, 250, 250), -1)
    m = cv2.getRotationMatrix2D((c, c), angle, 1.0)
    return cv2.warpAffine(img, m, (64, 64), borderValue=(200, 200, 200))


@pytest.mark.parametrize("value", range(1, 7))
def test_pip_counter_counts_a_clean_face(value: int) -> None:
    for angle in (0, 20, 45):
        assert count_pips(_drawn_face(value, angle)) == value


def test_pip_counter_whole_number_distance_equals_the_float_formula() -> None:
    rng = np.random.default_rng(11)
    lab = rng.integers(0, 256, (40, 64, 64, 3), dtype=np.uint8)
    lab[:20] //= 8  # dark, even crops too: medians that fall between two values
    lab[:20] += 100
    centre = rng.random((64, 64)) < 0.3
    centre[0, :2] = True  # an even count of centre pixels somewhere, an odd one elsewhere
    body = np.median(lab[:, centre].astype(np.float32), axis=1)
    assert np.array_equal(_twice_median(lab[:, centre]), 2 * body)
    reference = np.sqrt(((lab.astype(np.float32) - body[:, None, None]) ** 2
                         * (1.0, 2.0, 2.0)).sum(axis=3))
    assert np.array_equal(_twice_distance(lab, centre),
                          np.clip(reference * 2, 0, 255).astype(np.uint8))


def test_pip_counter_counts_many_crops_as_one_by_one() -> None:
    faces = np.array([_drawn_face(v, a) for v in range(1, 7) for a in (0, 20, 45)])
    assert count_pips_many(faces) == [count_pips(f) for f in faces] == [
        v for v in range(1, 7) for _ in range(3)]
    assert count_pips_many(faces[:0]) == []


def _crop_by_crop(patch: np.ndarray) -> np.ndarray:
    """The classifier input of one crop, step by step (what net_inputs does for a batch)."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag, ang = cv2.cartToPolar(gx, gy)
    half = (CROP - 1) / 2
    yy, xx = np.indices((CROP, CROP)) - half
    weight = mag * (np.hypot(xx, yy) < CROP * 0.42).astype(np.float32)
    s, c = float((weight * np.sin(4 * ang)).sum()), float((weight * np.cos(4 * ang)).sum())
    m = cv2.getRotationMatrix2D((half, half), float(np.degrees(np.arctan2(s, c)) / 4), 1.0)
    turned = cv2.warpAffine(patch, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    small = cv2.resize(turned, (NET_SIDE, NET_SIDE), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    q = NET_SIDE // 4
    face = np.median(lab[q : NET_SIDE - q, q : NET_SIDE - q].reshape(-1, 3), axis=0)
    diff = lab - face.astype(np.float32)
    contrast = np.sqrt((diff * diff) @ np.array([1.0, 2.0, 2.0], np.float32))
    out = np.empty((NET_SIDE, NET_SIDE, 4), np.float32)
    for channel, plane in enumerate((grey, contrast, lab[..., 1], lab[..., 2])):
        mean, std = cv2.meanStdDev(plane)
        out[..., channel] = (plane - float(mean[0, 0])) / (float(std[0, 0]) + 4.0)
    return out


def _train_photo(name: str) -> Photo:
    return next(p for p in load_photos() if p.name == name and read_split()[name] == "train")


def test_crops_read_as_a_batch_equal_crops_read_one_by_one() -> None:
    """The reader stacks its crops into one image for speed; the figures must not change
    (the model was trained on crops prepared one by one)."""
    photo = _train_photo("IMG_20191208_111628.jpg")
    image = imread(photo.path)
    patches = np.stack([crop(image, x, y, s) for x, y, s in find_peaks(image)[:40]])
    batch = net_inputs(patches, 4)
    assert np.array_equal(net_inputs(patches, 2), batch[..., :2])
    for patch, got in zip(patches, batch, strict=True):
        assert np.array_equal(got, _crop_by_crop(patch))


def test_fixed_point_candidates_find_the_same_peaks() -> None:
    peaks = fast = same = 0
    for name in ("IMG_20191208_111628.jpg", "IMG_20191208_111803.jpg"):
        image = imread(_train_photo(name).path)
        dist = distance_map(image)
        exact = {(x, y, s) for x, y, s in peaks_in(dist)}
        quick = {(x, y, s) for x, y, s in peaks_in(dist, fast=True)}
        peaks, fast, same = peaks + len(exact), fast + len(quick), same + len(exact & quick)
    assert same >= 0.98 * peaks and abs(fast - peaks) <= 0.02 * peaks


@pytest.mark.parametrize("name", ["IMG_20191208_111803.jpg", "IMG_20191208_111913.jpg"])
def test_second_look_finds_a_die_pressed_against_others(reader: DiceReader, name: str) -> None:
    """A die with no peak of its own in a crowded tray: the first pass misses it; blanking
    out the dice already read makes its peak appear. (read_quick: without the 1.5 level
    of the whole reading, ZOOM_LEVEL, which finds that die without the second look.)"""
    photo = _train_photo(name)
    image = imread(photo.path)
    reader.second_look = False
    try:
        first = match(photo, reader.read_quick(image))
    finally:
        reader.second_look = True
    assert first[2] >= 1  # missed
    assert match(photo, reader.read_quick(image)) == (len(photo.dice), 0, 0, 0)


def test_unsure_value_is_read_again_at_neighbouring_scales() -> None:
    """A candidate whose size is a step off reads a wrong value even in its eight views;
    the recheck at 0.9 and 1.1 times the crop reads it right (the one train photo where the
    recheck changes anything for the tray-only model, dice-tray.npz; the shipped model of
    2026-11-24 reads that die right without it). read_quick: without the whole reading's
    1.5 level (ZOOM_LEVEL), which reads that die right without the recheck."""
    reader = DiceReader.load(MODEL_PATH.parent / "dice-tray.npz")
    photo = _train_photo("IMG_20191208_111751.jpg")
    image = imread(photo.path)
    scales = reader.recheck_scales
    reader.recheck_scales = ()
    try:
        right, wrong, missed, spurious = match(photo, reader.read_quick(image))
    finally:
        reader.recheck_scales = scales
    assert wrong == 1
    assert match(photo, reader.read_quick(image)) == (right + 1, 0, missed, spurious)


def test_busy_peaks_are_the_whole_frames_peaks() -> None:
    """Searching only around the busy places finds exactly the peaks of the whole frame,
    on a plain table with a few dice (where it saves time) and on crowded trays."""
    from vision.roll_frames import cut_sprites, paper, roll

    rng = np.random.default_rng(3)
    sprites = cut_sprites(photos_in("train"), 12, rng)
    images = [roll(sprites[i : i + 3], paper((1280, 720), rng), rng, moving=1,
                   resting=1).frames[-1] for i in (0, 3, 6, 9)]
    images += [imread(_train_photo(n).path) for n in ("IMG_20191208_111628.jpg",
                                                      "IMG_20191208_111803.jpg")]
    for image in images:
        dist = distance_map(image)
        assert set(busy_peaks(dist, fast=True)) == set(peaks_in(dist, fast=True))


def test_second_look_windows_find_the_whole_maps_peaks() -> None:
    """The second look searches windows around the accepted dice; the peaks it finds near
    them are those of the whole blanked map."""
    from vision.dice import SECOND_LOOK_RADIUS, SECOND_LOOK_REACH

    for name in ("IMG_20191208_111628.jpg", "IMG_20191208_111803.jpg"):
        image = imread(_train_photo(name).path)
        dist = distance_map(image)
        for count in (2, 12):  # a few windows, or the whole map
            dice = peaks_in(dist, fast=True)[:count]
            blank = dist.copy()
            for x, y, s in dice:
                cv2.circle(blank, (round(x), round(y)),
                           max(1, round(SECOND_LOOK_RADIUS * 1.2 * s)), 0.0, -1)
            near = {p for p in peaks_in(blank, fast=True)
                    if any(np.hypot(p[0] - x, p[1] - y) <= SECOND_LOOK_REACH * 1.2 * s
                           for x, y, s in dice)}
            assert set(DiceReader._second_look(dist, 1, dice)) == near


def test_peaks_on_an_edge_are_told_from_dice() -> None:
    """A long dark bar (a tray's rim) makes a row of peaks that are all on an edge; a lone
    die, three dice touching in a row and a packed block of dice are not edges."""
    dist = np.zeros((400, 700), np.float32)
    dist[40:62, 20:680] = 40.0  # the rim, 22 pixels wide
    dist[150:177, 100:127] = 40.0  # a lone die, 27 pixels across
    for i in range(3):  # three dice touching in a row
        dist[150:177, 300 + 28 * i : 327 + 28 * i] = 40.0
    for i in range(3):  # a block of nine
        for j in range(3):
            dist[250 + 28 * j : 277 + 28 * j, 500 + 28 * i : 527 + 28 * i] = 40.0
    dist += np.random.default_rng(1).uniform(0, 4, dist.shape).astype(np.float32)  # grain
    dist = cv2.GaussianBlur(dist, (5, 5), 0)  # and soft outlines, so plateaus do not tie
    peaks = peaks_in(dist, fast=True)
    edge = on_edge(dist, peaks)
    rim = [e for (x, y, s), e in zip(peaks, edge, strict=True) if y < 100 and 100 < x < 600]
    dice = [e for (x, y, s), e in zip(peaks, edge, strict=True) if y > 100]
    assert len(rim) >= 5 and all(rim)
    assert len(dice) >= 5 and not any(dice)


@pytest.mark.parametrize("name", ["IMG_20191208_111530.jpg", "IMG_20191208_112911.jpg"])
def test_edge_peaks_are_not_read(reader: DiceReader, name: str) -> None:
    """On a tray with a dark rim most peaks lie on the rim. Skipping them loses no die the
    full reading finds and reads far fewer crops (with the two-channel model it also
    dropped one spurious die on each of these two)."""
    photo = _train_photo(name)
    image = imread(photo.path)
    work = cv2.resize(image, None, fx=reader.work_size / max(image.shape[:2]),
                      fy=reader.work_size / max(image.shape[:2]), interpolation=cv2.INTER_AREA)
    peaks = busy_peaks(distance_map(work), fast=True)
    assert on_edge(distance_map(work), peaks).sum() > len(peaks) / 3
    reader.skip_edges = False
    try:
        every = match(photo, reader.read(image))
    finally:
        reader.skip_edges = True
    skipped = match(photo, reader.read(image))
    assert skipped[:3] == every[:3]  # the same right, wrong and missed dice
    assert skipped[3] <= every[3]


def test_crops_read_in_small_batches_as_in_one() -> None:
    """The network reads 32 crops at a time (for the cache); the probabilities are those of
    one batch, to float rounding."""
    net = DiceReader.load().net
    x = np.random.default_rng(0).standard_normal((70, NET_SIDE, NET_SIDE, net.channels))
    x = x.astype(np.float32)
    assert np.allclose(net.probabilities(x), net.probabilities(x, batch=70), atol=1e-6)


def test_cross_validation_folds_are_whole_blocks_of_train_photos() -> None:
    from vision.train.cv_dice import folds

    parts = folds(4)
    train = [p.name for p in photos_in("train")]
    names = [p.name for part in parts for p in part]
    assert sorted(names) == sorted(train) and len(set(names)) == len(train)
    for part in parts:  # whole blocks of five consecutive photos (the same dice thrown again)
        assert len(part) % 5 == 0
        for i in range(0, len(part), 5):
            block = [p.name for p in part[i : i + 5]]
            start = train.index(block[0])
            assert block == train[start : start + 5] and start % 5 == 0


def _probs(die: float, value: int, sure: float) -> list[float]:
    """A point's class probabilities: P(die), and P(value | die) for ``value``, the rest
    spread evenly over the other five values."""
    rest = (1 - sure) / 5
    return [1 - die, *(die * (sure if v == value else rest) for v in range(1, 7))]


def test_touching_dice_read_surely_as_different_values_are_two_dice(reader: DiceReader
                                                                    ) -> None:
    """Two accepted points nearer than MERGE sizes are one die read twice, unless both
    values are sure, they differ and the points lie DIFFER_APART sizes apart."""
    from vision.dice import DIFFER_APART, DIFFER_SURE, MERGE

    size = 30.0
    apart = (DIFFER_APART + MERGE) / 2 * size  # between the two bars
    points = [(100.0, 100.0, size), (100.0 + apart, 100.0, size)]

    def chosen(second: list[float]) -> list[int]:
        return sorted(reader._choose(points, np.array([_probs(0.99, 5, 0.95), second]), []))

    assert chosen(_probs(0.9, 3, 0.95)) == [0, 1]  # sure and different: two dice
    assert chosen(_probs(0.9, 5, 0.95)) == [0]  # the same value: one die read twice
    assert chosen(_probs(0.9, 3, DIFFER_SURE - 0.05)) == [0]  # unsure: one die
    near = [points[0], (100.0 + 0.9 * DIFFER_APART * size, 100.0, size)]
    probs = np.array([_probs(0.99, 5, 0.95), _probs(0.9, 3, 0.95)])
    assert reader._choose(near, probs, []) == [0]  # too near to be two dice
    far = [points[0], (100.0 + 1.1 * MERGE * size, 100.0, size)]
    probs = np.array([_probs(0.99, 5, 0.95), _probs(0.9, 5, 0.95)])
    assert sorted(reader._choose(far, probs, [])) == [0, 1]  # apart: two dice whatever


def test_grid_responses_are_the_candidate_maps() -> None:
    """The refinement's responses from an integral image equal the candidate search's box
    filters (OpenCV's anchors) wherever the boxes lie inside the map, and near its edges the
    means of the boxes cut there, point by point."""
    dist = distance_map(imread(_train_photo("IMG_20191208_111628.jpg").path))
    table = cv2.integral(dist, sdepth=cv2.CV_64F)
    h, w = dist.shape
    rng = np.random.default_rng(5)
    sizes = np.array([22, 27, 33, 58])
    xs = rng.integers(0, w, (40, 7, 1))
    ys = rng.integers(0, h, (40, 7, 1))
    xs[:20], ys[:20] = rng.integers(58, w - 58, (20, 7, 1)), rng.integers(58, h - 58, (20, 7, 1))
    got = _grid_responses(table, xs, ys, sizes)
    assert got.shape == (40, 7, 7, 4)
    for i, k in enumerate(sizes):
        inner = cv2.boxFilter(dist, cv2.CV_64F, (int(k), int(k)))
        outer = cv2.boxFilter(dist, cv2.CV_64F, (2 * int(k), 2 * int(k)))
        y, x = ys[:20, :, None, 0], xs[:20, None, :, 0]
        assert np.allclose(got[:20, :, :, i], 4 / 3 * (inner[y, x] - outer[y, x]), atol=1e-3)
        y, x = np.broadcast_arrays(ys[:, :, None, 0], xs[:, None, :, 0])  # (peak, dy, dx)
        cut_inner = _box_mean(table, x - k // 2, y - k // 2, x - k // 2 + k, y - k // 2 + k)
        cut_outer = _box_mean(table, x - k, y - k, x + k, y + k)
        assert np.array_equal(got[:, :, :, i], 4 / 3 * (cut_inner - cut_outer))


def test_coarse_search_finds_every_die_the_full_search_finds() -> None:
    """Searching a half-size copy and refining at full size: on 40 train photos every
    labelled die with a full-size peak on it has a coarse one, and nine peaks in ten are
    the very same (pixel and size)."""
    reader = DiceReader.load()
    reader.skip_edges = False  # the search alone
    peaks = same = dice = found = 0
    for photo in photos_in("train")[:40]:
        dist = distance_map(imread(photo.path))
        full = busy_peaks(dist, fast=True)
        coarse = reader._first_peaks(dist, 1)
        peaks, same = peaks + len(full), same + len(set(full) & set(coarse))
        for die in photo.dice:
            x, y = die.centre

            def on_die(points: list[tuple[float, float, float]], x: float = x, y: float = y,
                       size: float = die.size) -> bool:
                return any(np.hypot(px - x, py - y) < 0.25 * size for px, py, _ in points)

            if on_die(full):
                dice += 1
                found += on_die(coarse)
    assert dice > 400 and found == dice
    assert same >= 0.9 * peaks


def test_calibrated_reading_at_two_scales_reads_more_dice_than_the_quick_one(
        reader: DiceReader) -> None:
    """Calibrated, read reads each picture at the calibrated scale and 1.5 times it and
    merges the two (SCALE_LEVELS); read_quick, the camera's reading of each still frame, is
    the calibrated scale alone: exactly the one-scale reading, and the part of the whole
    reading that Ranked.quick carries. On the tray photos' test split at their labelled
    scale, the whole reading reads more dice right (230 -> 234 of 240 on 2026-11-28). With
    the shipped pair, read_quick reads with the first network alone."""
    from vision.dice_setups import labelled_scale, photos_of, score_photo

    # the first network alone (read_quick's; the whole reading averages the shipped pair)
    one, alone = DiceReader.load(MODEL_PATH), DiceReader.load(MODEL_PATH)
    one.scale_levels = (1.0,)
    right_whole = right_quick = 0
    try:
        for photo in photos_of("tray", "test"):
            image = imread(photo.path)
            for r in (reader, one, alone):
                r.calibrate(labelled_scale(photo))
            quick = reader.read_quick(image)
            assert quick == one.read(image)
            assert alone.read_ranked(image, 0).quick == quick
            ranked = reader.read_ranked(image, 0)
            right_whole += score_photo(photo, ranked.dice).correct
            right_quick += score_photo(photo, quick).correct
    finally:
        reader.scale = None
    assert right_whole >= right_quick + 3, (right_whole, right_quick)


def test_larger_scales_are_read_only_around_the_first_scales_candidates() -> None:
    """The 1.5 scale costs 2.25 times the pixels: it is read in a window WINDOW_REACH die
    sides around the first scale's candidates (the tray area without any), so a throw of
    two dice on a large tray pays for a small picture (bench camera p99 279 -> 230 ms)."""
    r = DiceReader.load()
    r.calibrate(40.0)  # a die 40 pixels across: the window reaches 80 pixels beyond
    r.area = (0.0, 0.0, 1279.0, 719.0)
    assert r.scale is not None
    base = r.scale
    assert r._window([(600.0, 300.0, 30.0), (700.0, 350.0, 30.0)], base) == (520, 220, 780,
                                                                               430)
    assert r._window([(10.0, 700.0, 30.0)], base) == (0, 620, 90, 719)  # cut to the tray area
    assert r._window([], base) == r.area
    sizes = _working_sizes(r)
    frame = np.full((720, 1280, 3), 60, np.uint8)
    cv2.rectangle(frame, (880, 500), (920, 540), (235, 235, 235), -1)  # a drawn one
    cv2.circle(frame, (900, 520), 4, (20, 20, 20), -1)
    r.read(frame)
    (one, whole), (zoom, window) = sizes
    assert one == 1.0 and zoom == 1.5
    assert window[0] * window[1] < 0.2 * whole[0] * whole[1] * 1.5 ** 2


def _drawn_die(frame: np.ndarray, cx: int, cy: int, side: int, value: int) -> None:
    """A white die showing ``value`` (3 or 5), its pips dark, drawn on ``frame``."""
    half = side / 2
    cv2.rectangle(frame, (round(cx - half), round(cy - half)),
                  (round(cx + half), round(cy + half)), (235, 235, 235), -1)
    spots = ((0, 0), (-1, -1), (1, 1)) + (((-1, 1), (1, -1)) if value == 5 else ())
    for dx, dy in spots:
        cv2.circle(frame, (round(cx + dx * side / 4), round(cy + dy * side / 4)),
                   max(1, round(side / 10)), (20, 20, 20), -1)


def test_uncalibrated_whole_reading_finds_a_die_too_small_for_the_first_level(
        reader: DiceReader) -> None:
    """Uncalibrated, read reads the working image 1.5 times as large too (ZOOM_LEVEL) after
    LEVELS: a three 13 pixels across beside a five of 36, too small for the candidate sizes,
    is read there and not by read_quick (the camera's reading of each still frame), which is
    the reading without that level and the part of the whole reading Ranked.quick carries."""
    plain = DiceReader.load(MODEL_PATH)  # read_quick's network (the pair's first) alone
    plain.zoom_level = None  # the reading before ZOOM_LEVEL
    alone = DiceReader.load(MODEL_PATH)
    frame = np.full((640, 640, 3), 90, np.uint8)
    frame += np.random.default_rng(0).integers(0, 4, frame.shape, dtype=np.uint8)
    _drawn_die(frame, 300, 300, 36, 5)
    _drawn_die(frame, 360, 310, 13, 3)
    quick = reader.read_quick(frame)
    assert quick == plain.read(frame)
    assert not any(d.value == 3 for d in quick)
    assert alone.read_ranked(frame, 0).quick == quick
    ranked = reader.read_ranked(frame, 0)
    assert [(d.value, round(d.x / 10), round(d.y / 10)) for d in sorted(
        ranked.dice, key=lambda d: d.x)] == [(5, 30, 30), (3, 36, 31)]
    # on the tray photos' test split too, read_quick is the reading without ZOOM_LEVEL
    for photo in photos_in("test")[:10]:
        image = imread(photo.path)
        quick = reader.read_quick(image)
        assert quick == plain.read(image)
        assert alone.read_ranked(image).quick == quick


def test_uncalibrated_zoom_level_is_read_only_around_the_first_levels_candidates() -> None:
    """The 1.5 level costs 2.25 times the pixels: it is read in a window WINDOW_REACH times
    DIE_SIDE working pixels around the first level's candidates (the calibrated scale's
    window, the die size the network learned), made from the picture."""
    r = DiceReader.load()
    frame = np.full((720, 1280, 3), 60, np.uint8)  # working scale 0.5: 128 pixels beyond
    assert r._window([(600.0, 300.0, 30.0), (700.0, 350.0, 30.0)], 0.5) == (472, 172, 828,
                                                                              478)
    r.area = (100.0, 200.0, 1100.0, 700.0)
    assert r._window([(150.0, 650.0, 30.0)], 0.5) == (100, 522, 278, 700)  # cut to the area
    assert r._window([], 0.5) == r.area
    r.area = None
    sizes = _working_sizes(r)
    _drawn_die(frame, 900, 520, 40, 5)
    assert [d.value for d in r.read(frame)] == [5]
    (one, whole), (zoom, window) = sizes
    assert one == 1.0 and whole == (360, 640) and zoom == 1.5
    # the window and its margin (AREA_MARGIN working pixels): a third of the picture at 1.5
    assert window[0] * window[1] < 0.35 * whole[0] * whole[1] * 1.5 ** 2
    sizes.clear()
    r.read_quick(frame)
    assert [z for z, _ in sizes] == [1.0]  # the quick reading: the first level alone


def _working_sizes(reader: DiceReader) -> list[tuple[float, tuple[int, ...]]]:
    """The zoom and shape of each working image ``reader`` makes from now on."""
    sizes: list[tuple[float, tuple[int, ...]]] = []
    working = reader.working

    def spy(image: np.ndarray, zoom: float = 1.0,
            area: tuple[float, float, float, float] | None = None
            ) -> tuple[np.ndarray, float, int, int] | None:
        out = working(image, zoom, area)
        if out is not None:
            sizes.append((zoom, out[0].shape[:2]))
        return out

    reader.working = spy  # type: ignore[method-assign]
    return sizes
