"""Finds cut a little large (``vision.detect.tile_inset``): a doubtful reading re-cut tighter
about its centre, with the shipped classifier on a rendered held-out table."""

import numpy as np
import pytest

from vision.classify.labels import BACK_LABEL, WHITE_DRAGON_LABEL, kind_of_label
from vision.detect.still_photo import read_found
from vision.detect.tile_inset import DOUBT_BELOW, INSET, inset_quad, read_inset
from vision.detect.tile_lie import TileLie
from vision.find.finder import FoundTile
from vision.geometry import angle_of_corners

#: A find this much larger than its face each way, about the same centre: its neighbours and
#: the felt take more than half the crop, and almost every face reads unsurely, many as
#: another kind (the classifier is trained on finds that take in a little more than the face,
#: and reads those).
GROWN = 1.6


def test_an_inset_quad_keeps_its_centre_and_corner_order_and_scales_its_edges():
    quad = np.array([[10.0, 20.0], [40.0, 20.0], [40.0, 60.0], [10.0, 60.0]])
    inset = inset_quad(quad, 0.5)
    assert inset.mean(axis=0) == pytest.approx(quad.mean(axis=0))
    assert inset[0] == pytest.approx([17.5, 30.0])
    assert inset[2] == pytest.approx([32.5, 50.0])
    assert inset_quad(quad) == pytest.approx(inset_quad(quad, INSET))
    with pytest.raises(ValueError, match="4×2"):
        inset_quad(quad[:3])
    with pytest.raises(ValueError, match="positive"):
        inset_quad(quad, 0.0)
    with pytest.raises(ValueError, match="positive"):
        inset_quad(quad, float("nan"))


def _faces(table):
    return [t for t in table.truths if t.label not in (BACK_LABEL, WHITE_DRAGON_LABEL) and not t.sideways]


def _grown(corners):
    return inset_quad(np.asarray(corners, np.float32), GROWN)


def test_faces_cut_too_large_and_read_unsurely_read_right_cut_tighter(shipped_classifier, held_out_table):
    faces = _faces(held_out_table)
    grown = [_grown(t.corners) for t in faces]
    readings = shipped_classifier.classify_quads(held_out_table.image, grown)
    doubtful = [(t, q, r) for t, q, r in zip(faces, grown, readings, strict=True) if r.confidence < DOUBT_BELOW]
    assert len(doubtful) >= 30
    lies = [TileLie(q, r, sideways=False) for _, q, r in doubtful]
    settled = read_inset(held_out_table.image, shipped_classifier, lies)
    assert len(settled) == len(lies)
    right_before = sum(kind_of_label(r.label) == kind_of_label(t.label) for t, _, r in doubtful)
    right_after = sum(
        kind_of_label(s.reading.label) == kind_of_label(t.label) for (t, _, _), s in zip(doubtful, settled, strict=True)
    )
    assert right_after >= right_before + 5
    assert np.mean([s.reading.confidence for s in settled]) >= np.mean([r.confidence for *_, r in doubtful]) + 0.3
    for lie, new in zip(lies, settled, strict=True):
        assert new.corners is lie.corners  # the find's quad stays: the tighter cut only reads it
        assert new.sideways == lie.sideways
        assert new.reading.confidence >= lie.reading.confidence  # replaced only by a surer reading


def test_sure_readings_are_not_cut_again(shipped_classifier, held_out_table):
    truths = held_out_table.truths[:30]
    readings = shipped_classifier.classify_quads(held_out_table.image, [t.corners for t in truths])
    lies = tuple(TileLie(t.corners, r, sideways=False) for t, r in zip(truths, readings, strict=True))
    assert all(lie.reading.confidence >= DOUBT_BELOW for lie in lies)

    class _Refusing:
        def classify_quads(self, image, quads):
            raise AssertionError(f"{len(quads)} sure tiles cut again")

    assert read_inset(held_out_table.image, _Refusing(), lies) == lies


def test_a_doubtful_tile_whose_tighter_cut_reads_no_surer_stays_as_it_was(shipped_classifier, held_out_table):
    felt = np.array([[5.0, 5.0], [35.0, 5.0], [35.0, 45.0], [5.0, 45.0]])  # the held_out_table's bare corner
    (reading,) = shipped_classifier.classify_quads(held_out_table.image, [felt])
    (tighter,) = shipped_classifier.classify_quads(held_out_table.image, [inset_quad(felt)])
    assert reading.confidence < DOUBT_BELOW
    lie = TileLie(felt, reading, sideways=False)
    (settled,) = read_inset(held_out_table.image, shipped_classifier, [lie])
    assert settled.corners is felt
    assert settled.reading == (reading if tighter.confidence <= reading.confidence else tighter)


class _KeepingJudge:
    """A judge that leaves every quad and call as found (the test is about reading, not lie)."""

    def judge(self, image, quads, calls, known_axes=None):
        return list(quads), list(calls)


def test_read_found_cuts_doubtful_finds_tighter_unless_told_not_to_or_given_row_axes(
    shipped_classifier, held_out_table
):
    faces = _faces(held_out_table)
    grown = [_grown(t.corners) for t in faces]
    found = [FoundTile(quad, False) for quad in grown]
    judge = _KeepingJudge()
    axes = [angle_of_corners(q) for q in grown]
    image = held_out_table.image
    default = read_found(image, shipped_classifier, found, judge)
    with_axes = read_found(image, shipped_classifier, found, judge, row_axes=axes)
    not_told = read_found(image, shipped_classifier, found, judge, recut_doubtful=False)

    def read_right(detections):
        # A doubtful find may be re-cut half a face aside (vision.detect.tile_phase): each face
        # is scored by the detection nearest its centre.
        centres = np.array([d.corners.mean(axis=0) for d in detections])
        nearest = [detections[int(np.linalg.norm(centres - t.corners.mean(axis=0), axis=1).argmin())] for t in faces]
        return sum(kind_of_label(d.label) == kind_of_label(t.label) for d, t in zip(nearest, faces, strict=True))

    assert read_right(default) >= read_right(not_told) + 5
    assert read_right(with_axes) == read_right(not_told)  # a calibrated table's finds fit their faces
