"""The tile classifier network: a small CNN, about 11 M multiply-adds per tile.

Outputs 76 logits: the 38 labels read the right way up, then the same 38 read upside down.
Summing the two halves' probabilities gives the label; comparing them gives the orientation.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.classify.labels import LABEL_COUNT

#: Input normalisation: ``(pixel / 255 - MEAN) / STD`` on BGR crops (written to the metadata).
MEAN = 0.5
STD = 0.25


def conv_block(inputs: int, outputs: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(inplace=True),
    )


class TileNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, 16),
            conv_block(16, 32, stride=2),
            conv_block(32, 32),
            nn.MaxPool2d(2),
            conv_block(32, 64),
            conv_block(64, 64),
            nn.MaxPool2d(2),
            conv_block(64, 128),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, 2 * LABEL_COUNT))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.features(x))
        return logits
