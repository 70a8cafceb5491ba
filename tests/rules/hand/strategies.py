"""Hypothesis strategies for hands: near-complete ones (often tenpai) and arbitrary ones."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from table_app.domain.hand import Hand
from table_app.domain.meld import Meld, MeldKind
from table_app.domain.seat import Relation
from table_app.domain.tile import tile_of_kind

SEQUENCE_STARTS = [base + i for base in (0, 9, 18) for i in range(7)]


@st.composite
def complete_hands(draw: st.DrawFn, *, max_melds: int = 4) -> Hand:
    """A 14-shaped complete regular hand, some of its sets laid down as melds."""
    used: Counter[int] = Counter()
    concealed: list[int] = []
    melds: list[Meld] = []
    n_melds = draw(st.integers(0, max_melds))
    for index in range(4):
        as_meld = index < n_melds
        if draw(st.booleans()):
            start = draw(st.sampled_from(SEQUENCE_STARTS))
            kinds = [start, start + 1, start + 2]
            meld_kind = MeldKind.CHI
        else:
            kind = draw(st.integers(0, 33))
            quad = as_meld and draw(st.booleans())
            kinds = [kind] * (4 if quad else 3)
            meld_kind = draw(st.sampled_from([MeldKind.OPEN_KAN, MeldKind.CLOSED_KAN])) if quad else MeldKind.PON
        if any(used[k] + kinds.count(k) > 4 for k in kinds):
            continue  # would need a fifth copy: leave this set out (the hand stays short, filtered below)
        used.update(kinds)
        if as_meld:
            tiles = tuple(tile_of_kind(k) for k in kinds)
            if meld_kind is MeldKind.CLOSED_KAN:
                melds.append(Meld(meld_kind, tiles))
            else:
                source = (
                    Relation.LEFT
                    if meld_kind is MeldKind.CHI
                    else draw(st.sampled_from([Relation.ACROSS, Relation.RIGHT]))
                )
                melds.append(Meld(meld_kind, tiles, called=tiles[0], called_from=source))
        else:
            concealed.extend(kinds)
    pair = draw(st.integers(0, 33).filter(lambda k: used[k] <= 2))
    concealed += [pair, pair]
    return Hand(tuple(tile_of_kind(k) for k in concealed), tuple(melds))


@st.composite
def waiting_hands(draw: st.DrawFn, *, max_melds: int = 4) -> Hand:
    """A 13-shaped hand one tile short of a complete hand (usually tenpai)."""
    complete = draw(complete_hands(max_melds=max_melds).filter(lambda h: h.size == 14))
    drop = draw(st.integers(0, len(complete.concealed) - 1))
    concealed = complete.concealed[:drop] + complete.concealed[drop + 1 :]
    return Hand(concealed, complete.melds)


@st.composite
def arbitrary_closed_hands(draw: st.DrawFn, *, size: int = 13) -> Hand:
    """Any ``size`` tiles from one set of 136 (mostly far from tenpai)."""
    wall = [kind for kind in range(34) for _ in range(4)]
    picks = draw(st.lists(st.integers(0, len(wall) - 1), min_size=size, max_size=size, unique=True))
    return Hand(tuple(tile_of_kind(wall[i]) for i in sorted(picks)))
