"""Quads' centres all at once (``vision.geometry.centres``): what each quad's ``centre`` is, in
its own corners' type, whether the quads share a type or not."""

from __future__ import annotations

import numpy as np

from vision.geometry import centre, centres


def one_by_one(quads: list[np.ndarray]) -> np.ndarray:
    return np.array([centre(quad) for quad in quads])


def test_centres_are_each_quad_s_own_in_its_own_type():
    rng = np.random.default_rng(7)
    doubles = [rng.uniform(-3000, 3000, (4, 2)) for _ in range(50)]
    singles = [quad.astype(np.float32) for quad in doubles]
    whole = [rng.integers(0, 2000, (4, 2)) for _ in range(5)]
    for quads in (doubles, singles, whole, singles[:7] + doubles[:7], [doubles[0]]):
        together = centres(quads)
        expected = one_by_one(quads)
        assert together.dtype == expected.dtype
        assert together.shape == (len(quads), 2)
        assert np.array_equal(together, expected)
    # float32 corners are summed in float32, as ``centre`` sums them: not the float64 centre.
    assert centres(singles).dtype == np.float32
    assert centres([]).shape == (0, 2)
