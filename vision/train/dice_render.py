"""Rendered die crops for training (issue 15): dice of kinds the photos do not hold.

The photos hold three set-ups' dice. So that the network sees more kinds of die, crops are
drawn at the crop geometry the recipe uses for a real die (vision/train/train_dice.py: the
die's box, the labelled size, spans the crop, give or take the recipe's jitter; sometimes a
candidate size off by up to the recipe's positive range):

- a cube turned any way and tilted up to 35 degrees, so that one or two darker side faces
  show; a rounded-square top face of many colours (white, ivory, black, red, blue, green,
  yellow, translucent tints showing the table through, marbled);
- pips of a contrasting colour (black, white, red, gold): round, slightly oval, small or
  large, rings, or engraved (a dark edge on one side, a light one on the other), in the
  standard layouts of 1 to 6 (2, 3 and 6 both ways round);
- a soft shadow, a highlight, neighbouring dice cut by the crop's edge;
- on a background cut from a real photo away from its labelled dice (only photos the model
  learns from) or a made-up texture (dice_augment.texture); then blur, noise, light and
  JPEG (dice_augment.degrade, as for the photos' crops).

"None" crops that look like dice but are "none" by the recipe's labelling rules: a die off
centre by half its side or more (beyond NEGATIVE_RADIUS), two half dice, one pip of a die
far too large for the crop (under UNDERSIZE), a blob of small dice (over OVERSIZE).

Drawn at SUPER times the crop side and shrunk with INTER_AREA, as the photos are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_features import CROP, crop
from vision.train.dice_augment import degrade, texture

Image = NDArray[Any]
SUPER = 4  # drawn at this many times the crop side
FACE = 128  # the top face's texture side (pixels)
POSITIVE_SHARE = 0.75  # the rest: rendered "none" crops
DEGRADE = 0.5  # share passed through dice_augment.degrade (as train_dice.DEGRADE)

# face colours (BGR) and the pip colours that go with them
FACES = {
    "white": (235, 238, 240), "ivory": (200, 228, 240), "black": (30, 30, 32),
    "red": (40, 40, 200), "blue": (170, 70, 20), "green": (60, 150, 30),
    "yellow": (40, 210, 235), "purple": (130, 40, 110), "grey": (150, 150, 150),
}
PIPS = {"black": (20, 20, 20), "white": (245, 245, 245), "red": (30, 30, 190),
        "gold": (40, 170, 215)}


def layout(value: int, turned: bool = False) -> list[tuple[float, float]]:
    """Pip centres of a face in units of its pip spacing (-1, 0, 1); 2, 3 and 6 turned a
    quarter (``turned``) give the other standard orientation."""
    corners = [(-1, -1), (1, 1), (1, -1), (-1, 1)]
    pips: list[tuple[int, int]] = {
        1: [(0, 0)],
        2: corners[:2],
        3: [corners[0], (0, 0), corners[1]],
        4: corners,
        5: [*corners, (0, 0)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
    }[value]
    if turned:
        pips = [(-y, x) for x, y in pips]
    return [(float(x), float(y)) for x, y in pips]


@dataclass
class Style:
    """How one die looks (all drawn from the generator in ``style``)."""

    face: NDArray[Any]  # BGR floats
    pip: NDArray[Any]
    alpha: float  # 1 opaque; under 1 translucent
    marble: float  # strength of a slow colour field on the face
    corner: float  # corner radius, fraction of the face side
    spacing: float  # pip spacing, fraction of the face side
    radius: float  # pip radius, fraction of the face side
    oval: float  # pip aspect ratio
    kind: str  # "dot", "ring" or "engraved"
    side_shade: float  # side faces' brightness relative to the top


def style(rng: np.random.Generator) -> Style:
    name = list(FACES)[int(rng.integers(len(FACES)))]
    face = np.array(FACES[name], np.float64) * rng.uniform(0.8, 1.1) + rng.normal(0, 12, 3)
    if rng.random() < 0.3:  # any other colour
        face = rng.uniform(0, 255, 3)
    lum = float(face @ [0.11, 0.59, 0.3])
    choices = ["white", "gold"] if lum < 110 else ["black", "red", "black", "white"]
    if lum > 200:
        choices = ["black", "black", "red"]
    pip = np.array(PIPS[choices[int(rng.integers(len(choices)))]], np.float64)
    if float(np.abs(pip - face).sum()) < 120:  # keep the pips visible
        pip = 255 - face
    return Style(
        face=np.clip(face, 0, 255), pip=pip,
        alpha=float(rng.uniform(0.45, 0.8)) if rng.random() < 0.2 else 1.0,
        marble=float(rng.uniform(0.1, 0.35)) if rng.random() < 0.2 else 0.0,
        corner=float(rng.uniform(0.08, 0.25)), spacing=float(rng.uniform(0.24, 0.3)),
        radius=float(rng.uniform(0.065, 0.115)), oval=float(rng.uniform(0.8, 1.0)),
        kind=str(rng.choice(["dot", "dot", "dot", "ring", "engraved"])),
        side_shade=float(rng.uniform(0.35, 0.8)))


def face_texture(value: int, st: Style, rng: np.random.Generator, turned: bool = False
                 ) -> tuple[Image, Image, list[tuple[float, float]]]:
    """The top face (FACE x FACE BGR floats), its rounded-square mask, and its pips'
    centres in face pixels."""
    img = np.ones((FACE, FACE, 3), np.float32) * st.face.astype(np.float32)
    if st.marble:
        field = cv2.resize(rng.uniform(-1, 1, (3, 3, 3)).astype(np.float32), (FACE, FACE),
                           interpolation=cv2.INTER_CUBIC)
        img = img * (1 + st.marble * field) + 40 * st.marble * field
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    # a light falling across the face
    yy, xx = (np.indices((FACE, FACE)) / FACE - 0.5).astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    img *= (1 + rng.uniform(0, 0.25) * (xx * np.cos(angle) + yy * np.sin(angle)))[..., None]
    centres = []
    mid = (FACE - 1) / 2
    tilt = rng.uniform(0, 180)
    for px, py in layout(value, turned):
        cx, cy = mid + px * st.spacing * FACE, mid + py * st.spacing * FACE
        centres.append((cx, cy))
        r = st.radius * FACE * rng.uniform(0.93, 1.07)
        axes = (round(r * 16), round(r * st.oval * 16))
        centre = (round(cx * 16), round(cy * 16))
        colour = tuple(float(c) for c in st.pip)
        if st.kind == "engraved":  # a shading edge: dark on one side, light on the other
            dx, dy = r * 0.18 * np.cos(np.radians(tilt)), r * 0.18 * np.sin(np.radians(tilt))
            dark = tuple(float(c) for c in st.face * 0.35)
            light = tuple(float(min(255, c * 1.3 + 30)) for c in st.face)
            for (ox, oy), col in (((dx, dy), dark), ((-dx, -dy), light)):
                cv2.ellipse(img, (round((cx + ox) * 16), round((cy + oy) * 16)), axes, tilt,
                            0, 360, col, -1, cv2.LINE_AA, 4)
        cv2.ellipse(img, centre, axes, tilt, 0, 360, colour, -1, cv2.LINE_AA, 4)
        if st.kind == "ring":  # a ring pip: the face colour inside
            inner = (round(axes[0] * 0.55), round(axes[1] * 0.55))
            cv2.ellipse(img, centre, inner, tilt, 0, 360,
                        tuple(float(c) for c in st.face), -1, cv2.LINE_AA, 4)
    mask = np.zeros((FACE, FACE), np.float32)
    rad = max(1, round(st.corner * FACE))
    cv2.rectangle(mask, (rad, 0), (FACE - 1 - rad, FACE - 1), 1.0, -1)
    cv2.rectangle(mask, (0, rad), (FACE - 1, FACE - 1 - rad), 1.0, -1)
    for cx, cy in ((rad, rad), (FACE - 1 - rad, rad), (rad, FACE - 1 - rad),
                   (FACE - 1 - rad, FACE - 1 - rad)):
        cv2.circle(mask, (cx, cy), rad, 1.0, -1, cv2.LINE_AA)
    return img, mask, centres


def _rotation(rng: np.random.Generator, max_tilt: float) -> Image:
    def rz(a: float) -> Image:
        return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])

    # most dice are seen nearly from above: tilts drawn towards the small ones
    tilt = np.radians(max_tilt * rng.random() ** 1.5)
    rx = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    out: Image = rz(rng.uniform(0, 2 * np.pi)) @ rx @ rz(rng.uniform(0, 2 * np.pi))
    return out


_CUBE = np.array([[x, y, z] for z in (0.5, -0.5) for x, y in
                  ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))])
_SIDES = [(0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]  # quads of _CUBE indices


def draw_die(canvas: Image, value: int, cx: float, cy: float, box: float,
             rng: np.random.Generator, st: Style | None = None, max_tilt: float = 35.0,
             shadow: bool = True) -> list[tuple[float, float]]:
    """A die drawn on ``canvas`` (BGR floats, changed in place) whose box (the mean of its
    outline's width and height, as the labels measure a die) is ``box`` pixels, centred at
    (cx, cy); returns its pips' centres on the canvas."""
    st = st or style(rng)
    rot = _rotation(rng, max_tilt)
    pts = _CUBE @ rot.T
    xy = pts[:, :2]
    # (orthographic; the box measured on the faces that show)
    span = xy.max(axis=0) - xy.min(axis=0)
    scale = box / float(span.mean())
    centre_now = (xy.max(axis=0) + xy.min(axis=0)) / 2
    xy = (xy - centre_now) * scale + [cx, cy]
    h, w = canvas.shape[:2]
    if shadow and rng.random() < 0.7:
        off = rng.normal(0, 0.12, 2) * box
        layer: Image = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(layer, np.round((xy[4:] + off) * 16).astype(np.int32), 1.0,
                           cv2.LINE_AA, 4)
        layer = cv2.GaussianBlur(layer, (0, 0), max(0.5, box * rng.uniform(0.04, 0.15)))
        canvas *= (1 - rng.uniform(0.2, 0.6) * layer)[..., None]
    # side faces whose outward normal points at the camera (z up), darker than the top
    normals = [np.mean(pts[list(q)], axis=0) for q in _SIDES]
    for quad, n in zip(_SIDES, normals, strict=True):
        if n[2] <= 1e-3:
            continue
        shade = st.side_shade * rng.uniform(0.85, 1.15)
        layer = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(layer, np.round(xy[list(quad)] * 16).astype(np.int32), 1.0,
                           cv2.LINE_AA, 4)
        a = (layer * st.alpha)[..., None]
        canvas[:] = canvas * (1 - a) + a * (st.face * shade).astype(np.float32)
    tex, mask, pips = face_texture(value, st, rng, turned=bool(rng.integers(2)))
    src = np.array([[0, 0], [FACE - 1, 0], [FACE - 1, FACE - 1], [0, FACE - 1]], np.float32)
    hom = cv2.getPerspectiveTransform(src, xy[:4].astype(np.float32))
    top: Image = cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, hom, (w, h), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.3:  # a highlight on the top face
        hx, hy = rng.uniform(0.2, 0.8, 2) * FACE
        spot: Image = np.zeros((FACE, FACE), np.float32)
        cv2.circle(spot, (round(hx), round(hy)), round(FACE * rng.uniform(0.05, 0.2)), 1.0, -1)
        spot = cv2.warpPerspective(cv2.GaussianBlur(spot, (0, 0), FACE * 0.05), hom, (w, h))
        top += (rng.uniform(40, 140) * spot)[..., None]
    cover = (alpha * st.alpha)[..., None]
    canvas[:] = canvas * (1 - cover) + cover * top
    out: Image = cv2.perspectiveTransform(np.array(pips, np.float32)[None], hom)[0]
    return [(float(x), float(y)) for x, y in out]


class Backgrounds:
    """Patches of real photos away from their labelled dice, at the crop's geometry (the
    recipe's crop function, at SUPER times the side), plus made-up textures."""

    def __init__(self, images: list[tuple[Image, Image]], rng: np.random.Generator,
                 count: int = 300) -> None:
        self.patches: list[Image] = []
        tries = 0
        while images and len(self.patches) < count and tries < count * 20:
            tries += 1
            image, boxes = images[int(rng.integers(len(images)))]
            h, w = image.shape[:2]
            size = rng.uniform(18, 60)  # a candidate size of the working image
            x, y = rng.uniform(size, w - size), rng.uniform(size, h - size)
            if len(boxes):
                centres = (boxes[:, :2] + boxes[:, 2:]) / 2
                sizes = (boxes[:, 2:] - boxes[:, :2]).mean(axis=1)
                if np.any(np.hypot(centres[:, 0] - x, centres[:, 1] - y)
                          < 0.75 * (1.5 * size) + 0.7 * sizes):
                    continue
            self.patches.append(crop(image, x, y, size, angle=rng.uniform(0, 360),
                                     side=CROP * SUPER))

    def draw(self, rng: np.random.Generator) -> Image:
        side = CROP * SUPER
        if self.patches and rng.random() < 0.6:
            out: Image = self.patches[int(rng.integers(len(self.patches)))].astype(np.float32)
        else:
            small = texture(rng, CROP).astype(np.float32)
            out = cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)
        out = out * rng.uniform(0.7, 1.2) + rng.uniform(-25, 25)
        return np.clip(out, 0, 255)


def _finish(canvas: Image, rng: np.random.Generator) -> Image:
    small = cv2.resize(np.clip(canvas, 0, 255).astype(np.float32), (CROP, CROP),
                       interpolation=cv2.INTER_AREA)
    if rng.random() < 0.3:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.4, 1.3))
    if rng.random() < 0.4:
        small = small + rng.normal(0, rng.uniform(1, 8), small.shape)
    out: Image = np.clip(np.round(small), 0, 255).astype(np.uint8)
    if rng.random() < DEGRADE:
        out = degrade(out, rng)
    return out


def _neighbours(canvas: Image, rng: np.random.Generator, box: float) -> None:
    """Dice beside the crop, partly inside it (drawn before the centre die)."""
    side = canvas.shape[0]
    for _ in range(int(rng.integers(1, 3))):
        angle = rng.uniform(0, 2 * np.pi)
        dist = box * rng.uniform(0.95, 1.3)
        draw_die(canvas, int(rng.integers(1, 7)), side / 2 + dist * np.cos(angle),
                 side / 2 + dist * np.sin(angle), box * rng.uniform(0.85, 1.15), rng)


def positive(rng: np.random.Generator, value: int, background: Image) -> Image:
    """A die of ``value`` at the crop's centre, at the recipe's geometry."""
    side = CROP * SUPER
    canvas = background.copy()
    # the labelled centres' crops: the box spans the crop, times the size jitter; the
    # candidates' crops: a candidate size off by up to the positive range (kept inside it)
    box = side / rng.uniform(0.88, 1.12) if rng.random() < 0.7 else side * rng.uniform(0.7, 1.4)
    if rng.random() < 0.25:
        _neighbours(canvas, rng, box)
    jitter = side / 1.5 * 0.08
    draw_die(canvas, value, side / 2 + rng.normal(0, jitter), side / 2 + rng.normal(0, jitter),
             box, rng)
    return _finish(canvas, rng)


def negative(rng: np.random.Generator, background: Image) -> Image:
    """Die-like but "none" by the recipe's rules (see the module's notes)."""
    side = CROP * SUPER
    canvas = background.copy()
    kind = int(rng.integers(4))
    box = side * rng.uniform(0.85, 1.15)
    angle = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.cos(angle), np.sin(angle)])
    if kind == 0:  # one die off centre by half its box or more
        at = side / 2 + direction * box * rng.uniform(0.5, 0.8)
        draw_die(canvas, int(rng.integers(1, 7)), at[0], at[1], box, rng)
    elif kind == 1:  # two half dice
        gap = box * rng.uniform(0.5, 0.6)
        for sign in (-1, 1):
            at = side / 2 + sign * direction * gap
            draw_die(canvas, int(rng.integers(1, 7)), at[0], at[1], box, rng)
    elif kind == 2:  # one pip of a die far too large for the crop (beyond UNDERSIZE)
        big = side * rng.uniform(2.0, 3.5)
        st, value, seed = style(rng), int(rng.integers(1, 7)), int(rng.integers(2**31))
        # drawn once aside to find its pips, then again (the same draw) with one near the
        # centre
        pips = draw_die(np.zeros((8, 8, 3), np.float32), value, 0.0, 0.0, big,
                        np.random.default_rng(seed), st, shadow=False)
        px, py = pips[int(rng.integers(len(pips)))]
        sx, sy = rng.normal(0, side * 0.05, 2)
        draw_die(canvas, value, side / 2 - px + sx, side / 2 - py + sy, big,
                 np.random.default_rng(seed), st, shadow=False)
    else:  # a blob of small dice (beyond OVERSIZE: too small for this candidate size)
        for _ in range(int(rng.integers(2, 5))):
            at = side / 2 + rng.normal(0, side * 0.18, 2)
            draw_die(canvas, int(rng.integers(1, 7)), at[0], at[1],
                     side * rng.uniform(0.3, 0.45), rng)
    return _finish(canvas, rng)


def rendered(count: int, rng: np.random.Generator, backgrounds: Backgrounds
             ) -> tuple[list[Image], list[int]]:
    """``count`` crops (BGR bytes, CROP x CROP) and labels (0 "none", 1..6): POSITIVE_SHARE
    dice of every value alike, the rest rendered "none"."""
    xs: list[Image] = []
    ys: list[int] = []
    for _ in range(count):
        background = backgrounds.draw(rng)
        if rng.random() < POSITIVE_SHARE:
            value = int(rng.integers(1, 7))
            xs.append(positive(rng, value, background))
            ys.append(value)
        else:
            xs.append(negative(rng, background))
            ys.append(0)
    return xs, ys
