"""Outlier crops for training: quads that hold no single whole tile."""

from __future__ import annotations

import json

import numpy as np

from vision.classify.classifier import DEFAULT_MODEL
from vision.classify.crops import CROP_SIZE, quarter_turned
from vision.classify.labels import LABEL_COUNT
from vision.geometry import angle_difference, angle_of_corners
from vision.render.renderer import RenderOptions, render_table
from vision.training.dataset import render_crops
from vision.training.metrics import UNCERTAIN_BELOW, outliers_read_as_sure
from vision.training.outliers import noise_crops, outlier_crops, straddling

UPRIGHT = np.array([[100.0, 100.0], [130.0, 100.0], [130.0, 140.0], [100.0, 140.0]])  # 30 wide, 40 tall


def _sides(quad: np.ndarray) -> tuple[float, float]:
    return float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[3] - quad[0]))


def test_a_quarter_turned_quad_keeps_the_centre_and_face_size_with_its_long_edge_across():
    turned = quarter_turned(UPRIGHT)
    assert np.allclose(turned.mean(axis=0), UPRIGHT.mean(axis=0))
    assert np.allclose(_sides(turned), (30.0, 40.0))
    assert angle_difference(angle_of_corners(turned), angle_of_corners(UPRIGHT)) == 90
    # Its long edge (top-left to bottom-left) now runs along the x axis.
    assert abs(turned[3][1] - turned[0][1]) < 1e-9


def test_a_straddling_quad_is_moved_more_than_half_a_face_along_one_edge():
    rng = np.random.default_rng(0)
    for _ in range(20):
        moved = straddling(UPRIGHT, rng)
        shift = moved.mean(axis=0) - UPRIGHT.mean(axis=0)
        assert np.allclose(_sides(moved), (30.0, 40.0))
        along_x, along_y = abs(shift[0]), abs(shift[1])
        assert (along_y == 0 and 16.5 <= along_x <= 21) or (along_x == 0 and 22 <= along_y <= 28)


def test_outliers_of_a_table_miss_every_tile_centre_or_turn_across_it():
    table = render_table(5, RenderOptions(size=(1280, 720), effects=False))
    crops = outlier_crops(table.image, table.truths, np.random.default_rng(1))
    assert len(crops) == 10
    assert all(crop.shape == (CROP_SIZE[1], CROP_SIZE[0], 3) for crop in crops)
    # Felt patches are the last two: they show felt only, so hardly vary against a face's ink.
    felt_spread = [float(crop.std()) for crop in crops[-2:]]
    tile_spread = [float(crop.std()) for crop in crops[:4]]
    assert max(felt_spread) < min(tile_spread)


def test_noise_crops_are_crop_sized_and_deterministic():
    first = noise_crops(9, np.random.default_rng(3))
    assert first.shape == (9, CROP_SIZE[1], CROP_SIZE[0], 3)
    assert np.array_equal(first, noise_crops(9, np.random.default_rng(3)))


def test_render_crops_adds_outliers_only_when_asked_and_leaves_the_tiles_as_they_were():
    plain = render_crops(range(3, 5))
    with_outliers = render_crops(range(3, 5), outliers=True)
    assert len(plain.outliers) == 0
    assert len(with_outliers.outliers) == 2 * 10 + 2
    assert np.array_equal(plain.images, with_outliers.images)
    assert np.array_equal(plain.labels, with_outliers.labels)


def test_outliers_read_as_sure_counts_crops_whose_label_reaches_the_threshold_both_ways_up_summed():
    half = LABEL_COUNT
    unsure = np.full((1, 2 * half), 1 / (2 * half))
    split = np.zeros((1, 2 * half))
    split[0, 3], split[0, half + 3] = 0.35, 0.35  # 0.7 for label 3, read half each way up
    split[0, 5] = 0.3
    assert outliers_read_as_sure(np.vstack([unsure, split])) == 0.5
    assert outliers_read_as_sure(np.zeros((0, 2 * half))) == 0.0
    assert outliers_read_as_sure(split) == 1.0
    # The recipe's threshold is the one the shipped model carries (and the runtime applies).
    assert json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())["uncertain_below"] == UNCERTAIN_BELOW
