"""Train a vision.cnn.ConvNet with PyTorch, then hand the weights back to the numpy network.

Training only: the companion reads with numpy (vision/cnn.py) and never imports torch. PyTorch
trains the same architecture (3x3 conv + ReLU + 2x2 max-pool stages, one linear layer over the
NHWC-flattened features) about twenty times faster than the numpy trainer, which is what made
wider networks and more augmented crops affordable. Install it for training with
``pip install -e .[train]``.

Deterministic on one thread: fixed seeds, ``torch.set_num_threads(1)``.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.cnn import ConvNet


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise SystemExit("training needs PyTorch: pip install -e .[train]") from exc
    return torch


def fit(x: NDArray[Any], y: NDArray[Any], widths: tuple[int, ...], classes: tuple[str, ...],
        epochs: int, seed: int = 0, batch: int = 128, max_lr: float = 3e-3,
        smoothing: float = 0.05, log: bool = True, init: ConvNet | None = None,
        turns: bool = True) -> ConvNet:
    """Train on NHWC float inputs ``x`` and integer labels ``y``. Each batch is turned by a
    random quarter turn and mirrored (die faces and card-free crops keep their class; not
    with ``turns=False``: a card's 6 turned is a 9), and each channel's gain and offset and
    each pixel are jittered a little. Inputs may be taller than wide (a card's rank glyph)
    when not turned."""
    torch = _torch()
    nn, functional = torch.nn, torch.nn.functional
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    inputs = torch.from_numpy(np.asarray(x, np.float32)).permute(0, 3, 1, 2).contiguous()
    labels = torch.from_numpy(np.asarray(y, np.int64))
    channels, height, width = inputs.shape[1], inputs.shape[2], inputs.shape[3]
    if turns and height != width:
        raise ValueError("only square inputs can be turned")

    convs = []
    c, h, w = channels, height, width
    for out in widths:
        convs.append(nn.Conv2d(c, out, 3, padding=1))
        c, h, w = out, h // 2, w // 2
    fc = nn.Linear(h * w * c, len(classes))
    layers = nn.ModuleList([*convs, fc])  # what the optimiser trains
    if init is not None:  # start from a trained network's weights (fine-tuning)
        with torch.no_grad():
            for i, conv in enumerate(convs):
                rows = init.params[f"c{i}"]  # (3 * 3 * in, out), im2col order (row, col, in)
                shape = (3, 3, conv.in_channels, conv.out_channels)
                conv.weight.copy_(torch.from_numpy(rows.reshape(shape)).permute(3, 2, 0, 1))
                conv.bias.copy_(torch.from_numpy(init.params[f"cb{i}"]))
            fc.weight.copy_(torch.from_numpy(init.params["fc"]).T)
            fc.bias.copy_(torch.from_numpy(init.params["fcb"]))

    def forward(t: Any, training: bool) -> Any:
        for conv in convs:
            t = functional.max_pool2d(functional.relu(conv(t)), 2)
        t = t.permute(0, 2, 3, 1).flatten(1)  # NHWC order, as the numpy network
        return fc(functional.dropout(t, 0.3, training=training))

    optimiser = torch.optim.AdamW(layers.parameters(), lr=max_lr, weight_decay=5e-4)
    steps = epochs * ((len(inputs) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=max_lr, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    started = time.monotonic()
    for epoch in range(epochs):
        order = torch.randperm(len(inputs), generator=gen)
        total = 0.0
        for start in range(0, len(inputs), batch):
            idx = order[start : start + batch]
            xb, yb = inputs[idx], labels[idx]
            if turns:
                xb = torch.rot90(xb, int(torch.randint(4, (1,), generator=gen)), (2, 3))
                if float(torch.rand(1, generator=gen)) < 0.5:
                    xb = torch.flip(xb, (3,))
            n = len(xb)
            xb = xb * (1 + 0.1 * torch.randn(n, channels, 1, 1, generator=gen))
            xb = xb + 0.1 * torch.randn(n, channels, 1, 1, generator=gen)
            xb = xb + 0.05 * torch.randn(xb.shape, generator=gen)
            loss = functional.cross_entropy(forward(xb, True), yb, label_smoothing=smoothing)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * n
        if log:
            print(f"epoch {epoch + 1}/{epochs}: loss {total / len(inputs):.4f} "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
    params: dict[str, NDArray[Any]] = {}
    for i, conv in enumerate(convs):
        w = conv.weight.detach()  # (out, in, 3, 3) -> rows in im2col order (row, col, in)
        params[f"c{i}"] = w.permute(2, 3, 1, 0).reshape(-1, w.shape[0]).numpy().copy()
        params[f"cb{i}"] = conv.bias.detach().numpy().copy()
    params["fc"] = fc.weight.detach().T.numpy().copy()
    params["fcb"] = fc.bias.detach().numpy().copy()
    result = ConvNet({k: v.astype(np.float32) for k, v in params.items()}, classes)
    with torch.no_grad():  # the numpy network must compute what torch computes
        probe = inputs[:64]
        expected = torch.softmax(forward(probe, False), 1).numpy()
    got = result.probabilities(probe.permute(0, 2, 3, 1).numpy())
    if float(np.abs(expected - got).max()) > 1e-3:
        raise RuntimeError("the numpy network disagrees with the trained one")
    return result
