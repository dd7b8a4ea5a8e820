"""The dice photos grouped by set-up, and a reader scored per set-up.

A set-up is one kind of picture: a camera, a table and a dice set seen together. Photos of
one set-up look alike (the same dice thrown again, the same light), so a reader is measured
honestly only on set-ups it never learned from: the training scripts leave one set-up out
(vision/train/loso_dice.py) and this module scores what the reader makes of it.

- ``tray``: tests/data/dice-photos (200 photos, 1,487 dice): a dice tray seen from above, a
  mixed set (white, black, red, translucent dice), 480 to 640 pixels wide, dice 25 to 55
  pixels.
- ``close-up``: tests/data/dice-photos-2, closeup-*.jpg (391 photos, 1,239 dice): grey dice
  from straight above, close (sides 130 to 225 pixels), a strong round vignette, blurred.
- ``paper``: tests/data/dice-photos-2, paper-*.jpg (166 photos, 581 dice): small dice on
  paper at an angle, phone photos; reported also as ``paper, few`` (photos of under 10 dice)
  and ``paper, crowd`` (13 crowds of 10 to 45 dice of 12 to 46 pixels).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from vision.dice_eval import Reads, Score, match
from vision.dice_photos import DATA_DIR, Photo, imread, load_photos, read_split

DATA_DIR_2 = DATA_DIR.parent / "dice-photos-2"
SETUPS = ("tray", "close-up", "paper")
GROUPS = ("paper, few", "paper, crowd")
CROWD = 10  # dice from which a paper photo is a crowd
SURE = 0.9  # readings at or above this are said without asking (vision/motion.py)
# the shipped model's raw confidence that reads as SURE (its sure_from, vision/train/
# train_dice.py): a left-out model's readings are scored at it too
ASKING = 0.998


def setup_of(photo: Photo) -> str:
    if photo.path.parent.parent == DATA_DIR_2:
        return "close-up" if photo.name.startswith("closeup-") else "paper"
    return "tray"


def group_of(photo: Photo) -> str:
    """The finer group a photo is reported in besides its set-up ('' for none)."""
    if setup_of(photo) == "paper":
        return "paper, crowd" if len(photo.dice) >= CROWD else "paper, few"
    return ""


def all_photos() -> list[Photo]:
    return load_photos(DATA_DIR) + load_photos(DATA_DIR_2)


def photos_of(setup: str, part: str | None = None) -> list[Photo]:
    """The photos of one set-up; ``part`` (train, val, test) cuts the tray photos by their
    split (the other set-ups have none: they are all of one part or all of the other)."""
    if setup == "tray":
        photos = load_photos(DATA_DIR)
        if part is not None:
            split = read_split(DATA_DIR)
            photos = [p for p in photos if split.get(p.name) == part]
        return photos
    return [p for p in load_photos(DATA_DIR_2) if setup_of(p) == setup]


@dataclass
class SetupScore(Score):
    """A Score with how the sure readings fared."""

    sure: int = 0  # readings at or above SURE ...
    sure_wrong: int = 0  # ... of them a wrong value or no die at all
    sure_hi: int = 0  # readings at or above ASKING ...
    sure_hi_wrong: int = 0  # ... of them wrong
    asked: int = 0  # photos with a reading under SURE (the session would ask about them)
    asked_hi: int = 0  # ... under ASKING
    unasked_wrong: int = 0  # photos not asked about (SURE) yet not read right
    unasked_hi_wrong: int = 0  # ... (ASKING)

    @property
    def spurious_per_photo(self) -> float:
        return self.spurious / max(1, self.photos)

    def add(self, other: SetupScore) -> None:
        for name in ("labelled", "correct", "wrong_value", "missed", "spurious", "photos",
                     "photos_right", "sure", "sure_wrong", "sure_hi", "sure_hi_wrong",
                     "asked", "asked_hi", "unasked_wrong", "unasked_hi_wrong"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failures += other.failures

    def to_json(self) -> dict[str, Any]:
        return {"photos": self.photos, "dice": self.labelled, "correct": self.correct,
                "wrong_value": self.wrong_value, "missed": self.missed,
                "spurious": self.spurious, "per_die": round(self.die_accuracy, 4),
                "per_photo": round(self.photo_accuracy, 4), "sure": self.sure,
                "sure_wrong": self.sure_wrong, "sure_asking": self.sure_hi,
                "sure_asking_wrong": self.sure_hi_wrong, "asked": self.asked,
                "asked_asking": self.asked_hi, "unasked_wrong": self.unasked_wrong,
                "unasked_asking_wrong": self.unasked_hi_wrong}

    def summary(self) -> str:
        return (f"per die {self.die_accuracy:.1%} ({self.correct}/{self.labelled} right, "
                f"{self.wrong_value} wrong value, {self.missed} missed, {self.spurious} "
                f"spurious: {self.spurious_per_photo:.2f} a photo); per photo "
                f"{self.photo_accuracy:.1%} ({self.photos_right}/{self.photos}); sure "
                f"readings wrong {self.sure_wrong}/{self.sure} (at {ASKING}: "
                f"{self.sure_hi_wrong}/{self.sure_hi}); photos asked about {self.asked} (at "
                f"{ASKING}: {self.asked_hi}), not asked yet wrong {self.unasked_wrong} (at "
                f"{ASKING}: {self.unasked_hi_wrong})")


def score_photo(photo: Photo, dice: list[Any]) -> SetupScore:
    """One photo's score; a sure reading is wrong when no labelled die within half its size
    shows its value (a wrong value or a spurious die)."""
    correct, wrong, missed, spurious = match(photo, dice)
    score = SetupScore(labelled=len(photo.dice), correct=correct, wrong_value=wrong,
                       missed=missed, spurious=spurious, photos=1,
                       photos_right=int(correct == len(photo.dice) and spurious == 0))
    for die in dice:
        if die.confidence < SURE:
            continue
        right = any(label.value == die.value
                    and np.hypot(die.x - label.centre[0], die.y - label.centre[1])
                    < 0.5 * label.size for label in photo.dice)
        score.sure += 1
        score.sure_wrong += int(not right)
        if die.confidence >= ASKING:
            score.sure_hi += 1
            score.sure_hi_wrong += int(not right)
    score.asked = int(any(d.confidence < SURE for d in dice))
    score.asked_hi = int(any(d.confidence < ASKING for d in dice))
    score.unasked_wrong = int(not score.asked and not score.photos_right)
    score.unasked_hi_wrong = int(not score.asked_hi and not score.photos_right)
    if not score.photos_right:
        score.failures.append(f"{photo.name}: {wrong} wrong, {missed} missed, {spurious} "
                              "spurious")
    return score


def labelled_scale(photo: Photo) -> float:
    """The median labelled die side: what `calibrate dice` would measure for these dice."""
    return float(np.median([d.size for d in photo.dice]))


def evaluate(reader: Reads, photos: list[Photo],
             calibrate: Callable[[float], None] | None = None,
             known_count: bool = False) -> dict[str, SetupScore]:
    """Scores per set-up and finer group (and 'all'). ``calibrate``: called with each
    photo's median labelled die side before it is read (the scale a calibration sets).
    ``known_count``: each photo read knowing how many dice it holds (its labels), as the
    session reads a throw (read_known)."""
    scores: dict[str, SetupScore] = {}
    for photo in photos:
        if calibrate is not None:
            calibrate(labelled_scale(photo))
        image = imread(photo.path)
        dice = read_known(reader, image, len(photo.dice)) if known_count else reader.read(image)
        one = score_photo(photo, dice)
        for key in (setup_of(photo), group_of(photo), "all"):
            if key:
                scores.setdefault(key, SetupScore()).add(one)
    order = [*SETUPS, *GROUPS, "all"]
    return {k: scores[k] for k in sorted(scores, key=order.index)}


def read_known(reader: Any, image: Any, count: int) -> list[Any]:
    """The reading of ``count`` dice (DiceReader.read_ranked, by_count); when there are
    not that many plausible candidates, the dice accepted, each at confidence 0: the session
    refuses the throw (asks for the values)."""
    ranked = reader.read_ranked(image, count)
    chosen = dict(ranked.by_count(count)).get(count)
    if chosen is not None:
        return list(chosen)
    return [replace(d, confidence=0.0) for d in ranked.dice]


def shown_photos(photos: list[Photo], dice: int) -> list[Photo]:
    """The photos a player would show `calibrate dice` to learn their dice: spread over the
    set-up (every n-th), at least three, until ``dice`` dice are in them."""
    total = sum(len(p.dice) for p in photos)
    count = max(3, round(len(photos) * dice / max(1, total)))
    shown: list[Photo] = []
    for i in range(count):
        shown.append(photos[i * len(photos) // count])
        if sum(len(p.dice) for p in shown) >= dice and len(shown) >= 3:
            break
    return shown


REST_PARTS = ("val", "test")  # the other photos cut in two: every other one, from the first


def learn_and_evaluate(reader: Any, photos: list[Photo], dice: int, count: bool = False,
                       die: bool = True, values: bool = True, bar: bool = True,
                       rest_part: str | None = None, pips: bool = True
                       ) -> tuple[dict[str, SetupScore], dict[str, SetupScore], dict[str, Any]]:
    """`calibrate dice` learning the players' dice, measured: a few photos of the set-up
    (shown_photos) are read at their labelled scale, the readings matched to the labels give
    the values a player would confirm (a reading with no die under it: "not a die"). A die
    the reader missed cannot be confirmed, unless ``count``: the player says how many dice
    there are and the reader adds its surest unaccepted candidates (dice_learn.missed_dice),
    confirmed the same way. The reader learns from them (vision/dice_learn.py; ``die``: P(die)
    too; not ``values``: the value layer is left unused; ``bar``: a candidate bar too;
    ``pips``: extra candidates from the pips) and
    reads the set-up's other photos at their labelled scale (``rest_part``: only the first,
    third, ... of them, "val", or the second, fourth, ..., "test": one half to choose methods
    on, the other to report). Their scores before and after learning, and what was learned
    (in words, with the shown dice read right before and after)."""
    from vision.dice import THRESHOLD
    from vision.dice_learn import Throw, describe, learn, missed_dice, use

    shown = shown_photos(photos, dice)
    throws: list[Throw] = []
    before = added = 0
    for photo in shown:
        reader.calibrate(labelled_scale(photo))
        image = imread(photo.path)
        readings = reader.read(image)
        if count:
            more = missed_dice(reader, image, readings, len(photo.dice))
            added += sum(1 for d in more if _label_value(photo, d))
            readings = readings + more
        confirmed = []
        for reading in readings:
            value = _label_value(photo, reading)
            before += int(value == reading.value and value > 0)
            confirmed.append((reading.x, reading.y, value))
        throws.append(Throw(image, confirmed, reader.scale))
    rest = [p for p in photos if p not in shown]
    if rest_part is not None:
        rest = rest[REST_PARTS.index(rest_part)::2]
    plain = evaluate(reader, rest, reader.calibrate)
    net = reader.net
    learned = learn(reader, throws, die, bar, pips)
    learned.added = added
    if not values:
        for one in (learned, *learned.partners):
            one.gain = 0
    use(reader, learned)
    after = 0
    for photo, throw in zip(shown, throws, strict=True):
        reader.calibrate(labelled_scale(photo))
        after += score_photo(photo, reader.read(throw.image)).correct
    words = describe(learned, float(np.median([labelled_scale(p) for p in shown])), before,
                     after)
    scores = evaluate(reader, rest, reader.calibrate)
    reader.net, reader.scale, reader.threshold, reader.propose = net, None, THRESHOLD, None
    return plain, scores, {"shown_photos": len(shown), "shown_dice": learned.dice,
                           "shown_labelled": sum(len(p.dice) for p in shown),
                           "added": added, "values_used": learned.used,
                           "die_used": learned.die_used, "gain": learned.gain,
                           "die_gain": learned.die_gain, "bar": learned.bar,
                           "bar_used": learned.bar_used, "bar_found": learned.bar_found,
                           "bar_lost": learned.bar_lost, "bar_errors": learned.bar_errors,
                           "pip_bar": learned.pip_bar, "pips_used": learned.pips_used,
                           "pip_found": learned.pip_found, "pip_lost": learned.pip_lost,
                           "pip_errors": learned.pip_errors,
                           "partners": [{"values_used": p.used, "gain": p.gain,
                                         "die_used": p.die_used, "die_gain": p.die_gain}
                                        for p in learned.partners],
                           "said": words}


def _label_value(photo: Photo, die: Any) -> int:
    """The labelled value under a reading (0: no labelled die within half its size)."""
    near = [label for label in photo.dice
            if np.hypot(die.x - label.centre[0], die.y - label.centre[1]) < 0.5 * label.size]
    return near[0].value if near else 0
