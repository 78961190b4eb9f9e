"""`satchel hooks`, `satchel hooks run` and the doctor's Hooks section, on the example
workspace: the gating hook of the pr-tools plugin denies ``rm -rf /``."""

from __future__ import annotations

import json
import shutil

import pytest

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
