"""A skill's own ``hooks`` (Claude Code: "Hooks registered while this skill is active"):
real hook subprocesses, registered on activation, removed on deactivation, ``once``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import satchel
from satchel.session import Session
from tests.hooks.support import hooks_toml, pre_tool, py_hook, write_hooks
from tests.support import put


def recorder(where: Path, name: str, out: dict | None = None, code: int = 0) -> str:
    """A hook that appends one line per run to `where/<name>.log`, then answers."""
    log = where / f"{name}.log"
    answer = json.dumps(out) if out is not None else ""
    return py_hook(
        where,
        name,
        "import sys\nsys.stdin.read()\n"
        f"open({str(log)!r}, 'a').write('ran\\n')\n"
        f"sys.stdout.write({answer!r})\nsys.stderr.write('skill says no')\nsys.exit({code})\n",
    )


def skill_with_hooks(layout: satchel.Layout, name: str, hooks: dict) -> None:
    text = f"---\nname: {name}\ndescription: Has hooks.\nhooks: {json.dumps(hooks)}\n---\nBody.\n"
    put(layout.project / ".agents" / "skills" / name / "SKILL.md", text)


def bash_hook(command: str, **handler: object) -> dict:
    return {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": command, **handler}]}
        ]
    }


def session_of(layout: satchel.Layout, **load: object) -> Session:
    env = satchel.load(layout=layout, **load)  # type: ignore[arg-type]
    return Session(env, environ={"PATH": os.environ["PATH"]}, tools="skills")


def test_a_skill_hook_holds_only_while_the_skill_is_active(layout, tmp_path):
    skill_with_hooks(layout, "guard", bash_hook(recorder(tmp_path, "deny", code=2)))
    session = session_of(layout)
    assert session.before_tool_use("Bash", {"command": "ls"}).behavior == "allow"
    session.call("skills_use", {"name": "guard"})
    decision = session.before_tool_use("Bash", {"command": "ls"})
    assert (decision.behavior, decision.reason) == ("deny", "skill says no")
    session.call("skills_use", {"name": "guard", "mode": "deactivate"})
    assert session.before_tool_use("Bash", {"command": "ls"}).behavior == "allow"
    assert (tmp_path / "deny.log").read_text() == "ran\n"


def test_a_once_hook_runs_once_then_is_removed(layout, tmp_path):
    skill_with_hooks(layout, "first", bash_hook(recorder(tmp_path, "once"), once=True))
    session = session_of(layout)
    session.call("skills_use", {"name": "first"})
    for _ in range(3):
        session.before_tool_use("Bash", {"command": "ls"})
    assert (tmp_path / "once.log").read_text() == "ran\n"


def test_skill_hooks_aggregate_with_the_environment_hooks(layout, tmp_path):
    allow = {"command": recorder(tmp_path, "env-allow", pre_tool("allow"))}
    write_hooks(layout.project, hooks_toml(("before_tool_use", "Bash", [allow])))
    ask = recorder(tmp_path, "skill-ask", pre_tool("ask", "check with a human"))
    skill_with_hooks(layout, "careful", bash_hook(ask))
    session = session_of(layout)
    session.activate("careful")
    decision = session.before_tool_use("Bash", {"command": "ls"})
    assert decision.hooks is not None
    assert [r.hook.source for r in decision.hooks.results] == ["project", "skill:careful"]
    assert (decision.behavior, decision.reason) == ("ask", "check with a human")
    assert (tmp_path / "env-allow.log").read_text() == "ran\n"


def test_an_untrusted_project_skill_registers_its_hooks_as_skipped(layout, tmp_path):
    skill_with_hooks(layout, "guard", bash_hook(recorder(tmp_path, "never", code=2)))
    session = session_of(layout, trusted=False)
    session.activate("guard")
    assert session.before_tool_use("Bash", {"command": "ls"}).behavior == "allow"
    assert not (tmp_path / "never.log").exists()
    assert "hook.untrusted" in {d.code for d in session.diagnostics}


def test_a_bad_handler_is_reported_and_the_rest_still_hold(layout, tmp_path):
    hooks = bash_hook(recorder(tmp_path, "good", code=2))
    hooks["PreToolUse"][0]["hooks"].append({"type": "mystery"})
    skill_with_hooks(layout, "mixed", hooks)
    session = session_of(layout)
    session.activate("mixed")
    assert session.before_tool_use("Bash", {"command": "ls"}).behavior == "deny"
    path = layout.project / ".agents" / "skills" / "mixed" / "SKILL.md"
    assert [(d.code, d.message, d.path) for d in session.diagnostics] == [
        (
            "hook.file.invalid",
            "PreToolUse group #1 handler #2: unknown handler type 'mystery'; it is skipped",
            path,
        )
    ]
