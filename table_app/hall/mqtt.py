"""An MQTT client (paho-mqtt 2) set up from a :class:`BrokerConfig`: TLS, credentials, a last will,
and reconnecting by itself (1 s, then every 2 s) for as long as it runs."""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from table_app.hall.broker import BrokerConfig

KEEPALIVE_S = 10  # the broker gives a silent client up (and sends its will) after 1.5 times this


def new_client(
    client_id: str,
    broker: BrokerConfig,
    *,
    clean_session: bool,
    will: tuple[str, bytes] | None = None,
) -> mqtt.Client:
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    if broker.username is not None:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        context = ssl.create_default_context(cafile=str(broker.tls_ca) if broker.tls_ca else None)
        if broker.tls_cert is not None:
            context.load_cert_chain(str(broker.tls_cert), str(broker.tls_key) if broker.tls_key else None)
        client.tls_set_context(context)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    return client


def connect(client: mqtt.Client, broker: BrokerConfig) -> None:
    """Start the client's network thread; it connects (and reconnects) in the background, so a
    broker that is not up yet is not an error."""
    client.connect_async(broker.host, broker.port, keepalive=KEEPALIVE_S)
    client.loop_start()
