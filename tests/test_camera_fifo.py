"""A named pipe given as camera:FIFO that nobody writes to: the companion says it is waiting,
and closing it (quit) does not wait on it."""

from __future__ import annotations

import os
import queue

from companion.observations import DeviceStatus
from vision.source import CameraSource

WAIT = 30.0


def test_a_silent_named_pipe_is_announced_and_closes_at_once(tmp_path):
    fifo = tmp_path / "frames"
    os.mkfifo(fifo)
    source = CameraSource(str(fifo), "dice")
    seen: queue.Queue = queue.Queue()
    source.start(seen.put)
    try:
        status = seen.get(timeout=WAIT)  # before: nothing at all, the reader stuck in open()
        assert isinstance(status, DeviceStatus) and status.state == "waiting"
        assert status.detail == (f"Waiting for pictures on the named pipe {fifo}: nothing "
                                 "writes to it yet.")
    finally:
        source.close()
    assert source._thread is not None and not source._thread.is_alive()  # quit waits on nothing
    assert seen.empty()


def test_a_writer_that_comes_and_goes_without_a_word_is_waited_out(tmp_path):
    fifo = tmp_path / "frames"
    os.mkfifo(fifo)
    source = CameraSource(str(fifo), "dice")
    seen: queue.Queue = queue.Queue()
    source.start(seen.put)
    try:
        assert seen.get(timeout=WAIT).state == "waiting"
        os.close(os.open(fifo, os.O_WRONLY))  # opens (a reader is there) and leaves
    finally:
        source.close()
    assert not source._thread.is_alive()
