"""The hook examples of code.claude.com/docs/en/hooks and /hooks-guide, saved where the
pages say and run by satchel's runner as real processes (bash and jq, as the pages
use them), and the Agent SDK for Python's `HookMatcher` callbacks
(code.claude.com/docs/en/agent-sdk/hooks), checked against what the pages say."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path
from types import ModuleType

import pytest

import satchel
from satchel.hooks import HookMatcher
from satchel.runtime.hooks import HookRunner
from tests.examples.support import EXAMPLES, claude_load, example, install
from tests.support import put

pytestmark = pytest.mark.skipif(
    shutil.which("jq") is None or shutil.which("bash") is None,
    reason="the pages' hook scripts need bash and jq",
)


def runner(env: satchel.Environment, **options: object) -> HookRunner:
    environ = {"PATH": os.environ["PATH"], "HOME": str(env.layout.home)}
    return HookRunner(env, environ=environ, **options)  # type: ignore[arg-type]


def settings_for(layout: satchel.Layout, script: Path) -> None:
    """The test's own settings.json, running `script` before every Bash call (the page
    shows the script alone)."""
    hooks = {"matcher": "Bash", "hooks": [{"type": "command", "command": str(script)}]}
    put(layout.project, ".claude/settings.json", json.dumps({"hooks": {"PreToolUse": [hooks]}}))


def answering(layout: satchel.Layout, rel: str) -> None:
    """A hook that prints the example answer `rel` as it stands."""
    answer = install(layout.project, rel, ".claude/hooks/answer.json")
    script = put(
        layout.project, ".claude/hooks/answer.sh", f"#!/bin/sh\ncat '{answer}'\n", mode=0o755
    )
    settings_for(layout, script)


def test_how_a_hook_resolves(layout):
    """hooks, "How a hook resolves": "The script inspects the full command and finds
    rm -rf, so it prints a decision"; "If the command had been a safer rm variant like
    rm file.txt, the script would hit exit 0 instead"; "If the command had been npm
    test, the if check would fail and block-rm.sh would never run"."""
    install(layout.project, "hooks/block-rm-settings.json", ".claude/settings.json")
    install(layout.project, "hooks/block-rm.sh", ".claude/hooks/block-rm.sh", mode=0o755)
    run = runner(claude_load(layout))
    denied = run.before_tool_use("Bash", {"command": "rm -rf /tmp/build"})
    assert (denied.behavior, denied.reason) == ("deny", "Destructive command blocked by hook")
    safer = run.before_tool_use("Bash", {"command": "rm file.txt"})
    assert (safer.behavior, [r.exit_code for r in safer.results]) == ("allow", [0])
    other = run.before_tool_use("Bash", {"command": "npm test"})
    assert (other.behavior, other.results) == ("allow", ())


def test_protect_files_blocks_edits_to_env(layout):
    """hooks-guide, "Block edits to protected files": "Claude Code blocks the edit before
    it runs and passes the script's Blocked: message to Claude as feedback"."""
    install(layout.project, "hooks/protect-files-settings.json", ".claude/settings.json")
    install(layout.project, "hooks/protect-files.sh", ".claude/hooks/protect-files.sh", mode=0o755)
    run = runner(claude_load(layout))
    env_file = str(layout.project / ".env")
    denied = run.before_tool_use(
        "Edit", {"file_path": env_file, "old_string": "", "new_string": "#"}
    )
    assert (denied.behavior, denied.reason) == (
        "deny",
        f"Blocked: {env_file} matches protected pattern '.env'",
    )
    lock = run.before_tool_use("Write", {"file_path": "package-lock.json", "content": "{}"})
    assert lock.reason == "Blocked: package-lock.json matches protected pattern 'package-lock.json'"
    source = run.before_tool_use("Edit", {"file_path": "src/app.ts"})
    assert (source.behavior, source.reason) == ("allow", None)
    assert run.before_tool_use("Bash", {"command": "cat .env"}).results == ()


def test_log_every_bash_command(layout):
    """hooks-guide, "Log every Bash command": "jq -r '.tool_input.command' extracts only
    the command string, which >> appends to the log file". The home holds ~/.claude, as
    a Claude Code user's does."""
    install(layout.project, "hooks/command-log-settings.json", ".claude/settings.json")
    (layout.home / ".claude").mkdir()
    run = runner(claude_load(layout))
    for command in ("npm test", "git status"):
        payload = {"tool_name": "Bash", "tool_input": {"command": command}, "tool_response": {}}
        run.run("PostToolUse", payload)
    run.run("PostToolUse", {"tool_name": "Read", "tool_input": {"file_path": "a.md"}})
    assert (layout.home / ".claude" / "command-log.txt").read_text() == "npm test\ngit status\n"


@pytest.mark.parametrize(
    ("rel", "blocked", "reason"),
    [
        (
            "hooks/drop-table.sh",
            "psql -c 'drop table users'",
            "Blocked: dropping tables is not allowed",
        ),
        ("hooks/exit-2-rm.sh", "rm -rf build", "Blocked: rm commands are not allowed"),
    ],
)
def test_exit_2_blocks_with_stderr_as_the_reason(layout, rel, blocked, reason):
    """hooks-guide, "Hook output": "stderr becomes Claude's feedback", "exit 2 = block
    the action", "exit 0 = no decision; the normal permission flow applies"; hooks,
    "Exit code 2": "This script blocks rm commands by exiting 2"."""
    settings_for(layout, install(layout.project, rel, ".claude/hooks/guard.sh", mode=0o755))
    run = runner(claude_load(layout))
    denied = run.before_tool_use("Bash", {"command": blocked})
    assert (denied.behavior, denied.reason) == ("deny", reason)
    assert [r.exit_code for r in denied.results] == [2]
    passed = run.before_tool_use("Bash", {"command": "ls"})
    assert (passed.behavior, [r.exit_code for r in passed.results]) == ("allow", [0])


def test_a_json_deny_feeds_its_reason_back(layout):
    """hooks-guide, "Structured JSON output": "With deny, Claude Code cancels the tool
    call and feeds permissionDecisionReason back to Claude"."""
    answering(layout, "hooks/deny-grep-output.json")
    denied = runner(claude_load(layout)).before_tool_use("Bash", {"command": "grep -r TODO ."})
    assert (denied.behavior, denied.reason) == (
        "deny",
        "Use rg instead of grep for better performance",
    )


def test_an_allow_with_updated_input_and_context(layout):
    """hooks, "PreToolUse decision control": "updatedInput ... Replaces the entire input
    object"; "Combine with allow to auto-approve"; additionalContext: "String added to
    Claude's context alongside the tool result"."""
    answering(layout, "hooks/pretooluse-decision-output.json")
    outcome = runner(claude_load(layout)).before_tool_use("Bash", {"command": "deploy"})
    assert (outcome.behavior, outcome.reason) == ("allow", "My reason here")
    assert outcome.updated_input == {"field_to_modify": "new value"}
    assert outcome.additional_context == "Current environment: production. Proceed with caution."


@pytest.mark.parametrize(
    ("command", "runs"),
    [
        ("git push", True),
        ("npm test && git push", True),
        ("echo $(git log)", True),
        ("echo $(date)", False),
    ],
)
def test_the_if_field_spawns_the_hook_only_for_git(layout, command, runs):
    """hooks-guide, "Filter by tool name and arguments with the if field": the table's
    rows for Bash(git *): "command name matches", "each subcommand is checked", "commands
    inside $() and backticks are checked", "no subcommand matches git *". The policy
    script is the test's own: it records that it ran."""
    install(layout.project, "hooks/if-git-settings.json", ".claude/settings.json")
    log = layout.project / "ran.log"
    script = f"#!/bin/sh\ncat > /dev/null\necho ran >> '{log}'\n"
    put(layout.project, ".claude/hooks/check-git-policy.sh", script, mode=0o755)
    runner(claude_load(layout)).before_tool_use("Bash", {"command": command})
    assert log.exists() is runs


def sdk_example(name: str) -> ModuleType:
    """One of the SDK page's Python examples, imported from its file."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / "sdk" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sdk_protect_env_files_hook(layout):
    """agent-sdk/hooks, "How hooks work": "The callback ... checks if the file path
    targets a .env file, and returns permissionDecision: 'deny' to block the operation";
    the "Write|Edit" matcher "so the callback only fires for file-writing tools"."""
    hooks = sdk_example("protect_env_files").hooks
    run = runner(claude_load(layout), hooks=hooks)
    denied = run.before_tool_use("Write", {"file_path": "/app/.env", "content": "DB=local"})
    assert (denied.behavior, denied.reason) == ("deny", "Cannot modify .env files")
    assert run.before_tool_use("Edit", {"file_path": "/app/main.py"}).behavior == "allow"
    assert run.before_tool_use("Bash", {"command": "cat .env"}).results == ()


def test_the_sdk_input_rewrite_and_block_and_approve_callbacks(layout):
    """agent-sdk/hooks, "Modify tool input": it "rewrites the file_path argument to
    prepend /sandbox"; "Add context and block a tool": "permissionDecision: 'deny' stops
    the tool call", "systemMessage shows the user what happened"; "Auto-approve specific
    tools" returns allow for Read, Glob and Grep. Each is registered "under the matching
    event in the hooks field of your options", as the page says to."""
    rewrite = sdk_example("redirect_to_sandbox").redirect_to_sandbox
    block = sdk_example("block_etc_writes").block_etc_writes
    approve = sdk_example("auto_approve_read_only").auto_approve_read_only
    env = claude_load(layout)
    moved = runner(env, hooks={"PreToolUse": [HookMatcher(hooks=[rewrite])]}).before_tool_use(
        "Write", {"file_path": "/out/a.txt", "content": "x"}
    )
    assert (moved.behavior, moved.updated_input) == (
        "allow",
        {"file_path": "/sandbox/out/a.txt", "content": "x"},
    )
    blocked = runner(env, hooks={"PreToolUse": [HookMatcher(hooks=[block])]}).before_tool_use(
        "Write", {"file_path": "/etc/hosts", "content": "x"}
    )
    assert (blocked.behavior, blocked.reason) == ("deny", "Writing to /etc is not allowed")
    assert blocked.system_messages == ("Remember: system directories like /etc are protected.",)
    approving = runner(env, hooks={"PreToolUse": [HookMatcher(hooks=[approve])]})
    read = approving.before_tool_use("Read", {"file_path": "a.md"})
    assert (read.behavior, read.reason) == ("allow", "Read-only tool auto-approved")
    assert approving.before_tool_use("Bash", {"command": "ls"}).reason is None


def test_the_hook_examples_are_kept_as_the_pages_print_them():
    """The settings files are JSON as printed; the scripts start with bash's #! line."""
    for path in sorted((EXAMPLES / "hooks").glob("*.json")):
        assert isinstance(json.loads(path.read_text()), dict), path.name
    for path in sorted((EXAMPLES / "hooks").glob("*.sh")):
        assert example(f"hooks/{path.name}").startswith("#!/bin/bash\n"), path.name
