"""The events satchel fires itself, to real hook processes, with Claude Code's input
shapes: InstructionsLoaded from `Session.context`, UserPromptExpansion from
`Session.expand`, ConfigChange from `Session.reload`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.foundations.origin import Origin
from satchel.kinds.commands import Command
from satchel.session import Session
from satchel.session._fire import command_source
from tests.hooks.support import hooks_toml, write_hooks
from tests.support import codes, put, skill_md

# A hook that appends its payload to a file, then answers as told by its arguments.
RECORD = """import json, sys
payload = json.load(sys.stdin)
with open(sys.argv[1], "a", encoding="utf-8") as out:
    out.write(json.dumps(payload) + "\\n")
mode = sys.argv[2]
if mode == "block":
    sys.stderr.write("not now")
    sys.exit(2)
if mode == "context":
    print(json.dumps({"hookSpecificOutput": {"additionalContext": "from the hook"}}))
"""


def recorder(tmp_path: Path, event: str, mode: str = "record") -> tuple[str, Path]:
    """A hooks.toml group for `event` running the recorder; the file it writes."""
    script = put(tmp_path / "hooks" / "record.py", RECORD)
    log = tmp_path / f"{event}.jsonl"
    command = f'"{sys.executable}" "{script}" "{log}" {mode}'
    return hooks_toml((event, None, [{"command": command}])), log


def received(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def own(payload: dict[str, Any], *common: str) -> dict[str, Any]:
    """The payload without the common fields every event carries."""
    return {k: v for k, v in payload.items() if k not in {"session_id", "transcript_path", *common}}


def session(layout: satchel.Layout) -> Session:
    env = satchel.load(layout=layout)
    return Session(env, environ={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


def test_instructions_loaded_fires_once_per_file_put_in_the_prompt(tmp_path, layout):
    agents = put(layout.project / "AGENTS.md", "Run the tests before you commit.\n")
    text, log = recorder(tmp_path, "instructions_loaded")
    write_hooks(layout.project, text)
    chat = session(layout)
    chat.context()
    chat.context()
    (payload,) = received(log)
    assert own(payload) == {
        "cwd": str(layout.cwd),
        "hook_event_name": "InstructionsLoaded",
        "file_path": str(agents),
        "memory_type": "Project",
        "load_reason": "session_start",
    }


def test_instructions_loaded_does_not_fire_when_instructions_stay_out(tmp_path, layout):
    put(layout.project / "AGENTS.md", "Run the tests.\n")
    text, log = recorder(tmp_path, "instructions_loaded")
    write_hooks(layout.project, text)
    env = satchel.load(layout=layout)
    Session(env, include_instructions=False).context()
    assert received(log) == []


def test_a_claude_code_hook_of_instructions_loaded_matches_on_the_load_reason(tmp_path, layout):
    agents = put(layout.project / "AGENTS.md", "Be brief.\n")
    script = put(tmp_path / "hooks" / "record.py", RECORD)
    log = tmp_path / "claude.jsonl"
    handler = {"type": "command", "command": f'"{sys.executable}" "{script}" "{log}" record'}
    hooks = {
        "InstructionsLoaded": [
            {"matcher": "compact", "hooks": [handler]},
            {"matcher": "session_start", "hooks": [handler]},
        ]
    }
    settings = layout.project / ".claude" / "settings.json"
    put(settings, json.dumps({"hooks": hooks}))
    env = satchel.load(layout=layout, claude_settings_hooks=True)
    Session(env).context()
    assert [(p["hook_event_name"], p["file_path"]) for p in received(log)] == [
        ("InstructionsLoaded", str(agents))
    ]


def skill_project(layout: satchel.Layout) -> Path:
    root = layout.project / ".agents" / "skills"
    put(root / "deploy" / "SKILL.md", skill_md("deploy", body="Ship it.\n"))
    return root


def test_user_prompt_expansion_fires_before_a_slash_prompt_expands(tmp_path, layout):
    skill_project(layout)
    text, log = recorder(tmp_path, "user_prompt_expansion")
    write_hooks(layout.project, text)
    chat = session(layout)
    out = chat.expand("/deploy to staging")
    assert out.startswith('<agent-skill name="deploy">')
    (payload,) = received(log)
    assert own(payload, "cwd") == {
        "hook_event_name": "UserPromptExpansion",
        "expansion_type": "slash_command",
        "command_name": "deploy",
        "command_args": "to staging",
        "command_source": "projectSettings",
        "prompt": "/deploy to staging",
    }
    assert chat.expand("no slash here") == "no slash here"
    assert len(received(log)) == 1  # only a slash prompt that expands fires it


def test_a_blocking_user_prompt_expansion_hook_leaves_the_prompt_as_typed(tmp_path, layout):
    skill_project(layout)
    text, _ = recorder(tmp_path, "user_prompt_expansion", "block")
    write_hooks(layout.project, text)
    chat = session(layout)
    assert chat.expand("/deploy now") == "/deploy now"
    assert chat.activation.active == ()
    assert [(d.code, d.message) for d in chat.diagnostics] == [
        (
            "session.expansion.blocked",
            "/deploy was not expanded: a UserPromptExpansion hook blocked it (not now)",
        )
    ]


def test_a_user_prompt_expansion_hooks_context_follows_the_expanded_prompt(tmp_path, layout):
    skill_project(layout)
    text, _ = recorder(tmp_path, "user_prompt_expansion", "context")
    write_hooks(layout.project, text)
    out = session(layout).expand("/deploy")
    assert out.endswith("</agent-skill>\n\nfrom the hook")


def test_config_change_fires_on_reload_with_what_changed(tmp_path, layout):
    root = skill_project(layout)
    text, log = recorder(tmp_path, "config_change")
    write_hooks(layout.project, text)
    chat = session(layout)
    put(root / "review" / "SKILL.md", skill_md("review", body="Read it.\n"))
    changes = chat.reload()
    assert changes.skills.added == ("review",)
    assert "review" in chat.skills
    (payload,) = received(log)
    assert own(payload, "cwd") == {
        "hook_event_name": "ConfigChange",
        "source": "skills",
        "changed": {"added": ["review"], "removed": [], "changed": []},
    }


def test_config_change_does_not_fire_when_nothing_changed(tmp_path, layout):
    skill_project(layout)
    text, log = recorder(tmp_path, "config_change")
    write_hooks(layout.project, text)
    chat = session(layout)
    assert not chat.reload()
    assert received(log) == []


def test_a_blocking_config_change_hook_keeps_the_sessions_environment(tmp_path, layout):
    root = skill_project(layout)
    text, log = recorder(tmp_path, "config_change", "block")
    write_hooks(layout.project, text)
    chat = session(layout)
    before = chat.environment
    put(root / "review" / "SKILL.md", skill_md("review", body="Read it.\n"))
    assert not chat.reload()
    assert chat.environment is before and "review" not in chat.skills
    assert codes(chat.diagnostics) == ["session.reload.blocked"]
    assert [d.message for d in chat.diagnostics] == [
        "the reload was not applied: a ConfigChange hook blocked it (not now)"
    ]
    assert len(received(log)) == 1


def test_the_hooks_in_force_answer_a_config_change_not_the_new_ones(tmp_path, layout):
    skill_project(layout)
    chat = session(layout)  # no hooks yet
    text, log = recorder(tmp_path, "config_change", "block")
    write_hooks(layout.project, text)  # a new hook that would block its own arrival
    changes = chat.reload()
    assert changes.hooks.added and chat.environment.hooks.hooks
    assert received(log) == []


def test_instructions_loaded_fires_when_a_touch_attaches_a_conditional_rule(tmp_path, layout):
    """Claude Code's ``load_reason`` ``path_glob_match``: a ``.claude/rules`` file with
    ``paths:`` loads when a matching file is read; once, with its globs and the file."""
    rule = put(layout.project / ".claude/rules/web.md", "---\npaths: web/**\n---\nUse tabs.\n")
    script = put(tmp_path / "hooks" / "record.py", RECORD)
    log = tmp_path / "claude.jsonl"
    command = f'"{sys.executable}" "{script}" "{log}" record'
    hooks = {
        "InstructionsLoaded": [
            {"matcher": "path_glob_match", "hooks": [{"type": "command", "command": command}]}
        ]
    }
    put(layout.project / ".claude/settings.json", json.dumps({"hooks": hooks}))
    env = satchel.load(layout=layout, host="claude-code", claude_settings_hooks=True)
    chat = Session(env, environ={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    chat.touch("api/server.py")
    assert (received(log), chat.system_prompt.attached) == ([], ())
    chat.touch("web/app.ts")
    chat.touch("web/other.ts")
    (payload,) = received(log)
    assert own(payload, "cwd", "hook_event_name") == {
        "file_path": str(rule),
        "memory_type": "Project",
        "load_reason": "path_glob_match",
        "globs": [
            "web"
        ],  # a trailing /** is dropped, as Claude Code does (`satchel.kinds._instructions._hosts`)
        "trigger_file_path": str(layout.cwd / "web/app.ts"),
    }
    assert [f.path for f in chat.system_prompt.attached] == [rule]


@pytest.mark.parametrize(
    ("scope", "plugin", "source"),
    [
        ("project", None, "projectSettings"),
        ("user", None, "userSettings"),
        ("plugin", "kit", "plugin"),
        ("extra", None, "flagSettings"),
        ("mcp", None, "mcp"),
        ("builtin", None, "builtin"),
        ("", None, "builtin"),
    ],
)
def test_command_source_is_claude_codes_name_for_where_it_came_from(scope, plugin, source):
    """Claude Code 2.1.332 sends a command's ``source``: projectSettings, userSettings,
    plugin, flagSettings, mcp, builtin."""
    command = Command("deploy", text="Deploy.", origin=Origin(scope, plugin=plugin))
    assert command_source(command) == source


def test_fire_runs_python_callbacks_when_the_environment_has_no_hooks(layout):
    """`session.hooks.fire` answers with the callbacks a host registered, as `before_tool_use`
    does, even where no file declares a hook."""
    from satchel.hooks import HookMatcher

    seen: list[dict[str, Any]] = []

    def note(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        seen.append(dict(input_data))
        out = {"hookEventName": "UserPromptSubmit", "additionalContext": "noted"}
        return {"hookSpecificOutput": out}

    session = Session(satchel.load(layout=layout), environ={"PATH": os.environ["PATH"]})
    assert session.environment.hooks.hooks == ()
    session.hooks.register_hooks("UserPromptSubmit", HookMatcher(None, [note]))
    outcome = session.hooks.fire("user_prompt_submit", {"prompt": "hello"})
    assert outcome is not None and outcome.additional_context == "noted"
    assert [s["prompt"] for s in seen] == ["hello"]
