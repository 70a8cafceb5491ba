"""Training crops blurred and lit otherwise at random (vision.training.crop_changes)."""

import numpy as np
import pytest

from vision.training.crop_changes import MOST_CHANNEL_GAIN, _streak, blurred, recoloured


def _crops(n=200):
    """Crops of a white face with a black bar across it on green felt: edges to blur."""
    crops = np.zeros((n, 42, 32, 3), np.uint8)
    crops[:] = (40, 110, 30)
    crops[:, 5:37, 4:28] = 235
    crops[:, 19:23, 8:24] = 0
    return crops


def _sharpness(crop):
    pixels = crop.astype(np.float32)
    return float((np.diff(pixels, axis=0) ** 2).sum() + (np.diff(pixels, axis=1) ** 2).sum())  # edge energy


def test_about_the_share_asked_is_blurred_and_the_rest_is_left_as_it_was():
    crops = _crops()
    out = blurred(crops, np.random.default_rng(3), 0.5)
    changed = [not np.array_equal(a, b) for a, b in zip(crops, out, strict=True)]
    assert 70 <= sum(changed) <= 130
    assert out.dtype == np.uint8
    assert out.shape == crops.shape
    for was, now, did in zip(crops, out, changed, strict=True):
        if did:
            assert _sharpness(now) < _sharpness(was)  # a blur only softens
    assert np.array_equal(crops, _crops())  # the batch given is not changed in place


def test_no_share_draws_nothing_and_changes_nothing():
    rng = np.random.default_rng(1)
    crops = _crops(5)
    assert blurred(crops, rng, 0.0) is crops
    assert recoloured(crops, rng, 0.0) is crops
    assert rng.random() == np.random.default_rng(1).random()


@pytest.mark.parametrize("length", [3, 4, 5])
def test_a_shake_is_a_streak_of_its_length_that_keeps_the_light(length):
    kernel = _streak(length, np.random.default_rng(length))
    assert kernel.sum() == pytest.approx(1.0)
    assert kernel.shape[0] % 2 == 1
    assert length - 1 <= (kernel > 0.05).sum() <= 2 * length


def test_another_light_scales_each_channel_within_the_gain_and_clips():
    crops = np.full((300, 4, 4, 3), 200, np.uint8)
    out = recoloured(crops, np.random.default_rng(7), 1.0).astype(np.float32)
    gains = out[:, 0, 0, :] / 200.0
    assert gains.min() >= 1 - MOST_CHANNEL_GAIN - 0.01
    assert out.max() == 255  # 200 × 1.3 clipped
    assert np.ptp(gains[:, 0]) > 0.4  # the channels' gains are drawn apart
    assert not np.allclose(gains[:, 0], gains[:, 2])
    assert np.array_equal(out[:, 1:, 1:], np.broadcast_to(out[:, :1, :1], out[:, 1:, 1:].shape))  # one gain a crop


def test_a_blur_for_the_detector_is_gentler_and_never_a_streak():
    crops = _crops(300)
    gentle = blurred(crops, np.random.default_rng(5), 1.0, most_sigma=1.0, most_shake=0)
    strong = blurred(crops, np.random.default_rng(5), 1.0)
    assert all(not np.array_equal(a, b) for a, b in zip(crops, gentle, strict=True))
    assert np.mean([_sharpness(c) for c in gentle]) > np.mean([_sharpness(c) for c in strong])
    # A Gaussian keeps a crop symmetric about its face's centre line; a streak at an angle does not.
    mirrored = [np.array_equal(c, c[:, ::-1]) for c in gentle]
    assert all(mirrored)
