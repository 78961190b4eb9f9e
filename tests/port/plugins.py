"""The source plugins the port tests start from (a Claude Code plugin with skills,
commands, agents, hooks and MCP servers, a Codex plugin, a Kimi Code plugin and an
Agent Plugins plugin with Vibe's extension), and how a round trip is judged: a
plugin's `inventory`, what a target should load of it (`expected`), and the written
plugin as the target's host reads it (`read_as`)."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from satchel.core.diagnostics import Diagnostic
from satchel.hosts import get
from satchel.plugins import Detection, Plugin, read_plugin
from satchel.plugins._carry import carried
from satchel.plugins._detect import is_plugin_dir
from satchel.port import TARGETS, hook_key
from satchel.port._model import TargetReport
from satchel.port._targets import fires
from tests.plugins.test_claude_code_parity import COMMUNITY, TREES
from tests.support import skill_md, write_tree


def _json(value: object) -> str:
    return json.dumps(value, indent=2) + "\n"


CLAUDE_HOOKS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh",
                        "timeout": 10,
                    }
                ],
            },
            {
                "matcher": "Write",
                "hooks": [
                    {"type": "command", "command": "./hooks/paths.sh", "if": "Write(src/**)"}
                ],
            },
        ],
        "PostToolUse": [
            {
                "matcher": "Edit|Write",
                "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/fmt.sh"}],
            }
        ],
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo ready"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./hooks/prompt.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "./hooks/stop.sh", "timeout": 30}]}],
        "PostToolBatch": [{"hooks": [{"type": "command", "command": "./hooks/batch.sh"}]}],
    }
}

CLAUDE_SERVERS = {
    "mcpServers": {
        "tracker": {
            "command": "${CLAUDE_PLUGIN_ROOT}/bin/tracker",
            "args": ["--data", "${CLAUDE_PLUGIN_DATA}/db"],
            "env": {"TRACKER_MODE": "local"},
            "cwd": "${CLAUDE_PLUGIN_DATA}",
        },
        "docs": {
            "type": "http",
            "url": "https://docs.example.com/mcp",
            "headers": {"X-Team": "release"},
        },
        "legacy": {"type": "sse", "url": "https://legacy.example.com/sse"},
    }
}


def _md(front: str, body: str) -> str:
    return f"---\n{front}\n---\n{body}\n"


def claude_plugin(root: Path) -> Path:
    """``release-kit``: 2 skills, 3 commands, 2 agents, 7 hooks on 6 events, 3 servers."""
    manifest = {
        "name": "release-kit",
        "version": "1.4.0",
        "description": "Release tooling: changelogs, version bumps, tags.",
        "author": {"name": "Release Team", "email": "release@example.com"},
        "license": "MIT",
        "keywords": ["release", "changelog"],
    }
    tree = write_tree(
        root,
        {
            ".claude-plugin/plugin.json": _json(manifest),
            "skills/changelog/SKILL.md": skill_md(
                "changelog", "Write the changelog entry for a release."
            ),
            "skills/bump-version/SKILL.md": skill_md(
                "bump-version", "Bump the version in every manifest."
            ),
            "commands/ship.md": _md("description: Ship a release", "Ship $ARGUMENTS now."),
            "commands/notes/draft.md": _md(
                "description: Draft notes", "Draft notes for $ARGUMENTS."
            ),
            "commands/tag.md": _md("description: Tag a commit", "Tag $1 as $2."),
            "agents/reviewer.md": _md(
                "name: reviewer\ndescription: Reviews release notes.", "Review."
            ),
            "agents/qa/smoke.md": _md("name: smoke\ndescription: Runs smoke checks.", "Check."),
            "hooks/hooks.json": _json(CLAUDE_HOOKS),
            "hooks/guard.sh": "#!/bin/sh\nexit 0\n",
            ".mcp.json": _json(CLAUDE_SERVERS),
            "bin/tracker": "#!/bin/sh\n",
        },
    )
    (tree / "bin/tracker").chmod(0o755)  # a program on PATH (Claude Code's bin/)
    return tree


def codex_plugin(root: Path) -> Path:
    """``lint-suite``: 2 skills and 2 MCP servers."""
    manifest = {
        "name": "lint-suite",
        "version": "0.3.0",
        "description": "Linters as skills and servers.",
        "skills": "./skills/",
        "mcpServers": "./.mcp.json",
        "interface": {"displayName": "Lint Suite", "category": "Coding"},
    }
    servers = {
        "mcpServers": {
            "ruff": {"command": "ruff-mcp", "args": ["--stdio"]},
            "sonar": {"type": "http", "url": "https://sonar.example.com/mcp"},
        }
    }
    return write_tree(
        root,
        {
            ".codex-plugin/plugin.json": _json(manifest),
            "skills/py-lint/SKILL.md": skill_md("py-lint", "Lint Python files."),
            "skills/sql-lint/SKILL.md": skill_md("sql-lint", "Lint SQL files."),
            ".mcp.json": _json(servers),
        },
    )


def codex_renamed(root: Path) -> Path:
    """``writing-desk``: a Codex plugin whose skills are named by their frontmatter, one
    not its folder's (``skills/brand-voice`` is ``voice-of-the-brand``), one with no
    ``name:`` (named by its folder), as community plugins hold them."""
    manifest = {
        "name": "writing-desk",
        "version": "0.2.0",
        "description": "Write in the house style.",
        "skills": "./skills/",
        "interface": {"displayName": "Writing Desk"},
    }
    return write_tree(
        root,
        {
            ".codex-plugin/plugin.json": _json(manifest),
            "skills/brand-voice/SKILL.md": skill_md("voice-of-the-brand", "Sound like us."),
            "skills/style-guide/SKILL.md": "---\ndescription: How we write.\n---\nWrite.\n",
            "skills/seo/SKILL.md": skill_md("seo", "Search terms."),
        },
    )


def kimi_plugin(root: Path) -> Path:
    """``guard``: 1 skill, 1 MCP server, 3 hooks (one on Kimi's own TurnStarted)."""
    manifest = {
        "name": "guard",
        "version": "1.0.0",
        "description": "Guards shell calls.",
        "skills": ["./skills/check"],
        "mcpServers": {"policy": {"command": "policy-mcp", "args": ["--strict"], "cwd": "./data"}},
        "hooks": [
            {"event": "PreToolUse", "matcher": "Shell", "command": "${KIMI_PLUGIN_ROOT}/g.sh"},
            {"event": "Stop", "command": "./s.sh", "timeout": 5},
            {"event": "TurnStarted", "command": "./t.sh"},
        ],
    }
    return write_tree(
        root,
        {
            "kimi.plugin.json": _json(manifest),
            "skills/check/SKILL.md": skill_md("check", "Check a shell command."),
            "data/.keep": "",
        },
    )


def vibe_plugin(root: Path) -> Path:
    """``notes-kit``: Agent Plugins 1.0 with Vibe's extension: 2 skills, 2 servers
    (one sse), 2 hooks."""
    manifest = {
        "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        "name": "notes-kit",
        "version": "2.0.0",
        "description": "Meeting notes.",
        "extensions": {"ai.mistral.vibe": {"schemaVersion": 1}},
    }
    servers = {
        "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
        "mcpServers": {
            "calendar": {"type": "stdio", "command": "./bin/calendar", "args": ["${PLUGIN_ROOT}"]},
            "feed": {"type": "sse", "url": "https://feed.example.com/sse"},
        },
    }
    hooks = (
        '[[hooks]]\nname = "scrub"\ntype = "pre_tool"\nmatch = "write_file"\n'
        'command = "./bin/scrub"\n\n'
        '[[hooks]]\nname = "summary"\ntype = "post_agent"\ncommand = "./bin/summary"\n'
    )
    tree = write_tree(
        root,
        {
            "plugin.json": _json(manifest),
            "skills/minutes/SKILL.md": skill_md("minutes", "Take the minutes."),
            "skills/agenda/SKILL.md": skill_md("agenda", "Draft an agenda."),
            "mcp.json": _json(servers),
            "ai.mistral.vibe/hooks.toml": hooks,
            "bin/calendar": "#!/bin/sh\n",
        },
    )
    (tree / "bin/calendar").chmod(0o755)  # a program: on PATH once ported to Claude Code
    return tree


def inventory(plugin: Plugin) -> dict[str, Counter[str]]:
    """What a plugin holds, kind by kind: skill, command, agent and server names, and
    hooks by event (`satchel.port.hook_key`)."""
    return {
        "skill": Counter(s.name for s in plugin.skills),
        "command": Counter(c.name for c in plugin.commands),
        "agent": Counter(a.name for a in plugin.agents),
        "hook": Counter(hook_key(h) for h in plugin.hooks),
        "mcp_server": Counter(s.name for s in plugin.mcp_servers),
    }


def expected(source: Plugin, report: TargetReport) -> dict[str, Counter[str]]:
    """The source's inventory minus what port said the target does not get, a renamed
    component under its new name."""
    found = inventory(source)
    for drop in report.drops:
        if drop.whole or drop.to is not None:
            found[drop.kind] -= Counter([drop.name])
        if drop.to is not None:
            found[drop.kind] += Counter([drop.to])
    return found


def skipped_source_events(
    before: Plugin, report: TargetReport, root: Path, found: list[Diagnostic]
) -> list[Diagnostic]:
    """What the target's reader says of a hooks file both hosts read (port added the
    target's event keys to the source's own file, docs/port.md): that it skips the
    source's host's events. Each is checked to be one the source's host fires."""
    own = {root / h.path.relative_to(before.root) for h in before.hooks if h.path is not None}
    shared = {root / f.path for f in report.files} & own
    skipped = [d for d in found if d.path in shared and d.code == "plugin.hooks.invalid"]
    for d in skipped:
        event = re.match(r"event '(\w+)' is not", d.message)
        assert event is not None and fires(before.format, event.group(1)), d.message
    return skipped


def read_as(root: Path, target: str) -> tuple[Plugin | None, list[Diagnostic]]:
    """The plugin as the target's host reads it: only that format, with the host's
    skill rule and strictness, keeping what the host keeps of it (`Host.carries`)."""
    host = get(TARGETS[target].host)
    fmt = TARGETS[target].format
    plugin, found = read_plugin(
        root,
        strict=host.strict_plugins,
        skill_rule=host.plugin_skill_rule or "claude-code",
        detection=Detection(order=(fmt,), reads=frozenset((fmt,))),
    )
    if plugin is None:
        return None, found
    plugin, left = carried(plugin, host.carries)
    return plugin, [*found, *left]


# -- every plugin the round trips start from ------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example_plugins() -> dict[str, Path]:
    """Every plugin directory below examples/ (not the manifest folder inside one)."""
    found = {}
    for path in sorted(EXAMPLES.rglob("*")):
        if path.name.startswith(".") or not path.is_dir() or not is_plugin_dir(path):
            continue
        if any(is_plugin_dir(parent) for parent in path.parents if parent != EXAMPLES.parent):
            continue
        found[path.relative_to(EXAMPLES).as_posix()] = path
    return found


EXAMPLE_PLUGINS = _example_plugins()
# broken on purpose (examples/README.md: a manifest that is not valid JSON)
BROKEN = frozenset(("machine/home/.gemini/extensions/charts",))


def _built(tree: Callable[[Path], object]) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        tree(root)
        return root

    return build


BUILT: dict[str, Callable[[Path], Path]] = {
    **{f"community/{name}": _built(tree) for name, tree in {**TREES, **COMMUNITY}.items()},
    "port/release-kit": claude_plugin,
    "port/lint-suite": codex_plugin,
    "port/writing-desk": codex_renamed,
    "port/guard": kimi_plugin,
    "port/notes-kit": vibe_plugin,
}
SOURCES = [*EXAMPLE_PLUGINS, *BUILT]


def source_copy(tmp_path: Path, name: str) -> Path:
    """The source plugin `name` (one of `SOURCES`) to port: a copy of the example, or
    the plugin built, at `tmp_path`/plugin."""
    where = tmp_path / "plugin"
    if name in EXAMPLE_PLUGINS:
        shutil.copytree(EXAMPLE_PLUGINS[name], where, symlinks=True)
        return where
    return BUILT[name](where)
