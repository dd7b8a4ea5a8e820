"""The card reader on rendered scenes of real card art (vision/card_art.py): designs never
trained on, warm and dim light, face-down cards, calibration of other decks, and the
``emulate cards`` recording. These are rendered scenes of real faces, not camera photos."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card
from vision.card_art import HELD_OUT_DESIGNS, art_scene, load_deck
from vision.card_finder import balance
from vision.cards import CardReader
from vision.cards_eval import ART_TEST_SEED, ArtScore, calibrated, measure
from vision.scenes import nearest_card

# Floors against regressions, not figures tuned on, and far below the target (99%
# per card): on these 25 held-out scenes per light the reader read 74.5%, 71.4% and 80.0% of
# the cards of the held-out design in normal, warm and dim light (2026-11-27; most of the
# rest missed on checked cloth and newspaper, or read wrongly but asked about); docs/vision.md
# has the figures on more scenes. What must hold is trust: a reading said without asking is
# wrong at most once here (0, 1 and 1 were: a spurious card read at 0.98).
HELD_OUT_FLOOR = 0.65
SURE_WRONG_MOST = 1


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.load()


def test_art_scene_is_reproducible() -> None:
    decks = [load_deck("knoll-vector")]
    a = art_scene(np.random.default_rng(5), decks)
    b = art_scene(np.random.default_rng(5), decks)
    assert np.array_equal(a.image, b.image) and a.cards == b.cards


@pytest.mark.parametrize("light", ["normal", "warm", "dim"])
def test_a_design_never_trained_on_reads_in_each_light(reader: CardReader, light: str) -> None:
    result = measure(reader.read, HELD_OUT_DESIGNS, range(ART_TEST_SEED, ART_TEST_SEED + 25),
                     light)
    print(result.summary(), result.failures[:8])
    assert result.cards > 40
    assert result.accuracy >= HELD_OUT_FLOOR, result.summary()
    assert result.sure_wrong <= SURE_WRONG_MOST, result.summary()


def _dark_table_scene(seed: int) -> tuple[np.ndarray, list[str]]:
    scene = art_scene(np.random.default_rng(seed), [load_deck(HELD_OUT_DESIGNS[0])],
                      count=3, light="normal", kind="felt", face_down=0.0, hand=0.0,
                      touching=0.0)
    return scene.image, sorted(str(p.card) for p in scene.cards if not p.hidden)


@pytest.mark.parametrize("gains", [(0.52, 0.78, 1.0), (0.45, 0.45, 0.45), (0.3, 0.42, 0.55)])
def test_warm_bulb_and_dim_room_still_show_the_cards(reader: CardReader,
                                                     gains: tuple[float, ...]) -> None:
    # a tungsten bulb, a room at 45% brightness, both: the white mask's fixed levels found
    # no card at all in these before balance()
    image, truth = _dark_table_scene(ART_TEST_SEED + 900)
    dark = np.clip(image.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(
        np.uint8)
    assert len(reader.faces(dark)[0]) == len(truth)
    balanced = balance(dark)
    assert balanced.reshape(-1, 3).max(axis=0).min() > 200  # the paper is white again
    seen = reader.read(dark)
    assert sorted(str(c.card) for c in seen.cards) == truth


def test_face_down_card_is_reported_not_read(reader: CardReader) -> None:
    score = ArtScore()
    for seed in range(ART_TEST_SEED, ART_TEST_SEED + 40):
        scene = art_scene(np.random.default_rng(seed), [load_deck("bellot-svg-cards")],
                          light="normal", kind="felt", face_down=0.5, hand=0.0)
        score.add(scene, reader.read(scene.image), str(seed))
    print(score.summary(), score.failures[:8])
    assert score.face_down_seen >= 10
    # a back the reader takes for a face is never read surely (one in these 40 scenes was
    # read, unsure, so the session would ask)
    assert score.sure_wrong == 0


@pytest.mark.parametrize("seed", [6_000_011, 6_000_020, 6_000_028, 6_000_038])
def test_a_back_of_thin_tartan_lines_is_reported_face_down(reader: CardReader,
                                                           seed: int) -> None:
    # atlas-german-index's back (thin red and blue lines on white): the network's back
    # class missed it in these validation scenes, and read it as a card (issue 15)
    scene = art_scene(np.random.default_rng(seed), [load_deck("atlas-german-index")],
                      light="normal")
    score = ArtScore()
    score.add(scene, reader.read(scene.image), str(seed))
    assert score.face_down_seen >= 1, score.failures
    assert score.spurious == 0 and score.face_down_spurious == 0, score.failures


@pytest.mark.parametrize("seed", [6_100_000, 6_100_014, 6_100_027])
def test_cards_joined_to_a_checked_cloths_white_checks_are_found(reader: CardReader,
                                                                 seed: int) -> None:
    # validation scenes (not the held-out seeds): the white checks beside a card join its
    # outline, which no whiteness level parted; the reader found 1, 1 and 0 of these cards
    scene = art_scene(np.random.default_rng(seed), [load_deck("anglo-poker")],
                      kind="checked cloth", light="normal")
    want = {i for i, placed in enumerate(scene.cards) if not placed.hidden}
    quads = reader.faces(scene.image)[0]
    assert len(want) >= 2
    assert want <= {nearest_card(scene, q.mean(axis=0)) for q in quads}


def test_calibrated_deck_never_raises_a_reading_the_model_disagrees_with(
        reader: CardReader) -> None:
    image, truth = _dark_table_scene(ART_TEST_SEED + 901)
    plain = reader.read(image)
    sure = [c for c in plain.cards if c.confidence >= 0.9]
    assert sure
    # the learned deck says every card in the picture is another card
    feats, names = [], []
    quads, faces, _, _, _ = reader.faces(image)
    from vision.cards import corner_features

    for face in faces:
        feats += [corner_features(face), corner_features(np.ascontiguousarray(face[::-1, ::-1]))]
        names += ["2H", "2H"] if truth[0] != "2H" else ["3C", "3C"]
    feats.append(np.zeros_like(feats[0]))  # a second card in the deck, for the ratio test
    names.append("KD")
    calibrated = CardReader(reader.rank_net, reader.suit_net)
    calibrated.learn(np.array(feats), names)
    for card in calibrated.read(image).cards:
        assert card.confidence < 0.9, card  # the session asks
    # unless the model's reading was one it gave wrongly for this deck at calibration
    calibrated.learn(np.array(feats), names, misread=tuple(truth))
    assert {str(c.card) for c in calibrated.read(image).cards} <= {"2H", "3C"}


def test_a_rank_the_model_misread_at_calibration_needs_the_learned_deck_to_be_sure(
        reader: CardReader) -> None:
    # a German D read as 10 surely, and the learned deck matching no rank glyph clearly
    # (here: every corner learned as one card, so that no other class is there to be
    # farther): the model's rank alone is no longer sure once it gave that rank wrongly
    # at calibration
    image, truth = _dark_table_scene(ART_TEST_SEED + 901)
    plain = reader.read(image)
    sure = [c for c in plain.cards if c.confidence >= 0.9]
    assert sure
    from vision.cards import corner_features

    feats, names = [], []
    for face in reader.faces(image)[1]:
        for view in (face, np.ascontiguousarray(face[::-1, ::-1])):
            feats.append(corner_features(view))
            names.append("2H" if "2H" not in truth else "3C")
    calibrated = CardReader(reader.rank_net, reader.suit_net)
    calibrated.learn(np.array(feats), names)  # no misreading: the model stays sure
    assert [(c.card, c.confidence) for c in calibrated.read(image).cards] == [
        (c.card, c.confidence) for c in plain.cards]
    other_suit = {"S": "H", "H": "S", "D": "C", "C": "D"}
    calibrated.learn(np.array(feats), names,
                     misread=tuple(str(c.card)[:-1] + other_suit[str(c.card)[-1]]
                                   for c in sure))
    after = {c.card: c.confidence for c in calibrated.read(image).cards}
    for card in sure:
        assert after[card.card] < 0.9, card  # the session asks


def test_a_court_the_model_reads_as_a_number_is_voted_by_both_corners_learned_glyphs(
        reader: CardReader) -> None:
    # validation scenes where the German D was read as 10 and the B as 8 after calibration,
    # the learned glyphs of neither corner clearly nearest alone (issue 15): together they
    # pick the court, said unsure (the session asks)
    german = calibrated(reader, "atlas-german-index")
    for seed, card in ((6_000_010, "QH"), (6_000_016, "JS"), (6_000_035, "JD")):
        scene = art_scene(np.random.default_rng(seed), [load_deck("atlas-german-index")],
                          light="normal")
        placed = [p for p in scene.cards if str(p.card) == card and not p.face_down]
        assert len(placed) == 1
        centre = np.array(placed[0].corners).mean(axis=0)
        read = [c for c in german.read(scene.image).cards
                if np.linalg.norm(np.array(c.corners).mean(axis=0) - centre) < 30]
        assert [str(c.card) for c in read] == [card], (seed, read)
        assert read[0].confidence <= 0.5


@pytest.mark.parametrize("design", ["paris-french-index", "atlas-german-index"])
def test_other_index_decks_read_after_calibration(reader: CardReader, design: str) -> None:
    after_calibration = calibrated(reader, design)  # as calibrate cards does it
    assert after_calibration.templates is not None
    assert len(set(after_calibration.templates[2])) >= 50
    before = measure(reader.read, (design,), range(ART_TEST_SEED, ART_TEST_SEED + 15),
                     "normal")
    after = measure(after_calibration.read, (design,), range(ART_TEST_SEED, ART_TEST_SEED + 15),
                    "normal")
    print(design, "before", before.summary(), "after", after.summary(), after.failures[:8])
    # far below the target (99.5% after calibration), mostly for cards the finder
    # misses; on these 15 scenes the French deck went from 19 to 25 of 31 and the German one
    # from 20 to 21, no sure reading wrong after (2026-11-27, docs/vision.md)
    assert after.accuracy >= before.accuracy, after.summary()
    assert after.sure_wrong <= max(before.sure_wrong, 1), after.summary()


def test_emulate_cards_lays_plays_the_game_takes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A crazy-eights recording lays a game's plays, each matching the last card's rank or
    suit (random cards made a demonstration of refusals); more than a game's 13 is refused."""
    from vision.card_recording import GAME_CARDS, main

    assert main(["--cards", str(GAME_CARDS), "--seed", "1", "--out",
                 str(tmp_path / "cards.avi")]) == 0
    laid = [Card.parse(c) for c in capsys.readouterr().out.split()]
    assert len(laid) == GAME_CARDS == len(set(laid))
    assert all(a.rank == b.rank or a.suit == b.suit for a, b in pairwise(laid))
    with pytest.raises(ValueError, match="--cards must be 1 to 13"):
        main(["--cards", "14", "--out", str(tmp_path / "more.avi")])


def test_emulate_cards_writes_a_recording_the_camera_reads(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from vision.card_recording import main
    from vision.source import CardWatcher

    out = tmp_path / "cards.avi"
    assert main(["--cards", "3", "--seed", "4", "--out", str(out)]) == 0
    laid = capsys.readouterr().out.split()
    assert len(laid) == 3 and all(Card.parse(c) for c in laid)
    assert (tmp_path / "cards-calibration.avi").is_file()
    reader = CardReader.load()
    watcher = CardWatcher(reader.read, source="camera:test")
    capture = cv2.VideoCapture(str(out))
    seen: list[str] = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        seen += [o.card for o in watcher.feed(frame) if hasattr(o, "card")]
    capture.release()
    assert seen == laid
