"""Each abortive draw in each profile: allowed or not, and the dealer and honba after it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.rules.events import Ankan, DrawKind, EndKyoku, Ryukyoku, ShownHand
from table_app.rules.fold import apply
from table_app.rules.legality import judge
from table_app.rules.profiles import PROFILES
from table_app.rules.record import HandEnding

from .scenario import discard, draw, go_around, play, riichi, start


def _four_winds():
    return [*go_around(0, ["1z", "1z", "1z", "1z"])], Ryukyoku(DrawKind.FOUR_WINDS)


def _four_riichi():
    events = []
    for seat, tile in enumerate(["1z", "2z", "3z", "4z"]):
        events += riichi(seat, tile)
    return events, Ryukyoku(DrawKind.FOUR_RIICHI)


def _nine_terminals():
    shown = ShownHand(Seat.S0, parse_tiles("19m19p19s12345z5m"))
    return [draw(0)], Ryukyoku(DrawKind.NINE_TERMINALS, (shown,), Seat.S0)


def _four_kans():
    events = []
    for seat, kind in ((0, "1m"), (1, "2m"), (0, "3m"), (1, "4m")):
        events += [draw(seat), Ankan(Seat(seat), parse_tiles(f"{kind[0] * 4}m")), draw(seat)]
        events.append(discard(seat, "9p", tsumogiri=True))
    return events, Ryukyoku(DrawKind.FOUR_KANS)


CASES = {
    "four_winds": (_four_winds, "four_winds"),
    "four_riichi": (_four_riichi, "four_riichi"),
    "nine_terminals": (_nine_terminals, "nine_terminals"),
    "four_kans": (_four_kans, "four_kans"),
}


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@pytest.mark.parametrize("case", sorted(CASES))
def test_abortive_draw(profile, case):
    build, switch = CASES[case]
    events, ending = build()
    (ending,) = _shift([ending])
    scores = (profile.start_points,) * 4
    state = play([*start({}, honba=1, kyotaku=1, scores=scores, oya=1, kyoku=2), *_shift(events)], profile)
    verdict = judge(state.hand, ending, profile)
    allowed = getattr(profile, switch) and (profile.kans or case != "four_kans")
    assert verdict.accepted is allowed, verdict
    if not verdict.accepted:
        return
    state = apply(apply(state, ending), EndKyoku())
    (result,) = state.results
    assert result.ending is HandEnding(ending.kind.value)
    assert result.deltas == (0, 0, 0, 0)
    nxt = state.next_hand
    assert (nxt.oya == Seat.S1) is profile.dealer_repeats_on_abort
    assert nxt.honba == (2 if profile.honba_on_abort and profile.has_honba else 1 if profile.has_honba else 0)
    riichi_sticks = 4 if case == "four_riichi" and profile.riichi_deposit else 0
    assert nxt.kyotaku == 1 + riichi_sticks  # sticks stay on the table


def _shift(events):
    """The cases are written with seat 0 dealing; here seat 1 deals: rotate every seat by one."""
    rotated = []
    for event in events:
        changes = {}
        for name in ("actor", "target"):
            value = getattr(event, name, None)
            if isinstance(value, Seat):
                changes[name] = Seat((value + 1) % 4)
        if isinstance(event, Ryukyoku):
            changes["shown"] = tuple(replace(s, seat=Seat((s.seat + 1) % 4)) for s in event.shown)
        rotated.append(replace(event, **changes) if changes else event)
    return rotated
