"""The table's TOML config, read into frozen values; every error names the key at fault.

See docs/runtime.md for every key and examples/table.toml for a whole file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from hardware.panel import PanelConfigError, PanelPins
from table_app.announce.catalogue import Language
from table_app.domain.seat import Seat
from table_app.domain.seat_names import seat_of_number
from table_app.hall.broker import PASSWORD_VARIABLE, BrokerConfig, parse_broker_url
from table_app.hall.protocol import check_name
from table_app.interpret.session import CONFIDENCE_FLOOR, SETTLE_S
from table_app.rules.profiles import PROFILES, RuleProfile, profile_named


class ConfigError(ValueError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


@dataclass(frozen=True, slots=True)
class CameraConfig:
    source: str  # "picamera2", "opencv:0", a folder of recorded frames, ... (the vision pipeline reads it)
    calibration: Path | None = None
    enrollment: Path | None = None  # this table's tile set (jantaku vision enroll)


@dataclass(frozen=True, slots=True)
class LinkConfig:
    port: str  # /dev/ttyACM0, a pty path, or a pyserial URL such as loop://
    calibration: Path | None = None


@dataclass(frozen=True, slots=True)
class FeedConfig:
    """The stepping stone: a logged game played as observations instead of a camera."""

    log: Path
    pace_s: float = 0.5
    trays: bool = True  # the feed also posts the board's readings (ignored with simulate_board)
    simulate_board: bool = False  # play the board on the table simulator over a pty, read by the link


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The display, overlay and console. The console token comes from $JANTAKU_CONSOLE_TOKEN
    (never from the file: configs get copied around), else a random one printed once."""

    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True, slots=True)
class HallConfig:
    """Publish this table's public game to a hall's MQTT broker (docs/hall.md)."""

    broker: BrokerConfig
    hall: str
    table: str
    outbox: Path  # what the broker has acknowledged so far (beside the journal by default)


@dataclass(frozen=True, slots=True)
class TableConfig:
    db: Path
    profile: RuleProfile
    names: tuple[str, str, str, str]
    first_dealer: Seat
    languages: tuple[Language, ...]
    speech: bool
    camera: CameraConfig | None
    link: LinkConfig | None
    panel: PanelPins | None
    feed: FeedConfig | None
    web: WebConfig | None = None
    settle_s: float = SETTLE_S  # a sensor disagreement must stand this long to be announced
    confidence_floor: float = CONFIDENCE_FLOOR  # a camera reading below it is put to the referee
    hall: HallConfig | None = None  # [hall]: off unless the section is there (and enabled)


def _get(table: dict[str, Any], key: str, prefix: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    name = f"{prefix}.{key}" if prefix else key
    if key not in table:
        if default is ...:
            raise ConfigError(name, "missing")
        return default
    value = table[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float, (int, float))):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ConfigError(name, f"must be a {expected}, got {value!r}")
    return value


def _section(document: dict[str, Any], name: str) -> dict[str, Any] | None:
    section = document.get(name)
    if section is None:
        return None
    if not isinstance(section, dict):
        raise ConfigError(name, "must be a table ([" + name + "])")
    return section


def _check_keys(section: dict[str, Any], prefix: str, allowed: set[str]) -> None:
    for key in section:
        if key not in allowed:
            raise ConfigError(
                f"{prefix}.{key}" if prefix else key, f"unknown key (known: {', '.join(sorted(allowed))})"
            )


def _path(value: str | None, base: Path) -> Path | None:
    if value is None:
        return None
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def parse_config(text: str, base: Path = Path()) -> TableConfig:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError("(file)", f"not TOML: {error}") from error
    _check_keys(document, "", {"table", "camera", "link", "panel", "feed", "web", "hall"})
    table = _section(document, "table") or {}
    _check_keys(
        table,
        "table",
        {"db", "profile", "names", "first_dealer", "languages", "speech", "settle_s", "confidence_floor"},
    )
    profile_name = _get(table, "profile", "table", str, "tenhou")
    try:
        profile = profile_named(profile_name)
    except ValueError:
        raise ConfigError(
            "table.profile", f"unknown profile {profile_name!r} (one of {', '.join(p.name for p in PROFILES)})"
        ) from None
    names = _get(table, "names", "table", list, ["", "", "", ""])
    if len(names) != 4 or not all(isinstance(n, str) for n in names):
        raise ConfigError("table.names", "must be four strings, one per seat")
    first = _first_dealer(table.get("first_dealer", 1), names)
    languages = _get(table, "languages", "table", list, ["ja", "en"])
    try:
        langs = tuple(Language(v) for v in languages)
    except ValueError:
        raise ConfigError("table.languages", f"each must be 'ja' or 'en', got {languages!r}") from None
    db = _path(_get(table, "db", "table", str, "jantaku.db"), base)
    assert db is not None
    settle = float(_get(table, "settle_s", "table", (int, float), SETTLE_S))
    if not 0 <= settle <= 60:
        raise ConfigError("table.settle_s", f"must be 0-60 seconds, got {settle}")
    floor = float(_get(table, "confidence_floor", "table", (int, float), CONFIDENCE_FLOOR))
    if not 0 <= floor <= 1:
        raise ConfigError("table.confidence_floor", f"must be 0-1, got {floor}")
    return TableConfig(
        db=db,
        profile=profile,
        names=(names[0], names[1], names[2], names[3]),
        first_dealer=first,
        languages=langs,
        speech=_get(table, "speech", "table", bool, False),
        camera=_camera(_section(document, "camera"), base),
        link=_link(_section(document, "link"), base),
        panel=_panel(_section(document, "panel")),
        feed=_feed(_section(document, "feed"), base),
        web=_web(_section(document, "web")),
        settle_s=settle,
        confidence_floor=floor,
        hall=_hall(_section(document, "hall"), base, db),
    )


def _web(section: dict[str, Any] | None) -> WebConfig | None:
    if section is None:
        return None
    _check_keys(section, "web", {"host", "port"})
    port = _get(section, "port", "web", int, 8080)
    if not 0 <= port <= 65535:
        raise ConfigError("web.port", f"must be a port number 0-65535, got {port}")
    return WebConfig(_get(section, "host", "web", str, "127.0.0.1"), port)


_HALL_KEYS = {"enabled", "broker", "hall", "table", "username", "password_file", "outbox"} | {
    "tls_ca",
    "tls_cert",
    "tls_key",
}


def _hall(section: dict[str, Any] | None, base: Path, db: Path) -> HallConfig | None:
    if section is None or not _get(section, "enabled", "hall", bool, True):
        return None
    _check_keys(section, "hall", _HALL_KEYS)
    names = {}
    for key in ("hall", "table"):
        try:
            names[key] = check_name(f"hall.{key}", _get(section, key, "hall", str))
        except ValueError as error:
            raise ConfigError(f"hall.{key}", str(error).split(": ", 1)[1]) from None
    try:
        host, port, tls = parse_broker_url(_get(section, "broker", "hall", str))
    except ValueError as error:
        raise ConfigError("hall.broker", str(error)) from None
    username = _get(section, "username", "hall", str, None)
    password = os.environ.get(PASSWORD_VARIABLE)
    password_file = _path(_get(section, "password_file", "hall", str, None), base)
    if password_file is not None:
        try:
            password = password_file.read_text(encoding="utf-8").strip()
        except OSError as error:
            raise ConfigError("hall.password_file", f"cannot read {password_file} ({error.strerror})") from None
    tls_files = {key: _path(_get(section, key, "hall", str, None), base) for key in ("tls_ca", "tls_cert", "tls_key")}
    for key, path in tls_files.items():
        if path is not None and not tls:
            raise ConfigError(f"hall.{key}", "TLS files need an mqtts:// broker")
        if path is not None and not path.is_file():
            raise ConfigError(f"hall.{key}", f"no file {path}")
    broker = BrokerConfig(host, port, tls, username, password, *tls_files.values())
    outbox = _path(_get(section, "outbox", "hall", str, None), base) or Path(f"{db}.hall")
    return HallConfig(broker, names["hall"], names["table"], outbox)


def _camera(section: dict[str, Any] | None, base: Path) -> CameraConfig | None:
    if section is None:
        return None
    _check_keys(section, "camera", {"source", "calibration", "enrollment"})
    return CameraConfig(
        _get(section, "source", "camera", str),
        _path(_get(section, "calibration", "camera", str, None), base),
        _path(_get(section, "enrollment", "camera", str, None), base),
    )


def _link(section: dict[str, Any] | None, base: Path) -> LinkConfig | None:
    if section is None:
        return None
    _check_keys(section, "link", {"port", "calibration"})
    return LinkConfig(_get(section, "port", "link", str), _path(_get(section, "calibration", "link", str, None), base))


def _panel(section: dict[str, Any] | None) -> PanelPins | None:
    if section is None or not _get(section, "enabled", "panel", bool, True):
        return None
    names = {f.name for f in fields(PanelPins)}
    _check_keys(section, "panel", names | {"enabled"})
    values: dict[str, Any] = {}
    for name in names & set(section):
        kind: type | tuple[type, ...] = list if name == "riichi_leds" else (float, int) if name.endswith("_s") else int
        values[name] = _get(section, name, "panel", kind)
    if "riichi_leds" in values:
        values["riichi_leds"] = tuple(values["riichi_leds"])
    try:
        return PanelPins(**values)
    except PanelConfigError as error:
        raise ConfigError("panel", str(error)) from None


def _feed(section: dict[str, Any] | None, base: Path) -> FeedConfig | None:
    if section is None:
        return None
    _check_keys(section, "feed", {"log", "pace_s", "trays", "simulate_board"})
    log = _path(_get(section, "log", "feed", str), base)
    assert log is not None
    pace = float(_get(section, "pace_s", "feed", (int, float), 0.5))
    if pace < 0:
        raise ConfigError("feed.pace_s", "must not be negative")
    simulate = _get(section, "simulate_board", "feed", bool, False)
    if simulate and pace < 0.05:
        raise ConfigError("feed.pace_s", "must be at least 0.05 with simulate_board (the link needs time to read)")
    return FeedConfig(log, pace, _get(section, "trays", "feed", bool, True), simulate)


def load_config(path: Path) -> TableConfig:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(str(path), f"cannot read ({error.strerror})") from error
    return parse_config(text, path.parent)


def _first_dealer(value: object, names: list[str]) -> Seat:
    """The seat dealing the first hand, as people say it: its number 1-4 (the order of
    ``names``) or the player's name (``table_app.domain.seat_names``)."""
    if isinstance(value, str) and value.strip() and value in names:
        return Seat(names.index(value))
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return seat_of_number(value)
        except ValueError as error:
            raise ConfigError("table.first_dealer", f"{error} (1 is the first of names)") from None
    raise ConfigError("table.first_dealer", f"must be a seat number 1-4 or one of names, got {value!r}")
