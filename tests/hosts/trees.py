"""What the differential tests of every host build their trees with."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from tests.support import skill_md, write_skill


def git_repo(path: Path) -> Path:
    """`path` made a real git repository (hosts find the root with git's own rules)."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True, timeout=60)
    return path


def skill(root: Path, dirname: str, name: str | None = None, **fields: Any) -> Path:
    """A SKILL.md at `root/dirname` named `name` (the folder's name unless given)."""
    text = skill_md(name or dirname.rsplit("/", 1)[-1], **fields)
    return write_skill(root, dirname, text)
