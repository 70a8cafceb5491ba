"""``jantaku doctor``: is this machine ready to referee the table its config describes?

Seven checks (camera, serial port, GPIO, display, disk, clock, hall broker), each one line:
what was found, and when something is wrong, the one thing to do about it. The checks read the machine only
through :class:`Probes`, so the tests hand them a made-up Pi; :class:`SystemProbes` is the
real one. ``[camera]``, ``[link]``, ``[panel]``, ``[web]`` or ``[hall]`` left out of the config
is not a fault: that part is not checked.
"""

from __future__ import annotations

import grp
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from table_app.runtime.config import TableConfig

MIN_FREE_BYTES = 1 << 30  # 1 GiB: the journal is small, but updates and camera recordings are not
EARLIEST_PLAUSIBLE = 1_735_689_600  # 2025-01-01 UTC: a Pi without network or RTC starts near 1970
BOARD_PORT = "/dev/jantaku-board"


@dataclass(frozen=True, slots=True)
class Finding:
    check: str
    ok: bool
    detail: str  # what was found
    fix: str = ""  # what to do, one line (empty when ok)

    def line(self) -> str:
        text = self.detail if self.ok else f"{self.detail}: {self.fix}"
        return f"{'ok ' if self.ok else 'FIX'}  {self.check:<8}{text}"


class Probes(Protocol):
    """What the checks may ask the machine."""

    def exists(self, path: Path) -> bool: ...

    def read_write(self, path: Path) -> bool:
        """Whether this process may open ``path`` for reading and writing."""
        ...

    def writable_dir(self, path: Path) -> bool: ...

    def glob(self, pattern: str) -> list[Path]: ...

    def read_text(self, path: Path) -> str | None: ...

    def user(self) -> str: ...

    def member_of(self, group: str) -> bool:
        """Whether the user is listed in ``group`` (in /etc/group, whether or not this login has it yet)."""
        ...

    def module_available(self, name: str) -> bool: ...

    def cameras(self) -> list[str] | None:
        """Cameras libcamera sees (picamera2), or ``None`` when picamera2 cannot be imported."""
        ...

    def command(self, name: str) -> bool: ...

    def free_bytes(self, path: Path) -> int: ...

    def now(self) -> float: ...

    def clock_synchronised(self) -> bool | None:
        """NTP says the clock is right; ``None`` when it cannot tell."""
        ...

    def reaches(self, host: str, port: int) -> bool:
        """Whether a TCP connection to ``host:port`` opens (within a couple of seconds)."""
        ...


def _group_fix(probes: Probes, group: str, what: str) -> str:
    if probes.member_of(group):
        return f"{probes.user()} is in {group} but this login is not yet: log out and in again (or reboot)"
    return f"sudo usermod -aG {group} {probes.user()}, then log in again (or reboot): {what}"


def check_camera(config: TableConfig, probes: Probes) -> Finding:
    camera = config.camera
    if camera is None:
        return Finding("camera", True, "no [camera] in the config: not checked")
    if camera.source == "picamera2":
        found = probes.cameras()
        if found is None:
            return Finding(
                "camera",
                False,
                "picamera2 cannot be imported",
                "sudo apt install python3-picamera2, in a venv made with --system-site-packages (scripts/install-pi)",
            )
        if not found:
            return Finding(
                "camera",
                False,
                "libcamera finds no camera",
                "check the ribbon cable (contacts face the board), then: rpicam-hello --list-cameras",
            )
        seen = f"{found[0]} (picamera2)"
    elif camera.source.startswith("opencv:"):
        device = Path(f"/dev/video{camera.source.removeprefix('opencv:')}")
        if not probes.exists(device):
            return Finding("camera", False, f"no {device}", "plug the USB camera in, or fix [camera] source")
        seen = str(device)
    else:
        if not probes.exists(Path(camera.source)):
            return Finding("camera", False, f"no {camera.source}", "fix [camera] source (a path to recorded frames)")
        seen = camera.source
    if camera.calibration is None or not probes.exists(camera.calibration):
        where = camera.calibration or "camera.json"
        return Finding(
            "camera",
            False,
            f"{seen}, but no calibration file {where}",
            f"jantaku vision calibrate --source {camera.source} --out {where} (corner markers in view)",
        )
    return Finding("camera", True, f"{seen}, calibration {camera.calibration}")


def check_serial(config: TableConfig, probes: Probes) -> Finding:
    link = config.link
    if link is None:
        return Finding("serial", True, "no [link] in the config: not checked")
    port = link.port
    if "://" in port:
        return Finding("serial", True, f"{port} is a pyserial URL: not checked")
    path = Path(port)
    if not probes.exists(path):
        if port == BOARD_PORT:
            others = probes.glob("/dev/ttyACM*")
            if others:
                return Finding(
                    "serial",
                    False,
                    f"no {port}, but {others[0]} is there",
                    "install the udev rule (scripts/install-pi, deploy/udev/99-jantaku-board.rules) and replug "
                    f'the board, or set [link] port = "{others[0]}"',
                )
        return Finding(
            "serial", False, f"no {port}", "plug the sensor board in (USB); lsusb should list 2e8a:0005 (MicroPython)"
        )
    if not probes.read_write(path):
        return Finding(
            "serial",
            False,
            f"{port} is there but not readable and writable",
            _group_fix(probes, "dialout", "serial ports"),
        )
    return Finding("serial", True, f"{port} readable and writable")


def check_gpio(config: TableConfig, probes: Probes) -> Finding:
    if config.panel is None:
        return Finding("gpio", True, "[panel] disabled: not checked")
    chips = probes.glob("/dev/gpiochip*")
    if not chips:
        return Finding("gpio", False, "no GPIO on this machine", "set enabled = false under [panel] (or run on the Pi)")
    if not probes.read_write(chips[0]):
        return Finding("gpio", False, f"{chips[0]} is not readable and writable", _group_fix(probes, "gpio", "GPIO"))
    if not probes.module_available("lgpio"):
        return Finding(
            "gpio",
            False,
            "gpiozero has no pin library (lgpio)",
            "sudo apt install python3-lgpio, in a venv made with --system-site-packages (scripts/install-pi)",
        )
    return Finding("gpio", True, f"{chips[0]} with lgpio, panel pins {config.panel.confirm}, {config.panel.undo}, ...")


def check_display(config: TableConfig, probes: Probes) -> Finding:
    if config.web is None:
        return Finding(
            "display", False, "no [web] in the config", "add [web] (port = 8080): the table display is a page"
        )
    screens = [
        path.parent.name.split("-", 1)[-1]
        for path in probes.glob("/sys/class/drm/card*-HDMI-A-*/status")
        if (probes.read_text(path) or "").strip() == "connected"
    ]
    if not screens:
        return Finding(
            "display", False, "no screen on HDMI", "connect the table display and reboot (the kiosk starts at login)"
        )
    if not (probes.command("chromium-browser") or probes.command("chromium")):
        return Finding("display", False, f"screen on {screens[0]}, no Chromium", "sudo apt install chromium-browser")
    return Finding("display", True, f"screen on {screens[0]}, kiosk page http://127.0.0.1:{config.web.port}/")


def check_disk(config: TableConfig, probes: Probes) -> Finding:
    folder = config.db.parent
    if not probes.writable_dir(folder):
        return Finding(
            "disk",
            False,
            f"cannot write the journal's folder {folder}",
            f"sudo chown {probes.user()} {folder}, or move [table] db",
        )
    free = probes.free_bytes(folder)
    shown = f"{free / (1 << 30):.1f} GiB free for {config.db.name} in {folder}"
    if free < MIN_FREE_BYTES:
        return Finding("disk", False, shown, "free some space: sudo apt clean; remove old recordings (1 GiB at least)")
    return Finding("disk", True, shown)


def check_clock(_config: TableConfig, probes: Probes) -> Finding:
    now = probes.now()
    shown = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    if now < EARLIEST_PLAUSIBLE:
        return Finding(
            "clock",
            False,
            f"the clock says {shown}",
            "connect the Pi to a network (NTP) or fit an RTC battery: game times are journaled from it",
        )
    synced = probes.clock_synchronised()
    if synced is False:
        return Finding(
            "clock",
            False,
            f"{shown}, not synchronised",
            "connect to a network; timedatectl should say synchronized: yes",
        )
    return Finding("clock", True, shown + (", synchronised" if synced else ", synchronisation unknown"))


def check_hall(config: TableConfig, probes: Probes) -> Finding:
    if config.hall is None:
        return Finding("hall", True, "no [hall] in the config: publishes to no hall, not checked")
    broker = config.hall.broker
    where = f"{broker.url} (hall {config.hall.hall}, table {config.hall.table})"
    if not probes.reaches(broker.host, broker.port):
        return Finding(
            "hall",
            False,
            f"cannot reach the hall's broker {where}",
            "check the address under [hall] and that the broker runs (scripts/hall-broker on the hall's machine); "
            "the table referees on and sends later",
        )
    return Finding("hall", True, f"the hall's broker answers at {where}")


CHECKS: tuple[Callable[[TableConfig, Probes], Finding], ...] = (
    check_camera,
    check_serial,
    check_gpio,
    check_display,
    check_disk,
    check_clock,
    check_hall,
)


def check_table(config: TableConfig, probes: Probes) -> list[Finding]:
    return [check(config, probes) for check in CHECKS]


class SystemProbes:
    """The machine this runs on."""

    def exists(self, path: Path) -> bool:
        return path.exists()

    def read_write(self, path: Path) -> bool:
        return os.access(path, os.R_OK | os.W_OK)

    def writable_dir(self, path: Path) -> bool:
        return path.is_dir() and os.access(path, os.W_OK | os.X_OK)

    def glob(self, pattern: str) -> list[Path]:
        return sorted(Path("/").glob(pattern.lstrip("/")))

    def read_text(self, path: Path) -> str | None:
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def user(self) -> str:
        return pwd.getpwuid(os.getuid()).pw_name

    def member_of(self, group: str) -> bool:
        try:
            entry = grp.getgrnam(group)
        except KeyError:
            return False
        user = self.user()
        return user in entry.gr_mem or pwd.getpwnam(user).pw_gid == entry.gr_gid

    def module_available(self, name: str) -> bool:
        return importlib.util.find_spec(name) is not None

    def cameras(self) -> list[str] | None:
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 - only on a Pi, only here
        except ImportError:
            return None
        return [str(info.get("Model", "camera")) for info in Picamera2.global_camera_info()]

    def command(self, name: str) -> bool:
        return shutil.which(name) is not None

    def free_bytes(self, path: Path) -> int:
        return shutil.disk_usage(path).free

    def now(self) -> float:
        return time.time()

    def clock_synchronised(self) -> bool | None:
        if Path("/run/systemd/timesync/synchronized").exists():
            return True
        try:
            answer = subprocess.run(
                ["timedatectl", "show", "--property=NTPSynchronized", "--value"],
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        value = answer.stdout.strip()
        return {"yes": True, "no": False}.get(value)

    def reaches(self, host: str, port: int) -> bool:
        try:
            with socket.create_connection((host, port), timeout=2.0):
                return True
        except OSError:
            return False
