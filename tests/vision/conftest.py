"""Fixtures the vision tests share: the shipped classifier and a rendered table of the held-out
art, made once a session."""

from __future__ import annotations

import pytest

from vision.classify.classifier import OnnxTileClassifier
from vision.render.renderer import RenderedTable, RenderOptions, render_table
from vision.render.tile_art import ArtStyle

#: The held-out `black` art, sharp, faces ~50 px long.
HELD_OUT = RenderOptions(size=(1920, 1080), style=ArtStyle.BLACK, px_per_mm=(2.2, 2.2), effects=False)


@pytest.fixture(scope="session")
def shipped_classifier() -> OnnxTileClassifier:
    return OnnxTileClassifier()


@pytest.fixture(scope="session")
def held_out_table() -> RenderedTable:
    return render_table(2_000_011, HELD_OUT)
