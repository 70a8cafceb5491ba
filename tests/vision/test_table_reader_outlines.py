"""Light on the felt is no occluder: a blob of not-felt whose outline fades into the felt (a
lamp's glare, the felt's lighter patches) is told from something over the table, which ends at
an edge (``vision.live.table_reader.outlines``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.table_reader.outlines import OUTLINE_STEP, colour_steps, outline_sums, outlined

FELT = np.array([120, 60, 20], np.float32)  # BGR: blue felt
SKIN = np.array([125, 160, 215], np.float32)


def felt_with(rng: np.random.Generator, shape: tuple[int, int] = (200, 400)) -> np.ndarray:
    """Felt with its fine noise (σ 3 levels), float32 BGR."""
    return FELT + rng.normal(0, 3, (*shape, 3)).astype(np.float32)


def glare_and_arm() -> tuple[np.ndarray, np.ndarray]:
    """A view with a soft glare spot on the left (label 1) and a sharp-edged arm on the right
    (label 2): the image (uint8 BGR) and the blobs' labels as the felt mask would give them."""
    rng = np.random.default_rng(5)
    image = felt_with(rng)
    ys, xs = np.mgrid[0:200, 0:400].astype(np.float32)
    spot = 40.0 * np.exp(-((xs - 100) ** 2 + (ys - 100) ** 2) / (2 * 50.0**2))
    image += spot[..., None]
    arm = np.zeros((200, 400), np.float32)
    arm[40:160, 260:340] = 1.0
    arm = cv2.GaussianBlur(arm, (0, 0), 3.0)  # the lens blurs its edge a little
    image = image * (1 - arm[..., None]) + SKIN * arm[..., None]
    labels = np.zeros((200, 400), np.int32)
    labels[spot > 15.0] = 1  # where the glare shifts the felt's colour past the mask's threshold
    labels[arm > 0.5] = 2
    return np.clip(image, 0, 255).astype(np.uint8), labels


def test_a_step_of_one_level_a_pixel_reads_one():
    ramp = np.tile(np.arange(100, dtype=np.float32), (60, 1))
    steps = colour_steps(np.clip(ramp, 0, 255).astype(np.uint8))
    assert np.median(steps[20:40, 20:80]) == np.float32(1.0)


def test_an_arm_s_outline_is_a_step_and_glare_s_is_not():
    image, labels = glare_and_arm()
    sums, pixels = outline_sums(labels, image, 3)
    assert pixels[1] > 100
    assert pixels[2] > 100
    assert sums[1] / pixels[1] < OUTLINE_STEP / 2
    assert sums[2] / pixels[2] > 2 * OUTLINE_STEP
    assert outlined(np.array([1, 2]), [(labels, image)], 3).tolist() == [2]


def test_a_blob_cut_by_the_part_s_edge_has_no_outline_there_and_one_covering_it_stays():
    image, labels = glare_and_arm()
    # Only the arm's middle: it covers the whole part, so it has no outline to judge it by.
    part = (labels[60:140, 280:320], image[60:140, 280:320])
    _, pixels = outline_sums(*part, 3)
    assert pixels[2] == 0
    assert outlined(np.array([2]), [part], 3).tolist() == [2]
