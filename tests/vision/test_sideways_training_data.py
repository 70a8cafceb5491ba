"""The sideways judge's training crops (``vision.training.sideways_data``; no torch needed):
what one table gives, and that a table's crops depend on its seed only."""

import numpy as np
import pytest

from vision.detect.sideways_judge import INPUT_SIZE
from vision.render.tile_art import ArtStyle
from vision.training.sideways_data import SIDEWAYS_COPIES, sideways_crops, table_crops

SEED = 12  # a training table with riichi discards or called tiles in view


@pytest.fixture(scope="module")
def crops():
    return table_crops(SEED)


def test_a_table_gives_crops_as_found_and_jittered_of_both_kinds(crops):
    assert crops.crops.shape[1:] == (INPUT_SIZE, INPUT_SIZE, 3)
    assert crops.crops.dtype == np.uint8
    assert len(crops) == len(crops.sideways) == len(crops.as_found)
    found_sideways = int((crops.sideways & crops.as_found).sum())
    jittered_sideways = int((crops.sideways & ~crops.as_found).sum())
    assert found_sideways >= 1
    # Every sideways tile in a row is cut SIDEWAYS_COPIES times jittered (the found ones once).
    assert jittered_sideways % SIDEWAYS_COPIES == 0
    assert jittered_sideways >= SIDEWAYS_COPIES * found_sideways
    assert (~crops.sideways & crops.as_found).sum() > 20 * found_sideways
    # Jittered copies of one tile differ: the centre, axis and scale move.
    jittered = crops.crops[crops.sideways & ~crops.as_found][:SIDEWAYS_COPIES].astype(int)
    assert all(np.abs(jittered[0] - other).mean() > 1.0 for other in jittered[1:])


def test_a_tables_crops_depend_on_its_seed_alone(crops, tmp_path):
    again = table_crops(SEED)
    np.testing.assert_array_equal(again.crops, crops.crops)
    np.testing.assert_array_equal(again.sideways, crops.sideways)
    cached = sideways_crops(range(SEED, SEED + 1), str(tmp_path))
    np.testing.assert_array_equal(cached.crops, crops.crops)
    assert len(list(tmp_path.glob("sideways-*.npz"))) == 1
    reread = sideways_crops(range(SEED, SEED + 1), str(tmp_path))  # from the cache
    np.testing.assert_array_equal(reread.crops, crops.crops)


def test_checking_crops_are_the_run_times_cuts_only():
    checking = table_crops(SEED, ArtStyle.BLACK, jittered=False)
    assert len(checking) > 0
    assert checking.as_found.all()
