"""One throw per roll, with the resting values; nothing while moving or outside the tray."""

from __future__ import annotations

import numpy as np
import pytest

from companion.observations import DeviceError, DiceSeen
from vision.dice import DiceReader, Die
from vision.dice_photos import photos_in
from vision.motion import RestDetector
from vision.roll_frames import Sprite, cut_sprites, paper, roll

AREA = (60, 40, 580, 440)


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader.load()


@pytest.fixture(scope="module")
def sprites() -> list[Sprite]:
    # dice from the training photos: this tests the motion logic, not the classifier
    return cut_sprites(photos_in("train"), 60, np.random.default_rng(7))


def _run(detector: RestDetector, frames: list[np.ndarray]) -> list[tuple[int, object]]:
    out = []
    for i, frame in enumerate(frames):
        for obs in detector.feed(frame):
            out.append((i, obs))
    return out


def test_one_throw_per_roll_with_resting_values(reader: DiceReader,
                                                sprites: list[Sprite]) -> None:
    """Exactly one report per roll, after the dice stop. A confident report has the resting
    values; a misread die must come with confidence under 0.9, so that the session asks."""
    rng = np.random.default_rng(11)
    background = paper((640, 480), rng)
    detector = RestDetector(reader.read, source="camera:test", area=AREA)
    moving = 12
    exact = 0
    rolls = 8
    for throw in range(rolls):
        dice = [sprites[int(i)] for i in rng.choice(len(sprites), size=throw % 3 + 1,
                                                    replace=False)]
        rolled = roll(dice, background, rng, moving=moving, resting=8, area=AREA)
        seen = _run(detector, rolled.frames)
        assert len(seen) == 1, (throw, seen)
        index, obs = seen[0]
        assert index >= moving  # never while the dice move
        if isinstance(obs, DeviceError):  # a die it cannot make out: asks for a re-roll
            continue
        assert isinstance(obs, DiceSeen)
        assert obs.source == "camera:test"
        assert 0 < obs.confidence <= 1
        if obs.values == rolled.values:
            exact += 1
        else:
            assert obs.confidence < 0.9, (throw, obs, rolled.values)
    assert exact >= rolls - 2


def test_nothing_while_moving(reader: DiceReader, sprites: list[Sprite]) -> None:
    rng = np.random.default_rng(5)
    rolled = roll(sprites[:2], paper((640, 480), rng), rng, moving=15, resting=0, area=AREA)
    calls = []

    def counting_read(frame: np.ndarray) -> list[Die]:
        calls.append(1)
        return reader.read(frame)

    detector = RestDetector(counting_read, area=AREA)
    assert _run(detector, rolled.frames) == []
    assert calls == []  # the reader never even ran on a moving table


def test_dice_outside_the_tray_are_ignored(reader: DiceReader, sprites: list[Sprite]) -> None:
    rng = np.random.default_rng(3)
    background = paper((640, 480), rng)
    outside = [(sprites[5], 25.0, 240.0), (sprites[6], 615.0, 100.0)]
    rolled = roll(sprites[:2], background, rng, moving=12, resting=8, area=AREA,
                  outside=outside)
    seen = _run(RestDetector(reader.read, area=AREA), rolled.frames)
    assert [obs.values for _, obs in seen if isinstance(obs, DiceSeen)] == [rolled.values]


def test_still_scene_reported_once_and_a_hand_pass_does_not_repeat(
        reader: DiceReader, sprites: list[Sprite]) -> None:
    rng = np.random.default_rng(9)
    rolled = roll(sprites[10:12], paper((640, 480), rng), rng, moving=10, resting=8,
                  area=AREA)
    rest = rolled.frames[-1]
    hand = rest.copy()
    hand[100:300, 200:400] = (90, 120, 170)  # something passes over, then leaves
    frames = rolled.frames + [rest] * 5 + [hand] * 3 + [rest] * 8
    seen = _run(RestDetector(reader.read, area=AREA), frames)
    assert len(seen) == 1


def test_low_confidence_throw_asks_and_unreadable_die_complains() -> None:
    frame = np.full((100, 100, 3), 128, np.uint8)
    unsure = [Die(3, 50, 50, 20, 0.6), Die(5, 20, 20, 20, 0.95)]
    seen = _run(RestDetector(lambda f: unsure, stable=2, settle=1), [frame] * 4)
    assert len(seen) == 1
    obs = seen[0][1]
    assert isinstance(obs, DiceSeen) and obs.confidence < 0.9  # the session asks to confirm
    assert obs.values == (5, 3) and obs.unsure == (3,)  # left to right; the 3 was unsure
    two = [Die(3, 20, 20, 20, 0.8), Die(5, 50, 50, 20, 0.6), Die(2, 80, 80, 20, 0.99)]
    seen = _run(RestDetector(lambda f: two, stable=2, settle=1), [frame] * 4)
    assert seen[0][1].unsure == (5, 3)  # the least sure first: the one most likely wrong
    free = [Die(3, 50, 50, 20, 0.2)]
    seen = _run(RestDetector(lambda f: free, stable=2, settle=1), [frame] * 6)
    assert [type(obs) for _, obs in seen] == [DeviceError]
    assert seen[0][1].reason == "I cannot read 1 of the dice. Roll again or type the values."


def test_a_cocked_die_is_named_only_when_it_leans_on_a_die_or_the_wall() -> None:
    """An unsure die lying free is unreadable, not cocked; one touching another die or
    against the tray's wall may stand cocked, and the sentence says on what."""
    frame = np.full((200, 200, 3), 128, np.uint8)

    def reason(dice: list[Die], area: tuple[float, float, float, float] | None = None) -> str:
        seen = _run(RestDetector(lambda f: dice, stable=2, settle=1, area=area), [frame] * 6)
        assert [type(obs) for _, obs in seen] == [DeviceError]
        return str(seen[0][1].reason)

    leaning = [Die(3, 100, 100, 20, 0.2), Die(5, 122, 104, 20, 0.97)]
    assert "cocked against another die" in reason(leaning)
    apart = [Die(3, 100, 100, 20, 0.2), Die(5, 160, 100, 20, 0.97)]
    assert "cocked" not in reason(apart)
    walled = [Die(3, 20, 100, 20, 0.2)]
    assert "cocked against the tray's wall" in reason(walled, (5, 5, 195, 195))
    assert "cocked" not in reason([Die(3, 100, 100, 20, 0.2)], (5, 5, 195, 195))


def test_flicker_is_asked_about_and_chaos_is_not_a_throw() -> None:
    frame = np.full((100, 100, 3), 128, np.uint8)
    readings = iter([[Die(v, 50, 50, 20, 0.99)] for v in (1, 2, 1, 2, 1, 2, 1, 2)])
    seen = _run(RestDetector(lambda f: next(readings), stable=3, settle=1), [frame] * 8)
    assert len(seen) == 1
    obs = seen[0][1]
    assert isinstance(obs, DiceSeen) and obs.values == (1,) and obs.confidence < 0.9
    # each reading was sure, but they disagreed: the session asks, naming the flickering die
    assert obs.unsure == (1,)
    chaos = iter([[Die(v % 6 + 1, 50, 50, 20, 0.99)] for v in range(40)])
    seen = _run(RestDetector(lambda f: next(chaos), stable=3, settle=1, give_up=20),
                [frame] * 40)
    assert [type(obs) for _, obs in seen] == [DeviceError]


def test_a_die_that_stays_unreadable_is_refused_without_waiting_for_the_vote() -> None:
    """A die under the unreadable bar in three readings is refused at the third, whatever
    values it flickers between (the vote would refuse it too, two readings later); one that
    is unreadable only now and then is not refused early."""
    frame = np.full((100, 200, 3), 128, np.uint8)
    right = ((3, 0.28), (5, 0.30), (3, 0.33), (5, 0.29), (3, 0.31))
    readings = iter([[Die(4, 50, 50, 20, 0.95), Die(v, 150, 50, 20, c)] for v, c in right])
    seen = _run(RestDetector(lambda f: next(readings), stable=3, window=5, settle=1),
                [frame] * 5)
    assert [(i, type(obs)) for i, obs in seen] == [(2, DeviceError)]
    refusal = seen[0][1]
    assert isinstance(refusal, DeviceError) and "cannot read 1 of the dice" in refusal.reason
    now_and_then = ((3, 0.28), (5, 0.6), (3, 0.33), (3, 0.7), (3, 0.8))
    readings = iter([[Die(4, 50, 50, 20, 0.95), Die(v, 150, 50, 20, c)]
                     for v, c in now_and_then])
    seen = _run(RestDetector(lambda f: next(readings), stable=3, window=5, settle=1),
                [frame] * 5)
    assert [(i, type(obs)) for i, obs in seen] == [(3, DiceSeen)]  # three 3s agree


def test_dice_that_flicker_in_turn_are_voted_die_by_die() -> None:
    """Two dice, each misread now and then but never both right in three of five frames:
    no whole reading repeats often enough, yet each die's value does; the throw is
    reported once, with each die's majority value and a confidence the session asks about."""
    frame = np.full((100, 200, 3), 128, np.uint8)
    left = (3, 4, 3, 3, 4, 3, 4, 3)
    right = (5, 5, 6, 6, 5, 6, 5, 5)
    readings = iter([[Die(a, 50, 50, 20, 0.95), Die(b, 150, 50, 20, 0.9)]
                     for a, b in zip(left, right, strict=True)])
    detector = RestDetector(lambda f: next(readings), stable=3, window=5, settle=1)
    seen = _run(detector, [frame] * 8)
    assert len(seen) == 1
    index, obs = seen[0]
    assert isinstance(obs, DiceSeen) and obs.values == (3, 5)
    assert index == 4  # as soon as five readings are in
    assert obs.confidence < 0.9
    # the places must agree too: a die that comes and goes is not voted in
    second = (5, None, 6, None, 5, 6, None, 5)
    gone = iter([[Die(3, 50, 50, 20, 0.95)] + ([Die(v, 150, 50, 20, 0.9)] if v else [])
                 for v in second])
    assert _run(RestDetector(lambda f: next(gone), stable=3, window=5, settle=1),
                [frame] * 8) == []


def test_after_a_complaint_the_same_resting_dice_are_not_reported() -> None:
    """'Roll again or type the values': a later, better reading of the same resting dice
    would be a second report of one throw. A new roll is read again."""
    still = np.full((100, 100, 3), 128, np.uint8)
    moved = np.full((100, 100, 3), 30, np.uint8)
    table = [Die(3, 50, 50, 20, 0.2)]  # what the reader sees now
    detector = RestDetector(lambda f: table, stable=3, settle=1)
    seen = _run(detector, [still] * 5)
    assert [type(obs) for _, obs in seen] == [DeviceError]
    table[0] = Die(3, 50, 50, 20, 0.8)  # the same dice, read better a moment later
    assert _run(detector, [still] * 6) == []
    table[0] = Die(4, 50, 50, 20, 0.95)
    seen = _run(detector, [moved] + [still] * 4)  # rolled again
    assert [obs.values for _, obs in seen if isinstance(obs, DiceSeen)] == [(4,)]


def test_a_throw_is_told_from_the_whole_reading_once_the_quick_ones_agree() -> None:
    """Each still frame gets the quick reading; once those agree, the throw is told from the
    whole reading of its frame (DiceReader.read_ranked, at more scales): a die only it read
    is told too. A hand passing over the same resting dice does not tell them again, though
    the whole reading differs from the quick one."""
    from vision.dice import Ranked

    still = np.full((100, 100, 3), 128, np.uint8)
    hand = np.full((100, 100, 3), 30, np.uint8)
    quick = [Die(3, 20, 50, 20, 0.99)]
    whole = [Die(3, 20, 50, 20, 0.99), Die(6, 70, 50, 20, 0.97)]
    ranks = []

    def rank(frame: np.ndarray) -> Ranked:
        ranks.append(1)
        return Ranked(list(whole), [], first=list(quick))

    detector = RestDetector(lambda f: quick, rank=rank, stable=3, settle=1)
    seen = _run(detector, [still] * 6)
    assert [obs.values for _, obs in seen if isinstance(obs, DiceSeen)] == [(3, 6)]
    assert len(ranks) == 1  # the frame told from was ranked, and read no other way
    assert _run(detector, [hand] * 2 + [still] * 6) == []
    quick[0] = Die(5, 20, 50, 20, 0.99)  # rolled again: a new quick reading
    whole[0] = quick[0]
    seen = _run(detector, [hand] + [still] * 6)
    assert [obs.values for _, obs in seen if isinstance(obs, DiceSeen)] == [(5, 6)]


def test_a_foreseen_frame_whose_whole_reading_differs_in_value_is_told_at_once() -> None:
    """The frame foreseen as the throw's is read whole (by both networks of the shipped
    pair) and its quick part can read a doubtful die's value otherwise than the quick
    readings before it (the first network alone): the same dice at the same places agree, so
    the throw is told from that frame, with the whole reading's values, not a frame later."""
    from vision.dice import Ranked

    still = np.full((100, 100, 3), 128, np.uint8)
    quick = [Die(3, 20, 50, 20, 0.99), Die(5, 70, 50, 20, 0.6)]
    whole = [Die(3, 20, 50, 20, 0.99), Die(6, 71, 50, 20, 0.55)]

    def rank(frame: np.ndarray) -> Ranked:
        return Ranked(list(whole), [], first=list(whole))

    detector = RestDetector(lambda f: quick, rank=rank, stable=3, settle=1)
    seen = _run(detector, [still] * 6)
    told = [(i, obs.values) for i, obs in seen if isinstance(obs, DiceSeen)]
    assert told == [(2, (3, 6))]  # the third still frame: two quick readings, then the whole
    # a die elsewhere does not agree (it moved): the throw waits for the next quick reading
    whole[1] = Die(6, 90, 50, 20, 0.55)
    detector = RestDetector(lambda f: quick, rank=rank, stable=3, settle=1)
    seen = _run(detector, [still] * 6)
    assert [i for i, obs in seen if isinstance(obs, DiceSeen)] == [3]
