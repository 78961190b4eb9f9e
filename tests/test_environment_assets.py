"""load() reads commands, agent types and instruction files beside the skills, into one
Environment with one list of diagnostics, and one trust switch for the project."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from tests.support import put


@pytest.fixture
def tree(project: Path, home: Path) -> None:
    put(project / ".claude" / "commands" / "review.md", "Review $ARGUMENTS\n")
    put(
        project / ".claude" / "agents" / "scout.md",
        "---\nname: scout\ndescription: Looks.\ntools: Read, Grep\n---\nLook.\n",
    )
    put(project / "AGENTS.md", "Project rules.\n")
    put(home / ".claude" / "commands" / "mine.md", "Mine\n")
    put(
        home / ".claude" / "agents" / "helper.md",
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n",
    )
    put(
        project / ".agents" / "skills" / "a" / "SKILL.md",
        "---\nname: a\ndescription: A.\n---\nA.\n",
    )


def test_everything_loads_into_one_environment(layout, tree, project):
    env = satchel.load(layout=layout)
    assert list(env.skills) == ["a"]
    assert list(env.commands.commands) == ["review", "mine"]
    assert list(env.agents.agents) == ["scout", "helper"]
    assert env.agents.agents["scout"].safety == "read_only"
    assert [f.path for f in env.instructions] == [project / "AGENTS.md"]
    assert env.diagnostics == ()


def test_one_trust_switch_skips_every_project_file(layout, tree, project):
    env = satchel.load(layout=layout, trust_project_skills=False)
    assert list(env.skills) == []
    assert list(env.commands.commands) == ["mine"]
    assert list(env.agents.agents) == ["helper"]
    assert env.instructions == ()
    untrusted = [d.path for d in env.diagnostics if d.code == "discovery.untrusted"]
    assert project / ".claude" / "commands" in untrusted
    assert project / ".claude" / "agents" in untrusted


def test_skills_off_still_loads_commands_agents_and_instructions(layout, tree):
    env = satchel.load(layout=layout, enabled=False)
    assert env.skills == {}
    assert list(env.commands.commands) == ["review", "mine"]
    assert len(env.agents.agents) == 2
    assert len(env.instructions) == 1


def test_diagnostics_come_skills_first_then_commands_agents_instructions(layout, project):
    put(project / ".agents" / "skills" / "b" / "SKILL.md", "---\nname: b\n---\nno description\n")
    put(project / ".claude" / "commands" / "Bad Name.md", "x\n")
    put(project / ".claude" / "agents" / "x.md", "---\nname: x\n---\nno description\n")
    (project / "AGENTS.md").mkdir()
    codes = [d.code for d in satchel.load(layout=layout).diagnostics]
    assert codes == [
        "skill.description.missing",
        "command.name.invalid",
        "agent.invalid",
        "instructions.read.error",
    ]


def test_host_options_reach_each_loader(layout, tree):
    env = satchel.load(
        layout=layout,
        builtin_commands=["review"],
        command_naming="path",
        agent_types={"planner": {"description": "Plans.", "tools": ["Read"]}},
        instructions=None,
    )
    assert list(env.commands.commands) == ["mine"]
    assert env.commands.builtins == ("review",)
    assert next(iter(env.agents.agents)) == "planner"
    assert env.instructions == ()
    codex = satchel.load(layout=layout, instructions="codex")
    assert [f.kind for f in codex.instructions] == ["agents"]


def test_a_project_agent_cannot_redefine_a_built_in(layout, project):
    put(
        project / ".claude" / "agents" / "general.md",
        "---\nname: general\ndescription: Loose.\n---\nAnything.\n",
    )
    env = satchel.load(layout=layout)
    assert "general" not in env.agents.agents
    assert [d.code for d in env.diagnostics] == ["agent.builtin.protected"]
