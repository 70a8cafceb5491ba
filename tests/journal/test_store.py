"""The SQLite journal: append-only, undo as a correction, resume by replay, clear errors."""

from __future__ import annotations

import sqlite3

import pytest

from table_app.domain.notation import parse_tile
from table_app.journal import GameStore, JournalCorruptError, JournalError, UnknownGameError
from table_app.logs import read_log
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU


@pytest.fixture
def real_game(logs_dir):
    return read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]


def _journal_all(store, game_log):
    game = store.new_game(TENHOU.name, ("a", "b", "c", "d"), (25000,) * 4, at=0.0)
    store.append_all(game, game_log.events[:-1], at=1.0)
    store.append(game, game_log.events[-1], at=2.0)  # the one-at-a-time path too
    return game


def test_a_real_game_journaled_replays_to_the_same_state(tmp_path, real_game):
    path = tmp_path / "table.db"
    store = GameStore(path)
    game = _journal_all(store, real_game)
    store.close()
    reopened = GameStore(path)
    entries = reopened.events(game)
    assert [e.event for e in entries] == list(real_game.events)
    assert [e.seq for e in entries] == list(range(1, len(real_game.events) + 1))
    assert replay(e.event for e in entries).scores == replay(real_game.events).scores


def test_wal_and_full_sync(tmp_path):
    store = GameStore(tmp_path / "table.db")
    store.close()
    connection = sqlite3.connect(tmp_path / "table.db")
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_undo_is_a_correction_not_a_delete(tmp_path, real_game):
    store = GameStore(tmp_path / "table.db")
    game = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    for event in real_game.events[:5]:
        store.append(game, event, at=1.0)
    undone = store.undo(game, at=2.0)
    assert undone is not None
    assert (undone.seq, undone.undoes) == (6, 5)
    assert [e.event for e in store.events(game)] == list(real_game.events[:4])
    second = store.undo(game, at=3.0)
    assert second is not None
    assert second.undoes == 4
    store.append(game, real_game.events[3], at=4.0)
    assert [e.seq for e in store.events(game)] == [1, 2, 3, 8]
    rows = sqlite3.connect(tmp_path / "table.db").execute("SELECT count(*) FROM journal").fetchone()[0]
    assert rows == 8  # nothing was deleted


def test_undo_of_an_empty_game_is_nothing(tmp_path):
    store = GameStore(tmp_path / "table.db")
    game = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    assert store.undo(game, at=1.0) is None


def test_standings_follow_the_fold(tmp_path, real_game):
    store = GameStore(tmp_path / "table.db")
    game = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    state = replay(real_game.events)
    store.rewrite_standing(game, state)
    summary = store.game(game)
    assert summary.scores == state.scores
    assert summary.finished
    assert summary.hands == len(state.results) == len(store.hands(game))
    assert store.hands(game)[0].deltas == state.results[0].deltas


def test_a_corrupt_row_names_game_and_sequence(tmp_path, real_game):
    path = tmp_path / "table.db"
    store = GameStore(path)
    game = _journal_all(store, real_game)
    with sqlite3.connect(path) as raw:
        raw.execute('UPDATE journal SET body = \'{"type":"dahai"\' WHERE game = ? AND seq = 7', (game,))
    with pytest.raises(JournalCorruptError, match=f"game {game}, event 7: not JSON") as caught:
        store.events(game)
    assert (caught.value.game, caught.value.seq) == (game, 7)
    # the other rows are still there, untouched
    count = sqlite3.connect(path).execute("SELECT count(*) FROM journal").fetchone()[0]
    assert count == len(real_game.events)


def test_a_broken_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "table.db"
    garbage = b"this is not a database at all" * 200
    path.write_bytes(garbage)
    with pytest.raises(JournalError, match="not a readable jantaku database"):
        GameStore(path)
    assert path.read_bytes() == garbage


def test_unknown_game(tmp_path):
    store = GameStore(tmp_path / "table.db")
    with pytest.raises(UnknownGameError, match="no game 42"):
        store.events(42)


def test_a_correction_stands_in_place_of_the_misread_event(tmp_path, real_game):
    from table_app.rules.events import Dahai

    store = GameStore(tmp_path / "table.db")
    game = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    events = list(real_game.events[:12])
    store.append_all(game, events, at=1.0)
    target = next(i for i, e in enumerate(events) if isinstance(e, Dahai))
    misread = events[target]
    right = Dahai(misread.actor, parse_tile("7z") if misread.pai != parse_tile("7z") else parse_tile("6z"), False)
    last = store.correct(game, [(target + 1, right)], at=2.0, dropped=(12, 11), appended=(events[10],))
    assert last == 16  # the correction, two undos, one event
    effective = store.events(game)
    assert [e.event for e in effective] == [*events[:target], right, *events[target + 1 : 11]]
    assert effective[target].seq == target + 1  # in its place, not at the end
    assert [e.seq for e in effective][-1] == 16
    kinds = [k for (k,) in sqlite3.connect(tmp_path / "table.db").execute("SELECT kind FROM journal ORDER BY seq")]
    assert kinds[12:] == ["correct", "undo", "undo", "event"]  # nothing rewritten or deleted


def test_a_profile_change_is_an_event_folded_where_it_was_made(tmp_path, real_game):
    from table_app.rules.events import EndKyoku, ProfileChange

    store = GameStore(tmp_path / "table.db")
    game = store.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    end = next(i for i, e in enumerate(real_game.events) if isinstance(e, EndKyoku))
    store.append_all(game, real_game.events[: end + 1], at=1.0)
    store.append(game, ProfileChange("jpml"), at=2.0)
    effective = store.events(game)
    assert [e.event for e in effective] == [*real_game.events[: end + 1], ProfileChange("jpml")]
    assert effective[-1].seq == end + 2
    state = replay((e.event for e in effective), TENHOU)  # the rules core's own fold, nothing of the journal's
    assert state.profile.name == "jpml"
    assert state.results == replay(real_game.events[: end + 1]).results


#: How the tables a journal of an older schema version began (later versions only add to them).
_OLD_SCHEMA = {
    1: """
        CREATE TABLE games (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, profile TEXT NOT NULL,
            names TEXT NOT NULL, hands INTEGER NOT NULL DEFAULT 0, scores TEXT NOT NULL, points TEXT,
            finished INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE journal (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
            at REAL NOT NULL, kind TEXT NOT NULL CHECK (kind IN ({kinds})), body TEXT,
            undoes INTEGER, PRIMARY KEY (game, seq)) WITHOUT ROWID;
    """,
    2: """
        CREATE TABLE hands (game INTEGER NOT NULL REFERENCES games(id), number INTEGER NOT NULL,
            label TEXT NOT NULL, ending TEXT NOT NULL, deltas TEXT NOT NULL, winners TEXT NOT NULL,
            PRIMARY KEY (game, number)) WITHOUT ROWID;
        CREATE TABLE imports (key TEXT PRIMARY KEY, game INTEGER NOT NULL REFERENCES games(id),
            source TEXT NOT NULL, imported_at REAL NOT NULL) WITHOUT ROWID;
    """,
}
_OLD_KINDS = {1: "'event', 'undo'", 2: "'event', 'undo', 'correct', 'profile'"}


def _old_journal(path, version: int, rows: list[tuple[float, str, str | None, int | None]]) -> list[tuple]:
    """A journal as jantaku wrote it at schema ``version`` (1 or 2): one game holding ``rows``
    (at, kind, body, undoes) as sequence numbers 1, 2, 3...; returns the journal's rows as written."""
    tables = "".join(_OLD_SCHEMA[v] for v in range(1, version + 1)).format(kinds=_OLD_KINDS[version])
    old = sqlite3.connect(path, isolation_level=None)
    old.executescript(f"{tables} PRAGMA user_version={version};")
    old.execute("INSERT INTO games (started_at, profile, names, scores) VALUES (0, 'tenhou', '[]', '[]')")
    for seq, row in enumerate(rows, start=1):
        old.execute("INSERT INTO journal VALUES (1, ?, ?, ?, ?, ?)", (seq, *row))
    written = old.execute("SELECT * FROM journal ORDER BY seq").fetchall()
    old.close()
    return written


def _version_2_journal(path, events, profile_row_after: int) -> list[tuple]:
    """Version 2 kept a profile change as a ``profile`` row of its own."""
    from table_app.rules.mjai_codec import encode_event

    rows = [(1.0, "event", encode_event(e), None) for e in events]
    return _old_journal(
        path, 2, [*rows[:profile_row_after], (1.0, "profile", '{"profile": "jpml"}', None), *rows[profile_row_after:]]
    )


def test_a_version_2_journal_opens_and_folds_as_it_did(tmp_path, real_game):
    """A profile change kept as version 2's own row is read as the same event, in its place:
    the game folds exactly as a version 3 journal of the same game does."""
    from table_app.rules.events import EndKyoku, ProfileChange

    end = next(i for i, e in enumerate(real_game.events) if isinstance(e, EndKyoku))
    path = tmp_path / "old.db"
    rows_before = _version_2_journal(path, real_game.events, end + 1)
    as_played = [*real_game.events[: end + 1], ProfileChange("jpml"), *real_game.events[end + 1 :]]

    reader = GameStore(path, read_only=True)  # jantaku games / export: not a byte written
    assert [e.event for e in reader.events(1)] == as_played
    assert [e.seq for e in reader.events(1)] == list(range(1, len(as_played) + 1))
    reader.close()

    writer = GameStore(path)
    old_fold = replay((e.event for e in writer.events(1)), TENHOU)
    new = GameStore(tmp_path / "new.db")
    game = new.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=0.0)
    new.append_all(game, as_played, at=1.0)
    assert old_fold == replay((e.event for e in new.events(game)), TENHOU)
    assert old_fold.profile.name == "jpml"
    assert old_fold.scores != replay(real_game.events, TENHOU).scores  # the change is felt
    writer.undo(1, at=2.0)  # old rows stay as they were; new ones are the new form
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT * FROM journal WHERE seq <= ? ORDER BY seq", (len(rows_before),)).fetchall() == (
        rows_before
    )
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 3


def test_a_version_2_profile_row_taken_back_is_no_longer_in_force(tmp_path, real_game):
    from table_app.rules.events import EndKyoku

    end = next(i for i, e in enumerate(real_game.events) if isinstance(e, EndKyoku))
    path = tmp_path / "old.db"
    _version_2_journal(path, real_game.events[: end + 1], end + 1)  # the change is the last row
    store = GameStore(path)
    assert store.undo(1, at=2.0).undoes == end + 2
    assert replay((e.event for e in store.events(1)), TENHOU).profile.name == "tenhou"


def test_a_damaged_version_2_profile_row_is_named(tmp_path, real_game):
    path = tmp_path / "old.db"
    _version_2_journal(path, real_game.events[:3], 3)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE journal SET body = '{}' WHERE kind = 'profile'")
    connection.commit()
    connection.close()
    with pytest.raises(JournalCorruptError, match="a profile row without a profile"):
        GameStore(path, read_only=True).events(1)


def test_a_version_1_file_is_migrated_with_its_rows_unchanged(tmp_path, real_game):
    from table_app.rules.mjai_codec import encode_event

    path = tmp_path / "old.db"
    events = [(1.0, "event", encode_event(event), None) for event in real_game.events[:5]]
    before = _old_journal(path, 1, [*events, (2.0, "undo", None, 5)])
    store = GameStore(path)
    assert [e.event for e in store.events(1)] == list(real_game.events[:4])
    store.correct(1, [(1, real_game.events[0])], at=3.0)  # the new kinds are accepted now
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT * FROM journal WHERE seq <= 6 ORDER BY seq").fetchall() == before
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 3
