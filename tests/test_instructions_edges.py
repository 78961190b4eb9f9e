"""Instruction files may not pull in files from outside the project."""

from __future__ import annotations

from pathlib import Path

import satchel
from tests.support import put


def test_a_project_instruction_file_cannot_pull_in_a_file_from_outside_the_project(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    """Threat model I4 / AT1: a cloned repository ships ``AGENTS.md -> ~/.aws/...``
    (and the same as ``.claude/CLAUDE.md``, the fallback). Neither reaches the prompt."""
    secret = put(home / ".aws" / "credentials", "aws_secret_access_key = abc123\n")
    (project / "AGENTS.md").symlink_to(secret)
    (project / ".claude").mkdir()
    (project / ".claude" / "CLAUDE.md").symlink_to(secret)
    env = satchel.load(layout=layout)
    assert all("abc123" not in f.text for f in env.instructions)
    assert [d.code for d in env.diagnostics] == ["instructions.read.error"] * 2
