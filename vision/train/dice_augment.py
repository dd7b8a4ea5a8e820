"""Training-only picture changes for the dice crops: other dice colours, and textures that
are not dice.

The photos hold few dice sets (white, black, red, translucent in the tray photos; grey in the
others) and few tables. So that the reader is not tied to them:

- ``recolour``: a die crop as another set might look: inverted (a dark die with light pips),
  tinted (a coloured face), channels swapped, hue turned, saturation changed, marbled (a slow
  colour field laid over it), blurred, noisy, relit;
- ``texture``: a crop of something that is not a die, made up: felt of many colours with
  seams and folds, wood grain, carpet, a tray's wall or corner, a soft shadow, a hand's
  fingers, a screw hole; trained as "none";
- ``empty_table``: a whole made-up picture with no die in it (issue 15, from-scratch recipe
  only): a tray whose rim is printed with a blurred pattern of dark blocks on a paper or
  cloth table, a felt tray with rounded corners and wooden walls on a carpet, or a printed
  table. The reader's candidates on it (its rim, walls, corners, print) are "none" crops:
  the network trained from scratch read such rims and corners as dice where the tray photos'
  network did not.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]


def _smooth_field(rng: np.random.Generator, side: int, cells: int, channels: int = 1
                  ) -> Image:
    """A slowly varying field in -1..1 (noise on a cells x cells grid, enlarged)."""
    grid = rng.uniform(-1, 1, (cells, cells, channels)).astype(np.float32)
    big = cv2.resize(grid, (side, side), interpolation=cv2.INTER_CUBIC)
    return big.reshape(side, side, channels)


def recolour(patch: Image, rng: np.random.Generator) -> Image:
    """A die crop (BGR bytes) in other colours (see the module's notes)."""
    p: Image = patch.astype(np.float32)
    side = p.shape[0]
    if rng.random() < 0.3:
        p = 255 - p  # a dark die with light pips (the table inverted with it)
    if rng.random() < 0.5:  # a coloured face: white becomes the tint, dark pips stay dark
        tint = rng.uniform(0.15, 1.0, 3)
        p = p * (tint / tint.max())
    if rng.random() < 0.4:
        p = p[..., rng.permutation(3)]
    if rng.random() < 0.25:  # marbled or translucent: a slow colour field over the die
        p = p * (1 + rng.uniform(0.1, 0.35) * _smooth_field(rng, side, 3, 3))
    out: Image = np.clip(p, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV).astype(np.int32)
        hsv[..., 0] = (hsv[..., 0] + int(rng.integers(180))) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.4, 2.0), 0, 255)
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.5:  # light: gain, offset, gamma
        gamma = rng.uniform(0.6, 1.6)
        table = np.clip(255 * (np.arange(256) / 255) ** gamma * rng.uniform(0.7, 1.3)
                        + rng.uniform(-30, 30), 0, 255).astype(np.uint8)
        out = cv2.LUT(out, table)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.6))
    if rng.random() < 0.3:
        noise = rng.normal(0, rng.uniform(2, 10), out.shape)
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
    return out


def _colour(rng: np.random.Generator) -> NDArray[Any]:
    return rng.uniform(0, 255, 3)


def _felt(rng: np.random.Generator, side: int) -> Image:
    base = _colour(rng) * rng.uniform(0.3, 1.0)
    grain = cv2.GaussianBlur(rng.normal(0, rng.uniform(4, 18), (side, side, 1)).astype(
        np.float32), (0, 0), rng.uniform(0.5, 1.5)).reshape(side, side, 1)
    img = base + grain + 25 * rng.uniform(0, 1) * _smooth_field(rng, side, 2)
    if rng.random() < 0.7:  # a seam, a fold or the edge of a felt insert
        img = _line(img, rng, side)
    return img


def _line(img: Image, rng: np.random.Generator, side: int) -> Image:
    angle = rng.uniform(0, np.pi)
    yy, xx = np.indices((side, side)) - side / 2
    offset = rng.uniform(-side / 3, side / 3)
    d = np.abs(xx * np.cos(angle) + yy * np.sin(angle) - offset)
    width = rng.uniform(0.8, 5)
    strength = rng.uniform(-120, 120)
    return img + (strength * np.exp(-(d / width) ** 2))[..., None]


def _wood(rng: np.random.Generator, side: int) -> Image:
    base = np.array([rng.uniform(20, 120), rng.uniform(50, 160), rng.uniform(90, 230)])
    angle = rng.uniform(0, np.pi)
    yy, xx = np.indices((side, side)).astype(np.float32)
    along = xx * np.cos(angle) + yy * np.sin(angle)
    warp = 6 * _smooth_field(rng, side, 3)[..., 0]
    grain = np.sin(along * rng.uniform(0.3, 1.5) + warp) * rng.uniform(10, 45)
    if rng.random() < 0.3:  # a knot
        cx, cy = rng.uniform(8, side - 8, 2)
        r = np.hypot(xx - cx, (yy - cy) * rng.uniform(1, 2.5))
        grain = grain + 40 * np.sin(r * 0.8) * np.exp(-r / 12)
    return base * (1 + grain[..., None] / 255) + grain[..., None] * 0.3


def _carpet(rng: np.random.Generator, side: int) -> Image:
    colours = rng.uniform(0, 255, (3, 3))
    pick = rng.integers(0, 3, (side // 2, side // 2))
    img = cv2.resize(colours[pick].astype(np.float32), (side, side),
                     interpolation=cv2.INTER_NEAREST)
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))


def _wall(rng: np.random.Generator, side: int) -> Image:
    """A tray's wall meeting its floor (or a corner): two or three flat tones, a highlight."""
    floor = _felt(rng, side) if rng.random() < 0.5 else np.full((side, side, 3), _colour(rng))
    wall = _colour(rng) * rng.uniform(0.2, 1.0)
    yy, xx = np.indices((side, side)) - side / 2
    img = floor.copy()
    for _ in range(int(rng.integers(1, 3))):
        angle = rng.uniform(0, 2 * np.pi)
        d = xx * np.cos(angle) + yy * np.sin(angle) - rng.uniform(-side / 4, side / 3)
        img = np.where((d > 0)[..., None], wall + rng.uniform(-30, 30), img)
        img = img + (rng.uniform(30, 90) * np.exp(-(d / 1.5) ** 2))[..., None]
    return img


def _shadow(rng: np.random.Generator, side: int) -> Image:
    img = _felt(rng, side) if rng.random() < 0.5 else np.full((side, side, 3), _colour(rng))
    yy, xx = np.indices((side, side)).astype(np.float32)
    cx, cy = rng.uniform(0, side, 2)
    r = np.hypot((xx - cx) / rng.uniform(6, 24), (yy - cy) / rng.uniform(6, 24))
    return img * (1 - rng.uniform(0.3, 0.7) * np.exp(-r ** 2))[..., None]


def _hand(rng: np.random.Generator, side: int) -> Image:
    img = _felt(rng, side) if rng.random() < 0.5 else _wood(rng, side)
    skin = np.array([rng.uniform(60, 180), rng.uniform(90, 200), rng.uniform(140, 250)])
    mask: Image = np.zeros((side, side), np.float32)
    angle = rng.uniform(0, 180)
    for _ in range(int(rng.integers(1, 5))):
        cx, cy = rng.uniform(0, side), rng.uniform(0, side)
        cv2.ellipse(mask, (int(cx), int(cy)), (int(rng.uniform(12, 30)), int(rng.uniform(4, 9))),
                    angle + rng.uniform(-15, 15), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.0)[..., None]
    shade = 1 + 0.25 * _smooth_field(rng, side, 2)
    return img * (1 - mask) + skin * shade * mask


def _hole(rng: np.random.Generator, side: int) -> Image:
    """A screw hole, a crumb or a spot on a plain table: one or two small blobs, no die."""
    img = _felt(rng, side) if rng.random() < 0.6 else np.full((side, side, 3), _colour(rng))
    for _ in range(int(rng.integers(1, 3))):
        centre = (int(rng.uniform(10, side - 10)), int(rng.uniform(10, side - 10)))
        cv2.circle(img, centre, int(rng.uniform(2, 7)), _colour(rng).tolist(), -1)
    return img


MAKERS = (_felt, _felt, _wood, _carpet, _wall, _wall, _shadow, _hand, _hole)


def texture(rng: np.random.Generator, side: int) -> Image:
    """A made-up crop of something that is not a die (BGR bytes, side x side)."""
    maker = MAKERS[int(rng.integers(len(MAKERS)))]
    img: Image = np.clip(maker(rng, side), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5))
    return img


def degrade(patch: Image, rng: np.random.Generator) -> Image:
    """A die crop as a worse camera or another angle shows it: squeezed along one direction
    and sheared (a die seen at an angle, on paper), seen at a lower resolution and enlarged
    again (a die of 12 to 20 pixels, read at a calibrated scale or a doubled image size),
    a light gradient or vignette across it, motion blur, JPEG blocks."""
    out: Image = patch
    side = patch.shape[0]
    centre = ((side - 1) / 2, (side - 1) / 2)
    if rng.random() < 0.5:  # perspective, to first order: a squeeze along a random direction
        angle = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        squeeze = np.diag([1.0, rng.uniform(0.65, 1.0)])
        shear = np.array([[1.0, rng.uniform(-0.15, 0.15)], [0.0, 1.0]])
        a = rot @ squeeze @ rot.T @ shear
        m = np.hstack([a, (np.array(centre) - a @ np.array(centre))[:, None]])
        out = cv2.warpAffine(out, m, (side, side), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.35:  # fewer pixels on the die, enlarged again
        small = max(8, round(side / rng.uniform(1.5, 3.5)))
        out = cv2.resize(cv2.resize(out, (small, small), interpolation=cv2.INTER_AREA),
                         (side, side), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:  # light falling off across the crop (a vignette, a lamp aside)
        yy, xx = (np.indices((side, side)) - (side - 1) / 2) / side
        angle = rng.uniform(0, 2 * np.pi)
        ramp = 1 + rng.uniform(0.1, 0.5) * (xx * np.cos(angle) + yy * np.sin(angle))
        out = np.clip(out * ramp[..., None], 0, 255).astype(np.uint8)
    if rng.random() < 0.15:  # motion blur along a random direction
        k = int(rng.integers(3, 7))
        line: Image = np.zeros((k, k), np.float32)
        line[k // 2] = 1.0 / k
        kernel: Image = cv2.warpAffine(line, cv2.getRotationMatrix2D(
            ((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1.0), (k, k))
        out = cv2.filter2D(out, -1, kernel / max(float(kernel.sum()), 1e-6))
    if rng.random() < 0.3:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                              int(rng.integers(25, 80))])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return np.ascontiguousarray(out)


def _paper(rng: np.random.Generator, w: int, h: int) -> Image:
    """A light paper or cloth table: a soft lighting gradient and grain."""
    grey = rng.uniform(150, 225)
    base = np.array([grey - 4, grey, grey + 3], np.float32) + rng.uniform(-12, 12, 3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 + rng.uniform(-0.12, 0.12) * (xx / w - 0.5) + rng.uniform(-0.1, 0.1) * (
        yy / h - 0.5)
    grain = rng.normal(0, rng.uniform(1, 5), (h, w, 1)).astype(np.float32)
    return base * light[..., None] + grain


def _blocks(rng: np.random.Generator, w: int, h: int, low: int, high: int) -> Image:
    """A pattern of coloured blocks (a tray's printed rim, a printed table), blurred."""
    cell = int(rng.integers(8, 40))
    blocks = rng.integers(low, high, (h // cell + 1, w // cell + 1, 3)).astype(np.uint8)
    big = cv2.resize(blocks, ((w // cell + 1) * cell, (h // cell + 1) * cell),
                     interpolation=cv2.INTER_NEAREST)[:h, :w]
    k = int(rng.choice([1, 5, 9, 13]))
    return cv2.GaussianBlur(big, (k, k), 0).astype(np.float32) if k > 1 else big.astype(
        np.float32)


def _floor_box(rng: np.random.Generator, w: int, h: int) -> tuple[int, int, int, int]:
    x0, y0 = int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.05, 0.3) * h)
    x1, y1 = int(rng.uniform(0.7, 0.95) * w), int(rng.uniform(0.7, 0.95) * h)
    return x0, y0, x1, y1


def _printed_rim(rng: np.random.Generator, w: int, h: int) -> Image:
    """A tray on a paper table, its floor of the table's colour or another, its rim printed."""
    img = _paper(rng, w, h)
    x0, y0, x1, y1 = _floor_box(rng, w, h)
    rim = int(rng.uniform(15, 70))
    high = int(rng.choice([90, 140, 255]))
    pattern = _blocks(rng, w, h, 10, high)
    mask = np.zeros((h, w), bool)
    mask[max(0, y0 - rim) : y1 + rim, max(0, x0 - rim) : x1 + rim] = True
    mask[y0:y1, x0:x1] = False
    img[mask] = pattern[mask]
    if rng.random() < 0.5:  # a floor of its own colour
        floor = img[y0:y1, x0:x1]
        img[y0:y1, x0:x1] = floor * rng.uniform(0.3, 1.1, 3).astype(np.float32)
    return img


def _felt_tray(rng: np.random.Generator, w: int, h: int) -> Image:
    """A felt tray on a carpet: rounded corners, wooden walls, a seam, light from one side."""
    cell = int(rng.integers(2, 8))
    pick = rng.integers(0, 3, (h // cell + 1, w // cell + 1))
    colours = rng.uniform(30, 220, (3, 3))
    img = cv2.resize(colours[pick].astype(np.float32), ((w // cell + 1) * cell,
                     (h // cell + 1) * cell), interpolation=cv2.INTER_NEAREST)[:h, :w]
    if rng.random() < 0.4:
        img = _paper(rng, w, h)
    x0, y0, x1, y1 = _floor_box(rng, w, h)
    wall = int(rng.uniform(15, 70))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = rng.uniform(8, 30) * np.sin(xx * rng.uniform(0.1, 0.5)
                                        + rng.uniform(1, 5) * np.sin(yy * rng.uniform(0.02, 0.1)))
    if rng.random() < 0.5:
        grain = grain.T[:h, :w] if h == w else np.rot90(grain, 2).copy()
    tone = np.array([rng.uniform(30, 120), rng.uniform(60, 160), rng.uniform(90, 220)])
    wood = tone + grain[..., None]
    ya, yb, xa, xb = max(0, y0 - wall), y1 + wall, max(0, x0 - wall), x1 + wall
    img[ya:yb, xa:xb] = wood[ya:yb, xa:xb]
    r = int(rng.uniform(0, 60))
    floor = np.zeros((h, w), np.uint8)
    cv2.rectangle(floor, (x0 + r, y0), (x1 - r, y1), 1, -1)
    cv2.rectangle(floor, (x0, y0 + r), (x1, y1 - r), 1, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(floor, (cx, cy), r, 1, -1)
    fuzz = cv2.GaussianBlur(rng.normal(0, rng.uniform(4, 20), (h, w)).astype(np.float32),
                            (0, 0), 0.8)
    felt = _colour(rng) * rng.uniform(0.15, 0.9) + fuzz[..., None] + rng.uniform(-20, 20) * (
        (xx - x0) / max(1, x1 - x0))[..., None]
    if rng.random() < 0.6:  # a seam
        felt[np.abs(xx - (x0 + x1) / 2 - rng.uniform(-0.4, 0.4) * (yy - y0)) < 1.5] -= (
            rng.uniform(-40, 40))
    img[floor == 1] = felt[floor == 1]
    return img


def _printed_table(rng: np.random.Generator, w: int, h: int) -> Image:
    """A printed table or play mat: blocks of colour, or paper with dark print on it."""
    if rng.random() < 0.5:
        return _blocks(rng, w, h, 0, 255)
    img = _paper(rng, w, h)
    print_ = _blocks(rng, w, h, 0, 255)
    mask = _smooth_field(rng, max(w, h), int(rng.integers(4, 16)))[:h, :w, 0] > rng.uniform(
        0.2, 0.7)
    img[mask] = print_[mask]
    return img


SCENES = (_printed_rim, _printed_rim, _felt_tray, _felt_tray, _printed_table)


def empty_table(rng: np.random.Generator, w: int = 960, h: int = 640) -> Image:
    """A made-up picture of an empty tray or table (BGR bytes, no die in it)."""
    maker = SCENES[int(rng.integers(len(SCENES)))]
    img = maker(rng, w, h) + rng.normal(0, 2.0, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)
