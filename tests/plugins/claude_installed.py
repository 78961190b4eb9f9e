"""A temp HOME holding plugins as Claude Code installs them (`~/.claude/plugins/`), and a
project beside it: the one tree the tests of Claude Code's installed plugins share."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import satchel
from satchel import hosts
from tests.support import put, skill_md, write_skill

MARKETPLACE = "team-tools"


@dataclass(frozen=True, slots=True)
class ClaudeHome:
    """`home` with Claude Code's plugins directory, and `project` (a git checkout)."""

    home: Path
    project: Path

    @property
    def plugins(self) -> Path:
        return self.home / ".claude" / "plugins"

    def cache(self, name: str, version: str = "1.0.0") -> Path:
        return self.plugins / "cache" / MARKETPLACE / name / version

    def plugin(self, name: str, version: str = "1.0.0", *, manifest: bool = True) -> Path:
        """A plugin's copy in the cache, as ``claude plugin install`` writes it: one
        skill ``greet``, one command ``hi``, one agent ``helper``, one hook and one MCP
        server."""
        root = self.cache(name, version)
        if manifest:
            put(root, ".claude-plugin/plugin.json", json.dumps({"name": name, "version": version}))
        write_skill(root / "skills", "greet", skill_md("greet", "Greets the user."))
        put(root, "commands/hi.md", "---\ndescription: Says hi.\n---\nSay hi.\n")
        put(root, "agents/helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n")
        hook = {"type": "command", "command": "echo checked"}
        hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
        put(root, "hooks/hooks.json", json.dumps(hooks))
        put(root, ".mcp.json", json.dumps({"mcpServers": {f"{name}-api": {"command": "true"}}}))
        return root

    def records(self, plugins: dict[str, Any], version: int = 2) -> Path:
        """``installed_plugins.json`` with these records."""
        path = self.plugins / "installed_plugins.json"
        return put(path, json.dumps({"version": version, "plugins": plugins}, indent=2))

    @staticmethod
    def record(root: Path | str, scope: str = "user", **more: str) -> dict[str, Any]:
        return {
            "scope": scope,
            "installPath": str(root),
            "version": "1.0.0",
            "installedAt": "2026-01-01T00:00:00.000Z",
            "lastUpdated": "2026-01-01T00:00:00.000Z",
            **more,
        }

    def install(self, *names: str, scope: str = "user") -> None:
        """Each plugin copied to the cache and recorded at `scope` (in the project)."""
        where = {} if scope == "user" else {"projectPath": str(self.project)}
        self.records(
            {
                f"{name}@{MARKETPLACE}": [self.record(self.plugin(name), scope, **where)]
                for name in names
            }
        )

    def user_settings(self, enabled: dict[str, bool]) -> Path:
        return self.settings(self.home / ".claude" / "settings.json", enabled)

    def project_settings(self, enabled: dict[str, bool], *, local: bool = False) -> Path:
        name = "settings.local.json" if local else "settings.json"
        return self.settings(self.project / ".claude" / name, enabled)

    @staticmethod
    def settings(path: Path, enabled: dict[str, bool]) -> Path:
        return put(path, json.dumps({"enabledPlugins": enabled}, indent=2))

    def load(
        self, host: str | None = "claude-code", *, trusted: bool = True, cwd: Path | None = None
    ) -> satchel.Environment:
        """The environment of the project (or `cwd`) as `host` reads it."""
        where = cwd or self.project
        if host is None:
            layout = satchel.Layout.default(where, home=self.home, env={})
        else:
            layout = hosts.get(host).layout(where, home=self.home, env={})
        return satchel.load(layout=layout, host=host, trusted=trusted)


def claude_home(tmp_path: Path) -> ClaudeHome:
    """An empty HOME and a project (a git checkout) below `tmp_path`."""
    made = ClaudeHome(tmp_path / "home", tmp_path / "project")
    (made.project / ".git").mkdir(parents=True)
    made.home.mkdir()
    return made


def plugin_id(name: str) -> str:
    return f"{name}@{MARKETPLACE}"
