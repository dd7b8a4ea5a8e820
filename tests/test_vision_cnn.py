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
