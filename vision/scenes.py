"""A reproducible generator of playing-card scenes for training and testing the card reader.

    scene = make_scene(np.random.default_rng(seed))     # Scene(image, cards=[PlacedCard...])

Card faces come in several designs (face colour, border, corner radius, index font from
OpenCV's Hershey set, index size and weight, four-colour deck); suits are drawn as polygons.
Scenes put one to four cards on a background (dark cloth, light wood, green felt) with
rotation, perspective, a lighting gradient, glare, blur and sensor noise. ``overlap=True``
makes fanned or overlapping hands instead, to check that the reader refuses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import FULL_DECK, RANKS, Card

Image = NDArray[Any]
CARD_W, CARD_H = 250, 350  # rendering size of a face (2.5 x 3.5 inches)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)
BACKGROUNDS = ("dark cloth", "light wood", "green felt")


@dataclass(frozen=True)
class Design:
    face: tuple[int, int, int]  # BGR
    border: tuple[int, int, int] | None
    radius: int
    font: int
    scale: float  # index text scale
    weight: int
    four_colour: bool

    @classmethod
    def random(cls, rng: np.random.Generator) -> Design:
        tint = rng.integers(225, 256)
        face = (int(tint - rng.integers(0, 20)), int(tint - rng.integers(0, 10)), int(tint))
        shade = rng.integers(0, 160, 3)
        border = None if rng.random() < 0.5 else (int(shade[0]), int(shade[1]), int(shade[2]))
        return cls(face, border, int(rng.integers(8, 22)), int(rng.choice(FONTS)),
                   float(rng.uniform(0.85, 1.15)), int(rng.integers(2, 4)),
                   bool(rng.random() < 0.15))


def suit_colour(suit: str, design: Design) -> tuple[int, int, int]:
    if design.four_colour:
        return {"S": (20, 20, 20), "H": (30, 30, 200), "D": (200, 80, 20),
                "C": (30, 140, 30)}[suit]
    return (30, 30, 200) if suit in "HD" else (20, 20, 20)


def draw_suit(img: Image, suit: str, cx: float, cy: float, size: float,
              colour: tuple[int, int, int]) -> None:
    """A suit symbol of height ``size`` centred at (cx, cy)."""
    s = size / 2

    def pt(x: float, y: float) -> tuple[int, int]:
        return int(round(cx + x * s)), int(round(cy + y * s))

    r = int(round(0.5 * s))
    if suit == "D":
        cv2.fillPoly(img, [np.array([pt(0, -1), pt(0.75, 0), pt(0, 1), pt(-0.75, 0)])], colour,
                     cv2.LINE_AA)
    elif suit == "H":
        cv2.circle(img, pt(-0.45, -0.35), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.45, -0.35), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([pt(-0.93, -0.15), pt(0.93, -0.15), pt(0, 1)])], colour,
                     cv2.LINE_AA)
    elif suit == "S":
        cv2.circle(img, pt(-0.45, 0.2), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.45, 0.2), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([pt(-0.93, 0.0), pt(0.93, 0.0), pt(0, -1)])], colour,
                     cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([pt(0, 0.3), pt(0.35, 1), pt(-0.35, 1)])], colour,
                     cv2.LINE_AA)
    else:  # clubs
        cv2.circle(img, pt(0, -0.5), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(-0.5, 0.15), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.5, 0.15), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([pt(0, 0.1), pt(0.35, 1), pt(-0.35, 1)])], colour,
                     cv2.LINE_AA)


def _index(img: Image, card: Card, design: Design) -> None:
    """Rank and suit in the top-left corner."""
    colour = suit_colour(card.suit, design)
    text = RANKS[card.rank - 1]
    height = 34 * design.scale
    base = cv2.getTextSize("A", design.font, 1.0, design.weight)[0][1]
    scale = height / base
    if text == "10":
        scale *= 0.8
    (tw, th), _ = cv2.getTextSize(text, design.font, scale, design.weight)
    cx = 26
    cv2.putText(img, text, (int(cx - tw / 2), int(12 + th)), design.font, scale, colour,
                design.weight, cv2.LINE_AA)
    draw_suit(img, card.suit, cx, 12 + th + 26 * design.scale, 26 * design.scale, colour)


def render_card(card: Card, design: Design, corner_only: bool = False) -> Image:
    """The face; ``corner_only`` skips the middle and the second index (training samples
    look only at the top-left corner)."""
    img = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    img[:] = design.face
    colour = suit_colour(card.suit, design)
    if design.border is not None:
        cv2.rectangle(img, (6, 6), (CARD_W - 7, CARD_H - 7), design.border, 2, cv2.LINE_AA)
    if corner_only:
        _index(img, card, design)
        return img
    if card.rank > 10:  # a court card: a framed picture stand-in
        cv2.rectangle(img, (60, 70), (CARD_W - 60, CARD_H - 70), colour, 2)
        letter = RANKS[card.rank - 1]
        (tw, th), _ = cv2.getTextSize(letter, design.font, 4.0, 6)
        cv2.putText(img, letter, ((CARD_W - tw) // 2, (CARD_H + th) // 2), design.font, 4.0,
                    colour, 6, cv2.LINE_AA)
    else:
        n = card.rank
        cols = 1 if n <= 3 else 2 if n <= 8 else 3
        rows = -(-n // cols)
        k = 0
        for r in range(rows):
            for c in range(cols):
                if k >= n:
                    break
                x = CARD_W / 2 + (c - (cols - 1) / 2) * 55
                y = CARD_H / 2 + (r - (rows - 1) / 2) * 55
                draw_suit(img, card.suit, x, y, 40 if n > 1 else 90, colour)
                k += 1
    _index(img, card, design)
    corner = img[:110, :60].copy()
    img[CARD_H - 110 :, CARD_W - 60 :] = np.rot90(corner, 2)
    return img


def card_mask(design: Design) -> NDArray[Any]:
    mask = np.zeros((CARD_H, CARD_W), np.uint8)
    r = design.radius
    cv2.rectangle(mask, (r, 0), (CARD_W - 1 - r, CARD_H - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (CARD_W - 1, CARD_H - 1 - r), 255, -1)
    for x, y in ((r, r), (CARD_W - 1 - r, r), (r, CARD_H - 1 - r), (CARD_W - 1 - r,
                                                                    CARD_H - 1 - r)):
        cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    return mask


def background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> Image:
    w, h = size
    coarse = rng.normal(0, 1, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    noise = cv2.resize(cv2.GaussianBlur(coarse, (0, 0), 1.5), (w, h))[..., None]
    fine = rng.normal(0, 1, (h, w, 1)).astype(np.float32)
    if kind == "dark cloth":
        base = np.array(rng.uniform(25, 60, 3), np.float32)
        out = base + 6 * noise + 4 * fine
    elif kind == "green felt":
        base = np.array([rng.uniform(30, 60), rng.uniform(100, 140), rng.uniform(20, 50)],
                        np.float32)
        out = base + 8 * noise + 6 * fine
    else:  # light wood: grain stripes
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, np.pi)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        grain = np.sin(u / rng.uniform(6, 14) + 3 * noise[..., 0]) [..., None]
        base = np.array([rng.uniform(110, 150), rng.uniform(160, 195), rng.uniform(195, 230)],
                        np.float32)
        out = base + 14 * grain + 4 * fine
    return np.clip(out, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class PlacedCard:
    card: Card
    corners: tuple[tuple[float, float], ...]  # image corners of the face: TL, TR, BR, BL
    hidden: bool = False  # partly covered by another card (overlapping scenes) or a hand
    face_down: bool = False  # its back is up (vision/card_art.py)


@dataclass(frozen=True)
class Scene:
    image: Image
    cards: tuple[PlacedCard, ...]
    background: str


def _place(canvas: Image, face: Image, mask: NDArray[Any],
           quad: NDArray[Any]) -> None:
    src = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]],
                   np.float32)
    h, w = canvas.shape[:2]
    m = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, m, (w, h)).astype(np.float32)[..., None] / 255
    blended = canvas.astype(np.float32) * (1 - alpha) + warped.astype(np.float32) * alpha
    canvas[:] = blended.astype(np.uint8)


def _quad(cx: float, cy: float, height: float, angle: float, tilt: float,
          rng: np.random.Generator) -> NDArray[Any]:
    w, h = height * CARD_W / CARD_H, height
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    # perspective: shrink the far edge (camera not straight above)
    pts[:2, 0] *= 1 - tilt
    pts += rng.normal(0, height * 0.01, pts.shape)
    c, s = np.cos(angle), np.sin(angle)
    rot = pts @ np.array([[c, s], [-s, c]])
    return (rot + [cx, cy]).astype(np.float32)


def _lighting(img: Image, rng: np.random.Generator) -> Image:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    gradient = 1 + 0.25 * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    out = img.astype(np.float32) * gradient[..., None]
    if rng.random() < 0.5:  # glare: a soft bright ellipse
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(30, 120, 2)
        glare = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        out += rng.uniform(40, 110) * glare[..., None]
    sigma = rng.uniform(0, 1.2)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += rng.normal(0, rng.uniform(1, 6), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def make_scene(rng: np.random.Generator, size: tuple[int, int] = (960, 540),
               count: int | None = None, overlap: bool = False,
               design: Design | None = None, cards: list[Card] | None = None) -> Scene:
    """A scene; ``design`` and ``cards`` fix the deck's look and the cards shown (the random
    draws are made all the same, so other seeds' scenes do not change)."""
    w, h = size
    kind = BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))]
    canvas = background(kind, size, rng)
    n = int(count or rng.integers(1, 5))
    drawn = [FULL_DECK[int(i)] for i in rng.choice(52, n, replace=False)]
    cards = drawn if cards is None else cards
    random_design = Design.random(rng)
    design = random_design if design is None else design
    mask = card_mask(design)
    height = rng.uniform(0.3, 0.45) * h
    placed: list[PlacedCard] = []
    centres: list[tuple[float, float]] = []
    if overlap:  # a fanned hand: each card turned a little and shifted by a fraction
        cx, cy = w / 2 + rng.uniform(-80, 80), h / 2 + rng.uniform(-40, 40)
        base = rng.uniform(-0.5, 0.5)
        n = max(n, 2)
        cards = [FULL_DECK[int(i)] for i in rng.choice(52, n, replace=False)]
        for i, card in enumerate(cards):
            angle = base + (i - (n - 1) / 2) * rng.uniform(0.12, 0.3)
            shift = (i - (n - 1) / 2) * height * rng.uniform(0.12, 0.3)
            quad = _quad(cx + shift, cy, height, angle, rng.uniform(0, 0.08), rng)
            _place(canvas, render_card(card, design), mask, quad)
            placed.append(PlacedCard(card, tuple(map(tuple, quad.tolist())), i < n - 1))
        return Scene(_lighting(canvas, rng), tuple(placed), kind)
    for card in cards:
        for _attempt in range(50):
            cx, cy = rng.uniform(height * 0.62, w - height * 0.62), rng.uniform(
                height * 0.62, h - height * 0.62)
            if all(np.hypot(cx - a, cy - b) > height * 1.3 for a, b in centres):
                break
        else:
            continue
        centres.append((cx, cy))
        quad = _quad(cx, cy, height, rng.uniform(-np.pi, np.pi), rng.uniform(0, 0.12), rng)
        _place(canvas, render_card(card, design), mask, quad)
        placed.append(PlacedCard(card, tuple(map(tuple, quad.tolist()))))
    return Scene(_lighting(canvas, rng), tuple(placed), kind)


def nearest_card(scene: Scene, centre: np.ndarray) -> int | None:
    """Index of the scene card whose centre is nearest (within a fifth of a card)."""
    best, index = 1e9, None
    for i, placed in enumerate(scene.cards):
        corners = np.array(placed.corners)
        dist = float(np.linalg.norm(corners.mean(axis=0) - centre))
        size = float(np.linalg.norm(corners[0] - corners[2]))
        if dist < 0.2 * size and dist < best:
            best, index = dist, i
    return index
