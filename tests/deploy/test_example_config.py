"""The shipped example config (examples/table.toml) as a Pi would run it, on this machine.

Here there is no GPIO: ``jantaku run`` must stop with one line saying to disable ``[panel]``,
no traceback and no gpiozero warnings. With ``[panel]`` disabled the rest of the example runs
(the sensor board it names is simply not there yet: the link keeps trying)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "table.toml"
NO_GPIO = (
    "jantaku run: error: panel: no GPIO on this machine: set enabled = false under [panel] "
    "to run without the buttons, LEDs and buzzer"
)


def _machine_has_gpio() -> bool:
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            factory = Device._default_pin_factory()
        except BadPinFactory:
            return False
    factory.close()
    return True


def _run(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JANTAKU_CONSOLE_TOKEN": "example-test"}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    return subprocess.run(
        [sys.executable, "-m", "table_app", "run", "--config", str(config), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_gpio_the_example_stops_with_one_line_saying_to_disable_the_panel(tmp_path):
    if _machine_has_gpio():
        pytest.skip("this machine has GPIO: the example's panel would start")
    config = tmp_path / "table.toml"
    config.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    done = _run(config, "--duration", "5")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [NO_GPIO]
    assert done.stdout == ""


def test_with_the_panel_disabled_the_example_runs_and_serves_the_pages(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "enabled = true" in text
    assert "port = 8080" in text
    config = tmp_path / "table.toml"
    config.write_text(text.replace("enabled = true", "enabled = false").replace("port = 8080", "port = 0"), "utf-8")
    done = _run(config, "--duration", "1")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"journal {tmp_path / 'jantaku.db'}" in done.stderr
    assert "table display http://127.0.0.1:" in done.stderr
    assert done.stdout.splitlines()[-1] == "scores 25000 25000 25000 25000"
