"""The face styles the training recipes add to their art mix (``vision.training.face_mix``):
off by default (every table as before), a share of stroke-varied tables, enrolled faces."""

import argparse

import cv2
import numpy as np
import pytest

from vision.enrollment.face_images import face_file_name, face_images_sha256
from vision.render.enrolled_faces import EnrolledFaces
from vision.render.renderer import RenderOptions, with_art
from vision.render.tile_art import ArtStyle
from vision.training.dataset import render_crops, training_art
from vision.training.face_mix import NO_FACE_STYLES, STROKE_CHANGES_PX, FaceMix, face_mix_of
from vision.training.recipe_options import add_recipe_options, recipe_from
from vision.training.seat_view_set import write_set

SMALL = RenderOptions(size=(640, 360), px_per_mm=(1.6, 1.8))


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    """A face folder drawn from the regular art itself, every kind and no red fives."""
    folder = tmp_path_factory.mktemp("faces")
    from vision.render.tile_art import load_tile_art

    art = load_tile_art(ArtStyle.REGULAR)
    for label in range(34):
        cv2.imwrite(str(folder / face_file_name(label)), art.image(label)[..., :3])
    return EnrolledFaces(folder)


def test_the_default_mix_changes_no_table():
    for seed in range(200):
        art = training_art(seed)
        assert NO_FACE_STYLES.art(seed, art) is art
        assert NO_FACE_STYLES.strokes(seed) == 0.0
    assert NO_FACE_STYLES.cache_tag() == ""
    # What the recipes render for a table with the default mix are the options they rendered before.
    for seed in range(16):
        art = training_art(seed)
        mixed = with_art(SMALL, NO_FACE_STYLES.art(seed, art), NO_FACE_STYLES.strokes(seed))
        assert mixed == with_art(SMALL, art)
        assert mixed.strokes == 0.0
        assert mixed.faces is None


def test_a_share_of_tables_is_drawn_with_thicker_or_thinner_strokes():
    mix = FaceMix(stroke_share=0.25)
    changes = [mix.strokes(seed) for seed in range(800)]
    varied = [c for c in changes if c]
    assert 0.2 < len(varied) / len(changes) < 0.3
    assert {abs(c) for c in varied} == set(STROKE_CHANGES_PX)
    assert min(varied) < 0 < max(varied)
    assert changes == [mix.strokes(seed) for seed in range(800)]  # the same seed, the same table
    assert mix.cache_tag() == "-strokes0.25"


def test_stroke_varied_training_crops_are_the_same_tiles_in_other_strokes():
    mix = FaceMix(stroke_share=1.0)
    plain = render_crops(range(2), training_art, options=SMALL)
    varied = render_crops(range(2), training_art, options=SMALL, mix=mix)
    assert np.array_equal(plain.labels, varied.labels)
    assert np.array_equal(plain.flipped, varied.flipped)
    assert np.abs(plain.images.astype(int) - varied.images.astype(int)).mean() > 1.0


def test_enrolled_faces_are_drawn_on_their_share_of_tables_and_recorded(faces):
    mix = FaceMix(faces=faces, faces_share=0.5)
    arts = [mix.art(seed, training_art(seed)) for seed in range(400)]
    share = sum(art == faces for art in arts) / len(arts)
    assert 0.4 < share < 0.6
    record = mix.record()
    assert record["faces"] == {"folder": str(faces.folder), "sha256": face_images_sha256(faces.folder), "share": 0.5}
    assert record["stroke_share"] == 0.0
    assert mix.cache_tag().startswith("-strokes0-faces")


def test_the_recipe_options_carry_the_mix(faces):
    pytest.importorskip("torch")  # the classifier's recipe module needs the train extra
    from vision.training.train import Recipe

    parser = argparse.ArgumentParser()
    add_recipe_options(parser, Recipe(), "classifier", "photos")
    args = parser.parse_args(["--stroke-share", "0.1", "--faces", str(faces.folder), "--faces-share", "0.3"])
    recipe = recipe_from(args, Recipe())
    assert (recipe.stroke_share, recipe.faces, recipe.faces_share) == (0.1, str(faces.folder), 0.3)
    assert face_mix_of(recipe.stroke_share, recipe.faces, recipe.faces_share) == FaceMix(0.1, faces, 0.3)
    default = recipe_from(parser.parse_args([]), Recipe())
    assert face_mix_of(default.stroke_share, default.faces, default.faces_share) == NO_FACE_STYLES


def test_a_share_outside_0_to_1_is_refused():
    with pytest.raises(ValueError, match=r"stroke-share must be 0-1, got 1\.5"):
        FaceMix(stroke_share=1.5)
    with pytest.raises(ValueError, match="faces-share must be 0-1"):
        FaceMix(faces_share=-0.1)


def test_the_seat_view_set_records_its_face_styles(faces, tmp_path):
    import json

    write_set(tmp_path, 2, mix=FaceMix(stroke_share=0.5, faces=faces, faces_share=0.5))
    document = json.loads((tmp_path / "labels.json").read_text())
    assert document["face_styles"]["stroke_share"] == 0.5
    assert document["face_styles"]["faces"]["folder"] == str(faces.folder)
    assert len(document["images"]) == 2
