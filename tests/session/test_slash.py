"""One entry point for slash prompts: commands and skills, in either order (mermaid,
zidane, caveman), built-ins left to the host, and the context segments they add."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import satchel
from satchel.foundations.origin import Origin
from satchel.kinds.commands import Command
from satchel.session import Session
from satchel.trust._trust import trust
from tests.support import put

DEPLOY = (
    "---\ndescription: Deploy an environment\nargument-hint: [env]\n---\n"
    "Deploy $1 now. All: $ARGUMENTS\n"
)


@pytest.fixture
def workspace(project: Path, home: Path) -> satchel.Layout:
    put(project / ".claude" / "commands" / "deploy.md", DEPLOY)
    put(
        project / ".claude" / "commands" / "notes.md",
        "Take notes. !`date` and @README.md stay as written\n",
    )
    put(
        project / ".agents" / "skills" / "deploy" / "SKILL.md",
        "---\nname: deploy\ndescription: Deploy skill.\n---\nSkill body.\n",
    )
    put(
        home / ".claude" / "commands" / "mine.md", "---\ndescription: Mine\n---\nMine: $ARGUMENTS\n"
    )
    layout = satchel.Layout.default(project, home=home, env={})
    trust(layout, project)
    return layout


def session(layout: satchel.Layout, *, load: dict | None = None, **options: object) -> Session:
    env = satchel.load(layout=layout, **(load or {}))
    return Session(env, environ={"PATH": os.environ["PATH"]}, **options)  # type: ignore[arg-type]


def test_a_command_resolves_first_by_default(workspace):
    s = session(workspace)
    assert s.expand("/deploy staging fast") == "Deploy staging now. All: staging fast"
    assert s.activation.active == ()  # a command activates no skill


def test_skill_first_is_zidanes_order(workspace):
    s = session(workspace, slash_order="skill")
    assert s.expand("/deploy staging").startswith('<agent-skill name="deploy">\nSkill body.')
    assert [a.name for a in s.activation.active] == ["deploy"]


def test_slash_skill_always_means_the_skill(workspace):
    s = session(workspace)
    assert s.expand("/skill deploy now").startswith('<agent-skill name="deploy">')


def test_arguments_are_appended_when_the_body_has_no_placeholder(workspace):
    s = session(workspace)
    assert s.expand("/notes about x") == (
        "Take notes. !`date` and @README.md stay as written\n\nabout x"
    )


def test_zero_based_numbering_is_a_setting(workspace, project):
    put(project / ".claude" / "commands" / "zero.md", "First $0, second $1\n")
    assert session(workspace, argument_numbering=0).expand("/zero a b") == "First a, second b"
    assert session(workspace).expand("/zero a b") == "First $0, second a"


def test_a_built_in_command_is_left_to_the_host(workspace):
    s = session(workspace, load={"builtin_commands": ["deploy"]})
    assert s.expand("/deploy staging") == "/deploy staging"
    codes = [d.code for d in s.environment.diagnostics]
    assert "command.builtin" in codes


def test_plugin_and_code_commands_wrap_as_the_setting_says(workspace):
    plugin = Command(
        "ship", "Ship it", origin=Origin("plugin", namespace="tools"), text="Ship $ARGUMENTS"
    )
    s = session(workspace, load={"extra_commands": [plugin]})
    assert s.expand("/ship v2") == (
        '<agent-plugin-command name="ship">\nShip v2\n</agent-plugin-command>'
    )
    assert (
        session(workspace, load={"extra_commands": [plugin]}, wrap_commands="none").expand(
            "/ship v2"
        )
        == "Ship v2"
    )
    assert session(workspace, wrap_commands="all").expand("/mine x") == (
        '<agent-plugin-command name="mine">\nMine: x\n</agent-plugin-command>'
    )


def test_a_command_whose_file_vanished_leaves_the_prompt_and_a_diagnostic(workspace, project):
    s = session(workspace)
    (project / ".claude" / "commands" / "deploy.md").unlink()
    assert s.expand("/deploy x") == "/deploy x"
    assert [d.code for d in s.diagnostics] == ["command.read.error"]


def test_the_context_has_instructions_skills_and_commands_in_that_order(workspace, project):
    put(project / "AGENTS.md", "Use tabs.\n")
    s = session(workspace)
    segments = s.context()
    assert [(x.id, x.kind, x.stability) for x in segments] == [
        ("agent.instructions.project:AGENTS.md", "instruction", "build"),
        ("agent.skills", "skill", "build"),
        ("agent.plugin-commands", "command", "build"),
    ]
    assert segments[0].text == "Instructions from AGENTS.md:\nUse tabs."
    assert segments[2].text == (
        "Plugin slash commands available to this agent. Commands activate only when "
        "explicitly invoked.\n"
        "- /deploy: Deploy an environment (arguments: [env])\n"
        "- /notes: Take notes. !`date` and @README.md stay as written\n"
        "- /mine: Mine\n"
    )
    assert set(s.system_prompt.context_bill()) == {"instruction", "skill", "command", "tool_schema"}
    assert [x.id for x in session(workspace, include_instructions=False).context()] == [
        "agent.skills",
        "agent.plugin-commands",
    ]


def test_bad_settings_are_refused(workspace):
    with pytest.raises(ValueError, match="argument_numbering"):
        session(workspace, argument_numbering=2)
    with pytest.raises(ValueError, match="wrap_commands"):
        session(workspace, wrap_commands="some")
