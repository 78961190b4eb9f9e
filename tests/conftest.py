"""Shared fixtures: a project (with .git) and a stand-in home, both in tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import satchel
from satchel.trust import trust


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def layout(project: Path, home: Path) -> satchel.Layout:
    """The layout of a project its user has trusted (`satchel trust`), as most are."""
    made = satchel.Layout.default(project, home=home, env={})
    trust(made, project)
    return made


SkillWriter = Callable[..., Path]


def skill_text(
    name: str, description: str = "Does a thing.", body: str = "Body.\n", **extra: str
) -> str:
    lines = [f"name: {name}", f"description: {description}"]
    lines += [f"{key}: {value}" for key, value in extra.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + body


@pytest.fixture
def write() -> SkillWriter:
    """write(root, dirname, text=None, **fields) -> path of SKILL.md"""

    def _write(root: Path, dirname: str, text: str | bytes | None = None, **fields: str) -> Path:
        directory = root / dirname
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "SKILL.md"
        if text is None:
            text = skill_text(fields.pop("name", dirname), **fields)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_bytes(text.encode("utf-8"))
        return path

    return _write


def codes(diags: object) -> list[str]:
    return [d.code for d in diags]  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def claude_code() -> Path:
    """Claude Code's pinned binary (installed by scripts/tools before pytest starts)."""
    from tests.tools import claude_code as find

    found = find()
    if found is None:
        pytest.skip("Claude Code is not in .tools/ (scripts/tools needs npm)")
    return found
