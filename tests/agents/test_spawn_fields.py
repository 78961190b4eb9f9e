"""A Claude Code agent's spawn fields on real agent files, and `AgentType.spawn_spec()`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.agents import SpawnSpec, parse_claude
from satchel.foundations.origin import Origin
from satchel.plugins import read_plugin
from tests.support import put, write_skill
from tests.tools import claude_validate

EVERY_FIELD = """\
---
name: reviewer
description: Reviews a change.
tools: Read, Grep, Bash
disallowedTools: Bash
model: sonnet
skills:
  - house-style
  - absent-skill
mcpServers:
  - github
  - notes:
      command: notes-server
      args: ["--stdio"]
hooks:
  Stop:
    - hooks:
        - type: command
          command: ./on-stop.sh
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./check.sh
maxTurns: 12
permissionMode: acceptEdits
memory: project
initialPrompt: Start with the diff.
background: true
isolation: worktree
effort: high
color: cyan
---
You review changes.
"""


def _agents(layout: satchel.Layout) -> satchel.Environment:
    return satchel.load(layout=layout)


def test_a_project_agent_file_holds_every_spawn_field_typed(layout, project):
    put(project / ".claude" / "agents", "reviewer.md", EVERY_FIELD)
    env = _agents(layout)
    agent = env.agents.get("reviewer")
    assert agent is not None
    assert agent.skills == ("house-style", "absent-skill")
    assert agent.mcp_server_names == ("github",)
    assert [(s.name, s.command, s.args) for s in agent.mcp_servers] == [
        ("notes", "notes-server", ("--stdio",))
    ]
    assert [(h.event, h.matcher, h.command) for h in agent.hooks] == [
        ("Stop", None, "./on-stop.sh"),
        ("PreToolUse", "Bash", "./check.sh"),
    ]
    assert (agent.max_turns, agent.permission_mode, agent.memory) == (12, "acceptEdits", "project")
    assert (agent.initial_prompt, agent.background, agent.isolation) == (
        "Start with the diff.",
        True,
        "worktree",
    )
    assert (agent.effort, agent.color) == ("high", "cyan")
    assert dict(agent.extras) == {}
    assert not [d for d in env.diagnostics if d.code.startswith("agent.")]
    json.dumps(agent.to_json(), allow_nan=False)


def test_the_spawn_spec_resolves_skills_and_servers_against_the_environment(layout, project):
    put(project / ".claude" / "agents", "reviewer.md", EVERY_FIELD)
    write_skill(project / ".claude" / "skills", "house-style", body="Write short sentences.\n")
    env = _agents(layout)
    agent = env.agents.get("reviewer")
    assert agent is not None
    spec = agent.spawn_spec(env)
    assert isinstance(spec, SpawnSpec)
    assert (spec.name, spec.system_prompt) == ("reviewer", "You review changes.")
    assert spec.tools == ("read_file",)  # Bash (execute_command) is disallowed
    assert spec.disallowed_tools == ("execute_command",)
    assert spec.model == "sonnet"
    assert [(s.name, s.body) for s in spec.skills] == [("house-style", "Write short sentences.")]
    assert [s.name for s in spec.mcp_servers] == ["notes"]
    # Claude Code: a Stop hook in an agent's frontmatter fires as SubagentStop
    assert [h.spec.event for h in spec.hooks] == ["SubagentStop", "PreToolUse"]
    assert [(h.source, h.event) for h in spec.hooks] == [
        ("agent:reviewer", "subagent_stop"),
        ("agent:reviewer", "before_tool_use"),
    ]
    assert spec.held_hooks == ()
    assert (spec.effort, spec.max_turns, spec.permission_mode) == ("high", 12, "acceptEdits")
    assert (spec.memory, spec.initial_prompt, spec.background) == (
        "project",
        "Start with the diff.",
        True,
    )
    assert (spec.isolation, spec.color) == ("worktree", "cyan")
    path = project / ".claude" / "agents" / "reviewer.md"
    assert [(d.code, d.severity, d.message, d.path) for d in spec.diagnostics] == [
        (
            "agent.preload.missing",
            "warning",
            "the agent preloads skill 'absent-skill', which is not loaded; it is left out",
            path,
        ),
        (
            "agent.mcp.missing",
            "warning",
            "the agent names MCP server 'github', which is not configured; it is left out",
            path,
        ),
    ]
    json.dumps(spec.to_json(), allow_nan=False)


def test_an_inheriting_agent_spawns_with_every_tool_and_the_session_model(layout):
    data = b"---\nname: plain\ndescription: Plain.\nmodel: inherit\n---\nHi.\n"
    agent, diags = parse_claude(data, Path("/p/.claude/agents/plain.md"), origin=Origin("project"))
    assert agent is not None and diags == []
    spec = agent.spawn_spec(satchel.load(layout=layout))
    assert (spec.tools, spec.model, spec.skills, spec.diagnostics) == (None, None, (), ())


BAD = {
    "maxTurns": ("-3", "field `maxTurns` -3 must be a positive integer; it is dropped"),
    "permissionMode": (
        "yolo",
        "field `permissionMode` 'yolo' must be one of acceptEdits, auto, bypassPermissions, "
        "default, dontAsk, plan; it is dropped",
    ),
    "memory": ("team", "field `memory` 'team' must be one of user, project, local; it is dropped"),
    "isolation": (
        "sandbox",
        "field `isolation` 'sandbox' must be one of worktree, remote; it is dropped",
    ),
    "effort": (
        "huge",
        "field `effort` 'huge' must be one of low, medium, high, xhigh, max or a positive "
        "integer; it is dropped",
    ),
    "color": (
        "mauve",
        "field `color` 'mauve' must be one of red, blue, green, yellow, purple, orange, pink, "
        "cyan; it is dropped",
    ),
    "background": ("maybe", "field `background` 'maybe' must be true or false; it is dropped"),
    "skills": ("{a: 1}", "field `skills` (a mapping) must be a list of skill names; it is dropped"),
    "mcpServers": (
        "[3]",
        "field `mcpServers` 3 holds an item that is not a name or {name: server}; it is dropped",
    ),
    "hooks": (
        "[1]",
        "field `hooks` (a list) must be an object (event -> matcher groups); it is dropped",
    ),
    "initialPrompt": ("[1]", "field `initialPrompt` (a list) must be a string; it is dropped"),
}


@pytest.mark.parametrize("key", sorted(BAD))
def test_a_bad_value_is_dropped_with_a_warning_and_the_agent_loads(key):
    value, message = BAD[key]
    data = f"---\nname: a\ndescription: Does a.\n{key}: {value}\n---\nBody\n".encode()
    agent, diags = parse_claude(data, Path("/p/.claude/agents/a.md"), origin=Origin("project"))
    assert agent is not None and agent.name == "a"
    assert [(d.code, d.severity, d.message) for d in diags] == [
        ("agent.field.invalid", "warning", message)
    ]
    assert (
        agent
        == parse_claude(
            b"---\nname: a\ndescription: Does a.\n---\nBody\n",
            Path("/p/.claude/agents/a.md"),
            origin=Origin("project"),
        )[0]
    )


def test_loose_spellings_claude_code_accepts_are_read():
    data = (
        b"---\nname: a\ndescription: Does a.\nmaxTurns: '7'\neffort: med\nbackground: 'true'\n"
        b"permissionMode: manual\nskills: one, two\n---\nBody\n"
    )
    agent, diags = parse_claude(data, Path("/p/.claude/agents/a.md"), origin=Origin("user"))
    assert agent is not None and diags == []
    assert (agent.max_turns, agent.effort, agent.background) == (7, "medium", True)
    assert (agent.permission_mode, agent.skills) == ("default", ("one", "two"))


def test_rule_a_project_agent_cannot_bypass_permissions_but_a_user_one_can():
    """Differs from Claude Code on purpose (threat model I2, as safety: yolo): Claude Code
    honours permissionMode: bypassPermissions from a project's .claude/agents too."""
    data = b"---\nname: a\ndescription: Does a.\npermissionMode: bypassPermissions\n---\nB\n"
    path = Path("/p/.claude/agents/a.md")
    project, diags = parse_claude(data, path, origin=Origin("project"))
    assert project is not None and project.permission_mode == "default"
    assert [(d.code, d.message) for d in diags] == [
        (
            "agent.safety.capped",
            "field `permissionMode` 'bypassPermissions' (approve every tool call) cannot be "
            "granted by a project file; it is 'default'",
        )
    ]
    user, diags = parse_claude(data, path, origin=Origin("user"))
    assert user is not None and user.permission_mode == "bypassPermissions" and diags == []


PLUGIN_AGENT = """\
---
name: helper
description: Helps.
permissionMode: plan
hooks:
  Stop:
    - hooks:
        - type: command
          command: ./x.sh
mcpServers: [github]
initialPrompt: Go.
maxTurns: 3
color: red
---
You help.
"""


def test_a_plugin_agent_ignores_what_claude_code_ignores_in_a_plugin(tmp_path):
    plugin = tmp_path / "kit"
    put(plugin / ".claude-plugin", "plugin.json", '{"name": "kit", "version": "1.0.0"}')
    put(plugin / "agents", "helper.md", PLUGIN_AGENT)
    loaded, diags = read_plugin(plugin)
    assert loaded is not None
    (agent,) = loaded.agents
    assert (agent.name, agent.max_turns, agent.color) == ("kit:helper", 3, "red")
    assert (agent.permission_mode, agent.hooks, agent.mcp_server_names) == (None, (), ())
    assert agent.initial_prompt is None
    ignored = [d.message for d in diags if d.code == "agent.field.ignored"]
    assert ignored == [
        f"field `{key}` is ignored in a plugin's agent, as Claude Code ignores it"
        for key in ("permissionMode", "hooks", "mcpServers", "initialPrompt")
    ]


def test_claude_code_loads_every_agent_whose_field_values_satchel_drops(tmp_path, claude_code):
    plugin = tmp_path / "t1"
    put(plugin / ".claude-plugin", "plugin.json", '{"name": "t1", "version": "1.0.0"}')
    for key, (value, _) in BAD.items():
        name = key.lower()
        put(
            plugin / "agents",
            f"{name}.md",
            f"---\nname: {name}\ndescription: D.\n{key}: {value}\n---\nB\n",
        )
    home = tmp_path / "home"
    home.mkdir()
    report = claude_validate(claude_code, plugin, home)
    loaded, _ = read_plugin(plugin)
    assert loaded is not None
    assert sorted(report["provides"]["agents"]) == sorted(a.name for a in loaded.agents)
    assert len(loaded.agents) == len(BAD)
