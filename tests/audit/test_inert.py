"""`satchel audit` runs nothing and opens no socket: checked on a workspace whose every
risky part would touch a canary, under an audit hook and a PATH of tripwire shims."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .hostile import build

SHIMS = ("sh", "bash", "zsh", "node", "npx", "npm", "uvx", "pipx", "python3", "git", "curl")


def tripwire(tmp_path: Path) -> tuple[Path, Path]:
    """A directory of shims that log their name and fail, and the log they write."""
    bin_dir, log = tmp_path / "tripwire-bin", tmp_path / "tripwire.log"
    bin_dir.mkdir()
    for name in SHIMS:
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\necho {name} >> "{log}"\nexit 97\n')
        shim.chmod(0o755)
    return bin_dir, log


def test_audit_starts_no_process_and_opens_no_socket(tmp_path):
    project, home, canary = build(tmp_path)
    bin_dir, log = tripwire(tmp_path)
    child = Path(__file__).with_name("_tripwire_child.py")
    env = {"PATH": str(bin_dir), "HOME": str(home), "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, str(child), str(project), "--home", str(home)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forbidden"] == []
    assert [(r["format"], r["code"]) for r in result["runs"]] == [
        ("text", 0),
        ("json", 0),
        ("sarif", 0),
    ]
    assert all(r["bytes"] > 0 for r in result["runs"])
    assert not log.exists()
    assert not canary.exists()


def test_the_tripwire_catches_a_process_start(tmp_path):
    """The harness's own positive control: a real start is seen."""
    bin_dir, log = tripwire(tmp_path)
    code = (
        "import sys, subprocess; seen = []\n"
        "sys.addaudithook(lambda e, a: seen.append(e) if e == 'subprocess.Popen' else None)\n"
        "subprocess.run(['sh', '-c', 'true'], check=False)\n"
        "print(seen)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PATH": str(bin_dir)},
        timeout=60,
        check=False,
    )
    assert "subprocess.Popen" in done.stdout
    assert log.read_text() == "sh\n"
