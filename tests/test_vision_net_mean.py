"""Several dice networks read as one (vision.cnn.NetMean): the mean of their probabilities."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from vision.cnn import ConvNet, NetMean
from vision.dice import MODEL_PATH, DiceReader
from vision.dice_learn import Throw, examples, fingerprint, learn
from vision.dice_photos import imread, load_photos, photos_in, read_split
from vision.dice_setups import labelled_scale

OTHER = MODEL_PATH.parent / "dice-tray.npz"  # a second network of the same classes


def test_the_mean_of_two_networks_is_what_the_reader_reads_with() -> None:
    reader = DiceReader.load(MODEL_PATH, OTHER)
    assert isinstance(reader.net, NetMean)
    one, two = ConvNet.load(MODEL_PATH)[0], ConvNet.load(OTHER)[0]
    rng = np.random.default_rng(3)
    crops = rng.random((13, 40, 40, one.channels)).astype(np.float32)
    first, second = one.probabilities(crops), two.probabilities(crops)
    assert not np.allclose(first, second, atol=1e-3)  # two networks that differ
    assert np.allclose(reader.net.probabilities(crops), (first + second) / 2, atol=1e-6)
    turns = (1, 2, 3)
    assert np.allclose(reader.net.turned_probabilities(crops, turns),
                       (one.turned_probabilities(crops, turns)
                        + two.turned_probabilities(crops, turns)) / 2, atol=1e-6)
    assert reader.net.channels == one.channels and reader.net.classes == one.classes


def test_one_model_reads_as_before_and_a_network_twice_reads_as_it_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One file: the plain network. The same network twice averages to its own figures:
    the same dice, to the confidence, with the crops read plainly and turned (counted)
    through the mean."""
    calls: Counter[str] = Counter()
    plain_probabilities, turned = ConvNet.probabilities, ConvNet.turned_probabilities

    def counted(net: ConvNet, x: Any, *args: Any) -> Any:
        calls["plain"] += 1
        return plain_probabilities(net, x, *args)

    def counted_turned(net: ConvNet, x: Any, *args: Any) -> Any:
        calls["turned"] += 1
        return turned(net, x, *args)

    monkeypatch.setattr(ConvNet, "probabilities", counted)
    monkeypatch.setattr(ConvNet, "turned_probabilities", counted_turned)
    single = DiceReader.load(MODEL_PATH)
    assert isinstance(single.net, ConvNet)
    twice = DiceReader.load(MODEL_PATH, MODEL_PATH)
    assert isinstance(twice.net, NetMean) and len(twice.net.nets) == 2
    split = read_split()
    photos = [p for p in load_photos() if split[p.name] == "test"][:4]
    read, done = 0, Counter[str]()
    for photo in photos:
        image = imread(photo.path)
        plain = single.read(image)
        once = calls.copy()
        mean = twice.read(image)
        # the mean reads each crop once with each network, plainly and turned
        assert {k: calls[k] - once[k] for k in calls} == {k: 2 * (once[k] - done[k])
                                                            for k in calls}
        done = calls.copy()
        assert [(d.x, d.y, d.value) for d in plain] == [(d.x, d.y, d.value) for d in mean]
        assert np.allclose([d.confidence for d in plain], [d.confidence for d in mean],
                           atol=1e-6)
        read += len(plain)
    assert read > 0
    assert calls["turned"] > 0


def test_a_players_dice_are_learned_on_the_first_network_and_the_others_average_in(
) -> None:
    reader = DiceReader.load(MODEL_PATH, OTHER)
    first, other = reader.net.nets if isinstance(reader.net, NetMean) else ((), ())
    photo = load_photos()[0]
    reader.calibrate(labelled_scale(photo))
    image = imread(photo.path)
    throw = Throw(image, [(d.centre[0], d.centre[1], d.value) for d in photo.dice])
    learned = learn(reader, [throw], bar=False)
    assert learned.model == fingerprint(DiceReader.load(MODEL_PATH))  # the first's layer
    crops = examples(reader, throw)[0][:16]  # the network's inputs of the throw's candidates
    assert np.array_equal(reader.net.features(crops), first.features(crops))
    adapted = reader.net.with_values(learned.fc, learned.fcb)
    assert isinstance(adapted, NetMean) and adapted.nets[1] is other
    want = (first.with_values(learned.fc, learned.fcb).probabilities(crops)
            + other.probabilities(crops)) / 2
    assert np.allclose(adapted.probabilities(crops), want, atol=1e-6)
    with pytest.raises(ValueError, match="different classes"):
        NetMean([ConvNet(ConvNet.load(MODEL_PATH)[0].params, ("none", "die")),
                 ConvNet.load(MODEL_PATH)[0]])


def test_the_shipped_pair_reads_quick_with_its_first_network_alone() -> None:
    pair = DiceReader.load()  # MODEL_PATH and PARTNER_PATH
    assert isinstance(pair.net, NetMean) and len(pair.net.nets) == 2
    first = DiceReader.load(MODEL_PATH)
    photos = photos_in("test")[:4]
    differ = 0
    for photo in photos:
        image = imread(photo.path)
        for reader in (pair, first):
            reader.calibrate(labelled_scale(photo))
        assert pair.read_quick(image) == first.read_quick(image)
        assert isinstance(pair.net, NetMean)  # put back after the quick reading
        differ += pair.read(image) != first.read(image)
    assert differ  # the whole reading is the pair's: its confidences are not the first's
