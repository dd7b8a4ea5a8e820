"""The card reader on held-out generated scenes; overlapping and fanned cards are refused."""

from __future__ import annotations

import numpy as np
import pytest

from companion.observations import CardSeen, DeviceError
from vision.cards import CardReader, Refused, SeenCard, SeenCards
from vision.scenes import make_scene, nearest_card
from vision.source import CardWatcher
from vision.train.train_cards import TEST_SEED, score

# A floor against regressions, not a figure to tune on: the reader's choices are made on the
# validation scenes (VAL_SEED); on these 40 held-out scenes it read 92 of 92 cards, on 200
# held-out scenes 453 of 455, on 400 fresh ones from 2,000,000 881 of 884 (see docs/vision.md).
# The target is 0.995 per card.
HELD_OUT_FLOOR = 0.97


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.load()


def test_generator_is_reproducible() -> None:
    a = make_scene(np.random.default_rng(42))
    b = make_scene(np.random.default_rng(42))
    assert np.array_equal(a.image, b.image)
    assert a.cards == b.cards
    c = make_scene(np.random.default_rng(43))
    assert not np.array_equal(a.image, c.image)


def test_generator_covers_the_backgrounds() -> None:
    kinds = {make_scene(np.random.default_rng(s), size=(320, 180)).background
             for s in range(30)}
    assert kinds == {"dark cloth", "light wood", "green felt"}


def test_accuracy_on_held_out_scenes(reader: CardReader) -> None:
    result = score(reader, range(TEST_SEED, TEST_SEED + 40))
    print(result.summary(), result.failures[:10])
    assert result.cards > 80
    assert result.accuracy >= HELD_OUT_FLOOR, result.summary()


def test_overlapping_and_fanned_cards_are_not_misreported(reader: CardReader) -> None:
    refused = reported = 0
    for seed in range(TEST_SEED, TEST_SEED + 25):
        scene = make_scene(np.random.default_rng(seed), overlap=True)
        seen = reader.read(scene.image)
        refused += len(seen.refused)
        for card in seen.cards:
            # anything reported must be a card lying there in full (the top of the fan),
            # read right, or else reported with a confidence low enough to be asked about
            i = nearest_card(scene, np.array(card.corners).mean(axis=0))
            assert i is not None, (seed, card)
            assert not scene.cards[i].hidden, (seed, card)
            assert scene.cards[i].card == card.card or card.confidence < 0.9, (seed, card)
            reported += 1
    assert refused >= 20  # nearly every hand is refused with a reason


def test_blank_table_has_no_cards(reader: CardReader) -> None:
    table = make_scene(np.random.default_rng(1), count=1).image.copy()
    table[:] = (40, 120, 40)
    seen = reader.read(table)
    assert seen.cards == [] and seen.refused == []


def test_reader_refuses_what_is_not_a_colour_image(reader: CardReader) -> None:
    with pytest.raises(ValueError, match="colour image"):
        reader.read(np.zeros((100, 100), np.uint8))


def _seen(*names: str, refused: bool = False) -> SeenCards:
    from companion.cards import Card

    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    return SeenCards([SeenCard(Card.parse(n), square, 0.97) for n in names],
                     [Refused(square, "cards overlap or are fanned: spread them out")]
                     if refused else [])


def _moving(count: int, shape: tuple[int, ...] = (1, 1, 3)) -> list[np.ndarray]:
    """Frames that each differ from the one before (black, white, ...): every one is read."""
    return [np.full(shape, 255 * (k % 2), np.uint8) for k in range(count)]


def test_watcher_reports_each_card_once_when_stable() -> None:
    frames = [_seen("QS")] * 5 + [_seen("QS", "10H")] * 4 + [_seen()] * 4 + [_seen("QS")] * 3
    it = iter(frames)
    watcher = CardWatcher(lambda f: next(it), source="camera:test", stable=3)
    out = [o for frame in _moving(len(frames)) for o in watcher.feed(frame)]
    assert [o.card for o in out if isinstance(o, CardSeen)] == ["QS", "10H", "QS"]


def test_watcher_ignores_flicker_and_complains_once_about_overlaps() -> None:
    frames = [_seen("QS"), _seen("KS"), _seen("QS"), _seen("KS")] + [_seen(refused=True)] * 6
    it = iter(frames)
    watcher = CardWatcher(lambda f: next(it), stable=3)
    out = [o for frame in _moving(len(frames)) for o in watcher.feed(frame)]
    assert [type(o) for o in out] == [DeviceError]


def test_watcher_says_nothing_of_a_card_refused_on_its_way_in() -> None:
    """A card slid in from the picture's edge is refused ("cut by the edge") while it moves;
    only an outline that then lies still, still refused, is complained about."""
    def refused_at(y: float) -> SeenCards:
        box = ((600.0, y), (700.0, y), (700.0, y + 150), (600.0, y + 150))
        return SeenCards([], [Refused(box, "a card is cut by the edge of the picture")])

    moving = [refused_at(700.0 - 60 * k) for k in range(6)]  # 60 pixels a frame
    lying = [refused_at(340.0 + k % 2) for k in range(4)]  # a pixel of jitter
    frames = _moving(len(moving) + len(lying), (720, 1280, 3))
    it = iter(moving)
    watcher = CardWatcher(lambda f: next(it), stable=3)
    assert [o for frame in frames[: len(moving)] for o in watcher.feed(frame)] == []
    it = iter(lying)
    out = [o for frame in frames[len(moving) :] for o in watcher.feed(frame)]
    assert [type(o) for o in out] == [DeviceError]


def test_a_still_table_is_read_again_only_now_and_then() -> None:
    from vision.stillness import moved as still_moved
    from vision.stillness import small_grey

    """Once three readings agree, a frame that has not moved keeps the last reading (the
    reader is not run), every 15th is read anyway; a moved frame is read at once, and so is
    a slow slide that no two frames show but the frame last read does."""
    calls: list[int] = []

    def read(frame: np.ndarray) -> SeenCards:
        calls.append(int(frame[0, 0, 0]))
        return _seen("QS")

    table = np.full((90, 160, 3), 100, np.uint8)
    watcher = CardWatcher(read, stable=3)
    out = [o for _ in range(40) for o in watcher.feed(table)]
    assert [o.card for o in out if isinstance(o, CardSeen)] == ["QS"]
    assert watcher.readings == 3 + 2  # the first three, then the 15th still frames twice
    moved = table.copy()
    moved[:30, :60] = 200  # a hand, or a card laid
    watcher.feed(moved)
    assert watcher.readings == 6
    creep, before = moved.copy(), moved.copy()
    for row in range(30, 44):  # a card's edge slid down a pixel a frame
        creep[row, :8] = 200
        assert not still_moved(small_grey(creep), small_grey(before))  # too little a frame
        before = creep.copy()
        watcher.feed(creep)
    assert watcher.readings >= 6 + 3  # read again as it added up, before any recheck


def test_a_flickering_reading_is_read_every_frame() -> None:
    names = iter(["QS", "KS"] * 10)
    watcher = CardWatcher(lambda f: _seen(next(names)), stable=3)
    table = np.full((90, 160, 3), 100, np.uint8)
    out = [o for _ in range(20) for o in watcher.feed(table)]
    assert out == [] and watcher.readings == 20


def test_calibrated_deck_never_loses_a_card_the_model_read(reader: CardReader) -> None:
    import cv2

    from companion.cards import FULL_DECK
    from vision.scenes import Design

    design = Design((235, 240, 245), None, 12, cv2.FONT_HERSHEY_PLAIN, 0.9, 2, False)
    feats, names = [], []
    for i, card in enumerate(FULL_DECK):
        for k in range(10):
            scene = make_scene(np.random.default_rng(7000 + 50 * i + k), design=design,
                               cards=[card], count=1)
            corners = reader.corners_of_single_card(scene.image)
            if corners is not None:
                feats += corners
                names += [str(card)] * 2
                break
    assert len(set(names)) >= 50
    calibrated = CardReader(reader.rank_net, reader.suit_net)
    calibrated.learn(np.array(feats), names)
    for seed in range(9000, 9015):
        scene = make_scene(np.random.default_rng(seed), design=design)
        truth = {str(p.card) for p in scene.cards}
        plain = {str(c.card) for c in reader.read(scene.image).cards} & truth
        known = {str(c.card) for c in calibrated.read(scene.image).cards} & truth
        assert plain <= known, seed


def _table_with_card(kind: str, seed: int, centre: tuple[float, float] = (480.0, 270.0),
                     glare: tuple[float, float] | None = None) -> tuple[np.ndarray, str]:
    """A card on a table of the given kind at 960x540, with a bright glare spot (as the
    scene generator draws it) centred at ``glare``."""
    from companion.cards import Card
    from vision.scenes import Design, _place, _quad, background, card_mask, render_card

    rng = np.random.default_rng(seed)
    canvas = background(kind, (960, 540), rng)
    design = Design((238, 244, 250), (60, 60, 60), 12, 0, 1.0, 2, False)  # SIMPLEX, bordered
    card = Card.parse("QH")
    _place(canvas, render_card(card, design), card_mask(design),
           _quad(centre[0], centre[1], 200.0, 0.3, 0.05, rng))
    image = canvas.astype(np.float32)
    if glare is not None:
        yy, xx = np.mgrid[0:540, 0:960].astype(np.float32)
        image += 90 * np.exp(-(((xx - glare[0]) / 70) ** 2 + ((yy - glare[1]) / 50) ** 2))[
            ..., None]
    return np.clip(image, 0, 255).astype(np.uint8), str(card)


@pytest.mark.parametrize("kind", ["dark cloth", "light wood", "green felt"])
def test_glare_joined_to_a_card_does_not_hide_it(reader: CardReader, kind: str) -> None:
    import cv2

    from vision.card_shapes import card_mask, judge

    image, card = _table_with_card(kind, 5, glare=(600.0, 300.0))
    # the general whiteness rule joins the glare to the card: one outline, not a card
    contours, _ = cv2.findContours(card_mask(image), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    inside = [c for c in contours if cv2.pointPolygonTest(c, (480.0, 270.0), False) >= 0]
    assert len(inside) == 1 and isinstance(judge(inside[0], image.shape), str)
    seen = reader.read(image)
    assert [str(c.card) for c in seen.cards] == [card]
    assert seen.refused == []  # the glare is not taken for more cards
    centre = np.array(seen.cards[0].corners).mean(axis=0)
    assert np.linalg.norm(centre - [480, 270]) < 5


@pytest.mark.parametrize("kind", ["dark cloth", "light wood"])
@pytest.mark.parametrize("glare", [False, True])
def test_card_cut_by_the_edge_is_refused(reader: CardReader, kind: str, glare: bool) -> None:
    image, _ = _table_with_card(kind, 6, centre=(930.0, 270.0),
                                glare=(840.0, 300.0) if glare else None)
    seen = reader.read(image)
    assert seen.cards == []
    assert any("edge of the picture" in r.reason for r in seen.refused)


def _two_cards_on_each_other(kind: str, dx: float, dy: float, turn: float) -> np.ndarray:
    """9D, with KS lying on it shifted by (dx, dy) pixels and turned by ``turn`` radians."""
    from companion.cards import Card
    from vision.scenes import Design, _place, _quad, background, card_mask, render_card

    rng = np.random.default_rng(3)
    canvas = background(kind, (960, 540), rng)
    design = Design((238, 244, 250), None, 12, 0, 1.0, 2, False)
    for card, (x, y, angle) in ((Card.parse("9D"), (480.0, 270.0, 0.3)),
                                (Card.parse("KS"), (480.0 + dx, 270.0 + dy, 0.3 + turn))):
        _place(canvas, render_card(card, design), card_mask(design),
               _quad(x, y, 200.0, angle, 0.0, rng))
    out: np.ndarray = canvas
    return out


@pytest.mark.parametrize("kind", ["dark cloth", "light wood", "green felt"])
@pytest.mark.parametrize("shift", [(6, 3, 0.0), (10, 0, 0.0), (0, 12, 0.0), (8, 8, 0.02),
                                   (14, 4, 0.0)])
def test_cards_lying_almost_on_each_other_are_not_misreported(
        reader: CardReader, kind: str, shift: tuple[float, float, float]) -> None:
    # their joint outline is nearly a card's; the two index corners then show two cards
    seen = reader.read(_two_cards_on_each_other(kind, *shift))
    assert len(seen.cards) + len(seen.refused) == 1
    for card in seen.cards:
        assert str(card.card) == "KS" or card.confidence < 0.9, card


# Own validation scenes (seeds from 600,000: never held-out) on light wood where a card is
# joined to glare (600059) or to a pale table (600739, 601304) so closely that no whiteness
# level parts them; the image's edges do.
@pytest.mark.parametrize("seed", [600059, 600739, 601304])
def test_card_joined_to_glare_or_a_pale_table_is_found_by_its_edges(reader: CardReader,
                                                                     seed: int) -> None:
    scene = make_scene(np.random.default_rng(seed))
    assert scene.background == "light wood"
    truth = sorted(str(p.card) for p in scene.cards)
    # (the whiteness levels alone missed a card in each of these; since balance() and the
    # pale-table path of 2026-11-24 they may find it without the edges: what matters is
    # that every card is read and nothing refused)
    seen = reader.read(scene.image)
    assert sorted(str(c.card) for c in seen.cards) == truth
    assert seen.refused == []


# Validation fans (VAL_SEED.. and own seeds from 600,000) in which the image's edges close off
# a card-shaped region: two cards lying almost on each other, or the top card of a fan.
@pytest.mark.parametrize("seed", [500047, 600072, 600077, 600149, 600225, 610079, 610261])
def test_fans_that_the_edges_close_off_as_one_card_are_refused(reader: CardReader,
                                                               seed: int) -> None:
    scene = make_scene(np.random.default_rng(seed), overlap=True)
    seen = reader.read(scene.image)
    assert seen.cards == []
    assert seen.refused


def test_validation_fans_yield_no_card(reader: CardReader) -> None:
    from vision.train.train_cards import VAL_SEED

    for seed in range(VAL_SEED, VAL_SEED + 40):
        seen = reader.read(make_scene(np.random.default_rng(seed), overlap=True).image)
        assert seen.cards == [], seed
