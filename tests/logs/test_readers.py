"""Every log format reads into the same kind of event stream, plus the log's own record."""

from __future__ import annotations

import gzip
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from table_app.domain.tile import UNKNOWN
from table_app.logs import LogReadError, log_files, read_log
from table_app.rules.check import check_game, profile_for_log
from table_app.rules.events import Dahai, EndGame, EndKyoku, Hora, Ryukyoku, StartGame, StartKyoku, Tsumo
from table_app.rules.profiles import TENHOU, profile_named
from table_app.rules.record import HandEnding

GAME = "2010081709gm-00a9-0000-fe3371ad"


def test_mjlog_has_one_record_per_hand(logs_dir: Path):
    (game,) = read_log(logs_dir / "mjx_full" / f"{GAME}.mjlog")
    kinds = Counter(type(e).__name__ for e in game.events)
    assert isinstance(game.events[0], StartGame)
    assert isinstance(game.events[-1], EndGame)
    assert kinds["StartKyoku"] == kinds["EndKyoku"] == len(game.hands)
    assert game.complete
    assert game.final is not None
    assert all(len(tiles) == 13 for e in game.events if isinstance(e, StartKyoku) for tiles in e.tehais)
    assert all(record.deltas is not None for record in game.hands)
    assert [record.ending for record in game.hands].count(HandEnding.WIN) == 13  # 13 AGARI, 2 RYUUKYOKU


def test_gzip_mjlog_reads_the_same(logs_dir: Path, tmp_path: Path):
    plain = logs_dir / "mjx_full" / f"{GAME}.mjlog"
    packed = tmp_path / "game.mjlog"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    (from_plain,) = read_log(plain)
    (from_gzip,) = read_log(packed)
    assert from_gzip.events == from_plain.events
    assert from_gzip.hands == from_plain.hands


def _comparable(events):
    """tenhou.net/6 shows no hands, lists ura indicators for every win, sorts the deal."""
    return [_normalised(event) for event in events]


def _normalised(event):
    if isinstance(event, Hora):
        return replace(event, hand=None, ura_markers=())
    if isinstance(event, Ryukyoku):
        return replace(event, shown=())
    if isinstance(event, StartKyoku):
        return replace(event, tehais=tuple(tuple(sorted(t)) for t in event.tehais))
    if hasattr(event, "consumed"):
        return replace(event, consumed=tuple(sorted(event.consumed)))
    return event


def test_tenhou6_rebuilds_the_same_order_of_play_as_the_mjlog(logs_dir: Path):
    for json_path in sorted((logs_dir / "tenhou6_json").glob("*.json")):
        mjlog_path = logs_dir / "mjx_full" / f"{json_path.stem}.mjlog"
        if not mjlog_path.exists():
            continue
        (from_json,) = read_log(json_path)
        (from_xml,) = read_log(mjlog_path)
        assert _comparable(from_json.events[1:]) == _comparable(from_xml.events[1:]), json_path.name
        assert [h.deltas for h in from_json.hands] == [h.deltas for h in from_xml.hands]


def test_client_transcript_hides_other_draws(logs_dir: Path):
    path = logs_dir / "dnovikoff_net" / "444b3_2018-02-02_09_22_59.log"
    (game,) = read_log(path)
    draws = [e for e in game.events if isinstance(e, Tsumo)]
    assert {e.pai == UNKNOWN for e in draws if e.actor != 0} == {True}
    assert all(e.pai != UNKNOWN for e in draws if e.actor == 0)
    start = next(e for e in game.events if isinstance(e, StartKyoku))
    assert UNKNOWN not in start.tehais[0]
    assert set(start.tehais[1]) == {UNKNOWN}
    # Lower-case discard tags are another player's tsumogiri.
    assert any(e.tsumogiri for e in game.events if isinstance(e, Dahai) and e.actor != 0)


def test_a_transcripts_swap_discard_is_followed_as_tenhous_server_took_it(logs_dir: Path):
    """Tenhou bans kuikae, but its server took a chi of 8m with 67m and an 8m discard from a
    client of its own making: the transcript's game is followed without kuikae, a mjlog's is not."""
    (game,) = read_log(logs_dir / "dnovikoff_net" / "444b3_2018-02-12_03_16_02.log")
    assert game.rules.kuikae_unchecked
    followed = profile_for_log(TENHOU, game.rules)
    assert not followed.kuikae_banned
    # A named variant, so a journal that keeps the game's profile by name gets the same rules back.
    assert followed.name.split("+")[0] == "tenhou"
    assert "kuikae_unchecked" in followed.name.split("+")
    assert profile_named(followed.name) == followed
    assert check_game(game).mismatches == ()
    assert (
        check_game(replace(game, rules=replace(game.rules, kuikae_unchecked=False))).mismatches[0].what.find("kuikae")
        > 0
    )
    (mjlog,) = read_log(logs_dir / "mjx_full" / f"{GAME}.mjlog")
    assert not mjlog.rules.kuikae_unchecked
    assert profile_for_log(TENHOU, mjlog.rules).kuikae_banned


def test_reconnected_hand_is_left_out(logs_dir: Path):
    path = logs_dir / "dnovikoff_net" / "444b3_2018-02-04_02_08_02.log"
    assert "REINIT" in path.read_text()
    (game,) = read_log(path)
    first = next(e for e in game.events if isinstance(e, StartKyoku))
    assert (first.bakaze, first.kyoku) != (1, 3)  # the REINIT hand (South 3) is not replayed
    assert game.complete


def test_mjai_record_has_deltas(logs_dir: Path):
    (path,) = sorted((logs_dir / "mjai").glob("*.jsonl"))
    (game,) = read_log(path)
    wins = [h for h in game.hands if h.ending is HandEnding.WIN]
    assert wins
    assert all(h.deltas is not None for h in game.hands)
    assert len(game.hands) == sum(isinstance(e, EndKyoku) for e in game.events)


def test_folder_means_every_file(logs_dir: Path):
    files = log_files([logs_dir / "mjx_full"])
    assert len(files) == len([p for p in (logs_dir / "mjx_full").iterdir() if p.is_file()])


@pytest.mark.parametrize("cut", [0.3, 0.7])
def test_truncated_mjlog_names_file_and_position(logs_dir: Path, tmp_path: Path, cut: float):
    data = (logs_dir / "mjx_full" / f"{GAME}.mjlog").read_bytes()
    broken = tmp_path / "broken.mjlog"
    broken.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(LogReadError) as caught:
        read_log(broken)
    assert str(broken) in str(caught.value)
    assert "line 1, column" in caught.value.position


def test_truncated_gzip_is_an_error(logs_dir: Path, tmp_path: Path):
    data = gzip.compress((logs_dir / "mjx_full" / f"{GAME}.mjlog").read_bytes())
    broken = tmp_path / "broken.mjlog.gz"
    broken.write_bytes(data[: len(data) // 2])
    with pytest.raises(LogReadError, match="gzip"):
        read_log(broken)


def test_corrupt_tenhou6_names_the_hand(logs_dir: Path, tmp_path: Path):
    text = (logs_dir / "tenhou6_json" / f"{GAME}.json").read_text(encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text(text.replace('"和了"', '"什麼"', 1), encoding="utf-8")
    with pytest.raises(LogReadError) as caught:
        read_log(broken)
    assert "hand" in caught.value.position
    assert str(broken) in str(caught.value)


def test_corrupt_mjai_names_the_line(tmp_path: Path):
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type":"start_game"}\n{"type":"tsumo","actor":0,\n', encoding="utf-8")
    with pytest.raises(LogReadError) as caught:
        read_log(broken)
    assert caught.value.position == "line 2"


def test_unknown_format_is_an_error(tmp_path: Path):
    odd = tmp_path / "notes.txt"
    odd.write_text("hello\n", encoding="utf-8")
    with pytest.raises(LogReadError, match="not a known log format"):
        read_log(odd)
