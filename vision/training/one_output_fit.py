"""The training loop the one-output crop networks share (the sideways judge, the aspect judge):
AdamW with a one-cycle learning rate over a fixed number of steps, each step one batch drawn
from the recipe's own stream, a log line every so often; and their outputs on a set of crops.
Needs the ``train`` extra."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np
import torch
from torch import nn

from table_app.progress import progress
from vision.training.batches import to_tensor

log = logging.getLogger(__name__)

Batch = Callable[[np.random.Generator], tuple[torch.Tensor, torch.Tensor]]
Loss = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def fit_one_output(
    model: nn.Module, batch: Batch, loss_of: Loss, *, seed: int, steps: int, learning_rate: float, log_every: int
) -> None:
    """Train ``model`` (one output a crop) for ``steps`` steps on ``batch(rng)`` (inputs and
    targets; ``rng`` seeded with ``seed``) against ``loss_of(outputs, targets)``."""
    rng = np.random.default_rng(seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=learning_rate, total_steps=steps)
    model.train()
    started = time.monotonic()
    for step in progress(range(steps), "train"):  # a bar on a terminal; the log lines stay
        x, target = batch(rng)
        loss = loss_of(model(x).squeeze(1), target)
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]  # typed only where torch is installed
        optimiser.step()
        schedule.step()
        if step % log_every == 0:
            log.info("step %d/%d loss %.4f (%.0f s)", step, steps, loss.item(), time.monotonic() - started)


def outputs_of(model: nn.Module, crops: np.ndarray, mean: float, std: float) -> np.ndarray:
    """``model``'s one output for each of ``crops`` (N×H×W×3 uint8 BGR, normalised with ``mean``
    and ``std``), 512 at a time, without gradients."""
    with torch.no_grad():
        out = [model(to_tensor(crops[i : i + 512], mean, std)).squeeze(1) for i in range(0, len(crops), 512)]
    return np.asarray(torch.cat(out).numpy()) if out else np.zeros(0, np.float32)
