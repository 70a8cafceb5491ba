"""The per-suit split check, worked out key by key, agrees with enumerating every complete shape
(at most four sets and a pair, at most five of a position) the way it once was, up front."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

import pytest

from table_app.rules.hand.suit_tables import MAX_COUNT, _is_sets_and_pair, _is_sets_only, pack


@cache
def enumerated(honours: bool) -> tuple[frozenset[int], frozenset[int]]:
    """Every combination of up to four sets, with and without a pair, packed (the reference)."""
    length = 7 if honours else 9
    sets = [(i, i, i) for i in range(length)] + ([] if honours else [(i, i + 1, i + 2) for i in range(length - 2)])
    sets_only: set[int] = set()
    with_pair: set[int] = set()
    for size in range(5):
        for chosen in combinations_with_replacement(sets, size):
            counts = [0] * length
            for group in chosen:
                for position in group:
                    counts[position] += 1
            if max(counts, default=0) > MAX_COUNT:
                continue
            sets_only.add(pack(counts, 0, length))
            for pair in range(length):
                if counts[pair] + 2 <= MAX_COUNT:
                    counts[pair] += 2
                    with_pair.add(pack(counts, 0, length))
                    counts[pair] -= 2
    return frozenset(sets_only), frozenset(with_pair)


@pytest.mark.parametrize("honours", [False, True], ids=["suit", "honours"])
def test_every_enumerated_shape_is_recognised(honours):
    sets_only, with_pair = enumerated(honours)
    assert all(_is_sets_only(key, honours) for key in sets_only)
    assert all(_is_sets_and_pair(key, honours) for key in with_pair)


@pytest.mark.parametrize("honours", [False, True], ids=["suit", "honours"])
def test_random_suits_are_judged_as_the_enumeration_judges_them(honours):
    sets_only, with_pair = enumerated(honours)
    length = 7 if honours else 9
    rng = random.Random(14)
    for _ in range(30_000):
        # Mostly small suits (where complete shapes are), some past the limits (six of a tile, 15 tiles).
        counts = [rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6)) for _ in range(length)]
        while sum(counts) > rng.choice((12, 14, 15, 17)):
            counts[rng.randrange(length)] = 0
        key = pack(counts, 0, length)
        assert _is_sets_only(key, honours) == (key in sets_only), counts
        assert _is_sets_and_pair(key, honours) == (key in with_pair), counts
