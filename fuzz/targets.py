"""One function per fuzz target: bytes in, nothing out, an exception only for a bug.

Plugin targets write the bytes as one manifest file of a small plugin directory (made
once per process, the other files fixed) and read it with `read_plugin`.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from satchel.foundations.frontmatter import Frontmatter, parse
from satchel.foundations.process import ProcessResult
from satchel.hooks._matchers import ALL
from satchel.hooks._model import Hook, HookResult
from satchel.hooks._spec import HookSpec
from satchel.plugins import read_plugin
from satchel.runtime.hooks._output import read_result

NATIVE_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
_NATIVE = {"$schema": NATIVE_SCHEMA, "name": "fuzz"}
_VIBE = {**_NATIVE, "extensions": {"ai.mistral.vibe": {"schemaVersion": 1}}}
_SKILL = "---\nname: s\ndescription: A skill.\n---\nBody.\n"

# target name -> (the file the bytes go to, fixed files beside it)
PLUGIN_FILES: dict[str, tuple[str, dict[str, str]]] = {
    "native-manifest": ("plugin.json", {"skills/s/SKILL.md": _SKILL}),
    "native-mcp": ("mcp.json", {"plugin.json": json.dumps(_NATIVE)}),
    "claude-manifest": (".claude-plugin/plugin.json", {"skills/s/SKILL.md": _SKILL}),
    "claude-mcp": (".mcp.json", {".claude-plugin/plugin.json": '{"name": "fuzz"}'}),
    "claude-hooks": ("hooks/hooks.json", {".claude-plugin/plugin.json": '{"name": "fuzz"}'}),
    "bundle": ("plugin.toml", {"skills/s/SKILL.md": _SKILL}),
    "kimi": ("kimi.plugin.json", {"skills/s/SKILL.md": _SKILL}),
    "codex": (".codex-plugin/plugin.json", {"skills/s/SKILL.md": _SKILL}),
    "vibe-hooks": ("ai.mistral.vibe/hooks.toml", {"plugin.json": json.dumps(_VIBE)}),
}

_roots: dict[str, Path] = {}


def _root(name: str) -> Path:
    """The plugin directory of target `name`, made on first use, removed at exit."""
    if name not in _roots:
        base = Path(tempfile.mkdtemp(prefix="satchel-fuzz-"))
        atexit.register(shutil.rmtree, base, True)
        root = base / "fuzz"
        for relative, text in PLUGIN_FILES[name][1].items():
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(text, encoding="utf-8")
        (root / PLUGIN_FILES[name][0]).parent.mkdir(parents=True, exist_ok=True)
        _roots[name] = root
    return _roots[name]


def plugin_target(name: str) -> Callable[[bytes], None]:
    """A target that reads a plugin whose file `PLUGIN_FILES[name][0]` holds the bytes."""

    def target(data: bytes) -> None:
        root = _root(name)
        (root / PLUGIN_FILES[name][0]).write_bytes(data)
        plugin, diags = read_plugin(root)
        assert plugin is not None or diags, "no plugin and no diagnostic saying why"
        if plugin is not None:
            json.dumps(plugin.to_json(), default=str)

    target.__name__ = f"fuzz_{name.replace('-', '_')}"
    return target


def frontmatter(data: bytes) -> None:
    """The frontmatter parser, on a whole file and on a head read."""
    for complete in (True, False):
        result = parse(data, complete=complete)
        assert isinstance(result, Frontmatter)
        assert result.fields is not None or result.diagnostics


_EVENTS = ("before_tool_use", "after_tool_use", "user_prompt_submit", "session_start", "stop")
_FORMATS = ("claude", "vibe", "kimi", "satchel")
_EXITS = (0, 0, 0, 2, 1, None, -9, 3)


def hook_output(data: bytes) -> None:
    """The hook output parser: the first byte picks the exit code, event, format and
    failure policy, the rest is stdout (and its first line stderr)."""
    head = data[0] if data else 0
    text = data[1:].decode("utf-8", "replace")
    spec = HookSpec(
        event="PreToolUse",
        command="true",
        format=_FORMATS[(head >> 3) % 4],  # type: ignore[arg-type]
        strict=bool(head & 0x20),
        fail_mode="closed" if head & 0x40 else None,
    )
    hook = Hook(spec, "before_tool_use", "project", ALL)
    run = ProcessResult(
        argv=("true",),
        exit_code=_EXITS[head % 8],
        stdout=text,
        stderr=text.split("\n", 1)[0],
        timed_out=bool(head & 0x80) and head % 8 == 5,
        truncated=bool(head & 0x80),
    )
    result = read_result(hook, _EVENTS[(head >> 5) % len(_EVENTS)], run)
    assert isinstance(result, HookResult)
    assert result.decision in (None, "allow", "deny", "ask", "defer")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "frontmatter": frontmatter,
    **{name: plugin_target(name) for name in PLUGIN_FILES},
    "hook-output": hook_output,
}


def together(data: bytes) -> None:
    """Every target in one process (one start-up cost): the first byte picks the target,
    the rest is its input. For short runs; a long run gives each target its own process."""
    if data:
        names = list(TARGETS)
        TARGETS[names[data[0] % len(names)]](data[1:])
