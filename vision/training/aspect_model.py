"""The aspect judge's network: a small CNN over a tile's crop, one output (the log stretch).

Flattened, not pooled, before its last layers: the proportions of the tile's face, top and
side and where they lie in the crop are the whole question. A strided first layer keeps it
cheap on a CPU (about 12 M multiply-adds a crop).
"""

from __future__ import annotations

import torch
from torch import nn

from vision.detect.aspect_judge import INPUT_SIZE
from vision.training.model import conv_block

#: Input normalisation: ``(pixel / 255 - MEAN) / STD`` on BGR crops (written to the metadata).
MEAN = 0.5
STD = 0.25


def _stage(inputs: int, outputs: int) -> nn.Sequential:
    return nn.Sequential(conv_block(inputs, outputs), conv_block(outputs, outputs), nn.MaxPool2d(2))


class AspectNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, 16, stride=2),  # 32×32
            _stage(16, 32),  # 16×16
            _stage(32, 48),  # 8×8
            _stage(48, 64),  # 4×4
        )
        side = INPUT_SIZE // 16
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(64 * side * side, 64), nn.ReLU(inplace=True), nn.Linear(64, 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x))
        return out
