"""The card finder's faster checked-cloth search (vision/card_cloth.py, _opened_cards): it looks
for places on a picture half as large and opens exactly at full size around each, and must
find the same cards as the plain opening of the whole outline at full size. Cards touching
side by side are found as two, and a back on a pale table is reported face down. Cards on a
checked cloth are found by the cloth's period (_unchecked_cards). An index joined to the
card's frame is found (find_index), and a card notched by a pip at its edge (_notched_card);
so is a card whose large pips break its paper on a pale table, and a card as white as a pale
table (_bordered_cards)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_art import art_scene, load_deck
from vision.card_cloth import OPENING, _opened_card, _opened_cards
from vision.card_finder import balance
from vision.card_shapes import WHITE_LEVELS, _Planes, _same
from vision.cards import INDEX_AREA, CardReader, _box_of, _ink, find_index
from vision.scenes import Scene, nearest_card


def _plain_opening(planes: _Planes, min_area: float) -> list[np.ndarray]:
    """The search as it was: the whole frame opened with the disc at every level."""
    everywhere = (slice(None), slice(None))
    blob = np.full(planes.image.shape[:2], 255, np.uint8)
    width = int(OPENING * np.sqrt(min_area)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    found: list[np.ndarray] = []
    for level in range(len(WHITE_LEVELS)):
        white = cv2.bitwise_and(planes.white(level, everywhere), blob)
        white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(white)
        cv2.drawContours(filled, [c for c in contours if cv2.contourArea(c) >= 0.5 * min_area],
                         -1, 255, -1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel)
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for part in parts:
            quad = _opened_card(part, opened, (0, 0), min_area, planes.image.shape)
            if quad is not None and _same(found, quad) is None:
                found.append(quad)
    return found


# validation scenes (never the held-out test seeds) on checked cloth and other tables
@pytest.mark.parametrize("seed,kind", [(6_100_000, "checked cloth"), (6_100_014, "checked cloth"),
                                       (6_100_027, "checked cloth"), (6_100_003, "pale cloth"),
                                       (6_100_005, "newspaper")])
def test_half_size_search_finds_what_the_full_opening_finds(seed: int, kind: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("anglo-poker")], kind=kind,
                      light="normal")
    image = balance(scene.image)
    planes = _Planes(image)
    min_area = CardReader.load().min_area_fraction * image.shape[0] * image.shape[1]
    everywhere = (slice(None), slice(None))
    blob = np.full(image.shape[:2], 255, np.uint8)
    fast = _opened_cards(planes, everywhere, blob, (0, 0), min_area, image.shape)
    plain = _plain_opening(planes, min_area)
    assert len(fast) == len(plain)
    assert plain  # each scene has a card the opening finds
    for quad in plain:
        same = _same(fast, quad)
        assert same is not None
        assert np.abs(fast[same] - quad).max() < 0.5


# Validation scenes (6,000,000 range; never the held-out test seeds) of two cards of the
# held-out design laid touching on felt, which the finder before issue 15's touching work
# found as one outline and refused (0 of 2 found in each)
@pytest.mark.parametrize("seed", [6_000_202, 6_000_203, 6_000_205, 6_000_207, 6_000_222])
def test_cards_touching_side_by_side_are_found_as_two(seed: int) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("neoclassical")], light="normal",
                      kind="felt", count=2, touching=1.0, hand=0.0)
    seen = CardReader.load().read(scene.image)
    found = {nearest_card(scene, np.array(c.corners).mean(axis=0)) for c in seen.cards}
    assert found == {0, 1}, seed
    assert not seen.refused


# Validation scenes with a card face down on a newspaper, a pale or a checked cloth: the
# finder before found no back there (it looked only for what is paler than the table)
@pytest.mark.parametrize("seed", [6_000_218, 6_000_234, 6_000_236, 6_000_291, 6_000_296])
def test_a_back_on_a_pale_table_is_reported_face_down(seed: int) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("neoclassical")], light="normal")
    seen = CardReader.load().read(scene.image)
    down = [nearest_card(scene, np.array(r.corners).mean(axis=0)) for r in seen.face_down]
    backs = [i for i, placed in enumerate(scene.cards) if placed.face_down]
    assert backs and all(i in down for i in backs), seed
    assert all(i in backs for i in down)  # no face-up card or table called a back
    read = [nearest_card(scene, np.array(c.corners).mean(axis=0)) for c in seen.cards]
    assert not set(read) & set(backs)  # and a back is never read


# Validation scenes on a checked cloth (never the held-out test seeds) where the finder
# before the period search (issue 15, 2026-11-27) found fewer face-up cards: 1, 0, 0, 1, 0
@pytest.mark.parametrize("seed,least", [(6_000_215, 2), (6_000_219, 2), (6_000_223, 2),
                                        (6_000_238, 2), (6_000_201, 1)])
def test_cards_on_a_checked_cloth_are_found_by_its_period(seed: int, least: int) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("neoclassical")], light="normal",
                      kind="checked cloth")
    seen = CardReader.load().read(scene.image)
    up = {i for i, placed in enumerate(scene.cards) if not placed.face_down}
    read = [nearest_card(scene, np.array(c.corners).mean(axis=0)) for c in seen.cards]
    assert all(i in up for i in read)  # nothing read where no face-up card lies
    assert len(set(read)) == len(read) >= least, (seed, read)
    down = [nearest_card(scene, np.array(r.corners).mean(axis=0)) for r in seen.face_down]
    assert all(i is not None and scene.cards[i].face_down for i in down)


def test_an_index_joined_to_the_cards_frame_is_found() -> None:
    """Bellot's index stands so near the card's edge that its frame (with the table beyond
    a quad fitted a little inside the card) joins the rank glyph into one shape along the
    area's edge: the index is found again with that line taken off. Validation scenes on
    felt: a rank at the top with a suit below in 39 of 46 corners (3 before)."""
    reader = CardReader.load()
    deck = [load_deck("bellot-svg-cards")]
    w, h = INDEX_AREA
    whole = corners = 0
    for seed in range(6_000_100, 6_000_110):
        scene = art_scene(np.random.default_rng(seed), deck, light="normal", kind="felt")
        quads, faces, *_ = reader.faces(scene.image)
        for quad, face in zip(quads, faces, strict=True):
            i = nearest_card(scene, quad.mean(axis=0))
            if i is None or scene.cards[i].face_down:
                continue
            for view in (face, face[::-1, ::-1]):
                ink, _ = _ink(np.ascontiguousarray(view[:h, :w]))
                rank, suit, _, stats = find_index(ink)
                corners += 1
                whole += bool(rank and suit and _box_of(stats, rank)[1] < 0.2 * h)
    assert corners >= 30
    assert whole >= 0.7 * corners, (whole, corners)


# Validation scenes of knoll-vector on felt where a large pip at the card's edge opened a
# notch in its outline, which the finder before refused as overlapping cards
@pytest.mark.parametrize(("seed", "card"), [(6_000_103, "QS"), (6_000_106, "9C"),
                                            (6_000_135, "10H"), (6_000_159, "JS")])
def test_a_card_notched_by_a_pip_at_its_edge_is_found(seed: int, card: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("knoll-vector")],
                      light="normal", kind="felt")
    i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
    quads, _, refused, _, _ = CardReader.load().faces(scene.image)
    assert i in {nearest_card(scene, q.mean(axis=0)) for q in quads}, seed
    x, y = np.array(scene.cards[i].corners).mean(axis=0)
    assert not any(min(p[0] for p in r.corners) <= x <= max(p[0] for p in r.corners)
                   and min(p[1] for p in r.corners) <= y <= max(p[1] for p in r.corners)
                   for r in refused), seed


def _found_once(seed: int, design: str, kind: str, card: str
                ) -> tuple[np.ndarray, np.ndarray]:
    """The one quad found at ``card`` in a validation scene (asserted one), and the card's
    own corners."""
    scene = art_scene(np.random.default_rng(seed), [load_deck(design)], light="normal",
                      kind=kind)
    i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
    quads, *_ = CardReader.load().faces(scene.image)
    near = [q for q in quads if nearest_card(scene, q.mean(axis=0)) == i]
    assert len(near) == 1, seed
    return near[0].astype(np.float32), np.array(scene.cards[i].corners, np.float32)


# Validation scenes of knoll-vector on pale tables where the card's large pips broke the
# paper's mask and the finder before did not find the card: on a checked cloth the paper
# between pips lands on pips half a period away on both sides; on a pale cloth pips at the
# edge notch the outline below the solidity asked (issue 15)
@pytest.mark.parametrize(("seed", "kind", "card"), [
    (6_000_201, "checked cloth", "7D"), (6_000_208, "checked cloth", "5C"),
    (6_000_209, "checked cloth", "8D"), (6_000_211, "checked cloth", "6S"),
    (6_000_216, "checked cloth", "8S"), (6_000_203, "pale cloth", "6C"),
    (6_000_206, "pale cloth", "10C")])
def test_a_card_with_large_pips_is_found_on_a_pale_table(seed: int, kind: str,
                                                         card: str) -> None:
    quad, placed = _found_once(seed, "knoll-vector", kind, card)
    # the card itself, not a piece of it or the table around it
    assert abs(cv2.contourArea(quad) / cv2.contourArea(placed) - 1) < 0.25


# Validation scenes of neoclassical on pale tables where the card lies where the table is
# as white as the card (its bright side clipped) and the finder before did not find it:
# the card's own edge closes it off (_bordered_cards; issue 15, 2026-11-27 evening)
@pytest.mark.parametrize(("seed", "kind", "card"), [
    (6_000_401, "pale cloth", "QS"), (6_000_406, "pale cloth", "AS"),
    (6_000_406, "pale cloth", "AD"), (6_000_410, "newspaper", "AD"),
    (6_000_418, "newspaper", "10D")])
def test_a_card_as_white_as_a_pale_table_is_found_by_its_edge(seed: int, kind: str,
                                                               card: str) -> None:
    quad, placed = _found_once(seed, "neoclassical", kind, card)
    assert abs(cv2.contourArea(quad) / cv2.contourArea(placed) - 1) < 0.1
    # each corner within a few pixels of the card's own
    assert max(min(float(np.linalg.norm(c - p)) for p in placed) for c in quad) < 8, seed

# Validation scenes of neoclassical with three cards in a row: the notches between the
# second and third lie in one concavity of the outline with the first's, and the piece of
# two cards left by the first cut has one card's shape: it was judged one card by its hull
# and the pieces were not alike, so the row was refused (issue 15, 2026-11-27 evening)
@pytest.mark.parametrize(("seed", "kind", "cards"), [
    (6_000_139, None, ("4C", "9C", "10D")), (6_000_421, "felt", ("JC", "2D", "QS")),
    (6_000_459, "wood", ("6D", "10H"))])
def test_three_cards_in_a_row_are_found_as_three(seed: int, kind: str | None,
                                                 cards: tuple[str, ...]) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("neoclassical")],
                      light="normal", kind=kind)
    quads, *_ = CardReader.load().faces(scene.image)
    hits = [nearest_card(scene, q.mean(axis=0)) for q in quads]
    for card in cards:
        i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
        assert hits.count(i) == 1, (seed, card)
        placed = np.array(scene.cards[i].corners, np.float32)
        quad = quads[hits.index(i)]
        assert max(min(float(np.linalg.norm(c - p)) for p in placed) for c in quad) < 8, seed


# Validation scenes of neoclassical on a checked cloth where the period's rectangle
# (_unchecked_cards) lay 15 to 44 pixels off the card and its two corners read differently:
# the card closed off by its own edge takes its place (issue 15, 2026-11-27 evening)
@pytest.mark.parametrize(("seed", "card"), [(6_000_004, "4H"), (6_000_009, "8H"),
                                            (6_000_014, "6C"), (6_000_036, "3H")])
def test_a_card_on_a_checked_cloth_is_fitted_to_its_edge(seed: int, card: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("neoclassical")],
                      light="normal")
    assert scene.background.startswith("checked cloth")
    _assert_found_within(scene, card, 6, seed)


# Validation scenes of knoll-vector on a newspaper, checked and pale cloth where the card's
# mask was joined by the table's white (a gutter) or bitten by its indices, so that judge
# found its sides several pixels off their lines and refused it: each side fitted again to
# the outline's own straight stretch (vision/card_refit.py; issue 15, 2026-11-28)
@pytest.mark.parametrize(("seed", "card"), [(6_000_134, "4S"), (6_000_009, "8H")])
def test_a_card_whose_side_the_table_bumps_is_found(seed: int, card: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("knoll-vector")],
                      light="normal")
    _assert_found_within(scene, card, 8, seed)


def _assert_found_within(scene: Scene, card: str, pixels: float, seed: int) -> None:
    """One outline found at the card, each of its corners within ``pixels`` of the card's."""
    i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
    quads, *_ = CardReader.load().faces(scene.image)
    near = [q for q in quads if nearest_card(scene, q.mean(axis=0)) == i]
    assert len(near) == 1, seed
    placed = np.array(scene.cards[i].corners, np.float32)
    assert max(min(float(np.linalg.norm(c - p)) for p in placed) for c in near[0]) < pixels, \
        seed


# Validation scenes of knoll-vector with two cards touching along their long sides, aligned:
# one outline with a card's own aspect, whose two index corners are the two cards'. It was
# read as one card (at 0.16 and 0.21); cut in two, each half is read (vision/card_pairs.py;
# issue 15, 2026-11-28)
@pytest.mark.parametrize(("seed", "cards"), [(6_000_080, ("5H", "8H")),
                                             (6_000_113, ("8C", "6C"))])
def test_two_cards_side_by_side_as_one_outline_are_read_as_two(
        seed: int, cards: tuple[str, ...]) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("knoll-vector")],
                      light="normal")
    seen = CardReader.load().read(scene.image)
    hits = [nearest_card(scene, np.array(c.corners).mean(axis=0)) for c in seen.cards]
    assert None not in hits, seed  # nothing read between them
    for card in cards:
        i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
        assert hits.count(i) == 1, (seed, card)
        assert str(seen.cards[hits.index(i)].card) == card, (seed, card)


# Validation scenes (6,300,000 range) of bellot's cards under a warm bulb (issue 15,
# 2026-11-28): the 2H on red felt, whose red index bites its outline's corners (refused
# as overlapping before: the refit is now tried off pale tables too), and the 9H whose
# paper was left pink where the camera had cut off the red (balance() took its gains from
# the clipped red). Neither was found before.
@pytest.mark.parametrize("seed,card", [(6_300_019, "2H"), (6_300_054, "9H")])
def test_a_card_in_warm_light_is_found(seed: int, card: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("bellot-svg-cards")],
                      light="warm")
    want = next(i for i, p in enumerate(scene.cards) if str(p.card) == card)
    seen = CardReader.load().read(scene.image)
    found = [nearest_card(scene, np.array(c.corners).mean(axis=0)) for c in seen.cards]
    assert want in found


def test_balance_ignores_a_channel_the_camera_clipped() -> None:
    # card paper under a warm bulb, brighter to the left: its red is cut off at 255 on the
    # brighter half; scaled to the clipped red, the dimmer half stayed pink (saturation
    # over the white mask's 70)
    image = np.zeros((200, 400, 3), np.uint8)
    light = np.linspace(1.3, 0.8, 400, dtype=np.float32)[None, :, None]
    paper = np.array([130, 190, 250], np.float32)  # B, G, R of white paper, warm light
    image[:] = np.clip(paper * light, 0, 255).astype(np.uint8)
    out = balance(image)
    hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
    assert hsv[..., 1].max() < 70  # white everywhere
    assert out[..., 2].min() >= image[..., 2].min()  # never darker
    # several channels clipped (a white light): left as it was
    white = np.zeros_like(image)
    white[:] = np.clip(np.array([240, 250, 250], np.float32) * light, 0, 255).astype(np.uint8)
    assert (balance(white) == white).all()


def _read_right(design: str, seed: int, card: str, light: str = "normal") -> bool:
    """Whether the reader reads ``card`` in validation scene ``seed``, once and rightly."""
    scene = art_scene(np.random.default_rng(seed), [load_deck(design)], light=light)
    i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
    seen = CardReader.load().read(scene.image)
    at = [c for c in seen.cards if nearest_card(scene, np.array(c.corners).mean(axis=0)) == i]
    return len(at) == 1 and str(at[0].card) == card


# Validation scenes (6,300,000 range) of knoll-vector's court cards on pale cloth (issue 15,
# 2026-11-28, later): the picture and indices cut the paper inside the card's edge into
# pieces, and the table's bright side runs over part of the margin, so no search found
# them; their edge is one closed line joined to the picture's edges (_edge_outlined_cards)
@pytest.mark.parametrize(("seed", "card"), [(6_300_003, "QC"), (6_300_053, "KD")])
def test_a_court_card_on_a_pale_table_is_found_by_its_edge_line(seed: int, card: str) -> None:
    assert _read_right("knoll-vector", seed, card), seed


# Validation scenes of neoclassical on a checked cloth whose white checks join the card's
# outline on every side (refused as overlapping before; the checks have the card's colour,
# so the colour edges' fan test refused the card): its own edge closes it off (card_lined)
@pytest.mark.parametrize(("seed", "card"), [(6_300_055, "7D"), (6_300_092, "10D"),
                                            (6_300_092, "3D")])
def test_a_card_joined_by_white_checks_is_closed_off_by_its_edge(seed: int, card: str) -> None:
    assert _read_right("neoclassical", seed, card), seed


# Validation scenes of knoll-vector on felt whose large black pips reach the card's edge:
# the white mask's outline is notched and refused, and the pips cut the paper into pieces;
# the card's edge line joined to the pips' edges closes it off whole (card_lined._outlined)
@pytest.mark.parametrize(("seed", "card"), [(6_300_004, "9C"), (6_300_030, "9C")])
def test_a_card_whose_pips_reach_its_edge_is_closed_off_by_its_edge_line(seed: int,
                                                                         card: str) -> None:
    assert _read_right("knoll-vector", seed, card), seed

