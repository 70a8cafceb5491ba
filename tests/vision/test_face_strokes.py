"""Thicker and thinner strokes (``vision.render.face_strokes``): faces redrawn with their ink
grown or shrunk, colours kept, drawn by the renderer and the seat views, and still read by the
shipped classifier."""

import cv2
import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import crop_tile
from vision.classify.labels import BACK_LABEL, LABEL_COUNT, WHITE_DRAGON_LABEL, kind_of_label
from vision.render.face_strokes import ink_share, restroked, stroke_varied
from vision.render.renderer import RenderOptions, render_table
from vision.render.seat_view import render_seat_view
from vision.render.tile_art import ArtStyle, load_tile_art
from vision.render.tile_palette import palette_art, palette_of_table

DRAWN = [label for label in range(LABEL_COUNT) if label not in (WHITE_DRAGON_LABEL, BACK_LABEL)]
# Measured by bench/bench_face_styles.py (seeds 3_200_000.., 8 tables, 665 crops): 0.980 at -2
# and 0.992 at +2 px on the held-out black style, 0.994 as drawn. These tables are others
# (3_300_000..); the floor leaves a margin.
KIND_ACCURACY_FLOOR = 0.95


@pytest.fixture(scope="module", params=["regular", "black", "palette"])
def art(request):
    if request.param == "palette":
        return palette_art(palette_of_table(4_000_003))
    return load_tile_art(ArtStyle(request.param))


def test_thicker_strokes_cover_more_of_every_face_and_thinner_ones_less(art):
    for label in DRAWN:
        face = art.image(label)
        thin, plain, thick = (ink_share(restroked(face, change)) for change in (-1.5, 0.0, 1.5))
        assert thin < plain - 0.01 < thick - 0.02, label


def test_grown_ink_is_drawn_in_the_face_s_own_inks(art):
    for label in (0, 9, 27, 32, 34):  # 1m, 1p, east, green dragon, red 5m: black, navy, blue, green, red
        face = art.image(label)
        thick = restroked(face, 2.0)
        grown = (np.abs(thick[..., :3].astype(int) - face[..., :3].astype(int)).max(axis=2) > 60) & (_solid_ink(thick))
        assert grown.sum() > 100, label
        inks = np.unique(face[..., :3][_solid_ink(face)].astype(int) // 4 * 4, axis=0)
        distances = np.abs(thick[..., :3][grown].astype(int)[:, None, :] - inks[None, :, :]).max(axis=2).min(axis=1)
        # Within a little of an ink the face already had (the new edges are antialiased).
        assert np.mean(distances <= 30) > 0.97, label


def _solid_ink(face):
    return _differs_from_body(face, face, 90)


def test_what_the_change_does_not_reach_keeps_its_exact_pixels():
    for label in (0, 17, 27):
        face = load_tile_art(ArtStyle.REGULAR).image(label)
        drawn = _differs_from_body(face, face, 20)
        far = cv2.distanceTransform((~drawn).astype(np.uint8), cv2.DIST_L2, 5)  # art pixels from any ink
        for change in (-2.0, 2.0):
            changed = np.abs(restroked(face, change).astype(int) - face.astype(int)).max(axis=2) > 0
            assert changed.sum() > 300
            assert not changed[far > abs(change) + 2].any()
            assert not changed[:, :6].any()  # the rim
            assert not changed[:, -6:].any()


def test_thinning_keeps_every_part_of_every_symbol(art):
    for label in DRAWN:
        face = art.image(label)
        thin = restroked(face, -2.0)
        count, parts = cv2.connectedComponents(_solid_ink(face).astype(np.uint8))
        for part in range(1, count + 1):
            where = parts == part
            if where.sum() >= 12:  # a part at least a few pixels across
                assert _differs_from_body(thin, face, 60)[where].any(), (label, part)


def _differs_from_body(image, face, by):
    """Pixels of ``image`` more than ``by`` from ``face``'s body colour (read on its rim)."""
    rim = np.concatenate([face[8:-8, 3:6, :3].reshape(-1, 3), face[8:-8, -6:-3, :3].reshape(-1, 3)])
    return np.abs(image[..., :3].astype(int) - np.median(rim, axis=0)).max(axis=2) > by


def test_no_change_is_the_art_itself_and_backs_are_never_restroked():
    art = load_tile_art(ArtStyle.REGULAR)
    assert stroke_varied(art, 0.0) is art
    thick = stroke_varied(art, 1.0)
    assert thick is stroke_varied(art, 1.0)  # cached: a renderer asks per table
    assert np.array_equal(thick.image(BACK_LABEL, 62), art.image(BACK_LABEL, 62))
    assert np.array_equal(thick.image(WHITE_DRAGON_LABEL), art.image(WHITE_DRAGON_LABEL))  # a bare body
    assert not np.array_equal(thick.image(0), art.image(0))


def test_a_stroke_varied_table_has_the_same_tiles_in_the_same_places():
    options = RenderOptions(size=(960, 540), effects=False)
    plain = render_table(11, options)
    thin = render_table(11, RenderOptions(size=(960, 540), effects=False, strokes=-1.5))
    assert [t.label for t in plain.truths] == [t.label for t in thin.truths]
    assert all(np.allclose(a.corners, b.corners) for a, b in zip(plain.truths, thin.truths, strict=True))
    assert np.abs(plain.image.astype(int) - thin.image.astype(int)).mean() > 0.2
    again = render_table(11, RenderOptions(size=(960, 540), effects=False, strokes=-1.5))
    assert np.array_equal(again.image, thin.image)


def test_a_stroke_varied_seat_view_has_the_same_tiles():
    plain = render_seat_view(5_000_123)
    thick = render_seat_view(5_000_123, strokes=2.0)
    assert [t.label for t in plain.truths] == [t.label for t in thick.truths]
    assert np.abs(plain.image.astype(int) - thick.image.astype(int)).mean() > 0.2


@pytest.mark.parametrize("change", [-2.0, 2.0])
def test_the_shipped_classifier_reads_held_out_tables_with_thicker_and_thinner_strokes(change):
    classifier = OnnxTileClassifier()
    crops, kinds = [], []
    for seed in range(3_300_000, 3_300_003):
        options = RenderOptions(size=(1280, 720), style=ArtStyle.BLACK, px_per_mm=(1.0, 2.0), strokes=change)
        table = render_table(seed, options)
        crops += [crop_tile(table.image, truth.corners) for truth in table.truths]
        kinds += [kind_of_label(truth.label) for truth in table.truths]
    read = [kind_of_label(reading.label) for reading in classifier.classify(np.stack(crops))]
    assert len(kinds) > 150
    assert float(np.mean(np.array(read) == np.array(kinds))) >= KIND_ACCURACY_FLOOR
