"""The sideways judge's network: a small CNN over a row-aligned crop, one logit (sideways).

Flattened, not pooled, before its last layers: where the tile's edges lie relative to the
crop's centre (across or along the row) is the whole question, and global pooling would
throw that position away. About 3 M multiply-adds a crop.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.sideways_judge import INPUT_SIZE

#: Input normalisation: ``(pixel / 255 - MEAN) / STD`` on BGR crops (written to the metadata).
MEAN = 0.5
STD = 0.25


def _block(inputs: int, outputs: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(inplace=True),
    )


class SidewaysNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 16, stride=2),  # 20
            _block(16, 24),
            _block(24, 32, stride=2),  # 10
            _block(32, 32),
            _block(32, 48, stride=2),  # 5
        )
        side = (INPUT_SIZE + 7) // 8
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * side * side, 64), nn.ReLU(inplace=True), nn.Linear(64, 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x))
        return out
