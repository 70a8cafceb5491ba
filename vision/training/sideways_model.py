"""The sideways judge's network: a small CNN over a row-aligned crop, one logit (sideways).

Flattened, not pooled, before its last layers: where the tile's edges lie relative to the
crop's centre (across or along the row) is the whole question, and global pooling would
throw that position away. About 5 M multiply-adds a crop.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.detect.sideways_judge import INPUT_SIZE
from vision.training.model import conv_block

#: Input normalisation: ``(pixel / 255 - MEAN) / STD`` on BGR crops (written to the metadata).
MEAN = 0.5
STD = 0.25


class SidewaysNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, 16, stride=2),  # 24×24
            conv_block(16, 24),
            conv_block(24, 32, stride=2),  # 12×12
            conv_block(32, 32),
            conv_block(32, 48, stride=2),  # 6×6
        )
        side = (INPUT_SIZE + 7) // 8
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * side * side, 64), nn.ReLU(inplace=True), nn.Linear(64, 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x))
        return out
