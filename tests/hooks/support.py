"""What the hooks tests share: hook programs written to disk, hooks.toml and plugin
builders, and an environment loaded from them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import satchel
from satchel.hooks import Outcome
from satchel.runtime.hooks import HookRunner

PY = sys.executable


def py_hook(where: Path, name: str, source: str) -> str:
    """A Python hook program; the shell command that runs it."""
    path = where / f"{name}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return f'"{PY}" "{path}"'


def sh_hook(where: Path, name: str, source: str) -> str:
    """A POSIX sh hook program; the shell command that runs it."""
    path = where / f"{name}.sh"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + source, encoding="utf-8")
    return f'sh "{path}"'


def reply(
    where: Path,
    name: str,
    *,
    out: str | dict[str, Any] = "",
    err: str = "",
    code: int = 0,
    sleep: float = 0.0,
    read: bool = True,
) -> str:
    """A Python hook that reads its stdin, sleeps, prints `out` (a dict as JSON) and
    `err`, and exits with `code`."""
    text = json.dumps(out) if isinstance(out, dict) else out
    return py_hook(
        where,
        name,
        "import sys, time\n"
        + ("sys.stdin.read()\n" if read else "")
        + f"time.sleep({sleep})\n"
        + f"sys.stdout.write({text!r})\nsys.stderr.write({err!r})\nsys.exit({code})\n",
    )


def pre_tool(decision: str, reason: str = "", **extra: Any) -> dict[str, Any]:
    """Claude Code's PreToolUse answer."""
    specific = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason:
        specific["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": {**specific, **extra}}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


def hooks_toml(*groups: tuple[str, str | None, list[dict[str, Any]]]) -> str:
    """satchel's hooks.toml from (event, matcher, handlers) groups."""
    lines: list[str] = []
    for event, matcher, handlers in groups:
        lines.append(f"[[hooks.{event}]]")
        if matcher is not None:
            lines.append(f"matcher = {toml_value(matcher)}")
        for handler in handlers:
            lines.append(f"[[hooks.{event}.hooks]]")
            lines += [f"{key} = {toml_value(value)}" for key, value in handler.items()]
        lines.append("")
    return "\n".join(lines)


def write_hooks(project: Path, text: str) -> Path:
    path = project / ".satchel" / "hooks.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def claude_plugin(root: Path, name: str, hooks: dict[str, Any]) -> Path:
    """A Claude Code plugin at `root/name` with `hooks` as its hooks/hooks.json."""
    plugin = root / name
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name}))
    (plugin / "hooks").mkdir()
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    return plugin


def environment(layout: satchel.Layout, *groups: Any, **options: Any) -> satchel.Environment:
    """The environment of `layout` with `groups` as the project's hooks.toml."""
    if groups:
        write_hooks(layout.project, hooks_toml(*groups))
    return satchel.load(layout=layout, **options)


def fire(
    layout: satchel.Layout,
    *groups: Any,
    event: str = "before_tool_use",
    payload: dict[str, Any] | None = None,
    **runner: Any,
) -> Outcome:
    """Load `groups` as the project's hooks and fire `event` (a Bash call by default)."""
    env = environment(layout, *groups)
    if payload is None and event == "before_tool_use":
        payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    return HookRunner(env, **runner).run(event, payload)
