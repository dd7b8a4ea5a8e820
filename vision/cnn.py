"""A very small convolutional network in numpy (inference and training), saved as .npz.

Three 3x3 convolution + ReLU + 2x2 max-pool stages and a linear softmax layer, NHWC float32.
No torch (heavy) and no cv2.ml (gone in OpenCV 5); at 32x32 inputs the forward pass costs
about two million multiply-adds per crop, so numpy matrix products are fast enough.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import NDArray

Array = NDArray[Any]


def _im2col(x: Array) -> Array:
    n, h, w, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = sliding_window_view(padded, (3, 3), axis=(1, 2))  # n, h, w, c, 3, 3
    cols: Array = np.ascontiguousarray(windows.transpose(0, 1, 2, 4, 5, 3)).reshape(
        n * h * w, 9 * c)
    return cols


def _col2im(dcols: Array, shape: tuple[int, int, int, int]) -> Array:
    n, h, w, c = shape
    d = dcols.reshape(n, h, w, 3, 3, c)
    out = np.zeros((n, h + 2, w + 2, c), np.float32)
    for i in range(3):
        for j in range(3):
            out[:, i : i + h, j : j + w, :] += d[:, :, :, i, j, :]
    return out[:, 1:-1, 1:-1, :]


def _pool(x: Array) -> Array:
    n, h, w, c = x.shape
    pooled: Array = x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
    return pooled


class ConvNet:
    def __init__(self, params: dict[str, Array], classes: tuple[str, ...]) -> None:
        self.params = params
        self.classes = classes

    @classmethod
    def create(cls, channels: int, widths: tuple[int, ...], side: int,
               classes: tuple[str, ...], seed: int = 0) -> ConvNet:
        rng = np.random.default_rng(seed)
        params: dict[str, Array] = {}
        c = channels
        for i, f in enumerate(widths):
            params[f"c{i}"] = (rng.standard_normal((9 * c, f)) * np.sqrt(2 / (9 * c))).astype(
                np.float32)
            params[f"cb{i}"] = np.zeros(f, np.float32)
            c = f
            side //= 2
        flat = side * side * c
        params["fc"] = (rng.standard_normal((flat, len(classes))) * np.sqrt(1 / flat)).astype(
            np.float32)
        params["fcb"] = np.zeros(len(classes), np.float32)
        return cls(params, classes)

    @property
    def depth(self) -> int:
        return sum(1 for k in self.params if k.startswith("cb"))

    def _forward(self, x: Array) -> tuple[Array, list[tuple[Array, Array, Array, Array]]]:
        cache = []
        for i in range(self.depth):
            n, h, w, _ = x.shape
            cols = _im2col(x)
            pre = (cols @ self.params[f"c{i}"] + self.params[f"cb{i}"]).reshape(n, h, w, -1)
            act = np.maximum(pre, 0)
            pooled = _pool(act)
            cache.append((x, cols, act, pooled))
            x = pooled
        logits: Array = x.reshape(len(x), -1) @ self.params["fc"] + self.params["fcb"]
        return logits, cache

    def probabilities(self, x: Array, batch: int = 256) -> Array:
        out = []
        for start in range(0, len(x), batch):
            logits, _ = self._forward(np.asarray(x[start : start + batch], np.float32))
            logits -= logits.max(axis=1, keepdims=True)
            e = np.exp(logits)
            out.append(e / e.sum(axis=1, keepdims=True))
        if not out:
            return np.zeros((0, len(self.classes)), np.float32)
        return np.concatenate(out).astype(np.float32)

    def _gradients(self, x: Array, y: NDArray[Any]) -> tuple[float, dict[str, Array]]:
        logits, cache = self._forward(x)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        loss = float(-np.log(p[np.arange(len(y)), y] + 1e-9).mean())
        g = p
        g[np.arange(len(y)), y] -= 1
        g /= len(y)
        grads: dict[str, Array] = {}
        last = cache[-1][3]
        grads["fc"] = last.reshape(len(x), -1).T @ g
        grads["fcb"] = g.sum(axis=0)
        d = (g @ self.params["fc"].T).reshape(last.shape)
        for i in range(self.depth - 1, -1, -1):
            inp, cols, act, pooled = cache[i]
            n, h, w, f = act.shape
            up = np.repeat(np.repeat(pooled, 2, axis=1), 2, axis=2)
            dup = np.repeat(np.repeat(d, 2, axis=1), 2, axis=2)
            dact = dup * (act == up) * (act > 0)
            dflat = dact.reshape(-1, f)
            grads[f"c{i}"] = cols.T @ dflat
            grads[f"cb{i}"] = dflat.sum(axis=0)
            if i > 0:
                d = _col2im(dflat @ self.params[f"c{i}"].T, inp.shape)
        return loss, grads

    def fit(self, x: Array, y: NDArray[Any], epochs: int = 10, batch: int = 64,
            lr: float = 2e-3, weight_decay: float = 1e-4, seed: int = 0,
            log: bool = False) -> None:
        rng = np.random.default_rng(seed)
        m = {k: np.zeros_like(v) for k, v in self.params.items()}
        v = {k: np.zeros_like(p) for k, p in self.params.items()}
        step = 0
        for epoch in range(epochs):
            order = rng.permutation(len(x))
            rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
            total = 0.0
            for start in range(0, len(x), batch):
                idx = order[start : start + batch]
                loss, grads = self._gradients(x[idx], y[idx])
                total += loss * len(idx)
                step += 1
                for k, g in grads.items():
                    if not k.endswith("b") and not k.startswith("cb"):
                        g = g + weight_decay * self.params[k]
                    m[k] = 0.9 * m[k] + 0.1 * g
                    v[k] = 0.999 * v[k] + 0.001 * g * g
                    mh = m[k] / (1 - 0.9**step)
                    vh = v[k] / (1 - 0.999**step)
                    self.params[k] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
            if log:
                print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}", flush=True)

    def save(self, path: Path, **extra: Array) -> None:
        arrays: dict[str, NDArray[Any]] = {k: v.astype(np.float16)
                                           for k, v in self.params.items()}
        arrays.update(extra)
        np.savez_compressed(path, classes=np.array(self.classes), **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> tuple[ConvNet, dict[str, Array]]:
        with np.load(path, allow_pickle=False) as data:
            names = {k for k in data.files if k[0] == "c" and k != "classes" or k.startswith("fc")}
            params = {k: data[k].astype(np.float32) for k in names}
            extra = {k: data[k] for k in data.files if k not in names and k != "classes"}
            net = cls(params, tuple(str(c) for c in data["classes"]))
        return net, extra
