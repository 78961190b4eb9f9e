"""`satchel agents`: each agent type with its origin, safety, model and tools."""

from __future__ import annotations

from .support import EXAMPLE, HOME, WORKSPACE, check_golden


def test_human_listing_matches_golden(satchel, in_repo):
    result = satchel("agents", *EXAMPLE)
    assert result.code == 0
    assert result.err == (
        f"project: {WORKSPACE} (--project)\n"
        "2 diagnostics about agents; run `satchel doctor --project examples/workspace "
        "--home examples/home --trust` to see them.\n"
    )
    check_golden("agents.txt", result.out)


def test_defaults_are_named_not_left_blank(satchel, in_repo):
    out = satchel("agents", *EXAMPLE).out
    assert "session default" in out  # writer sets no safety
    assert "session model (the file says sonnet)" in out  # code-scout's alias
    assert "general" not in out.split("Built-in types")[0]  # the protected one is skipped


def test_json_is_the_agent_sets_json(satchel, in_repo):
    result = satchel("agents", "--json", *EXAMPLE)
    doc = result.json()
    assert result.code == 0
    assert set(doc) == {
        "version", "project", "agents", "builtins", "shadowed", "diagnostics", "listing"
    }  # fmt: skip
    assert doc["listing"] is None  # no host profile: no host's listing
    assert [(a["name"], a["format"], a["scope"], a["family"]) for a in doc["agents"]] == [
        ("release-manager", "vibe", "project", ".satchel"),
        ("code-scout", "claude", "project", ".claude"),
        ("writer", "claude", "user", ".claude"),
        ("deploy:deployer", "vibe", "plugin", "deploy-kit"),
        ("pr-tools:pr-reviewer", "claude", "plugin", "pr-tools"),
        ("release-bundle:release-checker", "bundle", "plugin", "release-bundle"),
    ]
    assert [a["plugin"] for a in doc["agents"][3:]] == ["deploy-kit", "pr-tools", "release-bundle"]
    scout = doc["agents"][1]
    assert scout["tools_as_written"] == ["Read", "Grep", "Glob"]
    assert scout["path"] == str(WORKSPACE / ".claude/agents/code-scout.md")
    assert doc["agents"][2]["path"] == str(HOME / ".claude/agents/writer.md")
    assert doc["builtins"] == ["general", "explore"]
    assert [d["code"] for d in doc["diagnostics"]] == [
        "frontmatter.yaml.colon-fallback",
        "agent.builtin.protected",
    ]


def test_an_agent_without_tools_has_all(satchel, project, home):
    (project / ".claude/agents").mkdir(parents=True)
    (project / ".claude/agents/helper.md").write_text(
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n"
    )
    out = satchel("agents", "--project", project, "--home", home).out
    assert any(line.split() == ["tools", "all"] for line in out.splitlines())
    doc = satchel("agents", "--project", project, "--home", home, "--json").json()
    assert doc["agents"][0]["tools"] is None


def test_no_agents(satchel, project, home):
    result = satchel("agents", "--project", project, "--home", home)
    assert result.code == 0
    assert result.err.startswith(f"project: {project} (--project)\nNo agent types found")


def test_under_claude_code_the_json_has_claude_codes_listing_lines(satchel, in_repo):
    doc = satchel("agents", "--json", "--host", "claude-code", *EXAMPLE).json()
    assert doc["listing"] == [
        "- code-scout: Use this agent to find where something is implemented. Examples: "
        "<example>user: where do we parse dates?</example> (Tools: Read, Grep, Glob)",
        "- writer: Writes and edits documentation. (Tools: Read, Write, Edit)",
    ]
