"""Two hand-authored games, one for ``jpml`` and one for ``jun``, checked like real logs.

Each game is written as a log would be: the events of every hand, the start scores of the
next hand, and the record of every result, all worked out by hand from the rules (see the
comments). ``check_game`` must agree with every figure; the tests also assert the totals.
"""

from __future__ import annotations

from itertools import accumulate, cycle, islice

from table_app.domain.notation import parse_tile, parse_tiles
from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import UNKNOWN
from table_app.rules.check import check_game
from table_app.rules.events import (
    Chombo,
    DrawKind,
    EndGame,
    EndKyoku,
    ReachAccepted,
    Ryukyoku,
    ShownHand,
    StartGame,
    StartKyoku,
)
from table_app.rules.profiles import JPML, JUN
from table_app.rules.record import FinalRecord, GameLog, HandEnding, HandRecord, LogRules, WinRecord

from .scenario import discard, draw, go_around, riichi, ron, tsumo_win

SHANPON = "234m567p33p678s55s"  # tanyao, waits 3p / 5s
KANCHAN = "345m678p22p234s46s"  # tanyao, waits 5s
FILLERS = ["1z", "2z", "3z", "4z", "6z", "7z"]


def kyoku(index: int, oya: int, scores, hands: dict[int, str], *, honba: int = 0, kyotaku: int = 0) -> StartKyoku:
    tehais = tuple(parse_tiles(hands[s]) if s in hands else (UNKNOWN,) * 13 for s in range(4))
    return StartKyoku(
        Wind(index // 4), index % 4 + 1, honba, kyotaku, Seat(oya), tuple(scores), parse_tile("9s"), tehais
    )


def ron_on_5s(oya: int, winners: list[int], discarder: int) -> list:
    """A round of discards from the dealer, then the discarder's 5s and the rons on it."""
    fillers = list(islice(cycle(FILLERS), 4 + (discarder - oya) % 4))
    return [*go_around(oya, fillers), draw(discarder), discard(discarder, "5s")] + [
        ron(w, discarder, "5s") for w in winners
    ]


def game_log(events, hands, final) -> GameLog:
    return GameLog("golden", 4, tuple(events), tuple(hands), final, True, LogRules())


def win(winner: int, target: int, points: int, deltas) -> WinRecord:
    return WinRecord(Seat(winner), Seat(target), points, deltas=tuple(deltas))


# --- JPML: head bump, chombo on the final tally, dealer repeats on tenpai -----------------
# Each entry: (round index, dealer, honba, kyotaku, hands, events, record)
JPML_HANDS = [
    # E1: seat 1 rons seat 0's 5s: tanyao 1 han 40 fu = 1300.
    (0, 0, 0, 0, {1: SHANPON}, ron_on_5s(0, [1], 0), HandRecord(HandEnding.WIN, (-1300, 1300, 0, 0))),
    # E2: seats 2 and 0 both ron seat 3's 5s; head bump: seat 0 comes first after seat 3.
    (
        1,
        1,
        0,
        0,
        {0: KANCHAN, 2: SHANPON},
        ron_on_5s(1, [2, 0], 3),
        HandRecord(HandEnding.WIN, (1300, 0, 0, -1300), (win(0, 3, 1300, (1300, 0, 0, -1300)),)),
    ),
    # E3: seat 3 declares riichi, then chombo: no payment, stick back, -20 on the tally, replayed.
    (
        2,
        2,
        0,
        0,
        {},
        [*go_around(2, ["1z", "2z", "3z", "4z", "1z"]), *riichi(3, "9m"), Chombo(Seat.S3, "noten_riichi")],
        HandRecord(HandEnding.CHOMBO, (0, 0, 0, 1000)),
    ),
    # E3 replayed: exhaustive draw after 70 draws, only the dealer (seat 2) tenpai: +3000.
    (
        2,
        2,
        0,
        0,
        {2: SHANPON},
        [
            *go_around(2, islice(cycle(["1m", "9m", "1p", "9p", "1s", "9s", *FILLERS]), 70)),
            Ryukyoku(DrawKind.EXHAUSTIVE, (ShownHand(Seat.S2, parse_tiles(SHANPON)),)),
        ],
        HandRecord(HandEnding.EXHAUSTIVE, (-1000, -1000, 3000, -1000)),
    ),
    # E3-1: dealer tsumo on 5s: tsumo + tanyao, 30 fu: 1000 all, + 100 each for the honba.
    (
        2,
        2,
        1,
        0,
        {2: SHANPON},
        [*go_around(2, FILLERS[:4]), draw(2, "5s"), tsumo_win(2, "5s")],
        HandRecord(HandEnding.WIN, (-1100, -1100, 3300, -1100)),
    ),
    # E3-2: seat 3 rons seat 1: 1300 + 2 honba.
    (2, 2, 2, 0, {3: SHANPON}, ron_on_5s(2, [3], 1), HandRecord(HandEnding.WIN, (0, -1900, 0, 1900))),
    (3, 3, 0, 0, {0: SHANPON}, ron_on_5s(3, [0], 2), HandRecord(HandEnding.WIN, (1300, 0, -1300, 0))),
    (4, 0, 0, 0, {1: SHANPON}, ron_on_5s(0, [1], 3), HandRecord(HandEnding.WIN, (0, 1300, 0, -1300))),
    (5, 1, 0, 0, {2: SHANPON}, ron_on_5s(1, [2], 0), HandRecord(HandEnding.WIN, (-1300, 0, 1300, 0))),
    (6, 2, 0, 0, {3: SHANPON}, ron_on_5s(2, [3], 1), HandRecord(HandEnding.WIN, (0, -1300, 0, 1300))),
    (7, 3, 0, 0, {0: SHANPON}, ron_on_5s(3, [0], 2), HandRecord(HandEnding.WIN, (1300, 0, -1300, 0))),
]
JPML_FINAL_SCORES = (29200, 27300, 35000, 28500)
# Exact tally, uma 15/5/-5/-15, no oka: seat 0 -0.8+5, seat 3 -1.5-5-20 (chombo), seat 1
# -2.7-15, seat 2 takes the rest (20.0 = 5.0 + 15).
JPML_FINAL_POINTS = (4.2, -17.7, 20.0, -26.5)


def _authored(hands, profile, final):
    """The log of a game: next-hand scores are the last ones plus the recorded deltas, less
    the riichi sticks put on the table (a log's deltas never include them)."""
    events = [StartGame()]
    scores = (profile.start_points,) * 4
    records = []
    for index, oya, honba, kyotaku, known, played, record in hands:
        events += [kyoku(index, oya, scores, known, honba=honba, kyotaku=kyotaku), *played, EndKyoku()]
        records.append(record)
        sticks = [sum(isinstance(e, ReachAccepted) and e.actor == seat for e in played) for seat in range(4)]
        scores = tuple(
            s + d - profile.riichi_deposit * n for s, d, n in zip(scores, record.deltas, sticks, strict=True)
        )
    events.append(EndGame())
    return game_log(events, records, final), scores


def test_jpml_golden_game():
    log, scores = _authored(JPML_HANDS, JPML, FinalRecord(JPML_FINAL_SCORES, JPML_FINAL_POINTS))
    assert scores == JPML_FINAL_SCORES  # the authored deltas add up
    check = check_game(log, JPML)
    assert check.mismatches == ()
    assert check.hands == len(JPML_HANDS)
    assert check.final.finished
    assert check.final.tally_deductions == (0, 0, 0, 20)


# --- 純麻雀: no honba, no riichi stick, the deal always passes, fixed table, 16 hands -------
def _jun_hand(index: int):
    oya = index % 4
    winner, discarder = (oya + 1) % 4, (oya + 2) % 4
    if index == 4:
        # Riichi (after a first go-around, so not a double riichi) + tanyao: 2 han = 3000.
        played = [*go_around(0, FILLERS[:4]), draw(0), discard(0, "1z"), *riichi(1, "9m", drawn="9m")]
        played += [draw(2), discard(2, "5s"), ron(1, 2, "5s")]
        return played, (0, 3000, -3000, 0)
    if index == 8:
        # Seat 3 calls a false win: it loses its rights, the hand goes on, nobody pays for it.
        played = [*go_around(0, FILLERS[:4]), Chombo(Seat.S3, "false_win")]
        played += [*go_around(0, FILLERS[:2]), draw(2), discard(2, "5s"), ron(1, 2, "5s")]
        return played, (0, 1500, -1500, 0)
    if index == 12:
        # Tsumo + tanyao: 2 han, 1000 from each (no dealer premium in the fixed table).
        played = [*go_around(0, FILLERS[:5]), draw(1, "5s"), tsumo_win(1, "5s")]
        return played, (-1000, 3000, -1000, -1000)
    return ron_on_5s(oya, [winner], discarder), tuple(
        1500 if s == winner else -1500 if s == discarder else 0 for s in range(4)
    )


def test_jun_golden_game():
    hands = []
    for index in range(16):
        played, deltas = _jun_hand(index)
        oya = index % 4
        hands.append((index, oya, 0, 0, {(oya + 1) % 4: SHANPON}, played, HandRecord(HandEnding.WIN, deltas)))
    final_scores = (29000, 33000, 29000, 29000)
    log, scores = _authored(hands, JUN, FinalRecord(final_scores, (-1.0, 3.0, -1.0, -1.0)))
    assert scores == final_scores
    assert list(accumulate(h[6].deltas[1] for h in hands))[-1] == 3000
    check = check_game(log, JUN)
    assert check.mismatches == ()
    assert check.final.finished
    assert {r.label[-2:] for r in check.final.results} == {"-0"}  # never a honba
