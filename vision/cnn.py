"""A very small convolutional network in numpy (inference), saved as .npz.

3x3 convolution + ReLU + 2x2 max-pool stages and a linear softmax layer, NHWC float32. The
reader needs no torch (heavy) and no cv2.ml (gone in OpenCV 5); at 32x32 inputs the forward
pass costs a few million multiply-adds per crop, so numpy matrix products are fast enough.
Training is done with PyTorch on the same architecture (vision/train/torch_fit.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided
from numpy.typing import NDArray

Array = NDArray[Any]


def _pooled_im2col(padded: Array) -> Array:
    """Rows of 3x3xc patches (row, column, channel order) of a zero-padded input (n, h + 2,
    w + 2, c), grouped by 2x2 max-pool partner: the rows of the pixels (2i + a, 2j + b) for
    one (a, b) come together, (a, b) outermost, so that the convolution's output pools as
    the maxima of four contiguous blocks. The view's last axis is three whole neighbouring
    pixels (contiguous in the padded array), so the copy moves runs of 3c values."""
    n, hp, wp, c = padded.shape
    h, w = hp - 2, wp - 2
    s = padded.strides
    windows = as_strided(padded, (2, 2, n, h // 2, w // 2, 3, 3 * c),
                         (s[1], s[2], s[0], 2 * s[1], 2 * s[2], s[1], s[3]), writeable=False)
    cols: Array = np.ascontiguousarray(windows).reshape(n * h * w, 9 * c)
    return cols


def _padded(x: Array) -> Array:
    """``x`` (n, h, w, c) with a border of one zero pixel: a 3x3 stage's input."""
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = x
    return padded


def _pool(conv: Array) -> Array:
    """The maxima of the four pool partners' blocks of a convolution (4, rows, channels)."""
    pooled: Array = np.maximum(conv[0], conv[1])
    np.maximum(pooled, np.maximum(conv[2], conv[3], out=conv[2]), out=pooled)
    return pooled


class ConvNet:
    def __init__(self, params: dict[str, Array], classes: tuple[str, ...]) -> None:
        self.params = params
        self.classes = classes
        self._turned: dict[tuple[int, ...], Array] = {}  # _turned_kernels' by turns

    @property
    def channels(self) -> int:
        """Input channels (the first layer's weights are rows of 3x3xchannels)."""
        return int(self.params["c0"].shape[0]) // 9

    @property
    def alone(self) -> ConvNet:
        """The network that reads alone (NetMean: its first)."""
        return self

    @property
    def depth(self) -> int:
        return sum(1 for k in self.params if k.startswith("cb"))

    def _features(self, x: Array) -> Array:
        """The last stage's output, flattened: what the linear layer weighs. Each stage's
        pooled output is written straight into the next stage's zero-padded input, and the
        convolution's rows come grouped by pool partner (_pooled_im2col), so that pooling
        is three maxima of contiguous blocks: the same figures as convolving, then pooling
        strided views, for a third less time a crop (bench vision, docs/vision.md)."""
        if not self.depth:
            return x.reshape(len(x), -1)  # (a network without stages: its input)
        return self._stages(_padded(x), 0)

    def _stages(self, padded: Array, first: int) -> Array:
        """The stages from ``first`` on, of their zero-padded input (n, h + 2, w + 2, c)."""
        n, h, w = padded.shape[0], padded.shape[1] - 2, padded.shape[2] - 2
        pooled = padded
        for i in range(first, self.depth):
            weights, bias = self.params[f"c{i}"], self.params[f"cb{i}"]
            conv = (_pooled_im2col(padded) @ weights).reshape(4, -1, weights.shape[1])
            h, w = h // 2, w // 2
            # max-pool first: adding a per-channel bias and ReLU are monotone, so they commute
            # with it, and then run on a quarter of the values
            pooled = _pool(conv)
            pooled += bias
            if i + 1 < self.depth:
                padded = np.zeros((n, h + 2, w + 2, len(bias)), np.float32)
                np.maximum(pooled.reshape(n, h, w, -1), 0, out=padded[:, 1:-1, 1:-1])
            else:
                np.maximum(pooled, 0, out=pooled)
        flat: Array = pooled.reshape(n, -1)
        return flat

    def _turned_features(self, x: Array, turns: tuple[int, ...]) -> Array:
        """The features of each crop turned a quarter ``t`` times (np.rot90 over rows and
        columns), for each t of ``turns``: (turns, n, features). A convolution of a turned
        crop is the turned convolution of the crop with the kernel turned back, and 2x2
        pooling of an even-sided map commutes with turning it: so the first stage runs once
        per crop, one product with the turned kernels side by side (one im2col instead of
        one a turn), and only its pooled maps are turned. The same figures as _features of
        the turned crops but for float rounding (the kernel's terms are summed in another
        order)."""
        n, h, w, c = x.shape
        if not self.depth or h != w or h % 2:
            looks = np.concatenate([np.rot90(x, t, axes=(1, 2)) for t in turns])
            return self._features(looks).reshape(len(turns), n, -1)
        padded = _padded(x)
        bias = self.params["cb0"]
        width = len(bias)
        conv = (_pooled_im2col(padded) @ self._turned_kernels(turns)).reshape(
            4, -1, len(turns) * width)
        pooled = _pool(conv).reshape(n, h // 2, w // 2, len(turns), width)
        pooled += bias
        h, w = h // 2, w // 2
        last = self.depth == 1  # the first stage's output is then the features, unpadded
        nxt = np.zeros((len(turns), n, h + (0 if last else 2), w + (0 if last else 2),
                        width), np.float32)
        inside = nxt if last else nxt[:, :, 1:-1, 1:-1]
        for k, t in enumerate(turns):
            np.maximum(np.rot90(pooled[:, :, :, k], t, axes=(1, 2)), 0, out=inside[k])
        if last:
            return nxt.reshape(len(turns), n, -1)
        return self._stages(nxt.reshape(len(turns) * n, h + 2, w + 2, width), 1).reshape(
            len(turns), n, -1)

    def _turned_kernels(self, turns: tuple[int, ...]) -> Array:
        """The first stage's kernels turned back by each of ``turns``, side by side."""
        if turns not in self._turned:
            kernel = self.params["c0"].reshape(3, 3, self.channels, -1)
            self._turned[turns] = np.concatenate(
                [np.rot90(kernel, -t, axes=(0, 1)).reshape(9 * self.channels, -1)
                 for t in turns], axis=1)
        out: Array = self._turned[turns]
        return out

    def _forward(self, x: Array) -> Array:
        logits: Array = self._features(x) @ self.params["fc"] + self.params["fcb"]
        return logits

    def features(self, x: Array, batch: int = 8) -> Array:
        """The features of inputs ``x`` (n, features), a few at a time (see probabilities)."""
        out = [self._features(np.asarray(x[start : start + batch], np.float32))
               for start in range(0, len(x), batch)]
        if not out:
            return np.zeros((0, len(self.params["fc"])), np.float32)
        return np.concatenate(out)

    def with_values(self, vfc: Array, vfcb: Array) -> ConvNet:
        """The same network with a value layer learned for a player's dice: it reads
        P(value | die) from the features; whether a crop is a die at all stays the
        shipped layer's."""
        return ConvNet({**self.params, "vfc": vfc.astype(np.float32),
                        "vfcb": vfcb.astype(np.float32)}, self.classes)

    def with_die(self, dfc: Array, dfcb: Array) -> ConvNet:
        """The same network with a learned correction of P(die) for a player's dice: the
        log-odds of a die (the shipped layer's) plus ``features @ dfc + dfcb``."""
        return ConvNet({**self.params, "dfc": dfc.astype(np.float32).reshape(-1, 1),
                        "dfcb": dfcb.astype(np.float32).reshape(1)}, self.classes)

    def die_logits(self, features: Array) -> Array:
        """The shipped layer's log-odds of a die against none, per crop."""
        logits = features @ self.params["fc"] + self.params["fcb"]
        top = logits[:, 1:].max(axis=1, keepdims=True)
        rest = np.log(np.exp(logits[:, 1:] - top).sum(axis=1)) + top[:, 0]
        out: Array = rest - logits[:, 0]
        return out

    def _values(self, features: Array, probs: Array) -> Array:
        """With a learned value layer (``vfc``, a player's dice), P(value | die) is the
        learned layer's; with a learned die correction (``dfc``), P(die) is the corrected
        one; else each stays the shipped layer's."""
        out: Array = probs.copy()
        if "dfc" in self.params:
            logit = self.die_logits(features) + (features @ self.params["dfc"])[:, 0] \
                + self.params["dfcb"][0]
            die = 1 / (1 + np.exp(-np.clip(logit, -60, 60)))
            # P(value | die) from the logits: from probs it would underflow where the shipped
            # layer is sure there is no die
            shipped = features @ self.params["fc"][:, 1:] + self.params["fcb"][1:]
            e = np.exp(shipped - shipped.max(axis=1, keepdims=True))
            out[:, 0] = 1 - die
            out[:, 1:] = e / e.sum(axis=1, keepdims=True) * die[:, None]
        if "vfc" in self.params:
            logits = features @ self.params["vfc"] + self.params["vfcb"]
            logits -= logits.max(axis=1, keepdims=True)
            e = np.exp(logits)
            out[:, 1:] = (1 - out[:, :1]) * e / e.sum(axis=1, keepdims=True)
        return out

    def probabilities(self, x: Array, batch: int = 8) -> Array:
        # 8 crops at a time keep the im2col matrices and the first layer's output (about 1 and
        # 2 MB for the dice network) in cache: 250 us a crop against 380 at 32 a time. The
        # same readings on all 200 photos (and 67 calibrated); a confidence may move in its
        # seventh digit, as BLAS blocks the rows differently
        out = [self._probabilities(self._features(np.asarray(x[start : start + batch],
                                                             np.float32)))
               for start in range(0, len(x), batch)]
        if not out:
            return np.zeros((0, len(self.classes)), np.float32)
        return np.concatenate(out).astype(np.float32)

    def turned_probabilities(self, x: Array, turns: tuple[int, ...] = (0, 1, 2, 3),
                             batch: int = 8) -> Array:
        """The probabilities of each crop of ``x`` turned a quarter ``t`` times (np.rot90
        over rows and columns) for each t of ``turns``: (turns, n, classes). The figures of
        probabilities() on the turned crops, to float rounding, at about 0.1 ms a crop and
        turn less for the dice network (_turned_features: its first stage runs once a
        crop). About ``batch`` turned crops at a time, as probabilities()."""
        step = max(1, batch // max(len(turns), 1))
        out = []
        for start in range(0, len(x), step):
            features = self._turned_features(np.asarray(x[start : start + step], np.float32),
                                             turns)
            out.append(self._probabilities(features.reshape(-1, features.shape[2])
                                           ).reshape(len(turns), -1, len(self.classes)))
        if not out:
            return np.zeros((len(turns), 0, len(self.classes)), np.float32)
        return np.concatenate(out, axis=1).astype(np.float32)

    def _probabilities(self, features: Array) -> Array:
        logits = features @ self.params["fc"] + self.params["fcb"]
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        probs: Array = e / e.sum(axis=1, keepdims=True)
        if "vfc" in self.params or "dfc" in self.params:
            return self._values(features, probs)
        return probs

    def save(self, path: Path, **extra: Array) -> None:
        # in sorted order, so that a file written after training and one written again from
        # loaded weights hold the same bytes
        arrays: dict[str, NDArray[Any]] = {k: self.params[k].astype(np.float16)
                                           for k in sorted(self.params)}
        arrays.update(extra)
        np.savez_compressed(path, classes=np.array(self.classes), **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> tuple[ConvNet, dict[str, Array]]:
        with np.load(path, allow_pickle=False) as data:
            names = sorted(k for k in data.files if re.fullmatch(r"c\d+|cb\d+|fc|fcb", k))
            params = {k: data[k].astype(np.float32) for k in names}
            extra = {k: data[k] for k in data.files if k not in names and k != "classes"}
            net = cls(params, tuple(str(c) for c in data["classes"]))
        return net, extra


class NetMean:
    """Several networks read as one: the mean of their class probabilities over the same
    crops (issue 15: networks trained by different recipes err on different dice of set-ups
    they never saw). It reads as ConvNet reads. The first network is the one that reads
    alone (``alone``: the camera's reading of each still frame) and the one a player's dice
    are learned on (features, learned layers); the others still average in."""

    def __init__(self, nets: Sequence[ConvNet]) -> None:
        if not nets:
            raise ValueError("no network to average")
        if len({(n.classes, n.channels) for n in nets}) > 1:
            raise ValueError("the networks read different classes or input channels")
        self.nets = tuple(nets)
        self.classes = nets[0].classes

    @property
    def alone(self) -> ConvNet:
        return self.nets[0]

    @property
    def channels(self) -> int:
        return self.nets[0].channels

    @property
    def params(self) -> dict[str, Array]:
        return self.nets[0].params

    def probabilities(self, x: Array, batch: int = 8) -> Array:
        out: Array = np.stack([n.probabilities(x, batch) for n in self.nets]).mean(axis=0)
        return out

    def turned_probabilities(self, x: Array, turns: tuple[int, ...] = (0, 1, 2, 3),
                             batch: int = 8) -> Array:
        out: Array = np.stack([n.turned_probabilities(x, turns, batch)
                               for n in self.nets]).mean(axis=0)
        return out

    def features(self, x: Array, batch: int = 8) -> Array:
        return self.nets[0].features(x, batch)

    def die_logits(self, features: Array) -> Array:
        return self.nets[0].die_logits(features)

    def with_values(self, vfc: Array, vfcb: Array) -> NetMean:
        return NetMean([self.nets[0].with_values(vfc, vfcb), *self.nets[1:]])

    def with_die(self, dfc: Array, dfcb: Array) -> NetMean:
        return NetMean([self.nets[0].with_die(dfc, dfcb), *self.nets[1:]])
