"""A plain clone stands on its own: nothing outside the repository is read at run time, and the
tests that need the large shared data (``../shared``) skip there, saying so, except under CI,
which makes such a skip a failure (tests/shared_data.py, ``.ci/run``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared_data import REQUIRE_VARIABLE, SKIP_PREFIX, missing_shared

REPO_ROOT = Path(__file__).resolve().parent.parent


def _clone_environment(clone: Path, **extra: str) -> dict[str, str]:
    """This environment, with the clone first on the path and nothing pointing outside it."""
    environment = {k: v for k, v in os.environ.items() if k not in {"JANTAKU_TILE_ART", REQUIRE_VARIABLE}}
    environment["PYTHONPATH"] = str(clone)
    environment.update(extra)
    return environment


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed HEAD cloned into an empty folder: no ``shared`` beside it."""
    if shutil.which("git") is None or not (REPO_ROOT / ".git").exists():
        pytest.fail("the plain-clone tests need git and a git checkout")
    head = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    target = tmp_path_factory.mktemp("lonely") / "jantaku"
    subprocess.run(["git", "clone", "--quiet", str(REPO_ROOT), str(target)], check=True, timeout=120)
    subprocess.run(["git", "-C", str(target), "checkout", "--quiet", "--detach", head], check=True, timeout=60)
    assert sorted(p.name for p in target.parent.iterdir()) == ["jantaku"]
    return target


@pytest.mark.slow
def test_the_demo_referees_its_game_in_a_plain_clone_with_nothing_beside_it(clone):
    result = subprocess.run(
        [sys.executable, "-m", "table_app", "demo", "--fast", "--headless", "--check", "--camera", "log"],
        cwd=clone,
        env=_clone_environment(clone),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.strip().endswith("0 mismatches")


@pytest.mark.slow
def test_the_renderer_draws_every_art_style_from_the_clone_itself(clone):
    code = (
        "from vision.render.tile_art import ArtStyle, default_art_root, load_tile_art\n"
        "from vision.render.renderer import RenderOptions, render_table\n"
        "for style in ArtStyle:\n"
        "    render_table(1, RenderOptions(size=(320, 180), style=style))\n"
        "print(default_art_root())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=clone,
        env=_clone_environment(clone),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert Path(result.stdout.strip()).is_relative_to(clone)


@pytest.mark.slow
def test_a_test_needing_the_shared_data_skips_in_a_plain_clone_and_fails_under_ci(clone):
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/logs/test_replay_corpus.py"]
    plain = subprocess.run(
        command, cwd=clone, env=_clone_environment(clone), capture_output=True, text=True, timeout=300, check=False
    )
    assert plain.returncode == 0, plain.stdout[-2000:]
    assert SKIP_PREFIX in plain.stdout
    assert " passed" not in plain.stdout  # it skipped: nothing ran without the logs
    required = subprocess.run(
        command,
        cwd=clone,
        env=_clone_environment(clone, **{REQUIRE_VARIABLE: "1"}),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert required.returncode != 0
    assert f"{REQUIRE_VARIABLE}=1 and " in required.stdout
    assert " skipped" not in required.stdout


def test_missing_shared_data_skips_unless_required(monkeypatch, tmp_path):
    monkeypatch.delenv(REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match=SKIP_PREFIX):
        missing_shared(tmp_path / "logs")
    monkeypatch.setenv(REQUIRE_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_VARIABLE}=1 and .*logs is absent"):
        missing_shared(tmp_path / "logs")


def test_ci_runs_the_readme_test_command_with_the_shared_data_required(tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy(REPO_ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        'Tests:\n\n<!-- test-command -->\n```\necho "required=${JANTAKU_REQUIRE_SHARED:-unset}"\n```\n'
    )
    environment = {k: v for k, v in os.environ.items() if k != REQUIRE_VARIABLE}
    result = subprocess.run(
        ["bash", str(tmp_path / ".ci" / "run")],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "required=1"


def test_every_test_asks_for_the_shared_data_through_one_place():
    """A test that found ``../shared`` by itself, or skipped on its own for want of it, would
    skip silently under CI too: only tests/shared_data.py may."""
    tests = REPO_ROOT / "tests"
    offenders = []
    for path in sorted(tests.rglob("*.py")):
        if path.name == "shared_data.py" or path == Path(__file__):
            continue
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            finds_it = '/ "shared"' in line or "'shared'" in line or '"../shared' in line
            skips_for_it = "pytest.skip(" in line and "shared" in line
            if finds_it or skips_for_it:
                offenders.append(f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}")
    assert offenders == []
