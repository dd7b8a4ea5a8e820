"""Generated frame sequences of dice rolling then resting, for testing vision/motion.py.

The dice are real: die sprites cut from the labelled photos (their colour-distinct pixels, with
a feathered mask), thrown across a paper-like background along decelerating, spinning paths
with motion blur, then left at rest under sensor noise. Reproducible from a seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_photos import Photo, imread

Image = NDArray[Any]


@dataclass(frozen=True)
class Sprite:
    value: int
    image: Image  # square BGR crop
    mask: NDArray[Any]  # 0..1, same size


def cut_sprites(photos: list[Photo], limit: int, rng: np.random.Generator) -> list[Sprite]:
    """Die sprites from photos: the labelled box plus a margin, masked to the die itself."""
    pool = [(p, d) for p in photos for d in p.dice]
    picks = rng.choice(len(pool), size=min(limit, len(pool)), replace=False)
    sprites: list[Sprite] = []
    cache: dict[str, Image] = {}
    for index in picks:
        photo, die = pool[int(index)]
        image = cache.setdefault(photo.name, imread(photo.path))
        cx, cy = die.centre
        half = int(die.size * 0.6)
        x0, y0 = int(cx) - half, int(cy) - half
        if x0 < 0 or y0 < 0 or x0 + 2 * half > image.shape[1] or y0 + 2 * half > image.shape[0]:
            continue
        patch = image[y0 : y0 + 2 * half, x0 : x0 + 2 * half].copy()
        # the die keeps a rim of its own table; a feathered square mask blends that rim away
        # (colour masks lose white dice on white paper)
        side = 2 * half
        ramp = np.clip(np.minimum(np.arange(side), np.arange(side)[::-1]) / (side * 0.12),
                       0, 1).astype(np.float32)
        soft = np.minimum(ramp[None, :], ramp[:, None])
        sprites.append(Sprite(die.value, patch, soft))
    return sprites


def paper(size: tuple[int, int], rng: np.random.Generator) -> Image:
    """A light paper/cloth background with a soft lighting gradient and grain."""
    w, h = size
    grey = rng.uniform(175, 215)
    base = np.array([grey - 4, grey, grey + 3], np.float32) + rng.uniform(-3, 3, 3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 + 0.08 * (xx / w - 0.5) + 0.06 * (yy / h - 0.5)
    grain = rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    out = base * light[..., None] + grain
    return np.clip(out, 0, 255).astype(np.uint8)


def noisy(frame: Image, rng: np.random.Generator) -> Image:
    """The frame under a camera's sensor noise."""
    out: Image = np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)
    return out


def paste(canvas: Image, sprite: Sprite, x: float, y: float, angle: float, blur: float) -> None:
    """Draw the sprite centred at (x, y), rotated, with linear motion blur of ``blur`` px."""
    side = sprite.image.shape[0]
    big = int(side * 1.5)
    m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    m[:, 2] += (big - side) / 2
    img = cv2.warpAffine(sprite.image, m, (big, big), borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpAffine(sprite.mask, m, (big, big))
    if blur >= 2:
        k = int(blur) | 1
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1 / k
        img = cv2.filter2D(img, -1, kernel)
        mask = cv2.filter2D(mask, -1, kernel)
    x0, y0 = int(round(x - big / 2)), int(round(y - big / 2))
    h, w = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + big), min(h, y0 + big)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    region = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    sub_img = img[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0].astype(np.float32)
    rim = np.concatenate([sprite.image[0], sprite.image[-1]]).astype(np.float32)
    sub_img += np.median(region.reshape(-1, 3), axis=0) - np.median(rim, axis=0)
    sub_mask = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, None]
    canvas[cy0:cy1, cx0:cx1] = (region * (1 - sub_mask) + sub_img * sub_mask).astype(np.uint8)


@dataclass(frozen=True)
class Roll:
    frames: list[Image]
    values: tuple[int, ...]  # resting values, left to right
    rest_positions: tuple[tuple[float, float], ...]


def roll(sprites: list[Sprite], background: Image, rng: np.random.Generator, *,
         moving: int = 12, resting: int = 10, area: tuple[int, int, int, int] | None = None,
         outside: list[tuple[Sprite, float, float]] | None = None) -> Roll:
    """Dice enter from the left edge, decelerate and spin, then rest; ``outside`` sprites sit
    still outside the tray area the whole time."""
    h, w = background.shape[:2]
    x0, y0, x1, y1 = area or (0, 0, w, h)
    rests: list[tuple[float, float]] = []
    for _ in sprites:
        for _attempt in range(100):
            rx = rng.uniform(x0 + 60, x1 - 60)
            ry = rng.uniform(y0 + 60, y1 - 60)
            if all(np.hypot(rx - a, ry - b) > 90 for a, b in rests):
                break
        rests.append((rx, ry))
    starts = [(x0 - 40.0, rng.uniform(y0 + 40, y1 - 40)) for _ in sprites]
    spins = rng.uniform(200, 700, len(sprites)) * rng.choice([-1, 1], len(sprites))
    rest_angles = rng.uniform(0, 90, len(sprites))
    frames = []
    for t in range(moving + resting):
        canvas = background.copy()
        for sprite, sx, sy in outside or []:
            paste(canvas, sprite, sx, sy, 0.0, 0.0)
        u = min(1.0, t / moving)
        ease = 1 - (1 - u) ** 2  # decelerating
        speed = 2 * (1 - u)
        for i, sprite in enumerate(sprites):
            (ax, ay), (bx, by) = starts[i], rests[i]
            x = ax + (bx - ax) * ease
            y = ay + (by - ay) * ease
            angle = rest_angles[i] + spins[i] * (1 - ease)
            blur = speed * np.hypot(bx - ax, by - ay) / moving
            paste(canvas, sprite, x, y, angle, min(blur, 25.0))
        frames.append(noisy(canvas, rng))
    order = np.argsort([x for x, _ in rests])
    return Roll(frames, tuple(sprites[i].value for i in order),
                tuple(rests[i] for i in order))
