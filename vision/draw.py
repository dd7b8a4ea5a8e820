"""What a reader saw, drawn on the picture: for ``companion read ... --annotate DIR`` and the
preview window (``camera:0?preview``).

Dice: a box and the value; sure readings in green, readings the session would ask about
(confidence under 0.9) in orange with the confidence. Cards: the outline and the card; refused
outlines in red with the reason. Pure functions: they return a new image.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observations import CONFIRM_BELOW
from vision.cards import SeenCards
from vision.dice import Die

GREEN = (60, 200, 60)
ORANGE = (0, 150, 255)
RED = (40, 40, 230)


def _label(image: NDArray[Any], text: str, x: float, y: float, colour: tuple[int, ...],
           scale: float) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, font, scale, thick)
    x0 = int(min(max(0, x), image.shape[1] - w - 2))
    y0 = int(min(max(h + 2, y), image.shape[0] - base - 1))
    cv2.rectangle(image, (x0, y0 - h - 2), (x0 + w + 2, y0 + base), (0, 0, 0), -1)
    cv2.putText(image, text, (x0 + 1, y0), font, scale, colour, thick, cv2.LINE_AA)


def _scale(image: NDArray[Any]) -> float:
    return max(0.4, max(image.shape[:2]) / 1600)


def draw_dice(image: NDArray[Any], dice: Sequence[Die] | None, note: str = ""
              ) -> NDArray[Any]:
    out = image.copy()
    scale = _scale(out)
    for die in dice or ():
        sure = die.confidence >= CONFIRM_BELOW
        colour = GREEN if sure else ORANGE
        x0, y0, x1, y1 = die.box
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, max(1, round(scale * 2)))
        text = str(die.value) if sure else f"{die.value}? {die.confidence:.2f}"
        _label(out, text, x0, y0 - 3, colour, scale)
    if note:
        _label(out, note, 8, 8 + 30 * scale, (255, 255, 255), scale)
    return out


def draw_cards(image: NDArray[Any], seen: SeenCards | None, note: str = "") -> NDArray[Any]:
    out = image.copy()
    scale = _scale(out)
    seen = seen or SeenCards()
    for card in seen.cards:
        sure = card.confidence >= CONFIRM_BELOW
        colour = GREEN if sure else ORANGE
        quad = np.array(card.corners, np.float32).round().astype(np.int32)
        cv2.polylines(out, [quad], True, colour, max(1, round(scale * 2)))
        text = str(card.card) if sure else f"{card.card}? {card.confidence:.2f}"
        top = min(card.corners, key=lambda p: p[1])
        _label(out, text, top[0], top[1] - 4, colour, scale)
    for refused in seen.refused:
        quad = np.array(refused.corners, np.float32).round().astype(np.int32)
        cv2.polylines(out, [quad], True, RED, max(1, round(scale * 2)))
        top = min(refused.corners, key=lambda p: p[1])
        _label(out, refused.reason, top[0], top[1] - 4, RED, scale * 0.8)
    for down in seen.face_down:  # seen, not read: grey
        quad = np.array(down.corners, np.float32).round().astype(np.int32)
        cv2.polylines(out, [quad], True, (160, 160, 160), max(1, round(scale * 2)))
        top = min(down.corners, key=lambda p: p[1])
        _label(out, "face down", top[0], top[1] - 4, (160, 160, 160), scale * 0.8)
    if note:
        _label(out, note, 8, 8 + 30 * scale, (255, 255, 255), scale)
    return out
