"""Labelled photographs changed as another camera, light or file would change them: the
labels move with the picture, and a wrong change's name is refused."""

import numpy as np
import pytest

from vision.eval.label_file import LabelledTile
from vision.eval.photo_changes import (
    PHOTO_CHANGES,
    PhotoChangeError,
    photo_changes,
    pixel_change,
    restoring,
    surrounded,
)
from vision.geometry import mapped_points


def _picture_with_a_tile(width=200, height=200):
    """A black picture with one white face (x 60-100, y 50-110) and its label."""
    image = np.zeros((height, width, 3), np.uint8)
    image[50:110, 60:100] = 255
    corners = np.array([[60, 50], [100, 50], [100, 110], [60, 110]], np.float64)
    return image, LabelledTile(label=0, corners=corners, sideways=False)


def _white_centre(image):
    ys, xs = np.nonzero(image[:, :, 0] > 127)
    return np.array([xs.mean() + 0.5, ys.mean() + 0.5])  # pixel centres lie half a pixel in


@pytest.mark.parametrize(
    "name", ["turned-90", "turned-180", "turned-20", "leaning-back", "half-size", "double-size", "quarter-size"]
)
def test_a_labelled_face_moves_with_its_picture(name):
    image, tile = _picture_with_a_tile()
    changed = PHOTO_CHANGES[name].apply(image, [tile], [(60.0, 50.0, 100.0, 110.0)])
    (moved,) = changed.tiles
    label_centre = moved.corners.mean(axis=0)
    assert np.linalg.norm(_white_centre(changed.image) - label_centre) < 1.0
    assert moved.label == tile.label
    assert moved.sideways is False
    x0, y0, x1, y1 = changed.ignored[0]
    assert x0 <= label_centre[0] <= x1
    assert y0 <= label_centre[1] <= y1


def test_a_quarter_turn_swaps_the_sides_and_keeps_the_face_whole():
    image, tile = _picture_with_a_tile(width=300, height=200)
    changed = PHOTO_CHANGES["turned-90"].apply(image, [tile])
    assert changed.image.shape[:2] == (300, 200)
    (moved,) = changed.tiles
    # The face was 40 wide and 60 tall; turned a quarter it is 60 wide and 40 tall.
    assert np.ptp(moved.corners[:, 0]) == pytest.approx(60.0)
    assert np.ptp(moved.corners[:, 1]) == pytest.approx(40.0)
    assert (changed.image[:, :, 0] > 127).sum() == 40 * 60


def test_turned_by_20_degrees_keeps_every_corner_of_the_picture_in_the_frame():
    image = np.full((120, 160, 3), 255, np.uint8)
    changed = PHOTO_CHANGES["turned-20"].apply(image, [])
    corners = mapped_points(
        PHOTO_CHANGES["turned-20"].geometry(160, 120)[0], np.array([[0, 0], [160, 0], [160, 120], [0, 120]], float)
    )
    assert corners.min() >= -0.5
    assert corners[:, 0].max() <= 160.5
    assert corners[:, 1].max() <= 120.5
    assert changed.image.shape == image.shape


def test_restoring_a_squeezed_picture_widens_it_and_its_labels():
    image, tile = _picture_with_a_tile()
    changed = restoring(16 / 9).apply(image, [tile])
    assert changed.image.shape[:2] == (200, round(200 * 16 / 9))
    assert np.ptp(changed.tiles[0].corners[:, 0]) == pytest.approx(40 * changed.image.shape[1] / 200)


@pytest.mark.parametrize(
    "name", ["defocus", "shake", "shake-aslant", "noise", "jpeg-15", "dark", "bright", "warm", "cool", "hazy"]
)
def test_a_change_of_light_or_file_keeps_the_labels_and_changes_the_pixels(name):
    image, tile = _picture_with_a_tile()
    image[:, :, 1] = 90  # a grey-green felt, so that every change has something to change
    changed = PHOTO_CHANGES[name].apply(image, [tile])
    assert changed.image.shape == image.shape
    assert changed.image.dtype == np.uint8
    assert np.array_equal(changed.tiles[0].corners, tile.corners)
    assert not np.array_equal(changed.image, image)
    again = PHOTO_CHANGES[name].apply(image, [tile])
    assert np.array_equal(again.image, changed.image)  # a bench run repeats


def test_the_aslant_shake_smears_a_dot_along_a_line_60_degrees_from_across():
    image = np.zeros((61, 61, 3), np.uint8)
    image[30, 30] = 255
    tile = LabelledTile(label=0, corners=np.array([[0, 0], [40, 0], [40, 56], [0, 56]], float), sideways=False)
    smeared = PHOTO_CHANGES["shake-aslant"].apply(image, [tile]).image[:, :, 0]
    ys, xs = np.nonzero(smeared)
    assert np.degrees(np.arctan2(np.ptp(ys), np.ptp(xs))) == pytest.approx(60, abs=8)
    assert np.hypot(np.ptp(xs), np.ptp(ys)) == pytest.approx(40 / 5, abs=1.5)  # a fifth of the tile's width


def test_the_light_changes_go_the_way_their_names_say():
    image = np.full((40, 40, 3), 128, np.uint8)
    assert PHOTO_CHANGES["dark"].apply(image, []).image.mean() < 90
    assert PHOTO_CHANGES["bright"].apply(image, []).image.mean() > 160
    warm = PHOTO_CHANGES["warm"].apply(image, []).image
    assert warm[0, 0, 2] > warm[0, 0, 0]  # BGR: more red than blue
    hazy = PHOTO_CHANGES["hazy"].apply(np.array([[[0, 0, 0]], [[255, 255, 255]]], np.uint8), []).image
    assert int(hazy.max()) - int(hazy.min()) < 255 * 0.6


def test_changes_are_chosen_by_name_in_the_order_given_and_a_wrong_name_is_refused():
    assert [c.name for c in photo_changes(["dark", "turned-90"])] == ["dark", "turned-90"]
    assert len(photo_changes(None)) == len(PHOTO_CHANGES)
    assert photo_changes(None)[0].name == "stored"
    with pytest.raises(PhotoChangeError, match="no photo change named upside; the changes are stored, turned-90"):
        photo_changes(["upside"])


def test_points_are_mapped_as_opencv_maps_them_with_pixel_edges_at_whole_numbers():
    import cv2

    matrix = np.array([[0.9, 0.2, 5.0], [-0.1, 1.1, -3.0], [0.0005, -0.0003, 1.0]])
    points = np.array([[0.0, 0.0], [100.0, 20.5], [33.3, 250.0]])
    by_opencv = cv2.perspectiveTransform((points - 0.5).reshape(-1, 1, 2), matrix).reshape(-1, 2) + 0.5
    assert np.allclose(mapped_points(matrix, points), by_opencv, atol=1e-9)


def test_a_pixel_change_alone_is_given_for_a_calibrated_cameras_frames():
    image = np.full((40, 60, 3), 200, np.uint8)
    warm = pixel_change("warm")(image, 24.0)
    assert warm.shape == image.shape
    assert warm[0, 0].tolist() == [140, 190, 220]
    for name in ("turned-20", "half-size", "stored"):
        with pytest.raises(PhotoChangeError, match=f"{name} changes no pixel or moves the picture"):
            pixel_change(name)
    with pytest.raises(PhotoChangeError, match="no photo change named glow"):
        pixel_change("glow")


def test_a_wider_view_keeps_the_tiles_pixels_in_the_middle_and_ignores_its_mirror_images():
    """The picture three times as wide and tall, itself in the middle: its face has the same
    pixels there and stays the label; each of the eight mirror images' faces lies in an ignored
    box, and the picture's own ignored box is carried to all nine copies."""
    image, tile = _picture_with_a_tile(width=200, height=150)
    changed = PHOTO_CHANGES["wider-view"].apply(image, [tile], [(0.0, 0.0, 10.0, 10.0)])
    assert changed.image.shape == (450, 600, 3)
    np.testing.assert_array_equal(changed.image[150:300, 200:400], image)
    (moved,) = changed.tiles
    np.testing.assert_allclose(moved.corners, tile.corners + np.array([200.0, 150.0]))
    assert moved.label == tile.label
    assert len(changed.ignored) == 9 + 8
    white = changed.image[:, :, 0] > 127
    copies = [box for box in changed.ignored if (box[2] - box[0], box[3] - box[1]) == (40.0, 60.0)]
    assert len(copies) == 8
    for x0, y0, x1, y1 in copies:
        assert white[int(y0) : int(y1), int(x0) : int(x1)].all()  # a mirror image's face, whole
    ours = white.copy()
    for x0, y0, x1, y1 in copies:
        ours[int(y0) : int(y1), int(x0) : int(x1)] = False
    ys, xs = np.nonzero(ours)
    assert (xs.min(), xs.max() + 1, ys.min(), ys.max() + 1) == (260, 300, 200, 260)  # only the labelled face is left


def test_a_picture_is_surrounded_by_an_odd_count_of_copies():
    image, tile = _picture_with_a_tile()
    with pytest.raises(ValueError, match="odd count"):
        surrounded(image, [tile], (), 2)
    frame, tiles, ignored = surrounded(image, [tile], (), 1)
    assert frame.shape == image.shape
    np.testing.assert_array_equal(tiles[0].corners, tile.corners)
    assert ignored == ()


def test_a_closer_camera_keeps_the_middle_half_at_three_times_the_pixels():
    """The middle half each way, three times as many pixels across: the face in it keeps its
    place on the scene (its label moved with its pixels, three times as large), a face the new
    frame cuts becomes an ignored box, and one wholly outside is no label."""
    image, inside = _picture_with_a_tile(width=200, height=200)  # face x 60-100, y 50-110
    image[130:190, 130:170] = 255  # a face across the middle half's corner (x 50-150, y 50-150)
    image[10:40, 10:40] = 255  # and one wholly outside it
    cut = LabelledTile(1, np.array([[130, 130], [170, 130], [170, 190], [130, 190]], np.float64), False)
    outside = LabelledTile(2, np.array([[10, 10], [40, 10], [40, 40], [10, 40]], np.float64), False)
    changed = PHOTO_CHANGES["closer"].apply(image, [inside, cut, outside], [(0.0, 0.0, 5.0, 5.0)])
    assert changed.image.shape == (300, 300, 3)
    (moved,) = changed.tiles
    assert moved.label == inside.label
    np.testing.assert_allclose(moved.corners, (inside.corners - 50.0) * 3.0, atol=1e-9)
    assert np.linalg.norm(_white_centre(changed.image[:, :200]) - moved.corners.mean(axis=0)) < 1.0
    assert changed.ignored == ((240.0, 240.0, 360.0, 420.0),)  # the cut face; the corner box is out of the frame
    white = changed.image[:, :, 0] > 127
    assert white[242:, 242:].all()  # the cut face's part in the frame (its edge pixels blended)


def test_only_a_plain_scaling_is_resized_and_a_crop_scaled_is_warped():
    """resize keeps pixel edges at pixel edges and cannot crop: a change that scales a part of
    the picture must be warped, or its labels land where its pixels are not."""
    image = np.zeros((100, 100, 3), np.uint8)
    image[30:32, 60:62] = 255  # a dot in the middle half (25-75 each way), off its centre
    changed = PHOTO_CHANGES["closer"].apply(image, [])
    assert changed.image.shape == (150, 150, 3)
    ys, xs = np.nonzero(changed.image[:, :, 0] > 127)
    assert (xs.min(), ys.min()) == (105, 15)  # (60 - 25) × 3, (30 - 25) × 3; resized whole: 90, 45


def test_farther_shrinks_the_picture_to_a_quarter_and_sets_it_among_its_mirror_images():
    """A quarter of the pixels across, in the middle of a frame five times as wide and tall: the
    frame is 1.25 times the picture each way, the face a quarter its size in the middle copy."""
    image, tile = _picture_with_a_tile(width=400, height=240)  # face x 60-100, y 50-110
    image[50:110, 60:100] = 0
    image[40:120, 40:120] = 255  # a face of 80×80 px: 20×20 at a quarter
    tile = LabelledTile(0, np.array([[40, 40], [120, 40], [120, 120], [40, 120]], np.float64), False)
    changed = PHOTO_CHANGES["farther"].apply(image, [tile])
    assert changed.image.shape == (300, 500, 3)
    (moved,) = changed.tiles
    np.testing.assert_allclose(moved.corners, tile.corners / 4.0 + np.array([200.0, 120.0]), atol=0.01)
    middle = changed.image[120:180, 200:300]
    assert np.linalg.norm(_white_centre(middle) + np.array([200.0, 120.0]) - moved.corners.mean(axis=0)) < 1.0
    assert len(changed.ignored) == 24  # the face's 24 mirror images
