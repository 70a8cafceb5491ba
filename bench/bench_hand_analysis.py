"""Hand analysis speed: waits and closed-kan-after-riichi verdicts on random tenpai hands.

Prints, per call, the median and p95 in microseconds for:
- the ``mahjong`` package's approach: add each obtainable tile, run its agari check;
- jantaku's waits (the 34-count fast path, and the full value API with Wait objects);
- jantaku's closed-kan verdict at the ``waits``, ``decompositions`` and ``yaku`` levels;
and whether the waits agree with the reference on every hand.

    .venv/bin/python bench/bench_hand_analysis.py [--hands 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from mahjong.agari import Agari

from table_app.domain.hand import Hand
from table_app.domain.tile import tile_of_kind
from table_app.rules.hand import KanStrictness, check_riichi_closed_kan, live_waits
from table_app.rules.hand.waits import wait_mask

T = TypeVar("T")
R = TypeVar("R")

SEQUENCE_STARTS = [base + i for base in (0, 9, 18) for i in range(7)]


def random_tenpai_hand(rng: random.Random) -> tuple[Hand, int]:
    """A closed 13-tile tenpai hand holding a concealed triplet whose fourth copy is free.

    Returns the hand and that triplet's kind (the kan the verdict is asked about)."""
    while True:
        counts = [0] * 34
        triplet = rng.randrange(34)
        counts[triplet] = 3
        for _ in range(3):
            if rng.random() < 0.6:
                start = rng.choice(SEQUENCE_STARTS)
                for kind in (start, start + 1, start + 2):
                    counts[kind] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) > 4 or counts[triplet] != 3:
            continue
        tiles = [kind for kind in range(34) for _ in range(counts[kind])]
        tiles.remove(rng.choice([k for k in tiles if k != triplet]))
        hand = Hand(tuple(tile_of_kind(k) for k in tiles))
        if live_waits(hand):
            return hand, triplet


def reference_waits(counts: list[int]) -> int:
    mask = 0
    for kind in range(34):
        if counts[kind] < 4:
            counts[kind] += 1
            if Agari.is_agari(counts):
                mask |= 1 << kind
            counts[kind] -= 1
    return mask


def time_each(function: Callable[[T], R], items: list[T]) -> tuple[list[float], list[R]]:
    """Microseconds per call of ``function`` on each item, and the results."""
    samples: list[float] = []
    results: list[R] = []
    clock = time.perf_counter_ns
    for item in items:
        start = clock()
        result = function(item)
        samples.append((clock() - start) / 1000)
        results.append(result)
    return samples, results


def line(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95)]
    return f"{name:<44} median {statistics.median(ordered):8.1f} µs   p95 {p95:8.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [random_tenpai_hand(rng) for _ in range(args.hands)]
    counts = [hand.counts() for hand, _ in hands]

    disagreements = 0
    for hand, hand_counts in zip(hands, counts, strict=True):
        ours = sum(1 << w.tile.kind for w in live_waits(hand[0]))
        if ours != reference_waits(list(hand_counts)):
            disagreements += 1

    print(f"{args.hands} random closed tenpai hands (seed {args.seed}), each with a concealed triplet")
    samples, _ = time_each(reference_waits, counts)
    print(line("mahjong package: 34 tiles x agari check", samples))
    samples, _ = time_each(lambda c: wait_mask(c, closed_full=True), counts)
    print(line("jantaku waits, 34-count fast path", samples))
    samples, _ = time_each(live_waits, [hand for hand, _ in hands])
    print(line("jantaku waits, value API (Wait objects)", samples))
    for level in (KanStrictness.WAITS, KanStrictness.DECOMPOSITIONS, KanStrictness.YAKU):

        def verdict(case: tuple[Hand, int], level: KanStrictness = level) -> bool:
            hand, kind = case
            return check_riichi_closed_kan(hand, tile_of_kind(kind), tile_of_kind(kind), level).legal

        samples, legal = time_each(verdict, hands)
        print(line(f"jantaku riichi-kan verdict, {level.value}", samples) + f"   legal {sum(legal)}/{len(legal)}")
    print(f"waits agree with the reference on {args.hands - disagreements}/{args.hands} hands")


if __name__ == "__main__":
    main()
