"""``satchel doctor --hosts`` writes nothing and runs nothing: run as a real
subprocess on the machine the real hosts installed into (tests/checkup/machine.py),
with HOME that machine's home and TMPDIR a watched folder, it leaves every file and
folder of the home, the project, the config and cache folders as it found them, raises
no audit event that starts a process, writes, changes the file system or connects,
and /proc never shows a child of it (tests/checkup/watch.py). The watcher is shown to
see each of these when a command does them (the positive controls).

`READ_ONLY` lists the commands so proved; another read-only verb joins by its argv."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .machine import Built, built
from .watch import Watched, python, watch

READ_ONLY = (
    ("doctor", "--hosts"),
    ("doctor", "--hosts", "claude-code,codex,gemini", "--format", "sarif", "--fail-on", "info"),
    ("outdated", "--offline", "--json"),
)


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return built(tmp_path_factory)


def _watched(tmp_path: Path, home: Path, cwd: Path, argv: list[str], *roots: Path) -> Watched:
    """`argv` run in `cwd` with HOME `home`, TMPDIR a watched folder of its own, and
    the suite's own cache and policy folders; every folder a run could write watched."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(temp)}
    own = [Path(env[n]) for n in ("SATCHEL_CACHE_DIR", "SATCHEL_POLICY_DIR") if n in env]
    watched = (*roots, temp, *own)
    return watch(argv, cwd=cwd, env=env, roots=watched, record=tmp_path / "record")


@pytest.mark.parametrize("argv", READ_ONLY, ids=" ".join)
def test_a_read_only_command_writes_nothing_and_runs_nothing(
    machine: Built, tmp_path: Path, argv: tuple[str, ...]
):
    run = _watched(tmp_path, machine.home, machine.project, python("-m", "satchel", *argv),
                   machine.base, machine.home / ".config")  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    assert run.stdout.startswith(("Hosts: ", "{")), run.stdout  # it did report
    assert run.changed() == []
    assert run.events == ()
    assert run.children == frozenset()


def test_the_watcher_sees_processes_started(tmp_path: Path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    code = (
        "import os, subprocess; subprocess.run(['true']); os.system('true'); "
        "subprocess.run(['sleep', '0.3'])"
    )
    run = _watched(tmp_path, scratch, scratch, python("-c", code), scratch)
    assert run.returncode == 0, run.stderr
    assert [e.split(" ", 1)[0] for e in run.events] == [
        "subprocess.Popen",
        "os.system",
        "subprocess.Popen",
    ]
    assert any(command == "sleep 0.3" for _, command in run.children), run.children
    assert run.changed() == []


def test_the_watcher_sees_files_written_and_changed(tmp_path: Path):
    scratch = tmp_path / "scratch"
    (scratch / "folder").mkdir(parents=True)
    (scratch / "kept.txt").write_text("kept", "utf-8")
    code = (
        "import os; open('new.txt', 'w').close(); os.mkdir('made'); "
        "os.utime('kept.txt', ns=(1, 1)); open('/dev/null', 'w').close()"
    )
    run = _watched(tmp_path, scratch, scratch, python("-c", code), scratch)
    assert run.returncode == 0, run.stderr
    assert [e.split(" ", 1)[0] for e in run.events] == ["open", "os.mkdir", "os.utime"]
    assert run.changed() == [str(scratch), *(str(scratch / n) for n in ("kept.txt", "made",
                                                                         "new.txt"))]  # fmt: skip
    assert run.children == frozenset()
