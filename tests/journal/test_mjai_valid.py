"""mjai exports that other readers accept: checked with jansou (MIT), an independent mjai
reader, replayer and scorer, over every game exported here; and read back by jantaku's own
reader with every result the same."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.journal import GameStore
from table_app.logs import read_log
from table_app.rules.events import Chombo, Dahai, EndKyoku, StartKyoku, Tsumo
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU

jansou_mjai = pytest.importorskip("jansou.io.mjai")
jansou_replay = pytest.importorskip("jansou.io.replay")
jansou_check = pytest.importorskip("jansou.validation.check")


def assert_jansou_accepts(path: Path) -> int:
    """jansou parses the log, replays every decision through its own engine, and scores every
    win to the value the log records. Returns how many wins it checked."""
    paifu = jansou_mjai.parse_mjai(path.read_text(encoding="utf-8"))
    decisions = sum(1 for _ in jansou_replay.replay_paifu(paifu))
    verdicts = jansou_check.check_paifu(paifu)
    failed = [v for v in verdicts if not v.passed]
    assert failed == [], f"{path.name}: {failed}"
    assert decisions > 0
    return len(verdicts)


def _export(db: Path, number: int, out: Path, *extra: str) -> int:
    return main(["export", str(number), "--format", "mjai", "--db", str(db), "-o", str(out), *extra])


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_full_information_game_is_valid_mjai(logs_dir, tmp_path, capsys):
    sources = [
        *sorted((logs_dir / "tenhou6_json").glob("*.json")),
        *sorted((logs_dir / "mjai").iterdir()),
        logs_dir / "mjx_fixtures" / "double-ron.mjlog",
        logs_dir / "mjx_fixtures" / "encdec-kan-opened-01.mjlog",  # cut short in a hand
        logs_dir / "dnovikoff_xml" / "pao.xml",
        logs_dir / "dnovikoff_xml" / "bye.xml",  # East-only, 2009
    ]
    db = tmp_path / "club.db"
    assert main(["import", *map(str, sources), "--db", str(db)]) == 0
    imported = len(GameStore(db).games())
    wins = 0
    for number in range(1, imported + 1):
        out = tmp_path / f"game{number}.jsonl"
        assert _export(db, number, out) == 0
        assert all(line["type"] != "chombo" and "?" not in json.dumps(line) for line in _lines(out))
        wins += assert_jansou_accepts(out)
    assert imported == len(sources)
    assert wins > 150
    capsys.readouterr()
    assert main(["replay", "--check", *map(str, sorted(tmp_path.glob("*.jsonl")))]) == 0
    assert capsys.readouterr().out.strip().endswith(", 0 mismatches")


def test_a_game_with_hidden_tiles_is_refused_in_one_line_or_filled_and_marked(logs_dir, tmp_path, capsys):
    transcripts = sorted((logs_dir / "dnovikoff_net").iterdir())[:3]  # one seat's view: three hands hidden
    db = tmp_path / "club.db"
    assert main(["import", *map(str, transcripts), "--db", str(db)]) == 0
    capsys.readouterr()
    for number in (1, 2, 3):
        refused = tmp_path / f"refused{number}.jsonl"
        assert _export(db, number, refused) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"game {number}: " in err
        assert "--fill-hidden" in err
        assert not refused.exists()

        out = tmp_path / f"game{number}.jsonl"
        assert _export(db, number, out, "--fill-hidden") == 0
        lines = _lines(out)
        marked = lines[0]["jantaku"]["filled_lines"]
        assert marked
        assert all(lines[n - 1]["type"] in ("start_kyoku", "tsumo") for n in marked)
        assert assert_jansou_accepts(out) >= 0
        # The same export twice is the same file (the fill is deterministic).
        again = tmp_path / f"again{number}.jsonl"
        assert _export(db, number, again, "--fill-hidden") == 0
        assert again.read_bytes() == out.read_bytes()
        (original,) = read_log(transcripts[number - 1])
        (back,) = read_log(out)
        assert replay(back.events).scores == replay(original.events).scores
    capsys.readouterr()
    assert main(["replay", "--check", *(str(tmp_path / f"game{n}.jsonl") for n in (1, 2, 3))]) == 0


def _with_a_voided_hand(game):
    """A real game with a hand voided by a false win inserted before its second hand: the
    hand is replayed, and every later hand starts with the chombo's payments made."""
    events = list(game.events)
    second = [i for i, e in enumerate(events) if isinstance(e, StartKyoku)][1]
    start = events[second]
    assert isinstance(start, StartKyoku)
    turns = [e for e in events[second + 1 : second + 12] if isinstance(e, (Tsumo, Dahai))]
    voided = [start, *turns, Chombo(start.oya, "false_win"), EndKyoku()]
    penalty = replay([*events[:second], *voided], TENHOU).results[-1].deltas
    later = [
        replace(e, scores=tuple(s + d for s, d in zip(e.scores, penalty, strict=True)))
        if isinstance(e, StartKyoku)
        else e
        for e in events[second:]
    ]
    return [*events[:second], *voided, *later], penalty


def test_a_chombo_goes_where_mjai_readers_skip_it_and_comes_back(logs_dir, tmp_path, capsys):
    (game,) = read_log(logs_dir / "tenhou6_json" / "2010081709gm-00a9-0000-fe3371ad.json")
    events, penalty = _with_a_voided_hand(game)
    assert sorted(penalty) == [-12000, 4000, 4000, 4000]  # the dealer pays a mangan to each
    store = GameStore(tmp_path / "club.db")
    number = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    store.append_all(number, events, at=0.0, after=replay(events, TENHOU))
    store.close()
    out = tmp_path / "game.jsonl"
    assert _export(tmp_path / "club.db", number, out) == 0
    lines = _lines(out)
    assert [line for line in lines if line["type"] == "chombo"] == []
    (voided,) = lines[0]["jantaku"]["voided_hands"]
    assert voided["after_hands"] == 1
    assert voided["events"][-2] == {"type": "chombo", "actor": 1, "reason": "false_win", "deltas": list(penalty)}
    assert sum(line["type"] == "start_kyoku" for line in lines) == len(game.hands)
    assert_jansou_accepts(out)
    (back,) = read_log(out)
    assert back.events == tuple(events)  # the voided hand back in its place
    assert replay(back.events, TENHOU).scores == replay(events, TENHOU).scores
    capsys.readouterr()
    assert main(["replay", "--check", str(out)]) == 0


def test_a_ruling_in_a_hand_that_goes_on_is_kept_in_the_header_and_put_back():
    """純麻雀: a false win costs the offender its rights, and the hand goes on to a win."""
    from table_app.journal.export import mjai_lines
    from table_app.journal.fill_hidden import fill_hidden
    from table_app.logs.mjai import read_mjai_text
    from table_app.rules.check import check_game
    from table_app.rules.profiles import JUN
    from table_app.rules.record import HandEnding, HandRecord
    from tests.rules.game.test_golden_games import _authored, _jun_hand

    hands = []
    for index in range(16):
        played, deltas = _jun_hand(index)
        oya = index % 4
        hands.append(
            (index, oya, 0, 0, {(oya + 1) % 4: "234m567p33p678s55s"}, played, HandRecord(HandEnding.WIN, deltas))
        )
    log, _ = _authored(hands, JUN, None)
    events = fill_hidden(list(log.events), red_fives=False)
    lines = [json.loads(line) for line in mjai_lines(events, JUN)]
    assert [line for line in lines if line["type"] == "chombo"] == []
    (ruling,) = lines[0]["jantaku"]["rulings"]
    assert ruling["event"] == {"type": "chombo", "actor": 3, "reason": "false_win"}
    before = lines[ruling["before_line"] - 1]
    assert before["type"] == "tsumo"  # the first draw after the four filler turns
    (back,) = read_mjai_text("\n".join(json.dumps(line) for line in lines), "jun.jsonl")
    assert back.events == tuple(events)
    assert check_game(back, JUN).mismatches == ()


@pytest.mark.parametrize(
    ("transcript", "outcome"),
    [
        # A riichi hand filled from a pool that counted each called tile twice ran out of sets
        # and was filled noten: jansou refused the riichi. Now it is tenpai.
        ("82093_2018-01-24_08_40_04.log", "valid"),
        # The last hand was cut short: its hidden tiles are filled too.
        ("82093_2018-01-20_22_11_02.log", "valid"),
        # A closed kan after riichi that the filled hand's waits would not allow: refused.
        ("82093_2018-01-22_16_32_02.log", "event 986 (Ankan) would not be legal with them filled"),
        # No hand ended before the log stops: nothing an mjai reader can replay.
        ("444b3_2018-02-11_21_17_01.log", "no hand has ended yet"),
    ],
)
def test_filling_gives_a_valid_game_or_a_one_line_refusal(logs_dir, tmp_path, capsys, transcript, outcome):
    db = tmp_path / "club.db"
    assert main(["import", str(logs_dir / "dnovikoff_net" / transcript), "--db", str(db)]) == 0
    capsys.readouterr()
    out = tmp_path / "game.jsonl"
    if outcome == "valid":
        assert _export(db, 1, out, "--fill-hidden") == 0
        assert_jansou_accepts(out)
        assert main(["replay", "--check", str(out)]) == 0
    else:
        assert _export(db, 1, out, "--fill-hidden") == 2
        err = capsys.readouterr().err
        assert outcome in err
        assert err.count("\n") == 1
        assert not out.exists()
