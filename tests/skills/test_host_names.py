"""A skill's name as each host profile's `NameRule` keeps it, and satchel's note of what
the hosts do with a name its own rule refuses (the hosts themselves are compared in
tests/hosts/test_codex_walk.py and test_gemini_walk.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel import hosts
from tests.support import skill_md, write_skill


def env_of(tmp_path: Path, name: str, host: str | None) -> satchel.Environment:
    project, home = tmp_path / "project", tmp_path / "home"
    write_skill(project / ".agents/skills", "folder", skill_md(name))
    layout = (
        satchel.Layout.default(project, home=home, env={})
        if host is None
        else hosts.get(host).layout(project, home=home, env={})
    )
    return satchel.load(layout=layout, host=host, trusted=True)


def notes(env: satchel.Environment) -> list[tuple[str, str]]:
    return [(d.severity, d.message) for d in env.diagnostics if d.code == "skill.name.hosts"]


def test_satchel_says_codex_drops_a_long_name_gemini_keeps(tmp_path):
    long = "A" * 70
    env = env_of(tmp_path, long, None)
    assert list(env.skills) == ["folder"]
    assert notes(env) == [
        ("info", f"Codex drops the skill (over 64 characters); Gemini CLI names it {long!r}")
    ]


def test_a_name_that_keeps_the_rule_gets_no_note(tmp_path):
    assert notes(env_of(tmp_path, "fine-name", None)) == []


@pytest.mark.parametrize("host", ["claude-code", "cursor", "opencode"])
def test_only_satchels_own_rule_notes_the_hosts(tmp_path, host):
    env = env_of(tmp_path, "a/b", host)
    assert notes(env) == []
    assert "a/b" not in env.skills


@pytest.mark.parametrize(
    ("host", "written", "kept"),
    [
        ("codex", "'  My   Skill '", "My Skill"),
        ("codex", "a\\b:c", "a\\b:c"),
        ("gemini", "'  My   Skill '", "  My   Skill "),
    ],
)
def test_a_host_profile_keeps_a_name_as_its_host_does(tmp_path, host, written, kept):
    env = env_of(tmp_path, written, host)
    assert [n for n, s in env.skills.items() if s.path.parent.name == "folder"] == [kept]
    [invalid] = [d for d in env.diagnostics if d.code == "skill.name.invalid"]
    assert invalid.severity == "warning" and invalid.message.endswith("; this host keeps it")


def test_a_name_gemini_makes_valid_loads_without_a_warning(tmp_path):
    env = env_of(tmp_path, "a\\b:c", "gemini")
    assert "a-b-c" in env.skills
    assert [d for d in env.diagnostics if d.code == "skill.name.invalid"] == []
