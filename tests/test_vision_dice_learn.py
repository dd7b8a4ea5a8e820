"""Learning the players' own dice (vision/dice_learn.py): the refitted last layer, what is
said, and reading a set-up the model never learned from after a few confirmed photos."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.dice import MODEL_PATH, DiceReader
from vision.dice_learn import Learned, colour_name, describe, fingerprint, fit_head
from vision.dice_setups import learn_and_evaluate, photos_of


def test_the_refitted_layer_learns_what_it_is_shown_and_keeps_what_it_is_not() -> None:
    rng = np.random.default_rng(0)
    classes, dims = 4, 12
    fc0 = rng.normal(0, 1, (dims, classes)).astype(np.float32)
    fcb0 = np.zeros(classes, np.float32)
    # the players' dice: classes 1 and 2 lie where the shipped layer reads class 3
    centres: dict[int, np.ndarray] = {0: rng.normal(0, 1, dims), 1: fc0[:, 3] * 2,
                                      2: fc0[:, 3] * 2 + fc0[:, 0]}
    x = np.concatenate([centres[c] + rng.normal(0, 0.2, (30, dims)) for c in (0, 1, 2)])
    y = np.repeat([0, 1, 2], 30)
    before = ((x @ fc0 + fcb0).argmax(axis=1) == y).mean()
    fc, fcb = fit_head(x.astype(np.float32), y, fc0, fcb0, pull=0.02)
    after = ((x @ fc + fcb).argmax(axis=1) == y).mean()
    assert before < 0.7 and after > 0.95
    # the class never shown keeps its weights (the pull towards the shipped layer)
    assert np.abs(fc[:, 3] - fc0[:, 3]).max() < np.abs(fc[:, 1] - fc0[:, 1]).max()


def test_a_learned_layer_is_stored_as_text_and_read_back() -> None:
    reader = DiceReader.load()
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    learned = Learned(fc * 1.5, fcb + 1, fingerprint(reader), "red", "white", 7, {1: 3, 6: 4})
    back = Learned.from_json(learned.to_json(), fc.shape)
    assert np.allclose(back.fc, fc * 1.5, rtol=1e-2, atol=1e-3)
    assert (back.model, back.faces, back.pips, back.counts) == (learned.model, "red",
                                                                  "white", {1: 3, 6: 4})
    with pytest.raises(ValueError):
        Learned.from_json({**learned.to_json(), "fc": learned.to_json()["fcb"]}, fc.shape)


def test_what_was_learned_is_said_in_plain_words() -> None:
    learned = Learned(np.zeros((2, 2)), np.zeros(2), "x", "red", "white", 15,
                      {1: 6, 3: 1, 5: 8}, gain=2)
    said = describe(learned, 38.4, 13, 15)
    assert said == ("I learned your dice: red faces with white pips, about 38 pixels across, "
                    "from 15 dice (6 ones, 1 three and 8 fives). On those throws I read 13 of "
                    "15 right before learning and 15 after. I saw no two, four or six: I read "
                    "those as before.")
    few = Learned(np.zeros((2, 2)), np.zeros(2), "x", "red", "white", 5, {1: 2, 3: 1, 5: 2},
                  gain=2)
    assert not few.used and "That is too few to learn from (at least 12), so I keep " \
        "reading them with the general model (3 of 5 right on those throws)." in describe(
            few, 38.4, 3, 5)
    # Lab on OpenCV's 8-bit scale: white, black, a red and a blue
    assert [colour_name(np.array(c)) for c in ((250, 128, 128), (20, 128, 128),
                                                (120, 190, 170), (80, 150, 60))] == [
        "white", "black", "red", "blue"]


@pytest.mark.skipif(not (MODEL_PATH.parent / "dice-tray.npz").is_file(),
                    reason="the tray-only model is not in this checkout")
def test_learning_a_set_up_the_model_never_saw_never_reads_it_worse() -> None:
    """The tray-only model (vision/models/dice-tray.npz never saw a close-up) shown three
    close-ups with their values confirmed: a layer refitted on them read the other close-ups
    worse (25 -> 16 of 44 dice right), so the layer is used only when it reads each shown
    throw better from the others (Learned.used); the other photos then read no worse, and
    the player is told the general model stays."""
    reader = DiceReader.load(MODEL_PATH.parent / "dice-tray.npz")
    photos = photos_of("close-up")[::25]  # 16 photos across the set-up
    before, after, learned = learn_and_evaluate(reader, photos, 8)
    assert learned["shown_photos"] >= 3
    assert after["close-up"].photos == len(photos) - learned["shown_photos"]
    right = (before["close-up"].correct, after["close-up"].correct)
    assert right[1] >= right[0], right
    assert "I keep reading them with the general model" in learned["said"], learned


def test_a_zero_die_correction_reads_as_the_shipped_network() -> None:
    """P(die) corrected by nothing is the shipped P(die), and the values stay the shipped
    ones; a correction raises P(die) without touching P(value | die) (of the network it
    corrects: with the shipped pair, its first; the pair's zero correction reads as the
    pair)."""
    pair = DiceReader.load()
    reader = DiceReader.load(MODEL_PATH)
    rng = np.random.default_rng(1)
    from vision.dice_features import NET_SIDE

    crops = rng.random((6, NET_SIDE, NET_SIDE, reader.net.channels)).astype(np.float32)
    plain = reader.net.probabilities(crops)
    dims = reader.net.params["fc"].shape[0]
    same = reader.net.with_die(np.zeros(dims), np.zeros(1)).probabilities(crops)
    assert np.allclose(same, plain, atol=1e-5)
    raised = reader.net.with_die(np.zeros(dims), np.array([3.0])).probabilities(crops)
    assert (raised[:, 0] < plain[:, 0]).all()
    values = raised[:, 1:] / raised[:, 1:].sum(axis=1, keepdims=True)
    assert np.allclose(values, plain[:, 1:] / plain[:, 1:].sum(axis=1, keepdims=True),
                       atol=1e-4)
    assert np.allclose(pair.net.with_die(np.zeros(dims), np.zeros(1)).probabilities(crops),
                       pair.net.probabilities(crops), atol=1e-5)


def test_the_die_correction_is_kept_only_when_left_out_throws_read_better() -> None:
    """Throws whose dice lie along one feature direction the shipped layer ignores: the
    correction learned from the others finds each left-out throw's dice (kept). Throws that
    contradict each other (that direction a die in half of them and none in the others):
    a correction from the others loses dice the shipped layer found, or adds spurious ones
    (refused)."""
    from vision.dice_learn import NONE_CROP, fit_die_chosen

    rng = np.random.default_rng(2)
    dims, throws, per = 40, 6, 30
    throw = np.repeat(np.arange(throws), per)
    dice = np.tile(np.arange(per) < 10, throws)
    kinds = np.tile(np.where(np.arange(per) < 10, np.arange(per), NONE_CROP), throws)
    direction = rng.normal(0, 1, dims)
    features = rng.normal(0, 1, (throws * per, dims)) + np.where(dice, 1.0, -1.0)[:, None] \
        * direction
    offset = np.full(len(dice), -1.0)  # the shipped layer calls every crop "none" (P 0.27)
    _, _, gain = fit_die_chosen(features, dice, offset, throw, kinds, 0.8)
    assert gain > 0
    flipped = np.where(throw % 2 == 0, 1.0, -1.0)
    features = rng.normal(0, 1, (throws * per, dims)) + (np.where(dice, 1.0, -1.0)
                                                          * flipped)[:, None] * direction
    offset = np.where(dice, 2.0, -2.0)  # the shipped layer sorts them right already
    _, _, gain = fit_die_chosen(features, dice, offset, throw, kinds, 0.8)
    assert gain <= 0


def test_entries_stored_before_the_die_correction_still_load() -> None:
    """vision.json entries of 2026-11-25 (values only) load with no P(die) correction and
    read P(die) as the shipped network; an entry with one stores and loads it."""
    from vision.dice_learn import use

    reader = DiceReader.load()
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    old = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), "red", "white", 14, {1: 14},
                  gain=1).to_json()
    assert "die_fc" not in old
    back = Learned.from_json(old, (fc.shape[0], fc.shape[1] - 1))
    assert back.dfc is None and not back.die_used and back.used
    use(reader, back)
    assert "vfc" in reader.net.params and "dfc" not in reader.net.params
    new = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), "red", "white", 14, {1: 14},
                  gain=0, dfc=np.full(fc.shape[0], 0.01, np.float32), dfcb=-0.5,
                  die_gain=3).to_json()
    again = Learned.from_json(new, (fc.shape[0], fc.shape[1] - 1))
    assert again.die_used and not again.used and abs(again.dfcb + 0.5) < 1e-6
    assert again.dfc is not None and np.allclose(again.dfc, 0.01, atol=1e-4)
    plain = DiceReader.load()
    use(plain, again)
    assert "dfc" in plain.net.params and "vfc" not in plain.net.params


@pytest.mark.skipif(not (MODEL_PATH.parent / "dice-tray.npz").is_file(),
                    reason="the tray-only model is not in this checkout")
def test_dice_the_general_model_missed_are_found_after_learning_with_the_players_count(
        ) -> None:
    """The tray-only model on close-ups it never saw misses dice it sees as a candidate but
    calls "none". Shown seven close-ups, the player counting the dice in each (the reader
    adds the ones it missed), the learned P(die) finds dice it missed on the other photos
    and reads more of them right."""
    reader = DiceReader.load(MODEL_PATH.parent / "dice-tray.npz")
    photos = photos_of("close-up")[::8]
    before, after, learned = learn_and_evaluate(reader, photos, 25, count=True)
    assert learned["added"] > 0 and learned["die_used"], learned
    assert after["close-up"].missed < before["close-up"].missed - 5
    assert after["close-up"].correct > before["close-up"].correct + 5
    assert "I also learned to tell your dice from the tray" in learned["said"]
    assert reader.net.params.keys() == DiceReader.load(
        MODEL_PATH.parent / "dice-tray.npz").net.params.keys()  # the reader is left as it was


def _faint_throw(contrast: int, dice: list[tuple[int, int, int]]) -> Any:
    """A grey table with faint threes drawn at (x, y) (working pixels of a reader calibrated
    to DIE_SIDE), each confirmed as the value given (0: the player said it is no die)."""
    import cv2

    from vision.dice_learn import Throw

    frame = np.full((240, 480, 3), 120, np.uint8)
    for cx, cy, _ in dice:
        cv2.rectangle(frame, (cx - 16, cy - 16), (cx + 16, cy + 16), (120 + contrast,) * 3, -1)
        for dx, dy in ((0, 0), (-1, -1), (1, 1)):
            cv2.circle(frame, (cx + dx * 8, cy + dy * 8), 3, (120 - contrast,) * 3, -1)
    return Throw(frame, [(float(x), float(y), v) for x, y, v in dice])


def test_a_die_too_faint_for_the_candidate_bar_is_added_by_the_players_count() -> None:
    """A faint die (its centre-surround response between 6 and 10) has no candidate at the
    shipped bar, so the reader reads nothing; told there is one die, it looks at fainter
    candidates and adds it, and the bar it needs is 6."""
    from vision.dice import DIE_SIDE, THRESHOLD
    from vision.dice_learn import _needed_bar, missed_dice

    reader = DiceReader.load()
    reader.calibrate(DIE_SIDE)
    throw = _faint_throw(8, [(240, 120, 3)])
    assert reader.read(throw.image) == []
    more = missed_dice(reader, throw.image, [], 1)
    assert len(more) == 1 and abs(more[0].x - 240) < 4 and abs(more[0].y - 120) < 4
    assert _needed_bar(reader, throw) == 6.0
    assert reader.threshold == THRESHOLD  # left as it was


def test_a_lower_candidate_bar_is_kept_only_when_left_out_throws_read_better() -> None:
    """Four throws of three faint threes, all confirmed: the bar chosen from the other throws
    finds each left-out throw's dice and adds no error (kept, and the reader reads them).
    The same throws where the player called two of the three "not a die": the lower bar
    reads them as dice, two errors for each die found (refused; the reader's bar stays)."""
    from vision.dice import DIE_SIDE, THRESHOLD
    from vision.dice_learn import learn_bar, use

    reader = DiceReader.load()
    reader.calibrate(DIE_SIDE)
    spots = [[(80 + 20 * i, 80), (240, 150 - 10 * i), (400 - 15 * i, 90)] for i in range(4)]
    throws = [_faint_throw(8, [(x, y, 3) for x, y in s]) for s in spots]
    bar, found, lost, errors = learn_bar(reader, throws)
    assert (bar, found, lost, errors) == (6.0, 12, 0, 0)
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    learned = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=12, counts={3: 12},
                      bar=bar, bar_found=found, bar_lost=lost, bar_errors=errors)
    assert learned.bar_used
    assert "I also look for fainter dice now: with a candidate bar of 6 instead of 10, on " \
        "throws I did not learn from I found 12 dice more and lost 0." in describe(
            learned, 32, 0, 12)
    use(reader, learned)
    assert reader.threshold == 6.0 and len(reader.read(throws[0].image)) == 3
    reader.threshold = THRESHOLD
    mixed = [_faint_throw(8, [(x, y, 3 if k == 0 else 0) for k, (x, y) in enumerate(s)])
             for s in spots]
    bar, found, lost, errors = learn_bar(reader, mixed)
    assert bar == 6.0 and found == 4 and lost == 0 and errors == 8
    refused = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=12, counts={3: 12},
                      bar=bar, bar_found=found, bar_lost=lost, bar_errors=errors)
    assert not refused.bar_used
    assert "Looking for fainter dice did not read the throws I did not learn from better" \
        in describe(refused, 32, 0, 12)
    use(reader, refused)
    assert reader.threshold == THRESHOLD


def test_a_learned_candidate_bar_is_stored_and_older_entries_load_without_one() -> None:
    reader = DiceReader.load()
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    shape = (fc.shape[0], fc.shape[1] - 1)
    old = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=14, counts={1: 14}).to_json()
    assert "candidate_bar" not in old and Learned.from_json(old, shape).bar is None
    new = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=14, counts={1: 14}, bar=6.0,
                  bar_found=5, bar_lost=1, bar_errors=2).to_json()
    back = Learned.from_json(new, shape)
    assert (back.bar, back.bar_found, back.bar_lost, back.bar_errors) == (6.0, 5, 1, 2)
    assert back.bar_used


def test_a_value_layer_that_reads_few_left_out_throws_better_is_not_used() -> None:
    """A value layer whose left-out throws read better in 3 and worse in 2 is no better than
    a coin (refused); 5 against 1 is (used). Entries stored before the throws were counted
    are judged by their crop gain as before, and the counts are stored and read back."""
    from vision.dice_learn import sign_chance

    assert sign_chance(3, 2) == 0.5 and abs(sign_chance(5, 1) - 7 / 64) < 1e-12
    assert sign_chance(0, 0) == 1.0
    reader = DiceReader.load()
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    shape = (fc.shape[0], fc.shape[1] - 1)

    def layer(better: int | None, worse: int | None) -> Learned:
        return Learned(fc[:, 1:], fcb[1:], fingerprint(reader), "red", "white", 40,
                       {1: 40}, gain=8, throws_better=better, throws_worse=worse)

    assert not layer(3, 2).used and layer(5, 1).used and layer(None, None).used
    assert "read too few of the throws I did not learn from better to be more than luck" in \
        describe(layer(3, 2), 32, 30, 30)
    back = Learned.from_json(layer(5, 1).to_json(), shape)
    assert (back.throws_better, back.throws_worse) == (5, 1)
    assert "values_better" not in layer(None, None).to_json()
    assert Learned.from_json(layer(None, None).to_json(), shape).throws_better is None


def test_each_network_of_a_pair_reads_with_the_layers_learned_on_it() -> None:
    """With the shipped pair, the layers learned on the second network (``partners``) are
    stored, read back and used on it; a partner learned on another network is not used
    (that network reads as shipped), nor is one its own guard refused."""
    from vision.cnn import NetMean
    from vision.dice_learn import net_fingerprint, use

    reader = DiceReader.load()
    assert isinstance(reader.net, NetMean)
    first, second = reader.net.nets
    dims = first.params["fc"].shape[0]
    shape = (dims, first.params["fc"].shape[1] - 1)

    def layers(net: Any, model: str, gain: int) -> Learned:
        return Learned(net.params["fc"][:, 1:] * 1.1, net.params["fcb"][1:], model,
                       dice=40, counts={1: 40}, gain=gain, throws_better=5, throws_worse=1,
                       dfc=np.full(dims, 0.01, np.float32), dfcb=0.5, die_gain=gain)

    learned = layers(first, fingerprint(reader), 8)
    learned.partners = [layers(second, net_fingerprint(second), 3)]
    back = Learned.from_json(learned.to_json(), shape)
    assert len(back.partners) == 1 and back.partners[0].model == net_fingerprint(second)
    use(reader, back)
    assert isinstance(reader.net, NetMean)
    assert {"vfc", "dfc"} <= reader.net.nets[0].params.keys()
    assert {"vfc", "dfc"} <= reader.net.nets[1].params.keys()
    assert np.allclose(reader.net.nets[1].params["vfc"], second.params["fc"][:, 1:] * 1.1,
                       rtol=1e-2, atol=1e-3)
    for partner in (layers(second, "another model", 3), layers(second,
                                                                net_fingerprint(second), 0)):
        plain = DiceReader.load()
        learned.partners = [partner]
        use(plain, Learned.from_json(learned.to_json(), shape))
        assert isinstance(plain.net, NetMean) and "vfc" in plain.net.nets[0].params
        assert plain.net.nets[1].params.keys() == second.params.keys()


def test_the_shown_dice_are_learned_in_their_mirror_images_too() -> None:
    """A die's face seen in a mirror is a face of the same value: each shown crop is learned
    in its four turns and their mirror images, with the same label."""
    from vision.dice import DIE_SIDE
    from vision.dice_learn import examples

    reader = DiceReader.load()
    reader.calibrate(DIE_SIDE)
    throw = _faint_throw(60, [(120, 120, 3), (330, 110, 5)])
    crops, labels, kinds = examples(reader, throw)
    n = len(crops) // 8
    assert len(crops) == 8 * n and sorted(set(labels[labels > 0])) == [3, 5]
    for k in range(4):
        assert np.array_equal(crops[(4 + k) * n : (5 + k) * n],
                              np.flip(crops[k * n : (k + 1) * n], axis=2))
        assert np.array_equal(labels[(4 + k) * n : (5 + k) * n], labels[:n])
    assert (kinds[n:] < 0).all()  # the guard counts each crop once, in its first look


@pytest.mark.skipif(not (MODEL_PATH.parent / "dice-tray.npz").is_file(),
                    reason="the tray-only model is not in this checkout")
def test_a_pair_learns_the_players_dice_on_both_its_networks(monkeypatch: Any) -> None:
    """The tray-only model twice as a pair (neither saw a close-up), shown a few close-ups
    with the player's count: the layers learned on each network find dice the pair missed
    on the other close-ups, more than the same layers learned on the first network alone,
    which its unadapted partner then averages half away."""
    import vision.dice_learn as dice_learn

    tray = MODEL_PATH.parent / "dice-tray.npz"
    photos = photos_of("close-up")[::8]
    before, both, learned = learn_and_evaluate(DiceReader.load(tray, tray), photos, 25,
                                               count=True)
    assert learned["partners"] and learned["partners"][0]["die_used"], learned
    monkeypatch.setattr(dice_learn, "PARTNERS", False)
    _, first, alone = learn_and_evaluate(DiceReader.load(tray, tray), photos, 25, count=True)
    assert alone["partners"] == [] and alone["die_used"]
    assert both["close-up"].correct > first["close-up"].correct > before["close-up"].correct
    assert both["close-up"].missed < first["close-up"].missed


def _grey_throw(dice: list[tuple[int, int, int]], pip: int = 20) -> Any:
    """A grey table with fives drawn at (x, y) whose faces are the table's grey and whose
    pips are ``pip`` darker (working pixels of a reader calibrated to DIE_SIDE), each
    confirmed as the value given (0: the player said it is no die): the finder, which looks
    for colour far from the background, has no candidate there."""
    import cv2

    from vision.dice_learn import Throw

    frame = np.full((240, 480, 3), 120, np.uint8)
    for cx, cy, _ in dice:
        cv2.rectangle(frame, (cx - 16, cy - 16), (cx + 16, cy + 16), (105,) * 3, 1)
        for dx, dy in ((0, 0), (-1, -1), (1, 1), (-1, 1), (1, -1)):
            cv2.circle(frame, (cx + dx * 8, cy + dy * 8), 3, (120 - pip,) * 3, -1)
    return Throw(frame, [(float(x), float(y), v) for x, y, v in dice])


def test_dice_with_no_candidate_are_found_by_their_pips_after_learning() -> None:
    """Grey fives on a grey table: the finder proposes nothing, so the reader reads nothing.
    Learned from four confirmed throws, the pips' candidates (vision/dice_pip_points.py) find
    each left-out throw's dice with no error, are kept, and the reader then reads the dice
    where they are; the same throws called "not a die" by the player are refused. A reader
    with no learned entry proposes nothing of the kind."""
    from vision.dice import DIE_SIDE
    from vision.dice_learn import learn_pips, use

    reader = DiceReader.load()
    assert reader.propose is None
    reader.calibrate(DIE_SIDE)
    spots = [[(80 + 20 * i, 80), (240, 150 - 10 * i), (400 - 15 * i, 90)] for i in range(4)]
    throws = [_grey_throw([(x, y, 5) for x, y in s]) for s in spots]
    assert reader.read(throws[0].image) == []
    bar, found, lost, errors = learn_pips(reader, throws)
    assert bar is not None and bar > 0 and (found, lost, errors) == (12, 0, 0)
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    learned = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=12, counts={5: 12},
                      pip_bar=bar, pip_found=found, pip_lost=lost, pip_errors=errors)
    assert learned.pips_used
    assert "by their pips" in describe(learned, 32, 0, 12)
    use(reader, learned)
    read = reader.read(throws[1].image)
    assert len(read) == 3 and all(d.value == 5 for d in read)
    assert all(min(np.hypot(d.x - x, d.y - y) for x, y in spots[1]) < 4 for d in read)
    reader.propose = None
    called_none = [_grey_throw([(x, y, 5 if k == 0 else 0) for k, (x, y) in enumerate(s)])
                   for s in spots]
    bar, found, lost, errors = learn_pips(reader, called_none)
    refused = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=12, counts={5: 12},
                      pip_bar=bar, pip_found=found, pip_lost=lost, pip_errors=errors)
    assert found == 4 and errors == 8 and not refused.pips_used
    use(reader, refused)
    assert reader.propose is None


def test_learned_pip_candidates_are_stored_and_older_entries_load_without_them() -> None:
    reader = DiceReader.load()
    fc, fcb = reader.net.params["fc"], reader.net.params["fcb"]
    shape = (fc.shape[0], fc.shape[1] - 1)
    old = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=14, counts={1: 14}).to_json()
    assert "pip_bar" not in old and Learned.from_json(old, shape).pip_bar is None
    new = Learned(fc[:, 1:], fcb[1:], fingerprint(reader), dice=14, counts={1: 14},
                  pip_bar=0.25, pip_found=5, pip_lost=1, pip_errors=2).to_json()
    back = Learned.from_json(new, shape)
    assert (back.pip_bar, back.pip_found, back.pip_lost, back.pip_errors) == (0.25, 5, 1, 2)
    assert back.pips_used


def test_the_pips_bar_never_falls_to_zero() -> None:
    """Dice whose pips barely show must not make every flat stretch of the map a candidate."""
    from vision.dice_learn import COUNT_PIP_BAR, pip_bar

    assert pip_bar([]) is None
    assert pip_bar([0.0, 0.0, 0.001]) == COUNT_PIP_BAR
    assert pip_bar([0.4] * 10) == 0.2  # half the shown dice's tenth percentile
