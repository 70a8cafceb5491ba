"""One frame's readings (``FrameReadings``), with the real ONNX classifier on a rendered
table: read in one batch as one crop at a time, each quad cut and read once."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.frame_readings import FrameReadings
from vision.live.table_reader.checking import bench_table
from vision.render.renderer import RenderOptions


class CountingClassifier(OnnxTileClassifier):
    """The shipped classifier, counting its network runs and the crops they read."""

    def __init__(self) -> None:
        super().__init__()
        self.runs = 0
        self.crops = 0

    def classify(self, crops: np.ndarray) -> tuple[TileReading, ...]:
        self.runs += 1
        self.crops += len(crops)
        return super().classify(crops)


@pytest.fixture(scope="module")
def classifier() -> CountingClassifier:
    return CountingClassifier()


@pytest.fixture(scope="module")
def frame() -> tuple[np.ndarray, list[np.ndarray]]:
    """A rendered table with camera effects and its drawn faces' quads (float64)."""
    rendered = bench_table(11, RenderOptions()).rendered
    return rendered.image, [t.corners.astype(np.float64) for t in rendered.truths if t.face_up]


def test_a_batch_reads_every_quad_as_one_crop_at_a_time(classifier, frame):
    image, quads = frame
    alone = [classifier.classify_quads(image, [quad])[0] for quad in quads]
    reads = FrameReadings(classifier, image)
    reads.read_ahead(quads)
    assert len(quads) > 50
    assert list(reads.classify_quads(image, quads)) == alone


def test_a_quad_read_before_is_neither_cut_nor_read_again(classifier, frame):
    image, quads = frame
    reads = FrameReadings(classifier, image)
    first = reads.classify_quads(image, quads[:10])
    runs, crops = classifier.runs, classifier.crops
    # The same corners, as another array and a hair off (below float32's precision), and twice in one call.
    same = [quad.astype(np.float32) for quad in quads[:5]] + [quad + 1e-9 for quad in quads[5:10]] + [quads[0]]
    assert reads.classify_quads(image, same) == (*first, first[0])
    assert (classifier.runs, classifier.crops) == (runs, crops)
    moved = quads[0] + 0.5
    reads.read_ahead([moved, moved, quads[10]])
    assert (classifier.runs, classifier.crops) == (runs + 1, crops + 2)
    assert len(reads) == 12


def test_readings_of_one_frame_refuse_another(classifier, frame):
    image, quads = frame
    reads = FrameReadings(classifier, image)
    with pytest.raises(ValueError, match="another frame"):
        reads.classify_quads(image.copy(), quads[:1])
    with pytest.raises(ValueError, match="4×2"):
        reads.read_ahead([np.zeros((3, 2))])
