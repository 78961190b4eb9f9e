"""`satchel hooks`, `satchel hooks run` and the doctor's Hooks section, on the example
workspace: the gating hook of the pr-tools plugin denies ``rm -rf /``."""

from __future__ import annotations

import json
import shutil

import pytest

from satchel.hooks import EVENTS

from .support import EXAMPLE, HOME, WHERE, check_golden

RM = ("before_tool_use", "--tool", "Bash", "--input", '{"command":"rm -rf /"}')


@pytest.fixture
def home_copy(tmp_path):
    """A copy of the example home: running a plugin hook creates its data directory."""
    copy = tmp_path / "home"
    shutil.copytree(HOME, copy)
    return copy


def run_args(home, *extra):
    return ("--project", "examples/workspace", "--home", str(home), "--trust", *extra)


def test_hooks_listing_matches_golden(satchel, in_repo):
    result = satchel("hooks", *EXAMPLE)
    assert result.code == 0
    check_golden("hooks.txt", result.out)


def test_hooks_json_lists_every_hook_with_its_status(satchel, in_repo):
    data = satchel("hooks", *EXAMPLE, "--json").json()
    assert data["trusted"] is True
    assert [(h["source"], h["event"], h["host_event"], h["status"]) for h in data["hooks"]] == [
        ("plugin:deploy-kit", "before_tool_use", "pre_tool", "loaded"),
        ("plugin:deploy-kit", "stop", "post_agent", "loaded"),
        ("plugin:meeting-notes", "session_start", "SessionStart", "loaded"),
        ("plugin:pr-tools", "before_tool_use", "PreToolUse", "loaded"),
        ("plugin:pr-tools", "after_tool_use", "PostToolUse", "loaded"),
    ]


def test_hooks_run_shows_the_example_gate_denying(satchel, in_repo, home_copy):
    result = satchel("hooks", "run", *RM, *run_args(home_copy))
    assert result.code == 0
    check_golden("hooks-run-deny.txt", result.out)


def test_hooks_run_json_gives_each_raw_result_and_the_decision(satchel, in_repo, home_copy):
    data = satchel("hooks", "run", *RM, *run_args(home_copy), "--json").json()
    assert (data["behavior"], data["reason"]) == (
        "deny",
        "pr-tools: rm -rf of an absolute path is not allowed here",
    )
    (result,) = data["results"]
    assert (result["source"], result["exitCode"], result["decision"]) == (
        "plugin:pr-tools",
        0,
        "deny",
    )
    assert json.loads(result["stdout"])["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_hooks_run_allows_a_harmless_command(satchel, in_repo, home_copy):
    args = ("before_tool_use", "--tool", "Bash", "--input", '{"command":"ls"}')
    data = satchel("hooks", "run", *args, *run_args(home_copy), "--json").json()
    assert data["behavior"] == "allow"


def test_hooks_run_in_an_untrusted_project_runs_nothing(satchel, in_repo, home_copy):
    result = satchel(
        "hooks", "run", *RM, "--project", "examples/workspace", "--home", home_copy, "--no-trust"
    )
    assert result.code == 0
    assert "0 hooks ran" in result.out
    assert "Decision: allow" in result.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("before_tool_use", "--tool", "Bash", "--input", "{nope"), "not JSON"),
        (("before_tool_use", "--tool", "Bash", "--input", "[1]"), "must be a JSON object"),
        (("before_tool_use",), "before_tool_use needs --tool NAME"),
    ],
)
def test_hooks_run_refuses_bad_input(satchel, in_repo, args, message):
    result = satchel("hooks", "run", *args, *WHERE)
    assert result.code == 2
    assert message in result.err


def test_doctor_counts_hooks(satchel, in_repo):
    data = satchel("doctor", *EXAMPLE, "--json").json()
    assert data["hooks"] == {
        "loaded": 5,
        "skipped": [],
        "events": {"before_tool_use": 2, "stop": 1, "session_start": 1, "after_tool_use": 1},
    }


def test_hooks_run_with_an_unknown_event_is_a_usage_error_listing_the_events(satchel, in_repo):
    result = satchel("hooks", "run", "before_tool", *WHERE)
    assert result.code == 2
    assert result.out == ""
    assert (
        f"unknown event 'before_tool': satchel's events are {', '.join(EVENTS)} (or a host's "
        "name for one, as docs/hooks.md lists them: PreToolUse, pre_tool...)"
    ) in " ".join(result.err.split())


def test_hooks_run_fires_an_event_a_hook_file_declares(satchel, project, home):
    hooks = '[[hooks.TurnFinished]]\n[[hooks.TurnFinished.hooks]]\ncommand = "echo ran"\n'
    (project / ".satchel").mkdir()
    (project / ".satchel" / "hooks.toml").write_text(hooks)
    where = ("--project", project, "--home", home, "--trust", "--json")
    data = satchel("hooks", "run", "TurnFinished", *where).json()
    assert [r["stdout"] for r in data["results"]] == ["ran\n"]


def test_hooks_text_shows_each_hooks_if_rule(satchel, project, home):
    hooks = (
        '[[hooks.before_tool_use]]\nmatcher = "Bash"\n[[hooks.before_tool_use.hooks]]\n'
        'command = "true"\nif = "Bash(git push *)"\n'
    )
    (project / ".satchel").mkdir()
    (project / ".satchel" / "hooks.toml").write_text(hooks)
    result = satchel("hooks", "--project", project, "--home", home, "--trust")
    header, row = result.out.splitlines()[:2]
    assert result.err.startswith("project: ")
    assert header.split() == ["event", "matcher", "if", "source", "status", "hook"]
    assert row.split() == [
        "before_tool_use",
        "Bash",
        "Bash(git",
        "push",
        "*)",
        "project",
        "loaded",
        "true",
    ]


def test_hooks_run_cuts_a_declared_timeout_to_max_timeout(satchel, project, home):
    hooks = (
        "[[hooks.stop]]\n[[hooks.stop.hooks]]\n"
        'command = "sleep 600"\ntimeout = 1e9\nname = "forever"\n'
    )
    (project / ".satchel").mkdir()
    (project / ".satchel" / "hooks.toml").write_text(hooks)
    where = ("--project", project, "--home", home, "--trust", "--json")
    data = satchel("hooks", "run", "stop", "--max-timeout", "1", *where).json()
    assert [d["code"] for d in data["diagnostics"]] == ["hook.timeout.capped", "hook.timeout"]


def test_doctor_says_how_to_turn_on_settings_json_hooks_that_are_off(satchel, project, home):
    group = {"hooks": [{"type": "command", "command": "true"}]}
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [group, group]}}))
    where = ("--project", project, "--home", home, "--trust")

    data = satchel("doctor", *where, "--json").json()
    assert data["hooks"]["claude_settings_off"] == {
        "hooks": 2,
        "files": {str(settings): 2},
        "hint": "they are read only when asked: `satchel hooks --claude-settings` and "
        "`satchel hooks run --claude-settings`, or load(claude_settings_hooks=True) from Python",
    }
    text = " ".join(satchel("doctor", *where).out.split())
    assert "2 Claude Code settings.json hooks not read (" in text
    assert "`satchel hooks --claude-settings`" in text
    assert satchel("hooks", *where, "--claude-settings", "--json").json()["hooks"][0]["status"] == (
        "loaded"
    )


def test_doctor_is_silent_about_settings_json_without_hooks(satchel, project, home):
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"model": "opus"}')
    data = satchel("doctor", "--project", project, "--home", home, "--json").json()
    assert "claude_settings_off" not in data["hooks"]
