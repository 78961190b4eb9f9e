"""The hints a first run meets: a hint that names another verb names it with the
scope options this run was given, so it reads the same project."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import skill_md, write_tree


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """A project with one good skill and one without a description, run from above."""
    root = tmp_path / "p"
    write_tree(
        root,
        {
            ".claude/skills/ok/SKILL.md": skill_md("ok", "Fine. Use it."),
            ".claude/skills/bad/SKILL.md": "---\nname: bad\n---\nBody.\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    return root


def test_see_doctor_carries_dir_home_host_and_trust(satchel, project, tmp_path):
    (tmp_path / "my home").mkdir()
    result = satchel("list", "p", "--home", "my home", "--host", "claude-code", "--no-trust")
    assert result.out.splitlines()[-1] == (
        "1 diagnostic; run `satchel doctor p --home 'my home' --host claude-code --no-trust` "
        "to see them."
    )


def test_see_doctor_carries_project_client_and_plugin_dirs(satchel, project, tmp_path):
    (tmp_path / "plug").mkdir()
    result = satchel(
        "commands", "--project", "p", "--home", "h", "--client", "mine", "--plugin-dir", "plug"
    )
    assert result.out.splitlines()[-1] == (
        "No commands found; `satchel doctor --project p --home h --client mine "
        "--plugin-dir plug` shows what did not load."
    )


def test_an_unknown_skill_names_list_with_the_same_scope(satchel, project):
    result = satchel("show", "nope", "p", "--home", "h", "--host", "codex")
    assert result.code == 1
    assert "`satchel list p --home h --host codex` shows the skills that load" in result.err


def test_defaults_are_not_repeated(satchel, project, monkeypatch):
    monkeypatch.chdir(project)
    result = satchel("list", "--home", "h")
    assert result.out.splitlines()[-1] == (
        "1 diagnostic; run `satchel doctor --home h` to see them."
    )
