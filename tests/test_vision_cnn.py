"""The numpy convolutional network against a direct, loop-by-loop reference."""

from __future__ import annotations

import numpy as np

from vision.cnn import ConvNet


def _reference(net: ConvNet, x: np.ndarray) -> np.ndarray:
    """3x3 convolutions (zero padding) + bias + ReLU + 2x2 max-pool, then the linear layer and
    softmax, written out plainly."""
    for i in range(net.depth):
        weights = net.params[f"c{i}"].reshape(3, 3, x.shape[3], -1)  # row, column, in, out
        n, h, w, _ = x.shape
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        conv = np.zeros((n, h, w, weights.shape[3]))
        for dy in range(3):
            for dx in range(3):
                conv += padded[:, dy : dy + h, dx : dx + w] @ weights[dy, dx]
        conv = np.maximum(conv + net.params[f"cb{i}"], 0)
        x = conv.reshape(n, h // 2, 2, w // 2, 2, -1).max(axis=(2, 4))
    logits = x.reshape(len(x), -1) @ net.params["fc"] + net.params["fcb"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_forward_pass_equals_a_plain_convolution() -> None:
    rng = np.random.default_rng(2)
    widths, channels, side = (5, 7), 3, 8
    params, c = {}, channels
    for i, w in enumerate(widths):
        params[f"c{i}"] = rng.standard_normal((9 * c, w)).astype(np.float32) * 0.3
        params[f"cb{i}"] = rng.standard_normal(w).astype(np.float32) * 0.1
        c = w
    params["fc"] = rng.standard_normal(((side // 4) ** 2 * c, 4)).astype(np.float32)
    params["fcb"] = rng.standard_normal(4).astype(np.float32)
    net = ConvNet(params, ("a", "b", "c", "d"))
    x = rng.standard_normal((37, side, side, channels)).astype(np.float32)
    assert net.channels == channels and net.depth == 2
    got = net.probabilities(x, batch=16)  # batches of 16, 16 and 5
    assert got.shape == (37, 4)
    assert np.allclose(got, _reference(net, x.astype(np.float64)), atol=1e-5)


def _random_net(rng: np.random.Generator, widths: tuple[int, ...], channels: int,
                side: int) -> ConvNet:
    params, c = {}, channels
    for i, w in enumerate(widths):
        params[f"c{i}"] = rng.standard_normal((9 * c, w)).astype(np.float32) * 0.3
        params[f"cb{i}"] = rng.standard_normal(w).astype(np.float32) * 0.1
        c = w
    cells = (side // 2 ** len(widths)) ** 2
    params["fc"] = rng.standard_normal((cells * c, 4)).astype(np.float32)
    params["fcb"] = rng.standard_normal(4).astype(np.float32)
    return ConvNet(params, ("a", "b", "c", "d"))


def test_turned_crops_read_with_a_shared_first_stage_as_turned_crops() -> None:
    """turned_probabilities (the first stage run once, its kernel turned) gives what
    probabilities gives for the crops turned, with and without a learned value layer, and
    for the shipped dice network; a network it cannot share the stage of reads the turns."""
    from vision.dice import MODEL_PATH

    rng = np.random.default_rng(5)
    shipped, _ = ConvNet.load(MODEL_PATH)
    nets = [(_random_net(rng, (5, 7), 3, 8), 8), (shipped, 40)]
    small = nets[0][0]
    nets.append((small.with_values(rng.standard_normal((small.params["fc"].shape[0], 3)),
                                   rng.standard_normal(3)), 8))
    nets.append((_random_net(rng, (5,), 3, 6), 6))
    for net, side in nets:
        x = rng.standard_normal((11, side, side, net.channels)).astype(np.float32)
        for turns in ((0, 1, 2, 3), (1, 2, 3), (2,)):
            got = net.turned_probabilities(x, turns, batch=8)
            assert got.shape == (len(turns), 11, len(net.classes))
            for k, t in enumerate(turns):
                plain = net.probabilities(np.ascontiguousarray(np.rot90(x, t, axes=(1, 2))))
                assert np.allclose(got[k], plain, atol=1e-5)
        # the features themselves (the probabilities of a random network saturate), and a
        # half turn's are not the crop's own: the test would pass on any turn otherwise
        features = net._turned_features(x, (0, 1, 2, 3))
        for t in range(4):
            turned = net._features(np.ascontiguousarray(np.rot90(x, t, axes=(1, 2))))
            assert np.allclose(features[t], turned, rtol=1e-5, atol=1e-5)
        assert not np.allclose(features[2], features[0], rtol=1e-2, atol=1e-2)
    empty = nets[0][0].turned_probabilities(np.zeros((0, 8, 8, 3), np.float32))
    assert empty.shape == (4, 0, 4)
