"""The Raspberry Pi kit, tested as far as this machine allows: the shell scripts parse, install-pi's
dry run says what it would do and stages the files it would install, the systemd unit verifies,
the udev rule is well formed, and the kiosk launcher waits for the page and starts the browser."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from table_app.runtime.config import parse_config
from table_app.runtime.doctor import BOARD_PORT

ROOT = Path(__file__).resolve().parents[2]
INSTALL_PI = ROOT / "scripts" / "install-pi"
UNIT = ROOT / "deploy" / "systemd" / "jantaku.service"
RULE = ROOT / "deploy" / "udev" / "99-jantaku-board.rules"
KIOSK = ROOT / "deploy" / "kiosk" / "jantaku-kiosk"
DATA = "/home/pi/jantaku"


def _shell_scripts() -> list[Path]:
    found = []
    for folder in (ROOT / "scripts", ROOT / "deploy", ROOT / ".ci"):
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.is_file() and path.read_bytes()[:64].startswith(b"#!") and b"bash" in path.read_bytes()[:64]:
                found.append(path)
    return found


def test_there_are_the_shell_scripts_of_the_kit():
    scripts = _shell_scripts()
    assert INSTALL_PI in scripts
    assert KIOSK in scripts


@pytest.mark.parametrize("script", _shell_scripts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shell_script_parses_and_is_executable(script):
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert script.stat().st_mode & stat.S_IXUSR


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory) -> tuple[str, Path]:
    stage = tmp_path_factory.mktemp("stage")
    done = subprocess.run(
        [str(INSTALL_PI), "--dry-run", "--user", "pi", "--data", DATA, "--stage", str(stage)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, stage


def test_the_dry_run_says_every_step_it_would_take(dry_run):
    out, _ = dry_run
    commands = [line.removeprefix("would run: ") for line in out.splitlines() if line.startswith("would run: ")]
    install = next(c for c in commands if " apt-get install " in c)
    for package in ("python3-picamera2", "python3-lgpio", "python3-venv", "chromium-browser", "fonts-ipafont-gothic"):
        assert f" {package}" in install
    venv = ROOT / ".venv"
    assert f"runuser -u pi -- python3 -m venv --system-site-packages {venv}" in commands
    assert any(c.endswith(f"pip install --quiet -c {ROOT}/deploy/pi-constraints.txt -e {ROOT}") for c in commands)
    assert "usermod -aG dialout,gpio,video pi" in commands
    assert "systemctl enable jantaku.service" in commands
    assert "udevadm control --reload-rules" in commands
    assert "raspi-config nonint do_boot_behaviour B4" in commands
    for written in (
        "/etc/systemd/system/jantaku.service",
        "/etc/udev/rules.d/99-jantaku-board.rules",
        f"{DATA}/table.toml",
        f"{DATA}/console.env",
        "/home/pi/.config/autostart/jantaku-kiosk.desktop",
        "/home/pi/.config/labwc/autostart",
    ):
        assert f"would write: {written} " in out


def test_the_staged_files_are_what_a_pi_gets(dry_run):
    _, stage = dry_run
    config = stage / DATA.lstrip("/") / "table.toml"
    assert config.read_text(encoding="utf-8") == (ROOT / "examples" / "table.toml").read_text(encoding="utf-8")
    table = parse_config(config.read_text(encoding="utf-8"), Path(DATA))
    assert table.link is not None
    assert table.link.port == BOARD_PORT  # the udev rule's name
    assert table.db == Path(DATA) / "jantaku.db"
    token = stage / DATA.lstrip("/") / "console.env"
    assert re.fullmatch(r"JANTAKU_CONSOLE_TOKEN=[0-9a-f]{24}\n", token.read_text(encoding="utf-8"))
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    desktop = (stage / "home/pi/.config/autostart/jantaku-kiosk.desktop").read_text(encoding="utf-8")
    assert f"Exec={KIOSK}\n" in desktop
    assert f"{KIOSK} &" in (stage / "home/pi/.config/labwc/autostart").read_text(encoding="utf-8").splitlines()
    assert (stage / "etc/udev/rules.d/99-jantaku-board.rules").read_text(encoding="utf-8") == RULE.read_text(
        encoding="utf-8"
    )


def _unit_sections(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file as {section: {key: [values]}}: every line a section, a key=value or a comment."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        header = re.fullmatch(r"\[([A-Za-z]+)\]", line)
        if header:
            current = sections.setdefault(header.group(1), {})
            continue
        entry = re.fullmatch(r"([A-Za-z]+)=(.*)", line)
        assert entry, f"line {number} is not key=value: {line!r}"
        assert current is not None, f"line {number} comes before any section: {line!r}"
        current.setdefault(entry.group(1), []).append(entry.group(2))
    return sections


def test_the_staged_unit_runs_jantaku_with_restart_and_a_watchdog(dry_run):
    _, stage = dry_run
    text = (stage / "etc/systemd/system/jantaku.service").read_text(encoding="utf-8")
    assert "@" not in re.sub(r"#.*", "", text)  # every placeholder filled in
    unit = _unit_sections(text)
    assert set(unit) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["ExecStart"] == [f"{ROOT}/.venv/bin/jantaku run --config {DATA}/table.toml"]
    assert service["Type"] == ["notify"]  # READY=1 and WATCHDOG=1 from table_app/runtime/sd_notify.py
    assert service["WatchdogSec"] == ["30"]
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]  # a config mistake: restarting cannot fix it
    assert service["User"] == ["pi"]
    assert service["EnvironmentFile"] == [f"-{DATA}/console.env"]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_systemd_accepts_the_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here: the structural test above still checks the unit")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    jantaku = venv / "bin" / "jantaku"
    jantaku.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    jantaku.chmod(0o755)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()
    text = UNIT.read_text(encoding="utf-8")
    for name, value in {"@APP@": str(ROOT), "@VENV@": str(venv), "@USER@": user, "@DATA@": str(tmp_path)}.items():
        text = text.replace(name, value)
    unit = tmp_path / "jantaku.service"
    unit.write_text(text, encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "jantaku.service" not in done.stderr, done.stderr  # no unknown key, no bad value


#: udev's keys: those that match (==, !=) and those that assign (=, +=, -=, :=).
_MATCH_KEYS = {"ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "DRIVER", "DRIVERS", "ATTR", "ATTRS", "ENV"}
_ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "ENV", "TAG", "RUN", "NAME"}
_ENTRY = re.compile(r'\s*([A-Z]+)(?:\{([A-Za-z0-9_]+)\})?(==|!=|\+=|-=|:=|=)"([^"]*)"\s*(?:,|$)')


def _udev_rule(line: str) -> list[tuple[str, str | None, str, str]]:
    entries, position = [], 0
    while position < len(line):
        entry = _ENTRY.match(line, position)
        assert entry, f"udev rule: cannot read {line[position:]!r}"
        key, attribute, operator, value = entry.groups()
        if operator in ("==", "!="):
            assert key in _MATCH_KEYS, f"{key} cannot be matched"
        else:
            assert key in _ASSIGN_KEYS, f"{key} cannot be assigned"
        entries.append((key, attribute, operator, value))
        position = entry.end()
    return entries


def test_the_udev_rule_names_the_rp2040_micropython_board_jantaku_board():
    lines = RULE.read_text(encoding="utf-8").splitlines()
    rules = [line for line in lines if line.strip() and not line.startswith("#")]
    assert len(rules) == 1
    entries = _udev_rule(rules[0])
    assert ("SUBSYSTEM", None, "==", "tty") in entries
    assert ("ATTRS", "idVendor", "==", "2e8a") in entries  # Raspberry Pi (RP2040)
    assert ("ATTRS", "idProduct", "==", "0005") in entries  # MicroPython's USB CDC
    assert ("SYMLINK", None, "+=", BOARD_PORT.removeprefix("/dev/")) in entries
    assert ("GROUP", None, "=", "dialout") in entries
    assert ("ENV", "ID_MM_DEVICE_IGNORE", "=", "1") in entries  # ModemManager keeps off the port
    with pytest.raises(AssertionError):
        _udev_rule('SUBSYSTEM="tty", SYMLINK=="x"')  # = and == swapped: a classic silent mistake


def test_the_firmware_keeps_micropythons_usb_identity():
    """The rule matches MicroPython's own vendor and product ids: the firmware must not set others."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "hardware" / "firmware").glob("*.py"))
    assert "usb_device" not in source
    assert "idVendor" not in source


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"table display")

    def log_message(self, *args: object) -> None:
        pass


def test_the_kiosk_launcher_waits_for_the_page_then_starts_chromium_in_kiosk_mode(tmp_path):
    if shutil.which("curl") is None or shutil.which("flock") is None:
        pytest.skip("curl and flock are needed by the kiosk launcher (both are on Raspberry Pi OS)")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    seen = tmp_path / "browser-args"
    fake = bin_dir / "chromium-browser"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {seen}\n', encoding="utf-8")
    fake.chmod(0o755)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "JANTAKU_DISPLAY_URL": url}
    env["XDG_RUNTIME_DIR"] = str(tmp_path)
    try:
        done = subprocess.run([str(KIOSK)], env=env, capture_output=True, text=True, timeout=60, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stderr
    args = seen.read_text(encoding="utf-8").splitlines()
    assert "--kiosk" in args
    assert args[-1] == url


def test_install_pi_for_real_refuses_anything_but_a_pi(tmp_path):
    if Path("/proc/device-tree/model").exists() and "Raspberry Pi" in Path("/proc/device-tree/model").read_text(
        errors="replace"
    ):
        pytest.skip("this is a Raspberry Pi")
    done = subprocess.run([str(INSTALL_PI), "--user", "root"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1
    assert re.search(r"run it as root|not a Raspberry Pi", done.stderr)
    assert done.stdout == ""
