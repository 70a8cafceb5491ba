"""``jantaku run`` with ``[hall]`` and ``jantaku hall``, as processes, through a real Mosquitto;
and the broker's ACL: a table may publish only under its own topic."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from table_app.demo_data import DEMO_LOG
from table_app.hall.book import HallBook
from table_app.hall.broker import BrokerConfig
from table_app.hall.mqtt import connect, new_client
from table_app.hall.protocol import JournalRow, TableRow, topic
from table_app.hall.subscriber import HallSubscriber
from tests.hall.broker import Mosquitto, add_user, free_port, require_mosquitto
from tests.hall.tables import journal_rows

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "JANTAKU_CONSOLE_TOKEN": "t0ken"}


def table_config(tmp_path: Path, broker: Mosquitto, name: str, pace_s: float) -> Path:
    config = tmp_path / f"{name}.toml"
    config.write_text(
        f'[table]\ndb = "{name}.db"\n\n[feed]\nlog = "{DEMO_LOG}"\npace_s = {pace_s}\n\n'
        f'[hall]\nbroker = "{broker.url}"\nhall = "club"\ntable = "{name}"\n',
        encoding="utf-8",
    )
    return config


def hall_api(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/hall", timeout=5) as response:
        return json.load(response)


def wait_for(condition, timeout_s: float = 30.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            value = condition()
        except OSError:
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_table_run_reaches_the_hall_process_and_a_killed_table_goes_offline(broker, tmp_path):
    port = free_port()
    hall = subprocess.Popen(
        [sys.executable, "-m", "table_app", "hall", "--hall", "club", "--broker", broker.url,
         "--db", str(tmp_path / "hall.db"), "--port", str(port)],
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_for(lambda: hall_api(port))
        run = subprocess.run(
            [sys.executable, "-m", "table_app", "run", "--config", str(table_config(tmp_path, broker, "t1", 0)),
             "--until-end"],
            env=ENV, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr[-2000:]
        rows = journal_rows(tmp_path / "t1.db")
        # The last row and the goodbye are two messages: the hall may show the one before the other.
        card = wait_for(
            lambda: next(
                (c for c in hall_api(port)["tables"] if c.get("seq") == rows[-1].seq and c.get("online") is False),
                None,
            )
        )
        assert card["finished"] is True
        assert card["online"] is False  # stopped cleanly: it said goodbye
        assert f"scores {' '.join(str(s) for s in card['scores'])}" in run.stdout

        # A table that dies mid-game: the broker's last will says it is offline.
        second = subprocess.Popen(
            [sys.executable, "-m", "table_app", "run", "--config", str(table_config(tmp_path, broker, "t2", 0.5))],
            env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_for(lambda: any(c["table"] == "t2" and c["online"] for c in hall_api(port)["tables"]))
        finally:
            second.send_signal(signal.SIGKILL)
            second.wait(10)
        wait_for(lambda: any(c["table"] == "t2" and c["online"] is False for c in hall_api(port)["tables"]))
    finally:
        hall.send_signal(signal.SIGTERM)
        out, err = hall.communicate(timeout=20)
    assert hall.returncode == 0, err[-2000:]
    assert f"hall club: {len(rows)}" in out  # every row of table 1 kept (and table 2's, a few)
    assert "0 conflicts, 0 refused" in out


def test_the_broker_acl_lets_a_table_publish_only_under_its_own_topic(tmp_path):
    passwords = tmp_path / "passwords"
    for user in ("hall", "t1", "t2"):
        add_user(passwords, user, f"{user}-secret")
    acl = ROOT / "examples" / "hall-broker.acl"
    broker = Mosquitto(require_mosquitto(), tmp_path, extra=f"password_file {passwords}\nacl_file {acl}").start()
    try:
        book = HallBook()
        hall = HallSubscriber(
            book, BrokerConfig("127.0.0.1", broker.port, username="hall", password="hall-secret"), "club"
        )
        hall.start()
        assert hall.connected.wait(10)
        t1 = new_client(
            "t1", BrokerConfig("127.0.0.1", broker.port, username="t1", password="t1-secret"), clean_session=True
        )
        t1_up = []
        t1.on_connect = lambda *args: t1_up.append(not args[3].is_failure)
        connect(t1, BrokerConfig("127.0.0.1", broker.port))
        assert wait_for(lambda: t1_up, 10) == [True]
        row = JournalRow(1, 1, 1.0, "event", '{"type":"start_game"}', None)
        t1.publish(topic("club", "t2", "journal"), TableRow("t2", 1.0, "tenhou", row).encode(), qos=1).wait_for_publish(
            5
        )
        t1.publish(topic("club", "t1", "journal"), TableRow("t1", 1.0, "tenhou", row).encode(), qos=1).wait_for_publish(
            5
        )
        assert book.wait(lambda b: b.held("t1", 1) == [1], 10)
        assert book.held("t2", 1) == []  # denied by the broker: never delivered
        anonymous = new_client("stranger", BrokerConfig("127.0.0.1", broker.port), clean_session=True)
        connected = []
        anonymous.on_connect = lambda *args: connected.append(args[3].is_failure)
        connect(anonymous, BrokerConfig("127.0.0.1", broker.port))
        wait_for(lambda: connected, 10)
        assert connected[0] is True  # no anonymous clients in a hall
        for client in (t1, anonymous):
            client.disconnect()
            client.loop_stop()
        hall.stop()
    finally:
        broker.kill()


def test_scripts_hall_broker_starts_a_broker_the_hall_connects_to(tmp_path):
    require_mosquitto()
    port = free_port()
    script = subprocess.Popen(
        [str(ROOT / "scripts" / "hall-broker")], env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        book = HallBook()
        hall = HallSubscriber(book, BrokerConfig("127.0.0.1", port), "club").start()
        assert hall.connected.wait(15)
        hall.stop()
    finally:
        os.killpg(script.pid, signal.SIGTERM)
        script.wait(10)
