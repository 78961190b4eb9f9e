"""The hook runner under a policy, for hooks `load()` never saw: a skill's own
``hooks``, callbacks registered in code (managed hooks) and hooks a host hands the
runner, each asked as it would run; real hook processes and a loopback HTTP server."""

from __future__ import annotations

import json
import os
from pathlib import Path

import satchel
from satchel.foundations.origin import Origin
from satchel.hooks import HookMatcher
from satchel.hooks._load import compile_hooks
from satchel.hooks._parse import claude_hooks
from satchel.runtime.hooks import HookRunner
from satchel.session import Session
from tests.hooks.support import py_hook
from tests.hooks.test_handler_types import server  # noqa: F401  # the loopback HTTP fixture
from tests.policy.support import system_policy
from tests.support import put

BASH = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def recorder(where: Path) -> str:
    log = where / "ran.log"
    return py_hook(
        where, "rec", f"import sys\nsys.stdin.read()\nopen({str(log)!r}, 'a').write('x')\n"
    )


def pre(handler: dict[str, object]) -> dict[str, object]:
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}


def test_a_skills_own_hooks_are_refused_and_never_run(layout, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, 'allowed_hook_types = ["http"]\n')
    hooks = pre({"type": "command", "command": recorder(tmp_path)})
    text = f"---\nname: guard\ndescription: Guards.\nhooks: {json.dumps(hooks)}\n---\nBody.\n"
    put(layout.project / ".agents" / "skills" / "guard" / "SKILL.md", text)
    session = Session(satchel.load(layout=layout), environ={"PATH": os.environ["PATH"]})
    session.activate("guard")
    assert session.before_tool_use("Bash", {"command": "ls"}).behavior == "allow"
    assert not (tmp_path / "ran.log").exists()
    command = recorder(tmp_path)
    assert [d.message for d in session.diagnostics if d.code == "policy.denied"] == [
        f"command hook {command!r} on before_tool_use (skill:guard) is refused by policy key "
        f"`allowed_hook_types` in {path}"
    ]


def test_a_callback_is_managed_and_refused_only_by_its_type(layout, tmp_path, monkeypatch):
    seen: list[str] = []

    def gate(payload: dict, tool_use_id: str | None, context: object) -> None:
        seen.append(payload["tool_name"])

    system_policy(tmp_path, monkeypatch, "allow_managed_hooks_only = true\n")
    runner = HookRunner(satchel.load(layout=layout))
    runner.register("before_tool_use", HookMatcher(hooks=[gate]))
    runner.run("before_tool_use", BASH)
    assert (seen, runner.callback_diagnostics) == (["Bash"], ())
    path = system_policy(tmp_path, monkeypatch, 'allowed_hook_types = ["command"]\n')
    runner = HookRunner(satchel.load(layout=layout))
    runner.register("before_tool_use", HookMatcher(hooks=[gate]))
    assert runner.run("before_tool_use", BASH).results == ()
    assert seen == ["Bash"]
    name = gate.__qualname__
    assert [(d.code, d.message) for d in runner.callback_diagnostics] == [
        (
            "policy.denied",
            f"python hook {name!r} on before_tool_use (code) is refused by policy key "
            f"`allowed_hook_types` in {path}",
        )
    ]


def test_an_http_hook_is_checked_against_the_policys_urls_as_it_runs(
    layout,
    tmp_path,
    monkeypatch,
    server,  # noqa: F811
):
    path = system_policy(
        tmp_path, monkeypatch, 'allowed_http_hook_urls = ["https://hooks.acme.com/*"]\n'
    )
    env = satchel.load(layout=layout, allowed_http_hook_urls=[server.url])
    specs, _ = claude_hooks({"hooks": pre({"type": "http", "url": server.url})}, tmp_path, "host")
    handed = compile_hooks(specs, Origin("project", ".claude", path=tmp_path), project=True)
    runner = HookRunner(env, extra=lambda event: handed.for_event(event))
    outcome = runner.run("before_tool_use", BASH)
    assert server.requests == []
    (result,) = outcome.results
    assert [(d.code, d.message) for d in result.diagnostics] == [
        (
            "policy.denied",
            f"http hook {server.url!r} on before_tool_use (project) is refused by policy key "
            f"`allowed_http_hook_urls` in {path}",
        )
    ]
    assert (outcome.behavior, result.failed) == ("allow", False)
