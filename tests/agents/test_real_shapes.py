"""Real Claude Code plugin agent shapes load, as Claude Code loads them, never dropped."""

from __future__ import annotations

import shutil
from pathlib import Path

from satchel.agents import parse_claude
from satchel.foundations.origin import Origin
from satchel.plugins import read_plugin
from tests.agents.shapes import RUN_ON, SHAPES, UNREADABLE, agent_text, write_plugin
from tests.tools import claude_validate

RUNTIME_LOADS = "At runtime this agent loads with its name taken from the filename"


def test_a_description_running_on_with_example_blocks_is_recovered_with_a_warning():
    data = agent_text("code-simplifier", RUN_ON).encode()
    agent, diags = parse_claude(
        data, Path("/p/agents/code-simplifier.md"), origin=Origin("", namespace="kit")
    )
    assert agent is not None and agent.name == "kit:code-simplifier"
    assert agent.description.startswith("Use this agent after code was written.")
    assert agent.description.endswith("use the simplifier.\n</commentary>\n</example>")
    assert 'user: "Please add a login check"' in agent.description
    assert agent.model_as_written == "opus"
    assert agent.instructions == "You are helpful."
    assert [(d.code, d.severity, d.line, d.message) for d in diags] == [
        (
            "frontmatter.yaml.colon-fallback",
            "warning",
            3,
            "lines 4-11 continue the unquoted `description` value of line 3 without "
            "indentation; read as part of it, line breaks kept",
        )
    ]


def test_every_shape_loads_with_its_fields(tmp_path):
    plugin, diags = read_plugin(write_plugin(tmp_path, "kit", SHAPES))
    assert plugin is not None
    agents = {a.name: a for a in plugin.agents}
    assert sorted(agents) == sorted(f"kit:{stem}" for stem in SHAPES)
    assert agents["kit:agent-creator"].tools_as_written == ("Write", "Read")
    assert agents["kit:agent-creator"].color is None  # magenta is not a Claude Code color
    assert "error" not in {d.severity for d in diags}
    assert not [d for d in diags if d.code in ("agent.model.alias", "plugin.agent.invalid")]


def test_a_plugin_agent_no_retry_reads_loads_as_claude_code_loads_it():
    data = agent_text("hunter", UNREADABLE).encode()
    path = Path("/p/agents/hunter.md")
    agent, diags = parse_claude(data, path, origin=Origin("", plugin="kit", namespace="kit"))
    assert agent is not None
    assert (agent.name, agent.description, agent.model_as_written) == (
        "kit:hunter",
        "Agent from kit plugin",
        None,
    )
    assert agent.instructions == "You are helpful."
    assert [(d.code, d.severity) for d in diags] == [("frontmatter.yaml.syntax", "warning")]
    assert diags[0].message.endswith(
        "; the plugin agent loads as Claude Code loads it: named after its file, "
        "every other field dropped"
    )


def test_a_project_agent_no_retry_reads_is_skipped_as_claude_code_skips_it():
    data = agent_text("hunter", UNREADABLE).encode()
    agent, diags = parse_claude(data, Path("/p/.claude/agents/hunter.md"), origin=Origin("project"))
    assert agent is None
    assert [(d.code, d.severity) for d in diags] == [("frontmatter.yaml.syntax", "error")]


def _claude_code_agents(
    binary: Path, plugin: Path, home: Path, scratch: Path
) -> tuple[set[str], set[str]]:
    """The agents Claude Code's runtime loads from `plugin`: the ones `validate` lists
    for a copy without the files it reports, plus those its report says load anyway
    (named after the file, every other field dropped)."""
    report = claude_validate(binary, plugin, home)
    name = plugin.name
    failing = {Path(c["file"]) for c in report["contents"] if c["errors"]}
    anyway = {
        f"{name}:{Path(c['file']).stem}"
        for c in report["contents"]
        if any(RUNTIME_LOADS in e["message"] for e in c["errors"])
    }
    clean = scratch / name
    shutil.copytree(plugin, clean)
    for path in failing:
        (clean / path.relative_to(plugin.resolve())).unlink()
    listed = claude_validate(binary, clean, home)["provides"]["agents"]
    return set(listed) | anyway, anyway


def test_satchel_loads_the_agent_set_claude_code_loads(tmp_path, claude_code):
    shapes = {**SHAPES, "silent-failure-hunter": UNREADABLE}
    plugin = write_plugin(tmp_path / "src", "pr-review-toolkit", shapes)
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "scratch").mkdir()
    expected, unparsed = _claude_code_agents(claude_code, plugin, home, tmp_path / "scratch")
    assert len(expected) == len(shapes)  # Claude Code loads every one of them
    assert unparsed == {
        "pr-review-toolkit:code-simplifier",  # satchel's retry reads these two whole
        "pr-review-toolkit:agent-creator",
        "pr-review-toolkit:silent-failure-hunter",  # nothing reads this one
    }
    loaded, _ = read_plugin(plugin)
    assert loaded is not None
    assert {a.name for a in loaded.agents} == expected
