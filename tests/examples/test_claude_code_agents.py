"""The subagent examples of code.claude.com/docs/en/sub-agents, saved in the project's
.claude/agents/ as the page says, read by satchel unchanged, and handed to a host as
`AgentType.spawn_spec()` gives them; the database validator's hook runs for real."""

from __future__ import annotations

import os
import shutil

import pytest

import satchel
from satchel.runtime.hooks import HookRunner
from tests.examples.support import claude_load, claude_skill, example, install
from tests.support import codes

EXAMPLES = ("code-reviewer", "debugger", "data-scientist", "db-reader")


def agents(layout: satchel.Layout, *names: str) -> satchel.Environment:
    for name in names:
        install(layout.project, f"agents/{name}.md", f".claude/agents/{name}.md")
    return claude_load(layout)


def test_the_example_subagents_load_as_written(layout):
    """The page: "Example subagents": each file is frontmatter "followed by the system prompt in
    Markdown"; "Only name and description are required". No diagnostic for any."""
    env = agents(layout, *EXAMPLES)
    assert sorted(env.agents.agents) == sorted(EXAMPLES)
    assert codes(env.diagnostics) == []
    for name in EXAMPLES:
        spec = env.agents.agents[name].spawn_spec(env)
        body = example(f"agents/{name}.md").split("---\n", 2)[2].strip()
        assert spec.system_prompt.strip() == body, name
        assert spec.diagnostics == ()


def test_the_code_reviewer_reads_and_never_edits(layout):
    """The page: "A read-only subagent that reviews code without modifying it ... limited tool
    access that excludes Edit and Write"; model: inherit, "to keep the active model".

    satchel's spec names tools canonically (docs/commands-and-agents.md, "Tool names"):
    Read, Grep and Glob are read_file, Bash is execute_command; None is the session's
    model, as inherit is."""
    env = agents(layout, "code-reviewer")
    reviewer = env.agents.agents["code-reviewer"]
    assert reviewer.tools_as_written == ("Read", "Grep", "Glob", "Bash")
    spec = reviewer.spawn_spec(env)
    assert (spec.tools, spec.model) == (("read_file", "execute_command"), None)
    assert reviewer.model_as_written == "inherit"


def test_the_debugger_may_edit(layout):
    """The page: "Unlike the code reviewer, this one includes Edit because fixing bugs requires
    modifying code"; with no model it uses the default, inherit."""
    env = agents(layout, "debugger")
    spec = env.agents.agents["debugger"].spawn_spec(env)
    assert spec.tools is not None and "edit_file" in spec.tools
    assert spec.model is None


def test_the_data_scientist_sets_sonnet(layout):
    """The page: "It explicitly sets model: sonnet for more capable analysis.\""""
    env = agents(layout, "data-scientist")
    spec = env.agents.agents["data-scientist"].spawn_spec(env)
    assert (spec.model, spec.tools) == (
        "sonnet",
        ("execute_command", "read_file", "write_file", "create_directory"),
    )


def test_the_first_code_reviewer_file(layout):
    """The page: "Write subagent files": "The frontmatter defines the subagent's metadata and
    configuration. The body becomes the system prompt".

    Differs on purpose (docs/commands-and-agents.md, "Tool names", mermaid's table):
    Grep and Glob map to read_file and execute_command, so the canonical spec of this
    Read, Glob, Grep reviewer holds execute_command; `tools_as_written` keeps the three,
    and `load(agent_tool_map=...)` gives a host its own table."""
    install(layout.project, "agents/code-reviewer-quick.md", ".claude/agents/code-reviewer.md")
    env = claude_load(layout)
    spec = env.agents.agents["code-reviewer"].spawn_spec(env)
    assert spec.system_prompt.startswith("You are a code reviewer. When invoked, analyze")
    assert (spec.model, spec.tools) == ("sonnet", ("read_file", "execute_command"))
    assert env.agents.agents["code-reviewer"].tools_as_written == ("Read", "Glob", "Grep")


def test_api_developer_preloads_its_skills(layout):
    """The page: "The full content of each listed skill is injected into the subagent's context
    at startup"; "If a listed skill is missing ... Claude Code skips it and logs a
    warning" (satchel: agent.preload.missing)."""
    claude_skill(layout, "skills/api-conventions.md", "api-conventions")
    env = agents(layout, "api-developer")
    spec = env.agents.agents["api-developer"].spawn_spec(env)
    ((name, body),) = [(s.name, s.body) for s in spec.skills]
    assert name == "api-conventions"
    assert body.startswith("When writing API endpoints:\n- Use RESTful naming conventions")
    assert [(d.code, d.message) for d in spec.diagnostics] == [
        (
            "agent.preload.missing",
            "the agent preloads skill 'error-handling-patterns', which is not loaded; "
            "it is left out",
        )
    ]


@pytest.mark.skipif(shutil.which("jq") is None, reason="the page's script needs jq")
@pytest.mark.parametrize("example_file", ["db-reader", "db-reader-hooks"])
def test_the_db_reader_hook_blocks_writes(layout, example_file):
    """The page: "Database query validator" and "Conditional rules with hooks": "ask the subagent
    to run an UPDATE statement: the script exits with code 2, Claude Code blocks the
    command, and the subagent sees the Blocked: ... message". The hooks run while the
    subagent does: a host gives the spec's hooks, judged by the environment as a
    session's skill hooks are, to the runner."""
    install(layout.project, f"agents/{example_file}.md", ".claude/agents/db-reader.md")
    script = "scripts/validate-readonly-query.sh"
    install(layout.project, "agents/validate-readonly-query.sh", script, mode=0o755)
    env = claude_load(layout)
    spec = env.agents.agents["db-reader"].spawn_spec(env)
    assert [(h.spec.event, h.spec.matcher, h.spec.command) for h in spec.hooks] == [
        ("PreToolUse", "Bash", "./scripts/validate-readonly-query.sh")
    ]
    hooks = spec.hooks
    environ = {"PATH": os.environ["PATH"], "HOME": str(layout.home)}
    run = HookRunner(env, environ=environ, extra=lambda e: [h for h in hooks if h.event == e])
    denied = run.before_tool_use("Bash", {"command": "sqlite3 app.db 'UPDATE users SET a=1'"})
    assert denied.behavior == "deny"
    assert denied.reason is not None and denied.reason.startswith("Blocked: ")
    select = run.before_tool_use("Bash", {"command": "sqlite3 app.db 'SELECT * FROM users'"})
    assert (select.behavior, [r.exit_code for r in select.results]) == ("allow", [0])


def test_the_reviewer_with_hooks_keeps_both_events(layout):
    """The page: "Hooks in subagent frontmatter": "This example validates Bash commands with the
    PreToolUse hook and runs a linter after file edits with PostToolUse"."""
    install(layout.project, "agents/code-reviewer-hooks.md", ".claude/agents/code-reviewer.md")
    env = claude_load(layout)
    spec = env.agents.agents["code-reviewer"].spawn_spec(env)
    assert [(h.spec.event, h.spec.matcher, h.spec.command) for h in spec.hooks] == [
        ("PreToolUse", "Bash", "./scripts/validate-command.sh $TOOL_INPUT"),
        ("PostToolUse", "Edit|Write", "./scripts/run-linter.sh"),
    ]
    assert spec.tools is None  # no tools field: "Inherits every tool available"
