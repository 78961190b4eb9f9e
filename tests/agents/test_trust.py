"""Safety from a repository: a project or plugin agent cannot approve everything.

Threat model invariant I2: an auto-approve key is honoured only from user-level
config or the host. `safety: yolo` in a project or plugin agent is capped at
``destructive`` with `agent.safety.capped`; a user file and the host config keep it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.agents import (
    AgentType,
    cap_safety,
    config_agents,
    load_agents,
    parse_bundle,
    parse_claude,
    parse_vibe,
    scan_agent_dir,
)
from satchel.foundations.origin import Origin
from tests.agents.conftest import claude_text
from tests.support import put

VIBE_YOLO = 'schemaVersion = 1\nagentType = "subagent"\ndescription = "d"\nsafety = "yolo"\n'


def capped(diags):
    return [(d.code, d.severity, d.message) for d in diags if d.code == "agent.safety.capped"]


def message(name: str, where: str) -> str:
    return (
        f"agent {name!r} asks for safety 'yolo' (approve everything), which {where} "
        "cannot grant; it is capped at 'destructive'"
    )


@pytest.mark.parametrize(
    ("scope", "where"), [("project", "a project file"), ("plugin", "a plugin")]
)
def test_a_claude_agent_from_a_project_or_plugin_is_capped(scope, where):
    text = claude_text("fixer", tools="Read", safety="yolo")
    agent, diags = parse_claude(text.encode(), Path("fixer.md"), origin=Origin(scope))
    assert agent is not None
    assert (agent.safety, agent.safety_as_written) == ("destructive", "yolo")
    assert capped(diags) == [("agent.safety.capped", "warning", message("fixer", where))]
    assert diags[-1].hint is not None and "user agents directory" in diags[-1].hint


def test_a_vibe_agent_from_a_plugin_is_capped_under_its_namespaced_name():
    agent, diags = parse_vibe(
        VIBE_YOLO.encode(), Path("r.toml"), origin=Origin("plugin", namespace="kit")
    )
    assert agent is not None and agent.safety == "destructive"
    assert capped(diags) == [("agent.safety.capped", "warning", message("kit:r", "a plugin"))]


def test_a_bundle_type_is_a_plugins_and_is_capped():
    data = b'[types.ops]\ndescription = "d"\nsafety = "yolo"\n'
    agents, diags = parse_bundle(data, Path("types.toml"))
    assert [a.safety for a in agents] == ["destructive"]
    assert capped(diags) == [("agent.safety.capped", "warning", message("ops", "a plugin"))]


@pytest.mark.parametrize("scope", ["user", ""])
def test_a_user_file_keeps_yolo(scope):
    agent, diags = parse_vibe(VIBE_YOLO.encode(), Path("r.toml"), origin=Origin(scope))
    assert agent is not None and agent.safety == "yolo" and diags == []


def test_the_host_config_keeps_yolo():
    agents, diags = config_agents({"ops": {"description": "d", "safety": "yolo"}})
    assert [a.safety for a in agents] == ["yolo"] and diags == []


@pytest.mark.parametrize("safety", ["read_only", "safe", "neutral", "destructive"])
def test_lower_levels_are_not_touched(safety):
    text = claude_text("fixer", safety=safety)
    agent, diags = parse_claude(text.encode(), Path("fixer.md"), origin=Origin("project"))
    assert agent is not None and agent.safety == safety and diags == []


def test_load_agents_caps_project_files_and_keeps_user_files(layout, project, home):
    put(project / ".claude" / "agents", "proj.md", claude_text("proj", safety="yolo"))
    put(home / ".claude" / "agents", "mine.md", claude_text("mine", safety="yolo"))
    found = load_agents(layout)
    assert found.agents["proj"].safety == "destructive"
    assert found.agents["mine"].safety == "yolo"
    assert [d.message for d in found.diagnostics] == [message("proj", "a project file")]


def test_plugin_types_handed_in_are_capped_whatever_their_scope(layout):
    built = AgentType(name="kit:ops", description="d", safety="yolo", format="bundle")
    found = load_agents(layout, plugin_types=[built])
    assert found.agents["kit:ops"].safety == "destructive"
    assert [d.message for d in found.diagnostics] == [message("kit:ops", "a plugin")]


def test_a_plugin_agent_directory_scan_is_capped(tmp_path):
    put(tmp_path / "agents", "ops.toml", VIBE_YOLO)
    scan = scan_agent_dir(tmp_path / "agents", origin=Origin("plugin", namespace="kit"))
    assert [a.safety for a in scan.agents] == ["destructive"]
    assert [d.code for d in scan.diagnostics] == ["agent.safety.capped"]


def test_cap_safety_leaves_a_trusted_agent_alone():
    agent = AgentType(name="a", description="d", safety="yolo", origin=Origin("user"))
    assert cap_safety(agent) == (agent, None)
    assert cap_safety(agent, untrusted=True)[0].safety == "destructive"
