"""Record the hooks a host runs, in a scratch copy of a project and a scratch home.

Every command hook of the copy's hook files (Claude Code's ``.claude/settings.json``
and ``.claude/settings.local.json``, Gemini CLI's ``.gemini/settings.json``, Codex's
``.codex/hooks.json``) is wrapped: the wrapper records the payload the host wrote on
its stdin, runs the original command on that same stdin, and records its exit code,
stdout and stderr, then answers the host with them unchanged. `observe` adds hooks
of its own for every event the host names (in the scratch home's settings), so an
event's payload is seen even where the project has no hook for it. Only the copies
are written: the project and the user's home are never touched.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["HOOK_FILES", "Ran", "observe", "ran", "wrap_project"]

HOOK_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".gemini/settings.json",
    ".codex/hooks.json",
)

# The wrapper: argv = LOG ID [COMMAND]; without COMMAND it only records (an observer).
WRAPPER = r"""
import json, subprocess, sys, time
log, ident = sys.argv[1], sys.argv[2]
command = sys.argv[3] if len(sys.argv) > 3 else None
raw = sys.stdin.buffer.read()
try:
    payload = json.loads(raw)
except ValueError:
    payload = raw.decode("utf-8", "replace")
code, out, err = 0, b"", b""
if command is not None:
    done = subprocess.run(command, shell=True, input=raw, capture_output=True)
    code, out, err = done.returncode, done.stdout, done.stderr
entry = {"id": ident, "payload": payload, "exit": code,
         "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace"),
         "time": time.time()}
with open(log, "a", encoding="utf-8") as f:
    f.write(json.dumps(entry) + "\n")
sys.stdout.buffer.write(out)
sys.stderr.buffer.write(err)
sys.exit(code)
"""


@dataclass(frozen=True, slots=True)
class Ran:
    """One hook the host ran: which (`hook`: ``FILE EVENT[#matcher] COMMAND``, or
    ``observer EVENT``), the payload it was given, and what the hook answered."""

    hook: str
    event: str
    payload: Any
    exit: int
    stdout: str
    stderr: str

    def to_json(self) -> dict[str, Any]:
        return {
            "hook": self.hook,
            "event": self.event,
            "payload": self.payload,
            "exit": self.exit,
            "stdout": self.stdout,
            "stderr": self.stderr,
        }


def _write_wrapper(scratch: Path) -> Path:
    path = scratch / "hook-capture.py"
    path.write_text(WRAPPER, encoding="utf-8")
    return path


def _command(wrapper: Path, log: Path, ident: str, original: str | None) -> str:
    parts = [sys.executable, str(wrapper), str(log), ident]
    if original is not None:
        parts.append(original)
    return " ".join(shlex.quote(p) for p in parts)


def _hooks_of(settings: Any) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(event, group, hook) of every command hook in a settings document."""
    table = settings.get("hooks") if isinstance(settings, dict) else None
    if not isinstance(table, dict):
        return
    for event, groups in table.items():
        for group in groups if isinstance(groups, list) else ():
            hooks = group.get("hooks") if isinstance(group, dict) else None
            for hook in hooks if isinstance(hooks, list) else ():
                if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                    yield event, group, hook


def wrap_project(copy: Path, scratch: Path, log: Path) -> dict[str, str]:
    """Wrap every command hook in the copy's hook files; the labels by wrapper id."""
    wrapper = _write_wrapper(scratch)
    labels: dict[str, str] = {}
    for name in HOOK_FILES:
        path = copy / name
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for event, group, hook in _hooks_of(settings):
            ident = f"h{len(labels)}"
            matcher = group.get("matcher")
            where = f"{event}#{matcher}" if matcher else event
            labels[ident] = f"{name} {where} {hook['command']}"
            hook["command"] = _command(wrapper, log, ident, hook["command"])
        path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return labels


def observe(settings: Path, events: Iterable[str], scratch: Path, log: Path) -> dict[str, str]:
    """Add an observer hook for each of `events` to the (scratch home's) `settings`
    file, beside what it holds; the labels by wrapper id."""
    wrapper = _write_wrapper(scratch)
    try:
        doc = json.loads(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        doc = {}
    table = doc.setdefault("hooks", {})
    labels: dict[str, str] = {}
    for event in events:
        ident = f"o-{event}"
        labels[ident] = f"observer {event}"
        hook = {"type": "command", "command": _command(wrapper, log, ident, None)}
        table.setdefault(event, []).append({"hooks": [hook]})  # no matcher: every tool
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return labels


def ran(log: Path, labels: dict[str, str]) -> list[Ran]:
    """The hooks recorded in `log`, in the order they finished."""
    try:
        lines = log.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    entries = sorted((json.loads(line) for line in lines if line.strip()), key=lambda e: e["time"])
    out = []
    for e in entries:
        payload = e["payload"]
        event = payload.get("hook_event_name", "") if isinstance(payload, dict) else ""
        label = labels.get(e["id"], e["id"])
        out.append(Ran(label, str(event), payload, e["exit"], e["stdout"], e["stderr"]))
    return out
