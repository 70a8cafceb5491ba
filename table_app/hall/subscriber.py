"""``HallSubscriber``: the hall's MQTT client. It takes every table's rows, states and statuses
into the :class:`HallBook`, and asks tables for the rows the book misses.

A persistent session (a fixed client id, ``clean_session`` off, QoS 1): while the hall is
away the broker keeps its messages for it. A row is in the hall's journal before the PUBACK
goes back (paho acknowledges when the callback returns).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.reasoncodes import ReasonCode

from table_app.hall.book import HallBook
from table_app.hall.broker import BrokerConfig
from table_app.hall.mqtt import connect, new_client
from table_app.hall.protocol import (
    JOURNAL,
    RESEND,
    STATE,
    STATUS,
    PayloadError,
    decode_row,
    decode_state,
    decode_status,
    hall_filter,
    parse_topic,
    topic,
)

logger = logging.getLogger(__name__)

CHECK_S = 0.5  # how often the book is asked what it misses


class HallSubscriber:
    def __init__(self, book: HallBook, broker: BrokerConfig, hall: str) -> None:
        self._book = book
        self._broker = broker
        self._hall = hall
        self._client: Client | None = None
        self._stopping = threading.Event()
        self._checker: threading.Thread | None = None
        self.connected = threading.Event()

    def start(self) -> HallSubscriber:
        client = new_client(f"jantaku-hall-{self._hall}", self._broker, clean_session=False)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        connect(client, self._broker)
        self._checker = threading.Thread(target=self._check, name="hall-resend", daemon=True)
        self._checker.start()
        logger.info("hall %s: subscribing at %s", self._hall, self._broker.url)
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._checker is not None:
            self._checker.join(5)
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()

    def _on_connect(self, client: Client, _d: Any, _f: ConnectFlags, reason: ReasonCode, _p: Any) -> None:
        if reason.is_failure:
            logger.warning("hall: broker %s refused the connection: %s", self._broker.url, reason)
            return
        client.subscribe([(hall_filter(self._hall, leaf), 1) for leaf in (JOURNAL, STATE, STATUS)])
        self.connected.set()
        logger.info("hall: connected to %s", self._broker.url)

    def _on_disconnect(self, _c: Client, _d: Any, _f: DisconnectFlags, reason: ReasonCode, _p: Any) -> None:
        if self.connected.is_set():
            logger.warning("hall: lost the broker %s (%s); reconnecting", self._broker.url, reason)
        self.connected.clear()

    def _on_message(self, _c: Client, _d: Any, message: MQTTMessage) -> None:
        payload = bytes(message.payload)
        try:
            leaf = parse_topic(message.topic).leaf
            if leaf == JOURNAL:
                self._book.receive_row(decode_row(message.topic, payload))
            elif leaf == STATE:
                if payload:  # an empty retained message clears the state
                    self._book.receive_state(decode_state(message.topic, payload))
            elif leaf == STATUS:
                self._book.receive_status(parse_topic(message.topic).table, decode_status(message.topic, payload))
        except PayloadError as error:
            self._book.refused()
            logger.warning("hall: refused %s", error)

    def _check(self) -> None:
        while not self._stopping.wait(CHECK_S):
            client = self._client
            if client is None or not self.connected.is_set():
                continue
            for table, request in self._book.missing():
                logger.info("hall: asking table %s for game %d from %d again", table, request.game, request.from_seq)
                client.publish(topic(self._hall, table, RESEND), request.encode(), qos=1)
