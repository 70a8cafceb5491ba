"""The gaps' face level (``vision.live.table_reader.gaps.face_level``): the 80th percentile of
the grey under the placed faces, counted from a histogram, is numpy's percentile to the bit."""

from __future__ import annotations

import numpy as np
import pytest

from vision.live.table_reader.gaps import face_level


@pytest.mark.parametrize("seed", range(8))
def test_the_face_level_is_numpy_s_percentile_to_the_bit(seed):
    """Any count of face pixels (one, two, a few, many: every weight of the interpolation, below
    and past half way), greys spread or a few levels far apart."""
    rng = np.random.default_rng(seed)
    for _ in range(300):
        height, width = (int(v) for v in rng.integers(1, 50, 2))
        if rng.random() < 0.5:
            gray = rng.integers(int(rng.integers(0, 250)), 256, (height, width), dtype=np.uint8)
        else:
            gray = rng.choice(np.array([3, 9, 140, 255], np.uint8), (height, width))
        faces = (rng.random((height, width)) < rng.choice([0.002, 0.05, 0.5, 1.0])).astype(np.uint8)
        faces[rng.integers(0, height), rng.integers(0, width)] = 1
        expected = float(np.percentile(gray[faces > 0], 80))
        assert face_level(gray, faces) == expected


def test_one_face_pixel_and_a_view_of_faces():
    gray = np.arange(100, dtype=np.uint8).reshape(10, 10)
    faces = np.zeros_like(gray)
    faces[3, 7] = 1
    assert face_level(gray, faces) == 37.0
    assert face_level(gray, np.ones_like(gray)) == pytest.approx(79.2)
