"""Tiles lying askew (``vision.detect.tile_skew``): an uncertain reading re-cut turned a little
about its centre, with the shipped classifier on a rendered held-out table."""

import numpy as np
import pytest

from vision.classify.crops import turned_about_centre
from vision.classify.labels import BACK_LABEL, WHITE_DRAGON_LABEL, kind_of_label
from vision.detect.still_photo import read_found
from vision.detect.tile_lie import TileLie
from vision.detect.tile_skew import TURNS, unskew
from vision.find.finder import FoundTile
from vision.geometry import angle_difference, angle_of_corners


def test_a_quad_turned_about_its_centre_keeps_its_centre_size_and_order():
    quad = np.array([[0.0, 0.0], [30.0, 0.0], [30.0, 40.0], [0.0, 40.0]])
    turned = turned_about_centre(quad, 30.0)
    assert turned.mean(axis=0) == pytest.approx([15.0, 20.0])
    assert np.linalg.norm(turned[1] - turned[0]) == pytest.approx(30.0, abs=1e-4)
    assert np.linalg.norm(turned[3] - turned[0]) == pytest.approx(40.0, abs=1e-4)
    assert angle_difference(angle_of_corners(turned), angle_of_corners(quad)) == pytest.approx(30.0, abs=0.01)
    assert turned_about_centre(turned, -30.0) == pytest.approx(quad, abs=1e-4)
    with pytest.raises(ValueError, match="4×2"):
        turned_about_centre(quad[:3], 10.0)


def test_faces_cut_askew_read_uncertain_are_read_right_at_their_own_lie(shipped_classifier, held_out_table):
    faces = [t for t in held_out_table.truths if t.label not in (BACK_LABEL, WHITE_DRAGON_LABEL) and not t.sideways]
    skew = TURNS[-1]
    askew = [turned_about_centre(t.corners, -skew) for t in faces]  # the finder's axis a turn off
    readings = shipped_classifier.classify_quads(held_out_table.image, askew)
    doubtful = [(t, q, r) for t, q, r in zip(faces, askew, readings, strict=True) if r.uncertain]
    assert len(doubtful) >= 5  # cut a third of a quarter turn off, many faces read unsurely
    lies = [TileLie(q, r, sideways=False) for _, q, r in doubtful]
    settled = unskew(held_out_table.image, shipped_classifier, lies)
    assert len(settled) == len(lies)
    right = 0
    for (truth, _, _), lie in zip(doubtful, settled, strict=True):
        if not lie.reading.uncertain and kind_of_label(lie.reading.label) == kind_of_label(truth.label):
            right += 1
            assert abs(angle_difference(angle_of_corners(lie.corners), angle_of_corners(truth.corners))) < 16
    assert right >= 0.8 * len(doubtful)


def test_sure_readings_are_left_as_they_are(shipped_classifier, held_out_table):
    truths = held_out_table.truths[:30]
    readings = shipped_classifier.classify_quads(held_out_table.image, [t.corners for t in truths])
    lies = [TileLie(t.corners, r, sideways=False) for t, r in zip(truths, readings, strict=True)]
    assert not any(lie.reading.uncertain for lie in lies)
    assert unskew(held_out_table.image, shipped_classifier, lies) == tuple(lies)


def test_a_tile_no_turn_reads_surely_stays_as_it_was(shipped_classifier, held_out_table):
    felt = np.array([[5.0, 5.0], [35.0, 5.0], [35.0, 45.0], [5.0, 45.0]])  # the held_out_table's bare corner
    (reading,) = shipped_classifier.classify_quads(held_out_table.image, [felt])
    assert reading.uncertain
    lie = TileLie(felt, reading, sideways=False)
    assert unskew(held_out_table.image, shipped_classifier, [lie]) == (lie,)


class _KeepingJudge:
    """A judge that leaves every quad and call as found (the test is about reading, not lie)."""

    def judge(self, image, quads, calls, known_axes=None):
        return list(quads), list(calls)


def test_read_found_re_cuts_askew_tiles_unless_told_not_to_or_given_row_axes(shipped_classifier, held_out_table):
    faces = [t for t in held_out_table.truths if t.label not in (BACK_LABEL, WHITE_DRAGON_LABEL) and not t.sideways]
    askew = [turned_about_centre(t.corners, -TURNS[-1]) for t in faces]
    found = [FoundTile(quad, False) for quad in askew]
    judge = _KeepingJudge()
    default = read_found(held_out_table.image, shipped_classifier, found, judge)
    not_told = read_found(held_out_table.image, shipped_classifier, found, judge, recut_doubtful=False)
    with_axes = read_found(
        held_out_table.image, shipped_classifier, found, judge, row_axes=[angle_of_corners(q) for q in askew]
    )

    def read_right(detections):
        return sum(kind_of_label(d.label) == kind_of_label(t.label) for d, t in zip(detections, faces, strict=True))

    assert read_right(default) >= read_right(not_told) + 5
    assert read_right(with_axes) == read_right(not_told)
