"""Real logs kept in the store, exported as mjai and tenhou.net/6, read back the same."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.cli import main
from table_app.journal import GameStore
from table_app.journal.tenhou_export import TenhouExportError, tenhou6_game
from table_app.logs import read_log
from table_app.rules.check import check_game, profile_for_log
from table_app.rules.events import Dora, Hora, Ryukyoku, Tsumo
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU


def _keep(store, game):
    profile = profile_for_log(TENHOU, game.rules)
    number = store.new_game(profile.name, ("",) * 4, (25000,) * 4, at=0.0)
    store.append_all(number, game.events, at=0.0, after=replay(game.events, profile))
    return number


@pytest.fixture
def kept(tmp_path, logs_dir):
    sources = [
        sorted((logs_dir / "tenhou6_json").iterdir())[0],
        logs_dir / "mjx_fixtures" / "encdec-chankan-ippatsu.mjlog",
        next((logs_dir / "mjai").iterdir()),
    ]
    games = [read_log(path)[0] for path in sources]
    db = tmp_path / "table.db"
    store = GameStore(db)
    numbers = [_keep(store, game) for game in games]
    store.close()
    return db, list(zip(numbers, games, strict=True))


def _comparable(events):
    # tenhou.net/6 does not record when a kan's dora was turned (its reader puts it at a fixed
    # place) nor a hand laid open apart from the starting tiles; names may differ (StartGame).
    # An mjai log does not name its draws (the rules core infers them; check_game compares them).
    return [_plain(e) for e in events[1:] if not isinstance(e, Dora)]


def _plain(event):
    # A call's own tiles are a set: tenhou.net/6 lists them as Tenhou does (by kind, red last).
    if hasattr(event, "consumed"):
        event = replace(event, consumed=tuple(sorted(event.consumed, key=lambda t: (t.kind, t.red))))
    if isinstance(event, Hora):
        return replace(event, hand=None)
    if isinstance(event, Ryukyoku):
        return Ryukyoku()
    return event


@pytest.mark.parametrize("fmt", ["mjai", "tenhou"])
def test_export_reads_back_to_the_same_game(kept, tmp_path, fmt, capsys):
    db, games = kept
    for number, game in games:
        out = tmp_path / f"game{number}.{fmt}"
        assert main(["export", str(number), "--format", fmt, "--db", str(db), "-o", str(out)]) == 0
        (back,) = read_log(out)
        assert _comparable(back.events) == _comparable(game.events)
        result = check_game(back, profile_for_log(TENHOU, game.rules))
        assert result.mismatches == ()
        assert result.final.scores == replay(game.events, profile_for_log(TENHOU, game.rules)).scores
    assert main(["replay", "--check", *(str(p) for p in tmp_path.glob(f"*.{fmt}"))]) == 0
    assert "0 mismatches" in capsys.readouterr().out


def test_a_table_game_with_hidden_tiles_is_not_invented_into_tenhou_form(logs_dir):
    game = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    hidden = [Tsumo(e.actor, e.pai.__class__(34)) if isinstance(e, Tsumo) else e for e in game.events]
    with pytest.raises(TenhouExportError, match="did not see"):
        tenhou6_game(hidden, TENHOU)


def test_games_lists_standings(kept, capsys):
    db, games = kept
    assert main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(games)
    assert "1. Dさん 38900 (+49.0)" in lines[0]
    assert "finished" in lines[0]


def test_games_calls_a_seat_without_a_name_by_its_number_1_to_4(tmp_path, capsys):
    from table_app.journal.store import GameStore

    store = GameStore(tmp_path / "t.db")
    store.new_game("tenhou", ("Aoki", "Baba", "Chiba", ""), (25000, 25000, 25000, 25000), 0.0)
    store.close()
    assert main(["games", "--db", str(tmp_path / "t.db")]) == 0
    out = capsys.readouterr().out
    assert "Seat 4 25000" in out
    assert "seat 3" not in out.lower()


def test_export_of_an_unknown_game_names_it(kept, capsys):
    db, _ = kept
    assert main(["export", "99", "--format", "mjai", "--db", str(db)]) == 2
    assert "no game 99" in capsys.readouterr().err


def test_a_profile_changed_between_hands_is_exported_as_played(tmp_path, logs_dir):
    import json

    from table_app.rules.events import EndKyoku, ProfileChange

    game = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    end = next(i for i, e in enumerate(game.events) if isinstance(e, EndKyoku))
    store = GameStore(tmp_path / "table.db")
    number = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    store.append_all(number, game.events[: end + 1], at=0.0)
    store.append(number, ProfileChange("jpml"), at=1.0)  # from the second hand on
    store.append_all(number, game.events[end + 1 :], at=2.0)
    played = replay((entry.event for entry in store.events(number)), TENHOU)
    store.close()
    assert played.scores != replay(game.events, TENHOU).scores  # the rules changed the outcome
    out = tmp_path / "game.mjai"
    assert main(["export", str(number), "--format", "mjai", "--db", str(tmp_path / "table.db"), "-o", str(out)]) == 0
    last = json.loads(out.read_text().splitlines()[-1])
    assert last["type"] == "end_game"
    assert tuple(last["scores"]) == played.scores
