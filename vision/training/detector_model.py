"""The tile-centre network: a small fully convolutional encoder-decoder (CenterNet-like).

Encoder to stride 8 (dilated convolutions there widen the view to a few tiles, which is what
tells a sideways tile in a row and where a dark row's seams must be), then back up to
stride 2 with skip connections, and a 1×1 head with the channels of
:data:`vision.find.centres.CHANNELS`. About 0.1 M parameters at ``width`` 1; ``width``
scales every layer's channels (the cost of a frame grows about as its square).
"""

from __future__ import annotations

import math

import torch
from torch import nn

from vision.find.centres import CHANNELS


def _conv(inputs: int, outputs: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, 3, stride=stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(inplace=True),
    )


def _separable(channels: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False),
        nn.Conv2d(channels, channels, 1, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(inplace=True),
    )


class TileCentreNet(nn.Module):
    def __init__(self, width: float = 1.0) -> None:
        super().__init__()
        c1, c2, c3 = (max(8, round(channels * width / 8) * 8) for channels in (16, 32, 48))
        self.stem = _conv(3, c1, stride=2)  # stride 2
        self.down4 = nn.Sequential(_conv(c1, c2, stride=2), _conv(c2, c2))  # stride 4
        self.down8 = nn.Sequential(_conv(c2, c3, stride=2), _conv(c3, c3, dilation=2), _conv(c3, c3, dilation=4))
        self.lateral8 = nn.Conv2d(c3, c2, 1)
        self.up4 = _separable(c2)
        self.lateral4 = nn.Conv2d(c2, c1, 1)
        self.up2 = nn.Sequential(_separable(c1), _separable(c1))
        self.head = nn.Conv2d(c1, len(CHANNELS), 1)
        bias = self.head.bias
        assert bias is not None
        with torch.no_grad():  # start the heat map at a low prior, as CenterNet does
            bias.zero_()
            bias[0] = -math.log((1 - 0.01) / 0.01)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s2 = self.stem(x)
        s4 = self.down4(s2)
        s8 = self.down8(s4)
        up = nn.functional.interpolate(self.lateral8(s8), scale_factor=2.0, mode="nearest") + s4
        up = self.up4(up)
        up = nn.functional.interpolate(self.lateral4(up), scale_factor=2.0, mode="nearest") + s2
        out: torch.Tensor = self.head(self.up2(up))
        return out
