"""A white dragon read without much confidence (``vision.live.table_reader.washed_out``) is
called uncertain: a washed-out back or face reads as the blank face."""

from __future__ import annotations

from dataclasses import replace

from table_app.domain.notation import parse_tile
from tests.vision.test_tile_copies import hand_made_table_read_by
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.labels import BACK_LABEL, WHITE_DRAGON_LABEL, label_of
from vision.live.table_reader.washed_out import BLANK_SURE_FROM, blank_doubted


def _read(label: int, confidence: float, *, uncertain: bool = False) -> TileReading:
    return TileReading(label=label, confidence=confidence, upside_down=False, uncertain=uncertain)


def test_a_white_dragon_needs_more_confidence_than_the_classifier_asks_of_a_tile():
    assert OnnxTileClassifier().uncertain_below < BLANK_SURE_FROM


def test_a_white_dragon_read_less_surely_than_it_needs_is_doubted_and_keeps_its_label():
    doubted = blank_doubted(_read(WHITE_DRAGON_LABEL, BLANK_SURE_FROM - 0.01))
    assert doubted.uncertain
    assert (doubted.label, doubted.confidence) == (WHITE_DRAGON_LABEL, BLANK_SURE_FROM - 0.01)
    sure = _read(WHITE_DRAGON_LABEL, BLANK_SURE_FROM)
    assert blank_doubted(sure) is sure
    # Other labels and backs keep the classifier's own call, however unsure.
    for text in ("3m", "2m", "6z"):
        reading = _read(label_of(parse_tile(text)), 0.61)
        assert blank_doubted(reading) is reading
    back = _read(BACK_LABEL, 0.61)
    assert blank_doubted(back) is back
    already = _read(WHITE_DRAGON_LABEL, 0.3, uncertain=True)
    assert blank_doubted(already) is already


class LessSure(OnnxTileClassifier):
    """The shipped classifier, every sure reading's confidence lowered to 0.7: sure by the
    model's own threshold, less sure than a white dragon needs."""

    def classify(self, crops):
        return tuple(
            replace(r, confidence=min(r.confidence, 0.7)) if not r.uncertain else r for r in super().classify(crops)
        )


def test_the_table_reader_reports_white_dragons_read_less_surely_uncertain_and_the_rest_sure():
    seen, _ = hand_made_table_read_by(LessSure())
    blanks = [t for t in seen if t.tile == parse_tile("5z")]
    # The hand-made layout shows six 7z (two discards and an added kan): the set's four-copy check doubts them.
    others = [t for t in seen if not t.face_down and t not in blanks and t.tile != parse_tile("7z")]
    assert len(blanks) == 2  # one in each of two ponds
    assert all(t.uncertain for t in blanks)
    assert others
    assert not any(t.uncertain for t in others)
