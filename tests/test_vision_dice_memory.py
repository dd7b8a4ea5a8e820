"""The dice reader keeps the memory a frame frees for the next frame (vision/memory.py):
reading a frame again touches no new pages."""

import resource

import numpy as np
import pytest

from vision.dice import DiceReader
from vision.dice_photos import imread, photos_in
from vision.memory import keep_freed_memory


def _faults() -> int:
    # this thread's own (Linux): another test module's threads fault pages of their own
    who = getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)
    return resource.getrusage(who).ru_minflt


def test_a_frame_read_again_faults_no_new_pages() -> None:
    reader = DiceReader.load()  # sets it
    if not keep_freed_memory():
        pytest.skip("not glibc: the C library's malloc is left as it is")
    photo = next(p for p in photos_in("val") if len(p.dice) >= 8)
    frame = imread(photo.path)
    first = reader.read(frame)
    before = _faults()
    again = reader.read(frame)
    # glibc's default: about 5,000 faults on this photo
    assert _faults() - before < 100
    assert again == first
    # and arrays of a few megabytes allocated and freed over and over: touched the first
    # time only
    sides = (700, 900, 600, 1000)
    for side in sides:
        np.ones((side, side, 3), np.float32).sum()
    before = _faults()
    for side in sides * 3:
        np.ones((side, side, 3), np.float32).sum()
    assert _faults() - before < 100  # glibc's default: about 1,400
