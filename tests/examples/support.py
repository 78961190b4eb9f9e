"""Claude Code's documented examples, copied as written into tests/examples/claude_code/
(README.md there names each one's page and section), and put in a temp project as the
docs say to save them."""

from __future__ import annotations

import os
from pathlib import Path

import satchel
from satchel.session import Session
from tests.support import put

EXAMPLES = Path(__file__).parent / "claude_code"


def example(rel: str) -> str:
    """The text of one example, as the docs print it."""
    return (EXAMPLES / rel).read_text(encoding="utf-8")


def install(root: Path, rel: str, where: str, *, mode: int | None = None) -> Path:
    """The example `rel` saved at `root/where`, unchanged (`mode`: as `chmod` makes it)."""
    return put(root, where, example(rel), mode=mode)


def claude_skill(layout: satchel.Layout, rel: str, name: str) -> Path:
    """The example `rel` saved as ``.claude/skills/<name>/SKILL.md`` in the project."""
    return install(layout.project, rel, f".claude/skills/{name}/SKILL.md")


def claude_load(layout: satchel.Layout) -> satchel.Environment:
    """The project as Claude Code reads it: its profile and its settings.json hooks."""
    return satchel.load(layout=layout, host="claude-code", claude_settings_hooks=True)


def claude_session(env: satchel.Environment, path: str | None = None, **options: object) -> Session:
    """A session with the skill tools and the gate on, `path` first on PATH."""
    search = os.environ["PATH"] if path is None else f"{path}:{os.environ['PATH']}"
    environ = {"PATH": search, "HOME": str(env.layout.home)}
    return Session(env, environ=environ, tools="skills", session_id="S-1", **options)  # type: ignore[arg-type]
