"""The fuzz targets of ``fuzz/`` (docs/fuzzing.md): the committed corpus replays cleanly
in this process, and a short coverage-guided run of every target finds nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SECONDS = 2  # every target in one process: start-up (instrumenting satchel) is paid once


def _env() -> dict[str, str]:
    paths = [str(REPO), str(REPO / "src"), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def _fuzz(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fuzz", *args],
        cwd=REPO, env=_env(), capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


def test_every_target_has_starting_inputs_and_they_replay_cleanly() -> None:
    sys.path.insert(0, str(REPO))
    try:
        from fuzz.__main__ import CORPUS, replay
        from fuzz.targets import TARGETS
    finally:
        sys.path.remove(str(REPO))
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(TARGETS)
    for name in TARGETS:
        inputs = list((CORPUS / name).iterdir())
        assert inputs, name
        assert all(p.stat().st_size <= 4096 for p in inputs), name
    assert replay(list(TARGETS)) == 0


def test_a_short_run_of_every_target_finds_nothing(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris has no wheel for this platform")
    done = _fuzz("--seconds", str(SECONDS), "--together", "--work", str(tmp_path), timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert done.stdout == "all: ok\n"
    # it started from every committed input, and the fuzzer itself kept the inputs it ran
    # that reach new code (its output corpus is empty if it never ran one)
    sys.path.insert(0, str(REPO))
    try:
        from fuzz.__main__ import CORPUS
        from fuzz.targets import TARGETS
    finally:
        sys.path.remove(str(REPO))
    starting = sorted(f"{name}-{p.name}" for name in TARGETS for p in (CORPUS / name).iterdir())
    assert sorted(p.name for p in (tmp_path / "all-corpus").iterdir()) == starting
    assert list((tmp_path / "all").iterdir())
    assert not list(tmp_path.glob("crash-*"))
