"""The dice photos' set-ups (vision/dice_setups.py) and the per-set-up score."""

from __future__ import annotations

from vision.dice import Die
from vision.dice_setups import SETUPS, group_of, photos_of, score_photo


def test_each_set_up_holds_its_photos_and_dice() -> None:
    counts = {s: (len(photos_of(s)), sum(len(p.dice) for p in photos_of(s))) for s in SETUPS}
    assert counts == {"tray": (200, 1487), "close-up": (391, 1239), "paper": (166, 581)}
    assert len(photos_of("tray", "test")) == 30
    crowds = [p for p in photos_of("paper") if group_of(p) == "paper, crowd"]
    assert (len(crowds), sum(len(p.dice) for p in crowds)) == (13, 422)
    assert {group_of(p) for p in photos_of("close-up")} == {""}


def test_a_sure_reading_of_a_wrong_value_or_of_no_die_counts_as_a_sure_error() -> None:
    photo = photos_of("close-up")[0]
    first, *rest = photo.dice
    x, y = first.centre
    wrong = first.value % 6 + 1
    dice = [Die(wrong, x, y, first.size, 0.95), Die(first.value, -500, -500, 40, 0.99)]
    dice += [Die(d.value, *d.centre, d.size, 0.5) for d in rest]
    score = score_photo(photo, dice)
    assert (score.sure, score.sure_wrong) == (2, 2)
    assert (score.correct, score.wrong_value, score.spurious) == (len(rest), 1, 1)
    assert score.photos_right == 0
    right = score_photo(photo, [Die(d.value, *d.centre, d.size, 0.97) for d in photo.dice])
    assert (right.sure, right.sure_wrong, right.photos_right) == (len(photo.dice), 0, 1)


def test_readings_of_several_image_sizes_merge_to_the_surest() -> None:
    """A large die read at a quarter size and its pips read at full size: one die, the surer
    reading; dice apart stay apart."""
    from vision.dice import merge_levels

    die = Die(4, 200, 200, 120, 0.97)  # a close-up's die, from the quarter-size copy
    pips = [Die(1, 170, 170, 30, 0.6), Die(1, 230, 230, 30, 0.7)]
    other = Die(2, 400, 200, 120, 0.95)
    assert merge_levels([*pips, die, other]) == [die, other]
    assert merge_levels([Die(1, 170, 170, 30, 0.99), die]) == [Die(1, 170, 170, 30, 0.99)]
