"""The light over a table learnt frame by frame (vision.live.light_meter): a table reader with a
meter reads a table under a warm lamp as under its own light, after a frame or two, and a table
under its own light exactly as without one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.labels import BACK_LABEL
from vision.detect.face_white import CAST_AT_LEAST, FACE_GROUND, cast_of, light_colour
from vision.detect.still_photo import Detection
from vision.eval.photo_changes import pixel_change
from vision.live.light_meter import LEAST_GAIN, MOST_GAIN, SETTLED_WITHIN, LightMeter
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import differences, picked_calibration, random_overhead_camera
from vision.render.layout import random_layout
from vision.render.renderer import RenderOptions, render_table

IVORY = (226, 236, 240)


def _faces(count: int = 5, ground=IVORY):
    image = np.zeros((120, 60 * count + 20, 3), np.uint8)
    image[:] = (40, 110, 30)
    found = []
    for index in range(count):
        x = 20 + 60 * index
        image[30:86, x : x + 40] = ground
        image[50:60, x + 8 : x + 32] = (20, 20, 20)
        corners = np.array([[x, 30], [x + 39, 30], [x + 39, 85], [x, 85]], np.float64)
        found.append(Detection(corners, TileReading(0, 0.9, False, False), False))
    return image, found


def _lit(image, blue, green, red):
    return np.clip(image.astype(np.float32) * np.array([blue, green, red], np.float32), 0, 255).astype(np.uint8)


def test_a_neutral_light_leaves_the_meter_and_the_frames_as_they_are():
    image, found = _faces()
    meter = LightMeter()
    for _ in range(3):
        assert meter.set_right(image) is image
        meter.update(image, found)
    assert meter.gains == (1.0, 1.0)
    # A light cast, but less than a still photograph is set right for, does not start it either.
    slight = _lit(image, 0.9, 1.0, 1.0)
    assert cast_of(light_colour(slight, found)) < CAST_AT_LEAST
    meter.update(slight, found)
    assert meter.neutral


def test_under_a_warm_lamp_the_gains_close_in_on_the_light_frame_by_frame():
    image, found = _faces()
    warm = _lit(image, 0.7, 0.95, 1.1)
    meter = LightMeter()
    casts = []
    for _ in range(8):
        righted = meter.set_right(warm)
        casts.append(cast_of(light_colour(righted, found)))
        meter.update(righted, found)
    assert casts[0] >= CAST_AT_LEAST
    assert all(later <= earlier + 1e-9 for earlier, later in itertools.pairwise(casts))
    assert casts[-1] < 2 * SETTLED_WITHIN
    assert meter.gains[0] > 1.2  # blue brought up
    assert light_colour(meter.set_right(warm), found) == pytest.approx(FACE_GROUND, abs=0.04)


def test_backs_and_a_wild_frame_do_not_throw_the_meter():
    image, found = _faces(5, ground=(230, 120, 40))  # blue backs, read face down
    backs = [Detection(d.corners, TileReading(BACK_LABEL, 0.99, False, False), False) for d in found]
    assert all(d.reading.face_down for d in backs)
    meter = LightMeter()
    meter.update(image, backs)
    assert meter.neutral
    # Read as faces, a whole frame of them would push the gains far: they stay within bounds.
    for _ in range(20):
        meter.update(meter.set_right(image), found)
    assert min(meter.gains) >= LEAST_GAIN
    assert max(meter.gains) <= MOST_GAIN


@pytest.fixture(scope="module")
def classifier() -> OnnxTileClassifier:
    return OnnxTileClassifier()


def _warm_table(seed: int):
    rng = np.random.default_rng(seed)
    camera = random_overhead_camera(rng)
    layout = random_layout(rng, extras=True)
    rendered = render_table(seed, RenderOptions(camera=camera), layout)
    warm = pixel_change("warm")(rendered.image, 0.75 * rendered.tile_height_px)
    return picked_calibration(camera), layout, rendered.image, warm


def test_a_metered_reader_reads_a_table_under_a_warm_lamp_as_under_its_own_light(classifier):
    """Seed 71 000 through a random overhead camera with effects: under its own light it reads
    exactly; under the warm lamp, read as it comes, 3 differences (measured); with a meter, the
    first frame reads as it comes and the next ones exactly."""
    calibration, layout, own, warm = _warm_table(71_000)
    assert differences(layout, TableReader(calibration, classifier).read_image(own)).all == ()
    assert differences(layout, TableReader(calibration, classifier).read_image(warm)).all != ()
    meter = LightMeter()
    reader = TableReader(calibration, classifier, light=meter)
    first = reader.read_image(warm)
    assert not meter.neutral
    for _ in range(2):
        assert differences(layout, reader.read_image(warm)).all == ()
    assert len(differences(layout, first).all) >= 1
    # Under its own light a metered reader reads as an unmetered one and its meter stays.
    own_meter = LightMeter()
    metered = TableReader(calibration, classifier, light=own_meter)
    assert differences(layout, metered.read_image(own)).all == ()
    assert own_meter.neutral


def test_a_wrong_frame_is_refused_by_name_and_leaves_the_meter_as_it_was(classifier):
    calibration, _, _, warm = _warm_table(71_000)
    meter = LightMeter()
    reader = TableReader(calibration, classifier, light=meter)
    reader.read_image(warm)
    gains = meter.gains
    with pytest.raises(ValueError, match="BGR uint8"):
        reader.read_image(warm[:, :, 0])
    with pytest.raises(ValueError, match="calibration was made for"):
        reader.read_image(warm[:720, :1280])
    assert meter.gains == gains
