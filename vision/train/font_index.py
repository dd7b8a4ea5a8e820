"""Card index corners lettered in many real fonts, for training the card reader only.

Three real designs teach the networks three designs' lettering; a deck never seen then
reads its crossed 7 as 2 and its spades as clubs. Here the rank (A 2-10 J Q K) is set in
one of the fonts installed on the machine (serif, sans, condensed, bold, light, italic),
stretched, slanted and thickened at random, and the suit symbol under it is either a font's
suit character or a shape drawn from circles and polygons; both are inked in a black or a red
and laid on a training design's face whose own index has been painted out.

Needs Pillow (the ``train`` extra) and font packages; the reader itself needs neither.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import RANKS
from vision.cards import INDEX_AREA, _box_of, _ink, find_index

INSTALL = ("the card training renders index letters in real fonts: install Pillow "
           "(pip install 'pillow>=10', the train extra) and fonts, as root: apt-get install "
           "fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf "
           "fonts-urw-base35 fonts-crosextra-carlito fonts-crosextra-caladea")
FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
# symbol, dingbat and maths fonts have no plain letters
NOT_LETTERS = ("symbol", "dingbat", "d050000l", "math", "z003")
MIN_FONTS = 20
SUIT_CHARS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666"}
RENDER_PX = 96  # glyphs are set this large, then scaled down to an index's size

Image = NDArray[Any]


def _pil() -> Any:
    try:
        from PIL import Image as PilImage
        from PIL import ImageDraw, ImageFont
    except ImportError as err:  # pragma: no cover - depends on the machine
        raise SystemExit(INSTALL) from err
    return PilImage, ImageDraw, ImageFont


def _render(font: Any, text: str, stroke: int = 0) -> Image:
    """The text's ink (uint8, cut to its box) in a Pillow font."""
    pil_image, image_draw, _ = _pil()
    left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
    w, h = int(right - left) + 4, int(bottom - top) + 4
    canvas = pil_image.new("L", (max(w, 1), max(h, 1)), 0)
    image_draw.Draw(canvas).text((2 - left, 2 - top), text, font=font, fill=255,
                                 stroke_width=stroke, stroke_fill=255)
    ink = np.asarray(canvas, np.uint8)
    ys, xs = np.nonzero(ink > 40)
    if not len(xs):
        return np.zeros((0, 0), np.uint8)
    return np.ascontiguousarray(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


@cache
def fonts() -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """The installed fonts that set every rank letter (and those that also set the four suit
    characters), by path."""
    _, _, image_font = _pil()
    paths = sorted(p for d in FONT_DIRS if d.is_dir() for p in d.rglob("*")
                   if p.suffix.lower() in (".ttf", ".otf")
                   and not any(n in p.name.lower() for n in NOT_LETTERS))
    letters, suits = [], []
    for path in paths:
        try:
            font = image_font.truetype(str(path), RENDER_PX)
        except OSError:
            continue
        missing = _render(font, "\uffff")  # what the font draws for a character it lacks
        if all(_render(font, r).size and not _same(_render(font, r), missing) for r in RANKS):
            letters.append(path)
            if all(not _same(_render(font, c), missing) for c in SUIT_CHARS.values()):
                suits.append(path)
    if len(letters) < MIN_FONTS:
        raise SystemExit(f"only {len(letters)} fonts found under "
                         f"{', '.join(map(str, FONT_DIRS))}: {INSTALL}")
    return tuple(letters), tuple(suits)


def _same(a: Image, b: Image) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _suit_shape(suit: str, rng: np.random.Generator, size: int = RENDER_PX) -> Image:
    """A suit symbol drawn from circles and polygons, its proportions varied."""
    s = size
    ink = np.zeros((s, s), np.uint8)
    c = s // 2
    lobe = int(s * rng.uniform(0.2, 0.27))
    if suit == "D":
        waist = rng.uniform(0.28, 0.45) * s
        pts = np.array([[c, 0], [c + waist, c], [c, s - 1], [c - waist, c]], np.int32)
        cv2.fillPoly(ink, [pts], 255, cv2.LINE_AA)
        if rng.random() < 0.4:  # curved sides
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                cv2.circle(ink, (int(c + dx * waist * 1.1), int(c + dy * s * 0.55)),
                           int(s * 0.42), 0, -1, cv2.LINE_AA)
    elif suit in "HS":
        dy = int(s * rng.uniform(0.28, 0.36))
        for dx in (-1, 1):
            cv2.circle(ink, (c + dx * int(lobe * 0.95), dy), lobe, 255, -1, cv2.LINE_AA)
        tip = int(s * rng.uniform(0.82, 0.98)) if suit == "H" else int(s * 0.8)
        pts = np.array([[c - 2 * lobe + 1, dy + lobe // 3], [c + 2 * lobe - 1, dy + lobe // 3],
                        [c, tip]], np.int32)
        cv2.fillPoly(ink, [pts], 255, cv2.LINE_AA)
        if suit == "S":
            ink = np.ascontiguousarray(ink[::-1])  # a heart upside down
            ink[: s // 4] = 0  # and its tip left where the heart's dip was
            top = int(s * rng.uniform(0.0, 0.06))
            pts = np.array([[c, top], [c - 2 * lobe + 2, s - 1 - dy - lobe // 3 - 2],
                            [c + 2 * lobe - 2, s - 1 - dy - lobe // 3 - 2]], np.int32)
            cv2.fillPoly(ink, [pts], 255, cv2.LINE_AA)
    else:  # club: three round leaves
        r = int(s * rng.uniform(0.18, 0.23))
        cv2.circle(ink, (c, r + 2), r, 255, -1, cv2.LINE_AA)
        low = int(s * rng.uniform(0.48, 0.56))
        for dx in (-1, 1):
            cv2.circle(ink, (c + dx * int(r * 1.15), low), r, 255, -1, cv2.LINE_AA)
        cv2.circle(ink, (c, int(low * 0.85)), int(r * 0.6), 255, -1, cv2.LINE_AA)
    if suit in "SC":  # the stem, flared at its foot
        foot = int(s * rng.uniform(0.14, 0.25))
        pts = np.array([[c - 2, int(s * 0.55)], [c + 2, int(s * 0.55)], [c + foot, s - 1],
                        [c - foot, s - 1]], np.int32)
        cv2.fillPoly(ink, [pts], 255, cv2.LINE_AA)
    ys, xs = np.nonzero(ink > 40)
    return np.ascontiguousarray(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _cross_seven(ink: Image, rng: np.random.Generator) -> Image:
    """A 7 with a bar across its stem, as continental lettering draws it."""
    h, w = ink.shape
    out = ink.copy()
    y = int(h * rng.uniform(0.45, 0.6))
    t = max(2, int(h * rng.uniform(0.06, 0.1)))
    row = np.nonzero(ink[y] > 100)[0]
    centre = int(row.mean()) if len(row) else w // 2
    half = int(w * rng.uniform(0.25, 0.4))
    out[y - t // 2:y - t // 2 + t, max(0, centre - half):min(w, centre + half)] = 255
    return out


def _shaped(ink: Image, height: float, stretch: float, slant: float) -> Image:
    """The glyph scaled to ``height`` pixels, ``stretch`` times as wide, slanted."""
    h, w = ink.shape
    scale = height / h
    nw, nh = max(2, round(w * scale * stretch)), max(2, round(height))
    small = cv2.resize(ink, (nw, nh), interpolation=cv2.INTER_AREA)
    if abs(slant) > 0.01:
        pad = int(abs(slant) * nh) + 2
        m = np.array([[1, -slant, pad + (slant * nh if slant > 0 else 0)], [0, 1, 0]],
                     np.float32)
        small = cv2.warpAffine(small, m, (nw + 2 * pad, nh))
        ys, xs = np.nonzero(small > 20)
        small = small[:, xs.min():xs.max() + 1] if len(xs) else small
    out: Image = small
    return out


def paint_out_index(face: Image) -> Image:
    """The face (BGR) with its own index (as the reader finds it) painted its paper's
    colour: border lines and pictures stay."""
    w, h = INDEX_AREA
    out = face.copy()
    ink, _ = _ink(out[:h, :w])
    rank, suit, _, stats = find_index(ink)
    paper = np.percentile(out[:h, :w].reshape(-1, 3), 85, axis=0)
    for picked in (rank, suit):
        if picked:
            x0, y0, x1, y1 = _box_of(stats, picked)
            out[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2] = paper
    return out


def font_index_face(base: Image, card: str, rng: np.random.Generator,
                    narrowest: float = 0.7) -> Image:
    """``base`` (an upright BGR face, its own index painted out) with ``card``'s index set
    in a random font at its top-left corner, from ``narrowest`` to 1.35 times its width."""
    from PIL import ImageFont

    letters, suit_fonts = fonts()
    rank, suit = card[:-1], card[-1]
    path = letters[int(rng.integers(len(letters)))]
    font = ImageFont.truetype(str(path), RENDER_PX)
    bold = int(rng.integers(0, 4)) if rng.random() < 0.35 else 0
    glyph = _render(font, rank, bold)
    if rank == "7" and rng.random() < 0.3:
        glyph = _cross_seven(glyph, rng)
    if rank == "10" and rng.random() < 0.4:  # the 1 and the 0 set closer or apart
        one, zero = _render(font, "1", bold), _render(font, "0", bold)
        gap = int(rng.integers(-2, 14))
        hh = max(one.shape[0], zero.shape[0])
        glyph = np.zeros((hh, one.shape[1] + zero.shape[1] + max(gap, 0)), np.uint8)
        glyph[hh - one.shape[0]:, : one.shape[1]] = one
        glyph[hh - zero.shape[0]:, -zero.shape[1]:] = np.maximum(
            glyph[hh - zero.shape[0]:, -zero.shape[1]:], zero)
    if suit_fonts and rng.random() < 0.5:
        spath = suit_fonts[int(rng.integers(len(suit_fonts)))]
        symbol = _render(ImageFont.truetype(str(spath), RENDER_PX), SUIT_CHARS[suit])
    else:
        symbol = _suit_shape(suit, rng)
    height = rng.uniform(13, 30)
    stretch = rng.uniform(narrowest, 1.35)
    slant = rng.uniform(-0.05, 0.22) if rng.random() < 0.3 else 0.0
    glyph = _shaped(glyph, height, stretch, slant)
    s_height = height * rng.uniform(0.5, 0.95)
    symbol = _shaped(symbol, s_height, rng.uniform(0.8, 1.2), 0.0)
    x0, y0 = int(rng.integers(3, 15)), int(rng.integers(3, 18))
    gap = int(rng.integers(1, 7))
    cx = x0 + glyph.shape[1] / 2 + rng.uniform(-2, 2)
    sx, sy = int(round(cx - symbol.shape[1] / 2)), y0 + glyph.shape[0] + gap
    w, h = INDEX_AREA
    alpha = np.zeros((h, w), np.float32)
    out = base.astype(np.float32)
    paper = np.percentile(out[:h, :w].reshape(-1, 3), 85, axis=0)
    for ink, (x, y) in ((glyph, (x0, y0)), (symbol, (max(1, sx), sy))):
        ih, iw = min(ink.shape[0], h - 2 - y), min(ink.shape[1], w - 2 - x)
        if ih > 0 and iw > 0:
            # a design keeps its index on bare paper, clear of its pictures
            out[max(0, y - 2):y + ih + 2, max(0, x - 2):x + iw + 2] = paper
            alpha[y:y + ih, x:x + iw] = np.maximum(alpha[y:y + ih, x:x + iw],
                                                    ink[:ih, :iw] / 255.0)
    if suit in "HD":
        colour = np.array([rng.uniform(0, 70), rng.uniform(0, 60), rng.uniform(150, 235)])
    else:
        colour = np.full(3, rng.uniform(0, 60)) + rng.uniform(-8, 8, 3)
    out[:h, :w] = out[:h, :w] * (1 - alpha[..., None]) + np.clip(colour, 0, 255) * alpha[
        ..., None]
    face: Image = np.clip(out, 0, 255).astype(np.uint8)
    return face
