"""Tables publish through a real Mosquitto, the hall subscribes: every journal row arrives once
and identical, through broker kills, a table restarted from its outbox, and a lost table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from table_app.hall.book import HallBook
from table_app.hall.broker import BrokerConfig
from table_app.hall.store import HallStore
from table_app.hall.subscriber import HallSubscriber
from table_app.runtime.config import HallConfig
from table_app.runtime.hall_publisher import HallPublisher
from tests.hall.broker import Mosquitto
from tests.hall.tables import TableJournal, journal_rows

HALL = "club"
# What these tests assert is that nothing is lost or doubled, not how fast (bench/bench_hall.py
# measures that). After two broker kills the hall catches up by asking again every 3 s, each ask
# handed out a window at a time: on a loaded 2-core machine that took over 20 s about one run
# in six (and always under 35 s in a dozen runs).
WAIT_S = 60.0


def hall_config(broker: Mosquitto, table: str, db: Path) -> HallConfig:
    return HallConfig(BrokerConfig("127.0.0.1", broker.port), HALL, table, Path(f"{db}.hall"))


def held_everything(book: HallBook, table: str, db: Path) -> bool:
    rows = journal_rows(db)
    games = {row.game for row in rows}
    return all(book.held(table, game) == [r.seq for r in rows if r.game == game] for game in games)


def hall_rows(path: Path, table: str) -> list[tuple[object, ...]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # read beside the running hall
    try:
        return db.execute(
            "SELECT game, seq, at, kind, body, undoes FROM hall_rows WHERE tbl = ? ORDER BY game, seq", (table,)
        ).fetchall()
    finally:
        db.close()


def same_as_table(hall_db: Path, table: str, db: Path) -> None:
    expected = [(r.game, r.seq, r.at, r.kind, r.body, r.undoes) for r in journal_rows(db)]
    assert hall_rows(hall_db, table) == expected


@pytest.fixture
def hall(broker: Mosquitto, tmp_path: Path):
    store = HallStore(tmp_path / "hall.db")
    book = HallBook(store)
    subscriber = HallSubscriber(book, BrokerConfig("127.0.0.1", broker.port), HALL).start()
    assert subscriber.connected.wait(WAIT_S)
    book.subscriber = subscriber  # type: ignore[attr-defined]
    yield book
    subscriber.stop()
    store.close()


def test_a_whole_game_arrives_once_and_identical_to_the_table_journal(broker, hall, tmp_path):
    table = TableJournal(tmp_path / "t1.db")
    table.play(200)  # journaled before the publisher starts: sent from the start
    publisher = HallPublisher(hall_config(broker, "t1", table.db), table.db).start()
    table.core.add_listener(publisher)
    table.play()
    assert hall.wait(lambda b: held_everything(b, "t1", table.db), WAIT_S)
    publisher.stop()
    table.close()
    same_as_table(tmp_path / "hall.db", "t1", table.db)
    card = hall.card("t1")
    assert card["finished"] is True
    assert card["scores"] == list(table.core.session.game.scores)
    assert card["names"] == ["Aoki", "Baba", "Chiba", "Doi"]
    assert hall.counts().conflicts == 0
    assert hall.counts().refused == 0
    assert publisher.acked() == {1: journal_rows(table.db)[-1].seq}
    standings = hall.standings()
    assert sorted(p.name for p in standings) == ["Aoki", "Baba", "Chiba", "Doi"]
    assert sum(p.points for p in standings) == pytest.approx(0, abs=0.2)  # uma and oka sum to zero
    assert [p.games for p in standings] == [1, 1, 1, 1]


def test_the_broker_killed_twice_mid_game_loses_and_doubles_nothing(broker, hall, tmp_path):
    table = TableJournal(tmp_path / "t2.db")
    publisher = HallPublisher(hall_config(broker, "t2", table.db), table.db).start()
    table.core.add_listener(publisher)
    chunk = len(table.observations) // 6
    for _ in range(2):
        assert publisher.connected.wait(WAIT_S)
        assert hall.subscriber.connected.wait(WAIT_S)
        table.play(chunk)
        broker.kill()  # while rows are in flight: acknowledged or not, what it held is lost with it
        table.play(chunk)  # the table goes on refereeing without its broker
        broker.start()
    table.play()
    assert hall.wait(lambda b: held_everything(b, "t2", table.db), WAIT_S)
    publisher.stop()
    table.close()
    same_as_table(tmp_path / "hall.db", "t2", table.db)
    assert hall.counts().conflicts == 0
    # (Whether a kill caught rows the broker had acknowledged but not delivered varies from run to
    # run; when it does, the hall asks for them again: without that this test fails in most runs.)


def test_a_table_restarted_sends_again_from_what_the_broker_acknowledged(broker, hall, tmp_path):
    table = TableJournal(tmp_path / "t3.db")
    config = hall_config(broker, "t3", table.db)
    first = HallPublisher(config, table.db).start()
    table.core.add_listener(first)
    table.play(len(table.observations) // 2)
    assert hall.wait(lambda b: held_everything(b, "t3", table.db), WAIT_S)
    first.stop()  # acknowledged marks saved
    marks = first.acked()
    table.play(100)  # journaled while the publisher is down (a Pi rebooting)
    second = HallPublisher(config, table.db).start()
    table.core.add_listener(second)
    table.play()
    assert hall.wait(lambda b: held_everything(b, "t3", table.db), WAIT_S)
    second.stop()
    table.close()
    same_as_table(tmp_path / "hall.db", "t3", table.db)
    total = len(journal_rows(table.db))
    assert second.published == total - marks[1]  # from the mark on, nothing before it again
    assert hall.counts().duplicates == 0


def test_a_table_that_dies_is_offline_by_its_last_will(broker, hall, tmp_path):
    table = TableJournal(tmp_path / "t4.db")
    table.play(50)
    publisher = HallPublisher(hall_config(broker, "t4", table.db), table.db).start()
    assert hall.wait(lambda b: "t4" in b.table_names() and b.card("t4")["online"] is True, WAIT_S)
    publisher.kill()  # no goodbye: the broker says it
    assert hall.wait(lambda b: b.card("t4")["online"] is False, WAIT_S)
    table.close()
