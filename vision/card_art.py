"""Scenes of real card designs on real-looking tables, for training and measuring the card reader.

    deck = load_deck("neoclassical")                  # faces and back of one real design
    scene = art_scene(np.random.default_rng(seed), [deck], light="warm")

The faces are the six open-licence deck designs in tests/data/card-art (see its README and
docs/vision.md for sources and licences), not generated glyphs. A scene lays one to five
cards, some touching, some face down, on a table texture (wood, felt, woven cloth, pale cloth,
checked cloth, newspaper), seen through a tilted camera (one homography for the whole table),
under a light (normal, warm tungsten, cool, dim, warm and dim) that the camera's auto white
balance corrects in part, with a lighting gradient, soft shadows, sometimes a hand reaching
in, defocus, sensor noise and JPEG. Cards touched by the hand or cut by the picture's edge
are marked hidden (the reader may refuse them; it must not read them wrongly).

These are rendered scenes of real card art, not camera photos of real cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import FULL_DECK, Card
from vision.scenes import PlacedCard, Scene

Image = NDArray[Any]
ART_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "card-art"
# English-index designs the reader is trained on; the others are never trained on
TRAIN_DESIGNS = ("knoll-vector", "bellot-svg-cards", "anglo-poker")
HELD_OUT_DESIGNS = ("neoclassical",)  # English index, measured only
OTHER_INDEX_DESIGNS = ("paris-french-index", "atlas-german-index")  # read after calibrate
TABLES = ("wood", "felt", "cloth", "pale cloth", "checked cloth", "newspaper")
LIGHTS = ("normal", "warm", "cool", "dim", "warm dim")
# per light: BGR gains of the light falling on the table and its overall brightness
LIGHT_GAINS = {"normal": ((1.0, 1.0, 1.0), 1.0), "warm": ((0.52, 0.78, 1.0), 0.95),
               "cool": ((1.0, 0.95, 0.82), 1.0), "dim": ((1.0, 1.0, 1.0), 0.45),
               "warm dim": ((0.55, 0.8, 1.0), 0.5)}


@dataclass(frozen=True)
class Deck:
    name: str
    faces: dict[str, Image]  # card name -> BGRA face
    back: Image | None


@cache
def load_deck(name: str, art_dir: Path = ART_DIR) -> Deck:
    folder = art_dir / name
    if not folder.is_dir():
        raise FileNotFoundError(f"no card art at {folder}: run from a clone of the repository")
    faces = {}
    for card in FULL_DECK:
        image = cv2.imread(str(folder / f"{card}.png"), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3 or image.shape[2] != 4:
            raise FileNotFoundError(f"{folder / f'{card}.png'} is missing or has no alpha")
        faces[str(card)] = image
    back = None
    if (folder / "back.png").is_file():
        back = cv2.imread(str(folder / "back.png"), cv2.IMREAD_UNCHANGED)
    return Deck(name, faces, back if back is not None and back.ndim == 3 else None)


def _noise(size: tuple[int, int], scale: float, rng: np.random.Generator) -> Image:
    """Smooth noise (float32, about unit spread) with features ``scale`` pixels across."""
    w, h = size
    cw, ch = max(2, int(w / scale) + 2), max(2, int(h / scale) + 2)
    coarse = rng.normal(0, 1, (ch, cw)).astype(np.float32)
    out: Image = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    return out


def table(kind: str, size: tuple[int, int], rng: np.random.Generator) -> Image:
    """A table texture (BGR uint8) of the given kind."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind == "wood":
        angle = rng.uniform(0, np.pi)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        warp = 6 * _noise(size, 60, rng)
        rings = np.sin((u + warp * 4) / rng.uniform(4, 12) + 0.02 * v) * 0.5 + 0.5
        planks = (np.floor(u / rng.uniform(120, 260)) % 2) * rng.uniform(-12, 12)
        dark = rng.uniform(0.35, 1.0)  # dark walnut to pale pine
        base = np.array([60, 110, 165], np.float32) * dark + rng.normal(0, 8, 3)
        out = base + (22 * rings + planks + 3 * fine)[..., None] * [0.6, 0.8, 1.0]
    elif kind == "felt":
        colours = ([40, 110, 30], [110, 60, 25], [40, 40, 140], [70, 70, 70], [20, 20, 20])
        base = np.array(colours[int(rng.integers(len(colours)))], np.float32) + rng.normal(
            0, 10, 3)
        out = base + (6 * _noise(size, 30, rng) + 7 * fine)[..., None]
    elif kind in ("cloth", "pale cloth"):
        period = rng.uniform(2.5, 5)
        weave = np.sin(xx * np.pi / period) * np.sin(yy * np.pi / period)
        if kind == "pale cloth":  # linen, a white tablecloth: nearly as pale as a card
            base = np.array(rng.uniform(185, 225, 3), np.float32)
            base[1:] += rng.uniform(0, 12)
        else:
            base = np.array(rng.uniform(30, 180, 3), np.float32)
        out = base + (8 * weave + 6 * _noise(size, 40, rng) + 4 * fine)[..., None]
    elif kind == "checked cloth":  # gingham: white and a colour
        cell = rng.uniform(12, 40)
        a = (np.floor(xx / cell) % 2).astype(np.float32)
        b = (np.floor(yy / cell) % 2).astype(np.float32)
        colour = np.array(rng.uniform(30, 200, 3), np.float32)
        white = np.array(rng.uniform(215, 245, 3), np.float32)
        share = ((a + b) / 2)[..., None]
        out = white * (1 - share) + colour * share + (5 * fine)[..., None]
    else:  # newspaper: pale grey paper, columns of text lines, a picture block
        paper = rng.uniform(185, 220)
        out = np.zeros((h, w, 3), np.float32) + [paper - 6, paper - 2, paper]
        ink = np.zeros((h, w), np.uint8)
        col_w = int(rng.uniform(140, 220))
        line_h = int(rng.uniform(7, 12))
        for x0 in range(int(rng.uniform(-30, 0)), w, col_w + 14):
            for y0 in range(int(rng.uniform(-10, 0)), h, line_h):
                x = x0
                while x < x0 + col_w:
                    word = int(rng.uniform(8, 40))
                    cv2.rectangle(ink, (x, y0 + 1), (min(x + word, x0 + col_w), y0 + line_h - 4),
                                  255, -1)
                    x += word + int(rng.uniform(3, 7))
        if rng.random() < 0.6:
            px, py = int(rng.uniform(0, w - 200)), int(rng.uniform(0, h - 150))
            ink[py:py + 150, px:px + 200] = np.clip(
                128 + 90 * _noise((200, 150), 25, rng), 0, 255).astype(np.uint8)
        out -= (ink.astype(np.float32) / 255 * rng.uniform(90, 150))[..., None]
        out += (4 * fine)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def random_back(rng: np.random.Generator, size: tuple[int, int] = (200, 280)) -> Image:
    """A made-up card back (BGRA): a white or coloured margin round a lattice, dots, stripes
    or a mottled print in one or two colours, so that the reader learns backs in general,
    not the few of the real designs."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ink = np.array(rng.uniform(20, 200, 3), np.float32)
    ground = np.array(rng.uniform(180, 250, 3) if rng.random() < 0.6 else rng.uniform(
        20, 200, 3), np.float32)
    kind = int(rng.integers(4))
    period = rng.uniform(6, 18)
    if kind == 0:  # lattice
        a = np.abs(np.sin((xx + yy) * np.pi / period))
        b = np.abs(np.sin((xx - yy) * np.pi / period))
        share = np.minimum(a, b) < rng.uniform(0.2, 0.6)
    elif kind == 1:  # dots
        share = (np.sin(xx * np.pi / period) * np.sin(yy * np.pi / period)) > rng.uniform(0, 0.6)
    elif kind == 2:  # stripes
        angle = rng.uniform(0, np.pi)
        share = np.sin((xx * np.cos(angle) + yy * np.sin(angle)) * np.pi / period) > 0
    else:  # mottled print
        share = _noise((w, h), period, rng) > 0
    out = np.where(share[..., None], ink, ground)
    margin = int(rng.uniform(0, 16))
    if margin:
        frame = np.array(rng.uniform(200, 255, 3) if rng.random() < 0.7 else ink, np.float32)
        out[:margin], out[-margin:], out[:, :margin], out[:, -margin:] = (frame,) * 4
    alpha = np.zeros((h, w), np.uint8)
    r = int(rng.uniform(6, 16))
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    back: Image = np.dstack([np.clip(out, 0, 255).astype(np.uint8), alpha])
    return back


def card_quad(cx: float, cy: float, height: float, aspect: float, angle: float) -> Image:
    w = height * aspect
    pts = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2],
                    [-w / 2, height / 2]], np.float32)
    c, s = np.cos(angle), np.sin(angle)
    out: Image = (pts @ np.array([[c, s], [-s, c]], np.float32) + [cx, cy]).astype(np.float32)
    return out


def paste(canvas: Image, art: Image, quad: Image) -> Image:
    """Draw a BGRA picture onto the canvas at ``quad``; returns its coverage (float32, 0..1)."""
    h, w = canvas.shape[:2]
    ah, aw = art.shape[:2]
    src = np.array([[0, 0], [aw - 1, 0], [aw - 1, ah - 1], [0, ah - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(art, m, (w, h), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:].astype(np.float32) / 255
    canvas[:] = canvas * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    out: Image = alpha[..., 0]
    return out


def shadow(canvas: Image, quad: Image, offset: Image, blur: float, depth: float) -> None:
    h, w = canvas.shape[:2]
    mask: Image = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, np.round(quad + offset).astype(np.int32), 1.0)
    soft: Image = cv2.GaussianBlur(mask, (0, 0), blur)
    canvas *= (1 - depth * soft)[..., None]


def _hand(canvas: Image, rng: np.random.Generator) -> Image:
    """A hand reaching in from one edge (palm and fingers in a skin tone), with its soft
    shadow; returns its mask (uint8)."""
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    side = int(rng.integers(4))
    t = rng.uniform(0.2, 0.8)
    reach = rng.uniform(0.12, 0.3) * min(w, h)
    start, inward = {0: ((t * w, -20.0), (0.0, 1.0)), 1: ((w + 20.0, t * h), (-1.0, 0.0)),
                     2: ((t * w, h + 20.0), (0.0, -1.0)), 3: ((-20.0, t * h), (1.0, 0.0))}[side]
    ux, uy = inward
    turn = rng.uniform(-0.5, 0.5)
    ux, uy = ux * np.cos(turn) - uy * np.sin(turn), ux * np.sin(turn) + uy * np.cos(turn)
    palm = (start[0] + ux * reach, start[1] + uy * reach)
    size = rng.uniform(0.07, 0.11) * min(w, h) * 1.6
    cv2.line(mask, (int(start[0]), int(start[1])), (int(palm[0]), int(palm[1])), 255,
             int(size * 1.1))
    cv2.circle(mask, (int(palm[0]), int(palm[1])), int(size * 0.75), 255, -1)
    for k in range(4):
        spread = (k - 1.5) * 0.28
        fx = ux * np.cos(spread) - uy * np.sin(spread)
        fy = ux * np.sin(spread) + uy * np.cos(spread)
        length = size * rng.uniform(0.9, 1.4)
        tip = (palm[0] + fx * (size * 0.5 + length), palm[1] + fy * (size * 0.5 + length))
        cv2.line(mask, (int(palm[0]), int(palm[1])), (int(tip[0]), int(tip[1])), 255,
                 max(3, int(size * 0.22)))
    shadow = cv2.GaussianBlur(np.roll(mask, (12, 18), axis=(0, 1)).astype(np.float32) / 255,
                              (0, 0), 12)
    canvas *= (1 - 0.35 * shadow)[..., None]
    skin = np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 235)],
                    np.float32)
    shade = (0.85 + 0.15 * _noise((w, h), 30, rng))[..., None]
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 1.2)[..., None]
    canvas[:] = canvas * (1 - soft) + skin * shade * soft
    return mask


def light_up(image: Image, light: str, rng: np.random.Generator,
             white_balance: float | None = None) -> Image:
    """The table under a light, with a gradient, as a camera with auto white balance (which
    corrects ``white_balance`` of the colour cast: 0 none, 1 all) and auto exposure sees it.
    Takes and returns float32."""
    h, w = image.shape[:2]
    gains, level = LIGHT_GAINS[light]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    gradient = 1 + 0.3 * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    out = image * gradient[..., None] * np.array(gains, np.float32) * level
    if white_balance is None:
        white_balance = float(rng.uniform(0, 0.7))
    if white_balance > 0:  # grey world, in part (a camera's AWB rarely corrects a bulb fully)
        mean = out.reshape(-1, 3).mean(axis=0) + 1e-3
        correction = (mean.mean() / mean) ** white_balance
        out = out * correction * (level * 255 * 0.5 / max(float(out.mean()), 1.0)) ** (
            0.3 * white_balance)
    return out


def camera(image: Image, rng: np.random.Generator) -> Image:
    """Defocus or motion blur, sensor noise and JPEG compression; float32 in, uint8 out."""
    sigma = rng.uniform(0, 1.4)
    if sigma > 0.35:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.15:
        k = int(rng.integers(3, 7))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        image = cv2.filter2D(image, -1, cv2.warpAffine(kernel, m, (k, k)))
    shot = np.sqrt(np.maximum(image, 0)) * rng.uniform(0.1, 0.35)
    image = image + rng.normal(0, 1, image.shape).astype(np.float32) * (shot + rng.uniform(
        0.5, 3))
    out: Image = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 92))
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else np.asarray(decoded, np.uint8)


def art_scene(rng: np.random.Generator, decks: list[Deck], size: tuple[int, int] = (960, 540),
              count: int | None = None, light: str | None = None, kind: str | None = None,
              cards: list[Card] | None = None, face_down: float = 0.12, hand: float = 0.15,
              touching: float = 0.3) -> Scene:
    """A scene of real card faces. ``light`` and ``kind`` (the table) are drawn at random
    when not given; ``cards`` fixes the cards shown (face up)."""
    w, h = size
    kind = kind or TABLES[int(rng.integers(len(TABLES)))]
    light = light or LIGHTS[int(rng.integers(len(LIGHTS)))]
    deck = decks[int(rng.integers(len(decks)))]
    canvas = table(kind, size, rng).astype(np.float32)
    n = len(cards) if cards is not None else int(count or rng.integers(1, 6))
    chosen = cards or [FULL_DECK[int(i)] for i in rng.choice(52, n, replace=False)]
    height = rng.uniform(0.3, 0.42) * h
    any_face = next(iter(deck.faces.values()))
    aspect = any_face.shape[1] / any_face.shape[0]
    placed: list[tuple[Card, Image, bool]] = []
    quads: list[Image] = []
    for card in chosen:
        down = cards is None and rng.random() < face_down
        quad = None
        if quads and rng.random() < touching:
            # beside the previous card, turned alike, 0 to 4 pixels apart
            prev = quads[-1]
            across = prev[1] - prev[0]
            along = prev[3] - prev[0]
            gap = rng.uniform(0, 4) / np.linalg.norm(across)
            shift = (1 + gap) * across * rng.choice([-1, 1]) + along * rng.uniform(-0.15, 0.15)
            quad = (prev + shift).astype(np.float32)
            if not (quad.min() > 10 and (quad[:, 0] < w - 10).all() and (quad[:, 1] < h - 10).all()
                    and all(_apart(quad, q, 0.9) for q in quads[:-1])):
                quad = None
        for _attempt in range(40):
            if quad is not None:
                break
            cx, cy = rng.uniform(height * 0.55, w - height * 0.55), rng.uniform(
                height * 0.55, h - height * 0.55)
            candidate = card_quad(cx, cy, height, aspect, rng.uniform(-np.pi, np.pi))
            if all(_apart(candidate, q, 1.2) for q in quads):
                quad = candidate
        if quad is None:
            continue
        quads.append(quad)
        placed.append((card, quad, down))
    for card, quad, down in placed:
        art = deck.faces[str(card)]
        if down:  # a design without a back (knoll-vector) gets another design's
            back = deck.back if deck.back is not None else load_deck(OTHER_INDEX_DESIGNS[0]).back
            art = art if back is None else back
        shadow(canvas, quad, np.array([2.0, 3.0], np.float32), 3, 0.25)
        paste(canvas, art, quad)
    covered = _hand(canvas, rng) if rng.random() < hand else None
    # the camera is not straight above: one homography for the whole table
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    tilt = rng.uniform(0, 0.12)
    dst = src + rng.normal(0, 0.02, src.shape).astype(np.float32) * [w, h]
    dst[0, 0] += tilt * w / 2
    dst[1, 0] -= tilt * w / 2
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    seen_table: Image = cv2.warpPerspective(canvas, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    image = camera(light_up(seen_table, light, rng), rng)
    out: list[PlacedCard] = []
    for card, quad, down in placed:
        seen = cv2.perspectiveTransform(quad[None], m)[0]
        # a card the tilt pushed over the picture's edge is cut: the reader refuses it
        hidden = bool(seen.min() < 3 or (seen[:, 0] > w - 4).any() or (seen[:, 1] > h - 4).any())
        if covered is not None:
            one = np.zeros(covered.shape, np.uint8)
            cv2.fillConvexPoly(one, np.round(quad).astype(np.int32), 255)
            hidden = hidden or cv2.countNonZero(cv2.bitwise_and(one, covered)) > 0
        out.append(PlacedCard(card, tuple(map(tuple, seen.tolist())), hidden, down))
    return Scene(image, tuple(out), f"{kind}, {light}, {deck.name}")


def _apart(a: Image, b: Image, factor: float) -> bool:
    """Whether two card quads' centres are at least ``factor`` card heights apart."""
    size = float(np.linalg.norm(a[0] - a[3]))
    return bool(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) > factor * size)
