"""The preview window: what the camera reader sees, drawn live (``--dice camera:0?preview``).

Needs OpenCV built with a GUI (``pip install -e .[window]``, which installs opencv-python in
place of the headless build) and a display. Without either, the companion says why once and
goes on headless: the full OpenCV build aborts the whole process when it opens a window with
no display, so that is checked before any window is opened.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import Any

import cv2
from numpy.typing import NDArray

Draw = Callable[[NDArray[Any], Any, str], NDArray[Any]]


def preview_problem(environ: dict[str, str] | None = None,
                    build: str | None = None) -> str | None:
    """Why no window can be shown here, or None."""
    environ = dict(os.environ) if environ is None else environ
    build = cv2.getBuildInformation() if build is None else build
    gui = re.search(r"^\s*GUI:\s*(\S+)", build, re.MULTILINE)
    if gui is None or gui.group(1).upper() == "NONE":
        return ("this OpenCV has no window support (the headless build); "
                "pip install -e .[window] for the full one")
    if sys.platform.startswith("linux") and not (environ.get("DISPLAY")
                                                 or environ.get("WAYLAND_DISPLAY")):
        return "there is no display (DISPLAY is not set)"
    return None


class Preview:
    """Remembers the reader's latest result (``wrap``) and draws it on each frame (``show``)."""

    def __init__(self, title: str, draw: Draw) -> None:
        self.title = title
        self.draw = draw
        self.seen: Any = None

    def wrap(self, read: Callable[[NDArray[Any]], Any],
             shown: Callable[[Any], Any] | None = None) -> Callable[[NDArray[Any]], Any]:
        """``read`` remembering what it saw; ``shown`` picks from its result what is drawn
        (the dice of a ranked reading)."""
        def reading(frame: NDArray[Any]) -> Any:
            result = read(frame)
            self.seen = result if shown is None else shown(result)
            return result
        return reading

    def frame(self, frame: NDArray[Any], note: str = "") -> NDArray[Any]:
        return self.draw(frame, self.seen, note)

    def show(self, frame: NDArray[Any], note: str = "") -> None:  # pragma: no cover - display
        cv2.imshow(self.title, self.frame(frame, note))
        cv2.waitKey(1)

    def close(self) -> None:  # pragma: no cover - display
        cv2.destroyWindow(self.title)
