"""The card reader's rank: the mean of the rank MLP's and the rank glyph CNN's probabilities
(vision/cards.py GlyphRanks, vision/models/cards_glyph.npz), the back the MLP's alone; the
MLP alone where no glyph network lies beside the MLPs."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from companion.cards import RANKS
from vision.card_art import art_scene, load_deck
from vision.cards import MODEL_PATH, RANK_SIZE, CardReader, GlyphRanks
from vision.cnn import ConvNet
from vision.mlp import MLP
from vision.scenes import nearest_card


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.load()


def test_the_shipped_reader_reads_ranks_with_the_mean(reader: CardReader) -> None:
    assert isinstance(reader.rank_net, GlyphRanks)
    mlp, cnn = reader.rank_net.mlp, reader.rank_net.cnn
    rows = np.random.default_rng(5).random((9, mlp.mean.shape[0])).astype(np.float32)
    m = mlp.probabilities(rows)
    glyphs = rows[:, : RANK_SIZE[0] * RANK_SIZE[1]].reshape(-1, RANK_SIZE[1], RANK_SIZE[0], 1)
    c = cnn.probabilities(glyphs)[:, : len(RANKS)]
    assert not np.allclose(m[:, : len(RANKS)], c, atol=1e-2)  # two networks that differ
    back = m[:, len(RANKS) :]
    c = c / c.sum(axis=1, keepdims=True) * (1 - back)
    out = reader.rank_net.probabilities(rows)
    assert np.allclose(out[:, len(RANKS) :], back, atol=1e-6)  # the back: the MLP's
    assert np.allclose(out[:, : len(RANKS)], (m[:, : len(RANKS)] + c) / 2, atol=1e-6)
    assert np.allclose(out.sum(axis=1), 1, atol=1e-5)
    assert reader.rank_net.classes == mlp.classes


def test_without_a_glyph_network_the_mlp_reads_alone(tmp_path: Path) -> None:
    for part in ("rank", "suit"):
        shutil.copy(MODEL_PATH.with_name(f"{MODEL_PATH.stem}_{part}.npz"),
                    tmp_path / f"cards_{part}.npz")
    alone = CardReader.load(tmp_path / "cards.npz")
    assert isinstance(alone.rank_net, MLP)
    shutil.copy(MODEL_PATH.with_name(f"{MODEL_PATH.stem}_glyph.npz"), tmp_path / "cards_glyph.npz")
    both = CardReader.load(tmp_path / "cards.npz")
    assert isinstance(both.rank_net, GlyphRanks) and isinstance(both.rank_net.cnn, ConvNet)


# Validation scenes (6,300,000 range) of neoclassical, the design the shipped networks never
# saw: cards the MLP alone misreads (a court's letter read as 10 or 8) and the mean reads right
@pytest.mark.parametrize(("seed", "light", "card"), [(6_300_036, "normal", "QD"),
                                                     (6_300_076, "warm", "QH"),
                                                     (6_300_091, "dim", "JD")])
def test_a_card_the_mlp_misreads_is_read_right_by_the_mean(reader: CardReader, seed: int,
                                                           light: str, card: str) -> None:
    scene = art_scene(np.random.default_rng(seed), [load_deck("neoclassical")], light=light)
    i = next(k for k, c in enumerate(scene.cards) if str(c.card) == card)
    assert isinstance(reader.rank_net, GlyphRanks)
    alone = CardReader(reader.rank_net.mlp, reader.suit_net)
    readings = []
    for r in (alone, reader):
        seen = r.read(scene.image).cards
        readings.append([str(c.card) for c in seen
                         if nearest_card(scene, np.array(c.corners).mean(axis=0)) == i])
    assert len(readings[0]) == 1 and readings[0][0] != card  # the MLP alone: wrong
    assert readings[1] == [card]


def test_a_glyph_network_trains_on_unturned_glyphs_taller_than_wide() -> None:
    pytest.importorskip("torch")
    from vision.train.torch_fit import fit

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 64)
    x = rng.random((64, RANK_SIZE[1], RANK_SIZE[0], 1)).astype(np.float32) * 0.2
    x[y == 1, : RANK_SIZE[1] // 2] += 0.8  # class 1: ink in the top half (a turn would move it)
    with pytest.raises(ValueError):
        fit(x, y, (4,), ("a", "b"), epochs=1, log=False)  # a glyph cannot be turned
    net = fit(x, y, (4, 8), ("a", "b"), epochs=10, batch=16, max_lr=1e-2, smoothing=0.0,
              log=False, turns=False)
    p = net.probabilities(x)
    assert p.shape == (64, 2)
    assert (p.argmax(axis=1) == y).mean() > 0.9
