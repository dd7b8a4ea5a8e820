"""A small numpy multilayer perceptron (softmax classifier) with Adam, saved as .npz.

OpenCV 5 has no cv2.ml and torch is too heavy for a table companion, so the learned parts of
the readers are this: one or two hidden ReLU layers over hand-made features (HOG, pixels).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]


class MLP:
    def __init__(self, weights: list[Array], biases: list[Array], mean: Array, scale: Array,
                 classes: tuple[str, ...]) -> None:
        self.weights = weights
        self.biases = biases
        self.mean = mean
        self.scale = scale
        self.classes = classes

    @classmethod
    def create(cls, sizes: list[int], mean: Array, scale: Array, classes: tuple[str, ...],
               seed: int = 0) -> MLP:
        rng = np.random.default_rng(seed)
        weights = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
            for a, b in zip(sizes[:-1], sizes[1:], strict=True)
        ]
        biases = [np.zeros(b, np.float32) for b in sizes[1:]]
        return cls(weights, biases, mean.astype(np.float32), scale.astype(np.float32), classes)

    def _forward(self, x: Array) -> list[Array]:
        h = (x - self.mean) / self.scale
        acts = [h]
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0)
            acts.append(h)
        return acts

    def probabilities(self, x: Array) -> Array:
        logits = self._forward(np.asarray(x, np.float32))[-1]
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        out: Array = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return out

    def fit(self, x: Array, y: NDArray[Any], epochs: int = 30, batch: int = 256,
            lr: float = 1e-3, weight_decay: float = 1e-4, seed: int = 0,
            log: bool = False) -> None:
        rng = np.random.default_rng(seed)
        params = [*self.weights, *self.biases]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        step = 0
        n_layers = len(self.weights)
        for epoch in range(epochs):
            order = rng.permutation(len(x))
            rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
            total = 0.0
            for start in range(0, len(x), batch):
                idx = order[start : start + batch]
                acts = self._forward(x[idx])
                logits = acts[-1] - acts[-1].max(axis=1, keepdims=True)
                p = np.exp(logits)
                p /= p.sum(axis=1, keepdims=True)
                total += float(-np.log(p[np.arange(len(idx)), y[idx]] + 1e-9).sum())
                grad = p
                grad[np.arange(len(idx)), y[idx]] -= 1
                grad /= len(idx)
                gw: list[Array] = [np.empty(0, np.float32)] * n_layers
                gb: list[Array] = [np.empty(0, np.float32)] * n_layers
                for i in range(n_layers - 1, -1, -1):
                    gw[i] = acts[i].T @ grad + weight_decay * self.weights[i]
                    gb[i] = grad.sum(axis=0)
                    if i > 0:
                        grad = (grad @ self.weights[i].T) * (acts[i] > 0)
                step += 1
                grads = [*gw, *gb]
                for j, (param, g) in enumerate(zip(params, grads, strict=True)):
                    m[j] = 0.9 * m[j] + 0.1 * g
                    v[j] = 0.999 * v[j] + 0.001 * g * g
                    mh = m[j] / (1 - 0.9**step)
                    vh = v[j] / (1 - 0.999**step)
                    param -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
            if log:
                print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}", flush=True)

    def save(self, path: Path, **extra: Array) -> None:
        arrays: dict[str, Array] = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b
        arrays.update(extra)
        np.savez_compressed(path, classes=np.array(self.classes), **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> tuple[MLP, dict[str, Array]]:
        with np.load(path, allow_pickle=False) as data:
            n = sum(1 for k in data.files if k.startswith("w"))
            weights = [data[f"w{i}"].astype(np.float32) for i in range(n)]
            biases = [data[f"b{i}"].astype(np.float32) for i in range(n)]
            known = {"mean", "scale", "classes"} | {f"w{i}" for i in range(n)}
            known |= {f"b{i}" for i in range(n)}
            extra = {k: data[k] for k in data.files if k not in known}
            net = cls(weights, biases, data["mean"], data["scale"],
                      tuple(str(c) for c in data["classes"]))
        return net, extra
