"""Tiles cut between two (``vision.detect.tile_phase``): an uncertain reading re-cut half a face
either way, with the shipped classifier on a rendered held-out table."""

import numpy as np

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import shifted_quads
from vision.classify.labels import BACK_LABEL, kind_of_label
from vision.detect.tile_lie import TileLie
from vision.detect.tile_phase import SHIFT, rephase
from vision.render.renderer import TileTruth


def _face_up_neighbours(truths: tuple[TileTruth, ...]) -> tuple[TileTruth, TileTruth]:
    """Two face-up, upright tiles side by side in a row (centres one face width apart along
    the first's width), a back-free pair as a pond row has."""
    faces = [t for t in truths if t.label != BACK_LABEL and not t.sideways]
    for first in faces:
        across = first.corners[1] - first.corners[0]
        for second in faces:
            offset = second.centre - first.centre
            if second is not first and np.linalg.norm(offset - across) < 0.15 * np.linalg.norm(across):
                return first, second
    raise AssertionError("the held_out_table has no two face-up tiles side by side")


def _lie(classifier: OnnxTileClassifier, image: np.ndarray, corners: np.ndarray) -> TileLie:
    return TileLie(corners, classifier.classify_quads(image, [corners])[0], sideways=False)


def test_shifted_quads_move_half_a_face_along_each_edge_either_way():
    quad = np.array([[0.0, 0.0], [30.0, 0.0], [30.0, 40.0], [0.0, 40.0]])
    centres = sorted(tuple(q.mean(axis=0)) for q in shifted_quads(quad, SHIFT))
    assert centres == sorted(
        [(15 - 30 * SHIFT, 20.0), (15 + 30 * SHIFT, 20.0), (15.0, 20 - 40 * SHIFT), (15.0, 20 + 40 * SHIFT)]
    )


def test_a_quad_on_the_seam_between_two_tiles_gives_back_both(shipped_classifier, held_out_table):
    first, second = _face_up_neighbours(held_out_table.truths)
    seam = (first.corners + second.corners) / 2
    lie = _lie(shipped_classifier, held_out_table.image, seam)
    assert lie.reading.uncertain  # half of two faces: the classifier must not guess
    settled = rephase(held_out_table.image, shipped_classifier, [lie])
    assert len(settled) == 2
    found = sorted(settled, key=lambda s: float(np.linalg.norm(s.corners.mean(axis=0) - first.centre)))
    for lie_found, truth in zip(found, (first, second), strict=True):
        width = np.linalg.norm(truth.corners[1] - truth.corners[0])
        assert np.linalg.norm(lie_found.corners.mean(axis=0) - truth.centre) < 0.2 * width
        assert kind_of_label(lie_found.reading.label) == kind_of_label(truth.label)
        assert not lie_found.reading.uncertain


def test_a_shift_onto_a_tile_already_found_is_not_a_second_find(shipped_classifier, held_out_table):
    first, second = _face_up_neighbours(held_out_table.truths)
    seam = (first.corners + second.corners) / 2
    settled = rephase(
        held_out_table.image,
        shipped_classifier,
        [
            _lie(shipped_classifier, held_out_table.image, first.corners),
            _lie(shipped_classifier, held_out_table.image, seam),
        ],
    )
    centres = [s.corners.mean(axis=0) for s in settled]
    width = np.linalg.norm(first.corners[1] - first.corners[0])
    assert sum(np.linalg.norm(c - first.centre) < 0.6 * width for c in centres) == 1
    assert sum(np.linalg.norm(c - second.centre) < 0.2 * width for c in centres) == 1


def test_sure_readings_are_left_as_they_are(shipped_classifier, held_out_table):
    lies = [_lie(shipped_classifier, held_out_table.image, t.corners) for t in held_out_table.truths[:30]]
    assert not any(lie.reading.uncertain for lie in lies)
    assert rephase(held_out_table.image, shipped_classifier, lies) == tuple(lies)
