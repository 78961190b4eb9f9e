"""Unreadable files and directories become diagnostics, never exceptions.

As root every file is readable, so the check runs in a child process that drops to
an unprivileged user once satchel is imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support import skill_md

PROBE = """
import json, os, sys
from satchel.skills._check import check_paths
import satchel
satchel.load, satchel.Layout, satchel.parse_skill  # imported on first use: use them now
if os.geteuid() == 0:  # imports done: now lose the right to read everything
    os.setgid(65534)
    os.setuid(65534)
base = sys.argv[-1]
env = satchel.load(layout=satchel.Layout.default(base, home=base, project=base))
print(json.dumps({
    "checked": [[c.path.name, c.ok, [d.code for d in c.diagnostics]]
                for c in check_paths(sys.argv[1:-1])],
    "loaded": sorted(env.skills),
    "diagnostics": [[d.code, d.path.parent.name] for d in env.diagnostics],
    "parsed": [[d.code, d.message] for d in satchel.parse_skill(sys.argv[-2])[1]],
}))
"""


@pytest.fixture
def tree():
    base = Path(tempfile.mkdtemp())
    os.chmod(base, 0o755)
    root = base / ".claude" / "skills"
    for name in ("ok", "locked-file", "locked-dir"):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(skill_md(name))
    for directory in (base, base / ".claude", root, *root.iterdir()):
        os.chmod(directory, 0o755)
    os.chmod(root / "ok" / "SKILL.md", 0o644)
    os.chmod(root / "locked-file" / "SKILL.md", 0o000)
    os.chmod(root / "locked-dir", 0o000)
    yield base, root
    os.chmod(root / "locked-dir", 0o755)
    subprocess.run(["rm", "-rf", str(base)], check=True)


def test_unreadable_skills_are_diagnostics_and_the_rest_loads(tree):
    base, root = tree
    args = [
        str(root / "ok"),
        str(root / "locked-file" / "SKILL.md"),
        str(root / "locked-dir"),
        str(root / "locked-dir" / "SKILL.md"),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args, str(base)],
        capture_output=True, text=True, check=True, env=env, cwd="/",
    )  # fmt: skip
    report = json.loads(result.stdout)
    assert report["checked"] == [
        ["ok", True, []],
        ["SKILL.md", False, ["skill.read.error"]],
        ["locked-dir", False, ["discovery.root.unreadable"]],
        ["SKILL.md", False, ["skill.read.error"]],
    ]
    assert report["parsed"] == [["skill.read.error", "cannot read SKILL.md: Permission denied"]]
    assert report["loaded"] == ["ok"]
    assert report["diagnostics"] == [
        ["skill.read.error", "locked-dir"],
        ["skill.read.error", "locked-file"],
    ]
