"""``[hall]`` in the table's config: off by default, every mistake named by its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from table_app.runtime.config import ConfigError, parse_config

BASE = '[table]\ndb = "t.db"\n\n[hall]\nbroker = "mqtt://hall.local"\nhall = "club"\ntable = "t01"\n'


def test_without_the_section_nothing_is_published():
    assert parse_config('[table]\ndb = "t.db"\n').hall is None
    assert parse_config(BASE + "enabled = false\n").hall is None


def test_a_hall_section_names_the_broker_the_hall_and_the_table(tmp_path, monkeypatch):
    monkeypatch.delenv("JANTAKU_HALL_PASSWORD", raising=False)
    hall = parse_config(BASE, tmp_path).hall
    assert hall is not None
    assert (hall.hall, hall.table, hall.broker.url) == ("club", "t01", "mqtt://hall.local:1883")
    assert hall.outbox == Path(f"{tmp_path / 't.db'}.hall")  # beside the journal
    assert hall.broker.password is None


def test_the_password_comes_from_its_own_file_or_the_environment_never_the_config(tmp_path, monkeypatch):
    (tmp_path / "pw").write_text("s3cret\n", encoding="utf-8")
    hall = parse_config(BASE + 'username = "t01"\npassword_file = "pw"\n', tmp_path).hall
    assert hall is not None
    assert (hall.broker.username, hall.broker.password) == ("t01", "s3cret")
    assert "s3cret" not in repr(hall)
    monkeypatch.setenv("JANTAKU_HALL_PASSWORD", "from-env")
    env = parse_config(BASE, tmp_path).hall
    assert env is not None
    assert env.broker.password == "from-env"
    with pytest.raises(ConfigError, match=r"hall\.password: unknown key"):
        parse_config(BASE + 'password = "s3cret"\n', tmp_path)


def test_tls_takes_mqtts_and_files_that_exist(tmp_path):
    (tmp_path / "ca.crt").write_text("-", encoding="utf-8")
    hall = parse_config(BASE.replace("mqtt://hall.local", "mqtts://hall.local") + 'tls_ca = "ca.crt"\n', tmp_path).hall
    assert hall is not None
    assert (hall.broker.tls, hall.broker.port, hall.broker.tls_ca) == (True, 8883, tmp_path / "ca.crt")


@pytest.mark.parametrize(
    ("extra", "replace", "message"),
    [
        ("", ('table = "t01"', 'table = "t/01"'), "hall.table: 't/01' must be 1-64 letters"),
        ("", ('hall = "club"', 'hall = "#"'), "hall.hall: '#' must be 1-64 letters"),
        (
            "",
            ('broker = "mqtt://hall.local"', 'broker = "http://hall.local"'),
            "hall.broker: 'http://hall.local': the scheme",
        ),
        ("", ('broker = "mqtt://hall.local"', 'broker = "mqtt://u:p@hall.local"'), "hall.broker: "),
        ("", ('table = "t01"\n', ""), "hall.table: missing"),
        ('tls_ca = "ca.crt"\n', ("", ""), "hall.tls_ca: TLS files need an mqtts:// broker"),
        ('password_file = "nowhere"\n', ("", ""), "hall.password_file: cannot read"),
        ("port = 1\n", ("", ""), "hall.port: unknown key"),
    ],
)
def test_every_mistake_is_named_by_its_key(tmp_path, extra, replace, message):
    text = (BASE + extra).replace(*replace) if replace[0] else BASE + extra
    with pytest.raises(ConfigError) as refused:
        parse_config(text, tmp_path)
    assert message in str(refused.value)
