"""Start a classifier from a shipped ONNX model's weights (fine-tuning; needs the ``train`` extra).

The exporter folds each batch norm into the convolution before it, so the ONNX file holds a
weight and a bias per convolution. They go back into :class:`TileNet`'s convolutions, and its
batch norms become the identity plus that bias (mean 0, variance 1). Fine-tuning keeps the
batch norms' statistics fixed (:func:`freeze_batch_norm`): a batch of new crops must not
rescale features the rest of the network was trained to read.
"""

from __future__ import annotations

from pathlib import Path

import onnx
import torch
from onnx import numpy_helper
from torch import nn

from vision.training.model import TileNet


def classifier_from_onnx(path: Path) -> TileNet:
    """A :class:`TileNet` holding the weights of the classifier at ``path``."""
    graph = onnx.load(str(path)).graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    convs = [node for node in graph.node if node.op_type == "Conv"]
    gemms = [node for node in graph.node if node.op_type == "Gemm"]
    model = TileNet()
    blocks = [m for m in model.features if isinstance(m, nn.Sequential)]
    if len(convs) != len(blocks) or len(gemms) != 1:
        raise ValueError(
            f"{path}: {len(convs)} convolutions and {len(gemms)} linear layers; "
            f"this TileNet has {len(blocks)} and 1 — not a classifier of this shape"
        )
    with torch.no_grad():
        for block, node in zip(blocks, convs, strict=True):
            conv, norm = block[0], block[1]
            weight = torch.from_numpy(weights[node.input[1]].copy())
            if weight.shape != conv.weight.shape:
                raise ValueError(
                    f"{path}: convolution {node.name} is {tuple(weight.shape)}, expected {tuple(conv.weight.shape)}"
                )
            conv.weight.copy_(weight)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0)
            norm.weight.fill_(float((1.0 + norm.eps) ** 0.5))
            norm.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
        linear = model.head[2]
        linear.weight.copy_(torch.from_numpy(weights[gemms[0].input[1]].copy()))
        linear.bias.copy_(torch.from_numpy(weights[gemms[0].input[2]].copy()))
    return model


def freeze_batch_norm(model: nn.Module) -> None:
    """Batch norms use (and keep) their running statistics while the rest trains."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
