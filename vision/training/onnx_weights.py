"""Start a network from a shipped ONNX model's weights (fine-tuning; needs the ``train`` extra).

The exporter folds each batch norm into the convolution before it, so the ONNX file holds a
weight (and a bias) per convolution, in the order the network runs them — the order its
modules are registered in, for the classifier (:class:`TileNet`) and the detector
(:class:`TileCentreNet`). The weights go back into the convolutions; a batch norm after a
convolution becomes the identity plus the folded bias (mean 0, variance 1). Fine-tuning
keeps the batch norms' statistics fixed (:func:`freeze_batch_norm`): a batch of new data
must not rescale features the rest of the network was trained to read.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from vision.training.detector_model import TileCentreNet
from vision.training.model import TileNet


def classifier_from_onnx(path: Path) -> TileNet:
    """A :class:`TileNet` holding the weights of the classifier at ``path``."""
    model = TileNet()
    load_folded_weights(model, path)
    return model


def detector_from_onnx(path: Path, width: float = 1.0) -> TileCentreNet:
    """A :class:`TileCentreNet` of ``width`` holding the weights of the detector at ``path``."""
    model = TileCentreNet(width)
    load_folded_weights(model, path)
    return model


def load_folded_weights(model: nn.Module, path: Path) -> None:
    """Copy an exported model's folded weights into ``model`` (same architecture)."""
    graph = onnx.load(str(path)).graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    layers = [node for node in graph.node if node.op_type in ("Conv", "Gemm")]
    ours = _layers_with_norms(model)
    if len(layers) != len(ours):
        raise ValueError(
            f"{path}: {len(layers)} convolutions and linear layers; this {type(model).__name__} has {len(ours)} "
            "— not a model of this shape"
        )
    with torch.no_grad():
        for (layer, norm), node in zip(ours, layers, strict=True):
            weight = weights[node.input[1]]
            if tuple(weight.shape) != tuple(layer.weight.shape):
                raise ValueError(
                    f"{path}: {node.op_type} {node.name or node.input[1]} is {tuple(weight.shape)}, "
                    f"expected {tuple(layer.weight.shape)} — not a model of this shape"
                )
            layer.weight.copy_(torch.from_numpy(np.array(weight)))
            bias = torch.from_numpy(np.array(weights[node.input[2]])) if len(node.input) > 2 else None
            if norm is not None:
                assert norm.running_mean is not None
                assert norm.running_var is not None
                assert norm.weight is not None
                assert norm.bias is not None
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0)
                norm.weight.fill_(float((1.0 + norm.eps) ** 0.5))
                norm.bias.copy_(bias if bias is not None else torch.zeros_like(norm.bias))
            elif layer.bias is not None:
                layer.bias.copy_(bias if bias is not None else torch.zeros_like(layer.bias))


def _layers_with_norms(model: nn.Module) -> list[tuple[nn.Conv2d | nn.Linear, nn.BatchNorm2d | None]]:
    """Every convolution and linear layer in registration order, each with the batch norm right after it."""
    following: dict[int, nn.BatchNorm2d] = {}
    for module in model.modules():
        if isinstance(module, nn.Sequential):
            children = list(module.children())
            for before, after in itertools.pairwise(children):
                if isinstance(after, nn.BatchNorm2d):
                    following[id(before)] = after
    return [(m, following.get(id(m))) for m in model.modules() if isinstance(m, nn.Conv2d | nn.Linear)]


def freeze_batch_norm(model: nn.Module) -> None:
    """Batch norms use (and keep) their running statistics while the rest trains."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
