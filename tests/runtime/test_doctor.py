"""``jantaku doctor`` on a made-up Pi (injected probes), then on this machine for real."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.cli.doctor_command import run
from table_app.runtime.config import parse_config
from table_app.runtime.doctor import MIN_FREE_BYTES, check_table

ROOT = Path(__file__).resolve().parents[2]
HOME = Path("/home/pi/jantaku")
CONFIG = """
[table]
db = "jantaku.db"
[link]
port = "/dev/jantaku-board"
[panel]
enabled = true
[web]
port = 8080
[camera]
source = "picamera2"
calibration = "camera.json"
"""
HDMI = "/sys/class/drm/card1-HDMI-A-1/status"


@dataclass
class MadeUpPi:
    """A Raspberry Pi 5 set up as scripts/install-pi leaves it; tests break one thing each."""

    files: set[str] = field(
        default_factory=lambda: {"/dev/jantaku-board", "/dev/gpiochip0", str(HOME / "camera.json"), HDMI}
    )
    read_writable: set[str] = field(default_factory=lambda: {"/dev/jantaku-board", "/dev/gpiochip0"})
    writable_dirs: set[str] = field(default_factory=lambda: {str(HOME)})
    texts: dict[str, str] = field(default_factory=lambda: {HDMI: "connected\n"})
    groups: set[str] = field(default_factory=lambda: {"dialout", "gpio", "video"})
    modules: set[str] = field(default_factory=lambda: {"lgpio", "picamera2"})
    camera_models: list[str] | None = field(default_factory=lambda: ["imx708"])
    commands: set[str] = field(default_factory=lambda: {"chromium-browser"})
    free: int = 20 << 30
    clock: float = 1_790_000_000.0  # 2026
    synced: bool | None = True
    listening: set[tuple[str, int]] = field(default_factory=lambda: {("hall.local", 8883)})

    def exists(self, path: Path) -> bool:
        return str(path) in self.files

    def read_write(self, path: Path) -> bool:
        return str(path) in self.read_writable

    def writable_dir(self, path: Path) -> bool:
        return str(path) in self.writable_dirs

    def glob(self, pattern: str) -> list[Path]:
        import fnmatch

        return sorted(Path(f) for f in self.files if fnmatch.fnmatch(f, pattern))

    def read_text(self, path: Path) -> str | None:
        return self.texts.get(str(path))

    def user(self) -> str:
        return "pi"

    def member_of(self, group: str) -> bool:
        return group in self.groups

    def module_available(self, name: str) -> bool:
        return name in self.modules

    def cameras(self) -> list[str] | None:
        return self.camera_models

    def command(self, name: str) -> bool:
        return name in self.commands

    def free_bytes(self, path: Path) -> int:
        return self.free

    def now(self) -> float:
        return self.clock

    def clock_synchronised(self) -> bool | None:
        return self.synced

    def reaches(self, host: str, port: int) -> bool:
        return (host, port) in self.listening


def _config(text: str = CONFIG):
    return parse_config(text, HOME)


def _verdicts(pi: MadeUpPi, text: str = CONFIG) -> dict[str, tuple[bool, str]]:
    return {f.check: (f.ok, f.line()) for f in check_table(_config(text), pi)}


def test_a_pi_set_up_as_install_pi_leaves_it_passes_every_check(tmp_path, capsys):
    findings = check_table(_config(), MadeUpPi())
    assert [f.check for f in findings] == ["camera", "serial", "gpio", "display", "disk", "clock", "hall"]
    assert all(f.ok for f in findings), [f.line() for f in findings]
    config = tmp_path / "table.toml"
    config.write_text(CONFIG, encoding="utf-8")
    pi = MadeUpPi(files={*MadeUpPi().files, str(tmp_path / "camera.json")}, writable_dirs={str(tmp_path)})
    assert run(argparse.Namespace(config=config, json=False), probes=pi) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7
    assert all(line.startswith("ok ") for line in lines)


BROKEN = [
    # (what is wrong, the check, words of the one-line fix)
    (lambda pi: replace(pi, camera_models=None), "camera", "sudo apt install python3-picamera2"),
    (lambda pi: replace(pi, camera_models=[]), "camera", "ribbon cable"),
    (lambda pi: replace(pi, files=pi.files - {str(HOME / "camera.json")}), "camera", "jantaku vision calibrate"),
    (lambda pi: replace(pi, files=pi.files - {"/dev/jantaku-board"}), "serial", "plug the sensor board in"),
    (
        lambda pi: replace(pi, files=(pi.files - {"/dev/jantaku-board"}) | {"/dev/ttyACM0"}),
        "serial",
        "install the udev rule",
    ),
    (
        lambda pi: replace(pi, read_writable=pi.read_writable - {"/dev/jantaku-board"}, groups=pi.groups - {"dialout"}),
        "serial",
        "sudo usermod -aG dialout pi",
    ),
    (
        lambda pi: replace(pi, read_writable=pi.read_writable - {"/dev/jantaku-board"}),
        "serial",
        "log out and in again",
    ),
    (lambda pi: replace(pi, files=pi.files - {"/dev/gpiochip0"}), "gpio", "set enabled = false under [panel]"),
    (
        lambda pi: replace(pi, read_writable=pi.read_writable - {"/dev/gpiochip0"}, groups=pi.groups - {"gpio"}),
        "gpio",
        "sudo usermod -aG gpio pi",
    ),
    (lambda pi: replace(pi, modules={"picamera2"}), "gpio", "sudo apt install python3-lgpio"),
    (lambda pi: replace(pi, texts={HDMI: "disconnected\n"}), "display", "connect the table display"),
    (lambda pi: replace(pi, commands=set()), "display", "sudo apt install chromium-browser"),
    (lambda pi: replace(pi, free=MIN_FREE_BYTES - 1), "disk", "free some space"),
    (lambda pi: replace(pi, writable_dirs=set()), "disk", "sudo chown pi /home/pi/jantaku"),
    (lambda pi: replace(pi, clock=86_400.0), "clock", "the clock says 1970-01-02"),
    (lambda pi: replace(pi, synced=False), "clock", "timedatectl"),
]


@pytest.mark.parametrize(("breaking", "check", "fix"), BROKEN, ids=[f"{c}-{f[:24]}" for _, c, f in BROKEN])
def test_each_fault_fails_its_own_check_with_one_line_saying_what_to_do(breaking, check, fix):
    verdicts = _verdicts(breaking(MadeUpPi()))
    ok, line = verdicts[check]
    assert not ok
    assert line.startswith(f"FIX  {check}")
    assert fix in line
    assert "\n" not in line
    assert all(ok for name, (ok, _) in verdicts.items() if name != check)  # nothing else is blamed


def test_parts_the_config_leaves_out_are_not_checked():
    verdicts = _verdicts(MadeUpPi(files=set(), read_writable=set()), "[table]\n[web]\n[panel]\nenabled = false\n")
    assert verdicts["camera"][0]
    assert verdicts["serial"][0]
    assert verdicts["gpio"][0]
    assert "not checked" in verdicts["serial"][1]
    assert not verdicts["display"][0]  # no screen: the table display is always wanted


def test_on_this_machine_doctor_prints_one_line_per_check_and_fails_without_gpio(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "examples" / "table.toml").read_text(encoding="utf-8"), encoding="utf-8")
    status = main(["doctor", "--config", str(config)])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines] == ["camera", "serial", "gpio", "display", "disk", "clock", "hall"]
    assert all(line[:3] in ("ok ", "FIX") for line in lines)
    assert status == (0 if all(line.startswith("ok ") for line in lines) else 1)
    if not Path("/dev/jantaku-board").exists():
        assert status == 1


HALL = """
[hall]
broker = "mqtts://hall.local:8883"
hall = "club"
table = "t01"
"""


def test_the_hall_broker_is_checked_when_the_config_has_a_hall():
    ok, line = _verdicts(MadeUpPi(), CONFIG + HALL)["hall"]
    assert ok
    assert "mqtts://hall.local:8883" in line
    ok, line = _verdicts(MadeUpPi(listening=set()), CONFIG + HALL)["hall"]
    assert not ok
    assert line.startswith("FIX  hall")
    assert "scripts/hall-broker" in line
    assert "\n" not in line
    assert _verdicts(MadeUpPi(listening=set()))["hall"][0]  # no [hall]: not checked, not a fault


def test_the_real_probe_reaches_a_listening_port_and_not_a_closed_one():
    import socket

    from table_app.runtime.doctor import SystemProbes

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert SystemProbes().reaches("127.0.0.1", port)
    assert not SystemProbes().reaches("127.0.0.1", port)  # closed now
