"""Random palettes for training: the regular art recoloured, with red fives kept red."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classify.labels import BACK_LABEL, LABEL_COUNT
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ART_SIZE, ArtStyle, load_tile_art
from vision.render.tile_palette import Ink, Palette, palette_art, random_palette
from vision.training.dataset import training_art

WHITE_DRAGON = 31
FIVES = {4: 34, 13: 35, 22: 36}  # 5m, 5p, 5s and their red labels


def _lightness(colour: tuple[int, int, int]) -> float:
    return float(cv2.cvtColor(np.array([[colour]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0])


def _hsv(image: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(np.ascontiguousarray(image[..., :3]), cv2.COLOR_BGR2HSV))


def _red_share(image: np.ndarray, body: np.ndarray) -> float:
    """Of the pixels that differ from the bare body, the share drawn in a saturated red."""
    hsv = _hsv(image)
    drawn = np.abs(image[..., :3].astype(int) - body[..., :3].astype(int)).max(axis=2) > 60
    red = (hsv[..., 1] > 120) & ((hsv[..., 0] <= 10) | (hsv[..., 0] >= 170))
    return float((red & drawn).sum() / max(drawn.sum(), 1))


@pytest.mark.parametrize("seed", range(12))
def test_inks_stand_out_from_the_body_and_only_red_fives_are_red(seed):
    palette = random_palette(np.random.default_rng(seed))
    for role in (Ink.BLACK, Ink.NAVY, Ink.RED, Ink.GREEN, Ink.BLUE):
        assert abs(_lightness(palette.ink(role)) - _lightness(palette.body)) >= 70, role
    art = palette_art(palette)
    body = art.image(WHITE_DRAGON)
    for five, red_five in FIVES.items():
        red_share = _red_share(art.image(red_five), body)
        assert red_share > 0.7
        # An ordinary five draws much of itself in the suit's own inks, which are never that red.
        assert _red_share(art.image(five), body) < red_share - 0.3


def test_the_same_seed_gives_the_same_palette_and_another_seed_another():
    first = random_palette(np.random.default_rng(3))
    assert first == random_palette(np.random.default_rng(3))
    assert first != random_palette(np.random.default_rng(4))


def test_palette_art_has_every_label_at_the_art_size_and_the_white_dragon_is_the_bare_body():
    palette = Palette(body=(40, 40, 40), inks=((230, 230, 230),) * 6 + ((30, 30, 220),))
    art = palette_art(palette)
    assert len(art.images) == LABEL_COUNT
    assert all(image.shape == (ART_SIZE[1], ART_SIZE[0], 4) for image in art.images)
    centre = art.image(WHITE_DRAGON)[90:110, 65:85, :3].reshape(-1, 3).mean(axis=0)
    assert np.allclose(centre, 40, atol=6)
    # Light symbols on a dark body: the 1 of bamboo is now mostly light where it is drawn.
    bamboo = art.image(18)[..., :3].astype(int)
    assert (bamboo.max(axis=2) > 180).mean() > 0.1
    # The back stays the regular back (tables give it its hue).
    assert np.array_equal(art.image(BACK_LABEL), load_tile_art(ArtStyle.REGULAR).image(BACK_LABEL))


def test_a_palette_table_has_the_same_tiles_in_the_same_places_in_other_colours():
    options = RenderOptions(size=(960, 540), effects=False)
    regular = render_table(11, options)
    painted = render_table(
        11, RenderOptions(size=(960, 540), effects=False, palette=random_palette(np.random.default_rng(1)))
    )
    assert [t.label for t in regular.truths] == [t.label for t in painted.truths]
    assert all(np.allclose(a.corners, b.corners) for a, b in zip(regular.truths, painted.truths, strict=True))
    assert np.abs(regular.image.astype(int) - painted.image.astype(int)).mean() > 1.0


def test_training_tables_mix_the_regular_styles_with_a_palette_of_their_own():
    arts = [training_art(seed) for seed in range(80)]
    palettes = [art for art in arts if isinstance(art, Palette)]
    assert len(palettes) == 40
    assert len(set(palettes)) == 40
    assert arts.count(ArtStyle.REGULAR) == 30
    assert arts.count(ArtStyle.REGULAR_DARK) == 10
    assert ArtStyle.BLACK not in arts  # the held-out style never trains
