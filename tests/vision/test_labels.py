import pytest

from table_app.domain.tile import UNKNOWN, all_kinds, red_fives
from vision.classify.labels import (
    BACK_LABEL,
    LABEL_COUNT,
    art_name,
    is_red_label,
    kind_of_label,
    label_name,
    label_of,
    tile_of_label,
)


def test_every_label_round_trips_through_its_tile():
    for label in range(LABEL_COUNT):
        assert label_of(tile_of_label(label)) == label


def test_faces_reds_and_back():
    assert [label_of(t) for t in all_kinds()] == list(range(34))
    assert [label_of(t) for t in red_fives()] == [34, 35, 36]
    assert label_of(UNKNOWN) == BACK_LABEL
    assert [label_name(v) for v in (0, 8, 9, 27, 33, 34, 37)] == ["1m", "9m", "1p", "1z", "7z", "5m", "back"]
    assert is_red_label(35)
    assert not is_red_label(13)
    assert kind_of_label(36) == kind_of_label(22) == 22


def test_art_names_follow_the_fluffystuff_files():
    assert [art_name(v) for v in (0, 17, 26, 27, 31, 32, 33, 34, 37)] == [
        "Man1",
        "Pin9",
        "Sou9",
        "Ton",
        "Haku",
        "Hatsu",
        "Chun",
        "Man5-Dora",
        "Back",
    ]


def test_out_of_range_label_is_rejected_with_its_value():
    with pytest.raises(ValueError, match="38"):
        tile_of_label(38)
