"""The same games through ``jantaku run`` (a ``[feed]``) and ``jantaku replay --announce``: the
live referee announces exactly the endings and payments replay decides, once each, in order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.rules.events import Chombo, DrawKind, EndKyoku, Ryukyoku, ShownHand
from table_app.rules.profiles import JPML, JUN, MLEAGUE, TENHOU
from tests.rules.game.scenario import go_around, riichi, ron, start
from tests.scenario_logs import write_mjai

SHANPON = "234m567p33p678s55s"
KANCHAN = "345m678p22p234s46s"
MIDDLES = ["2m", "3m", "4m", "6m", "7m", "8m", "2p", "3p", "4p", "6p", "7p", "8p", "2s", "3s", "4s", "6s"]
TERMINALS = ["1m", "9m", "1p", "9p", "1s", "9s", "5z", "6z", "7z"]
# A seat as the convention names it (table_app/domain/seat_names.py): wind and name, or seat number.
SEAT_EN = r"(?:(?:East|South|West|North)(?: \([^)]*\))?|Seat \d)"
SEAT_JA = r"(?:[東南西北]家(?:（[^）]*）)?|\d番席)"
ENDING = re.compile(
    rf"^\[(en|ja)\] ({SEAT_EN} wins by|{SEAT_JA} (ツモ|{SEAT_JA}からロン)和了|Exhaustive draw|流局|Abortive draw|"
    rf"途中流局|Nagashi mangan|流し満貫|Chombo by|{SEAT_JA}のチョンボ)"
)


def _starting(profile, hands):
    return start(hands, scores=(profile.start_points,) * 4)


def _double_ron(profile):
    hands = {1: KANCHAN, 3: SHANPON}
    return [*_starting(profile, hands), *go_around(0, ["5s"]), ron(3, 0, "5s"), ron(1, 0, "5s"), EndKyoku()]


def _triple_ron(profile):
    hands = {1: KANCHAN, 2: SHANPON, 3: SHANPON}
    return [*_starting(profile, hands), *go_around(0, ["5s"]), Ryukyoku(DrawKind.TRIPLE_RON), EndKyoku()]


def _nagashi(profile):
    tiles = [TERMINALS[i // 4 % len(TERMINALS)] if i % 4 == 0 else MIDDLES[i % len(MIDDLES)] for i in range(70)]
    return [*_starting(profile, {}), *go_around(0, tiles), Ryukyoku(DrawKind.NAGASHI_MANGAN), EndKyoku()]


def _four_winds_played_on(profile):
    tiles = ["1z", "1z", "1z", "1z", *[MIDDLES[i % len(MIDDLES)] for i in range(66)]]
    return [*_starting(profile, {}), *go_around(0, tiles), Ryukyoku(DrawKind.EXHAUSTIVE), EndKyoku()]


def _zero_han(profile):
    return [*_starting(profile, {1: "111m456p678s33s55p"}), *go_around(0, ["5p"]), ron(1, 0, "5p"), EndKyoku()]


def _noten_at_four_riichi(profile):
    events = list(_starting(profile, {}))
    for seat, tile in enumerate(["1z", "2z", "3z", "4z"]):
        events += riichi(seat, tile)
    hands = [SHANPON, SHANPON, "159m159p159s1234z", SHANPON]
    shown = tuple(ShownHand(Seat(s), parse_tiles(h)) for s, h in enumerate(hands))
    return [*events, Ryukyoku(DrawKind.FOUR_RIICHI, shown), Chombo(Seat.S2, "noten_riichi"), EndKyoku()]


GAMES = {
    "double ron, far seat first (tenhou)": (TENHOU, _double_ron, 2),
    "head bump (jpml)": (JPML, _double_ron, 1),
    "triple ron (tenhou)": (TENHOU, _triple_ron, 1),
    "nagashi mangan (tenhou)": (TENHOU, _nagashi, 1),
    "four winds nobody declared (mleague)": (MLEAGUE, _four_winds_played_on, 1),
    "0-han win (jun)": (JUN, _zero_han, 1),
    "noten riichi at four riichi (tenhou)": (TENHOU, _noten_at_four_riichi, 1),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_run_announces_what_replay_decides(tmp_path: Path, capsys, name):
    profile, build, endings = GAMES[name]
    log = write_mjai(tmp_path / "game.jsonl", build(profile))
    config = tmp_path / "table.toml"
    config.write_text(
        f'[table]\ndb = "t.db"\nprofile = "{profile.name}"\n[feed]\nlog = "{log}"\npace_s = 0\n', encoding="utf-8"
    )
    assert main(["run", "--config", str(config), "--until-end"]) == 0
    run_out = capsys.readouterr().out.splitlines()
    assert main(["replay", str(log), "--profile", profile.name, "--announce"]) == 0
    replay_out = capsys.readouterr().out.splitlines()
    live = [line for line in run_out if ENDING.match(line)]
    replayed = [line for line in replay_out if line.startswith("[")]
    assert live == replayed
    # Said once the hand has ended: seats by that hand's winds, never by number.
    assert not any("Seat " in line or "番席" in line for line in replayed)
    assert len(replayed) == 2 * endings  # once each, in Japanese and English
    illegal = [line for line in run_out if line.startswith("[en]") and "illegal" in line]
    if build is _noten_at_four_riichi:
        # Seats named as people name them in the hand (seat 0 deals: seat 2 is West), live and replayed.
        assert illegal == ["[en] West: illegal: riichi without tenpai at the draw (chombo)"]
        assert main(["replay", str(log), "--verdicts"]) == 0
        verdicts = capsys.readouterr().out
        assert (
            "West ryukyoku four_riichi: chombo (noten_riichi): a riichi hand shown noten at the four-riichi abort"
            in (verdicts)
        )
    else:
        assert illegal == []
