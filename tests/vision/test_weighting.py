import numpy as np
import pytest

from vision.weighting import weighted_median


def test_the_weighted_median_is_where_half_the_weight_lies():
    assert weighted_median(np.array([3.0, 1.0, 2.0]), np.array([1.0, 1.0, 1.0])) == 2.0
    assert weighted_median(np.array([1.0, 2.0, 10.0]), np.array([1.0, 1.0, 5.0])) == 10.0
    assert weighted_median(np.array([1.0, 2.0]), np.array([1.0, 1.0])) == 1.0  # the lower where halves meet
    assert weighted_median(np.array([5.0, -4.0]), np.array([0.0, 2.0])) == -4.0


@pytest.mark.parametrize(
    ("values", "weights", "message"),
    [
        ([1.0, 2.0], [1.0], "one weight per value"),
        ([], [], "one weight per value"),
        ([1.0, 2.0], [0.0, 0.0], "not all 0"),
        ([1.0, 2.0], [1.0, -1.0], "not negative"),
    ],
)
def test_weights_that_give_no_median_are_refused(values, weights, message):
    with pytest.raises(ValueError, match=message):
        weighted_median(np.array(values), np.array(weights))
