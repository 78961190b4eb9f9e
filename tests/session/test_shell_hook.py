"""``PreSkillShellCommand`` before each `` !`cmd` `` (Claude Code 2.1.332), and
``disableSkillShellExecution``: real hook subprocesses, real commands."""

from __future__ import annotations

import json
import os
from pathlib import Path

import satchel
from satchel.session import Session
from tests.hooks.support import hooks_toml, pre_tool, py_hook, write_hooks
from tests.support import put

BODY = "---\nname: ctx\ndescription: Context.\n---\nOne: !`printf one`\nTwo: !`printf two`\n"


def catcher(where: Path, name: str, *, deny: str = "", out: dict | None = None) -> str:
    """A hook that appends its stdin to `where/<name>.jsonl`; it denies (exit 2 with
    `deny` on stderr) the command holding "one" when `deny` is set, else prints `out`."""
    log = where / f"{name}.jsonl"
    answer = json.dumps(out) if out is not None else ""
    return py_hook(
        where,
        name,
        "import json, sys\ndata = sys.stdin.read()\n"
        f"open({str(log)!r}, 'a').write(data + '\\n')\n"
        f"if {deny!r} and 'one' in json.loads(data)['tool_input']['command']:\n"
        f"    sys.stderr.write({deny!r})\n    sys.exit(2)\n"
        f"sys.stdout.write({answer!r})\n",
    )


def seen(where: Path, name: str) -> list[dict]:
    path = where / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def session_of(
    layout: satchel.Layout, *handlers: dict, matcher: str | None = "Bash", **kw: object
) -> Session:
    put(layout.project / ".agents" / "skills" / "ctx" / "SKILL.md", BODY)
    if handlers:
        write_hooks(
            layout.project, hooks_toml(("pre_skill_shell_command", matcher, list(handlers)))
        )
    load = {k: kw.pop(k) for k in ("claude_settings_hooks",) if k in kw}
    env = satchel.load(layout=layout, **load)  # type: ignore[arg-type]
    return Session(env, environ={"PATH": os.environ["PATH"]}, session_id="S-2", **kw)  # type: ignore[arg-type]


def test_the_hook_gets_claude_codes_input_and_exit_2_skips_only_that_command(layout, tmp_path):
    session = session_of(layout, {"command": catcher(tmp_path, "gate", deny="not this one")})
    text = session.expand("/ctx")
    assert (
        "One: [satchel: not run, a PreSkillShellCommand hook refused it (not this one): "
        "printf one]\nTwo: two\n" in text
    )
    assert [(d.code, d.message) for d in session.diagnostics] == [
        (
            "exec.interpolation.refused",
            "skill 'ctx': a PreSkillShellCommand hook refused it (not this one): printf one",
        )
    ]
    first, second = seen(tmp_path, "gate")
    assert (
        first["tool_use_id"].startswith("skill_shell_")
        and first["tool_use_id"] != second["tool_use_id"]
    )
    del first["tool_use_id"]
    assert first == {
        "session_id": "S-2",
        "transcript_path": "",
        "cwd": str(layout.cwd),
        "tool_name": "Bash",
        "tool_input": {"command": "printf one"},
        "command_name": "ctx",
        "command_source": "projectSettings",
        "invoked_by": "user",
        "hook_event_name": "PreSkillShellCommand",
    }


def test_a_json_deny_skips_the_command_and_a_model_load_is_invoked_by_claude(layout, tmp_path):
    deny = pre_tool("deny", "policy")
    deny["hookSpecificOutput"]["hookEventName"] = "PreSkillShellCommand"
    session = session_of(layout, {"command": catcher(tmp_path, "deny", out=deny)})
    text = session.call("load_skill", {"name": "ctx"}).text
    assert (
        "Two: [satchel: not run, a PreSkillShellCommand hook refused it (policy): printf two]"
        in text
    )
    assert {p["invoked_by"] for p in seen(tmp_path, "deny")} == {"claude"}


def test_an_ask_cannot_be_waited_for_so_the_command_is_skipped(layout, tmp_path):
    session = session_of(layout, {"command": catcher(tmp_path, "ask", out=pre_tool("ask"))})
    text = session.expand("/ctx")
    assert (
        "One: [satchel: not run, a PreSkillShellCommand hook asked for approval, which a "
        "skill cannot wait for: printf one]" in text
    )


def test_a_hook_matching_another_shell_tool_lets_the_command_run(layout, tmp_path):
    hook = {"command": catcher(tmp_path, "ps", deny="no")}
    session = session_of(layout, hook, matcher="PowerShell")
    assert "One: one\nTwo: two\n" in session.expand("/ctx")
    assert seen(tmp_path, "ps") == []


def test_disable_skill_shell_execution_leaves_claude_codes_placeholder_and_fires_nothing(
    layout, tmp_path
):
    session = session_of(
        layout, {"command": catcher(tmp_path, "off")}, disable_skill_shell_execution=True
    )
    text = session.expand("/ctx")
    placeholder = "[shell command execution disabled by policy]"
    assert f"One: {placeholder}\nTwo: {placeholder}\n" in text
    assert seen(tmp_path, "off") == []
    assert [d.code for d in session.diagnostics] == ["exec.interpolation.refused"] * 2


def test_claude_codes_settings_key_turns_it_on(layout):
    put(layout.project / ".claude" / "settings.json", '{"disableSkillShellExecution": true}')
    session = session_of(layout, claude_settings_hooks=True)
    assert session.activation.options.disable_skill_shell_execution is True
    assert "One: [shell command execution disabled by policy]\n" in session.expand("/ctx")


def test_the_settings_key_is_not_read_when_claude_settings_are_not(layout):
    put(layout.project / ".claude" / "settings.json", '{"disableSkillShellExecution": true}')
    assert "One: one\n" in session_of(layout).expand("/ctx")


def test_an_if_rule_picks_which_commands_the_hook_sees(layout, tmp_path):
    """The hook's ``if`` is a permission rule tested against the command as Bash's
    input, as for PreToolUse: only ``printf one`` reaches it."""
    hook = {"command": catcher(tmp_path, "only", deny="no"), "if": "Bash(printf one)"}
    session = session_of(layout, hook)
    text = session.expand("/ctx")
    assert (
        "One: [satchel: not run, a PreSkillShellCommand hook refused it (no): printf one]" in text
    )
    assert "Two: two" in text
    assert [e["tool_input"]["command"] for e in seen(tmp_path, "only")] == ["printf one"]
