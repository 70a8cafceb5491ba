"""The tile art ships inside the package: nothing outside the repository is read at run time."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from vision.classify.labels import BACK_LABEL, LABEL_COUNT, art_name
from vision.render.tile_art import VENDORED_ART, ArtStyle, default_art_root, load_tile_art

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_the_default_art_is_the_vendored_copy_inside_the_package(monkeypatch):
    monkeypatch.delenv("JANTAKU_TILE_ART", raising=False)
    assert default_art_root() == VENDORED_ART
    assert VENDORED_ART.is_relative_to(REPO_ROOT / "vision")


def test_the_environment_variable_still_points_elsewhere(monkeypatch, tmp_path):
    monkeypatch.setenv("JANTAKU_TILE_ART", str(tmp_path))
    assert default_art_root() == tmp_path


def test_every_file_a_loader_reads_is_vendored_with_its_licence():
    faces = {art_name(label) for label in range(LABEL_COUNT) if label != BACK_LABEL}
    for name in faces | {"Front", "Back", "Haku"}:
        assert (VENDORED_ART / "Regular" / f"{name}.png").is_file(), name
    for name in (faces - {"Haku"}) | {"Front"}:
        assert (VENDORED_ART / "Black" / f"{name}.png").is_file(), name
    licence = (VENDORED_ART.parent / "LICENSE.md").read_text()
    assert "public domain" in licence
    assert "CC0" in (VENDORED_ART.parent / "README.md").read_text()


@pytest.mark.parametrize("style", list(ArtStyle))
def test_every_style_loads_from_the_vendored_art(style):
    art = load_tile_art(style, VENDORED_ART)
    assert len(art.images) == LABEL_COUNT


def test_the_package_data_ships_every_vendored_file():
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["vision"]
    package = REPO_ROOT / "vision"
    files = [path.relative_to(package).as_posix() for path in (package / "art").rglob("*") if path.is_file()]
    assert files
    unshipped = [name for name in files if not any(fnmatch(name, pattern) for pattern in patterns)]
    assert unshipped == []
