"""A plugin shipped for several hosts, laid out as obra/superpowers lays out its own:
one ``skills/`` tree and one manifest per host side by side (Claude Code, Codex,
Cursor, Gemini CLI, Kimi Code, OpenCode), with Claude Code's hooks file and Cursor's.
Only the shapes of those files are copied; the content is this test suite's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NAME = "toolkit"
SKILLS = ("brainstorming", "debugging")
CLAUDE_HOOKS = {
    "hooks": {
        "SessionStart": [
            {
                "matcher": "startup|clear|compact",
                "hooks": [
                    {
                        "type": "command",
                        "command": '"${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.cmd" session-start',
                        "shell": "bash",
                        "async": False,
                    }
                ],
            }
        ]
    }
}


def _files() -> dict[str, Any]:
    about = {"name": NAME, "version": "1.0.0", "description": "Workflows for coding."}
    files: dict[str, Any] = {
        ".claude-plugin/plugin.json": {**about, "license": "MIT", "keywords": ["skills"]},
        ".claude-plugin/marketplace.json": {
            "name": "toolkit-dev",
            "owner": {"name": "Test"},
            "plugins": [{"name": NAME, "source": "./"}],
        },
        ".codex-plugin/plugin.json": {
            **about,
            "skills": "./skills/",
            "hooks": {},
            "interface": {"displayName": "Toolkit"},
        },
        ".cursor-plugin/plugin.json": {
            **about,
            "displayName": "Toolkit",
            "skills": "./skills/",
            "hooks": "./hooks/hooks-cursor.json",
        },
        ".kimi-plugin/plugin.json": {
            **about,
            "skills": "./skills/",
            "sessionStart": {"skill": "brainstorming"},
        },
        "gemini-extension.json": {**about, "contextFileName": "GEMINI.md"},
        "package.json": {**about, "type": "module", "main": ".opencode/plugins/toolkit.js"},
        "hooks/hooks.json": CLAUDE_HOOKS,
        "hooks/hooks-cursor.json": {
            "version": 1,
            "hooks": {"sessionStart": [{"command": "./hooks/run-hook.cmd session-start"}]},
        },
        "hooks/run-hook.cmd": "#!/bin/sh\necho '{}'\n",
        ".opencode/plugins/toolkit.js": "export const Toolkit = async () => ({})\n",
        "GEMINI.md": "@./skills/brainstorming/SKILL.md\n",
        "README.md": "Toolkit: workflows for coding, shipped for several hosts.\n",
    }
    for skill in SKILLS:
        files[f"skills/{skill}/SKILL.md"] = (
            f"---\nname: {skill}\ndescription: Use when {skill} is needed.\n---\n\nSteps.\n"
        )
    return files


def multihost_files() -> dict[str, str]:
    """Relative path -> text of every file of the plugin."""
    return {
        rel: value if isinstance(value, str) else json.dumps(value, indent=2) + "\n"
        for rel, value in _files().items()
    }


def multihost_plugin(root: Path) -> Path:
    """The plugin written at `root`."""
    for rel, text in multihost_files().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "hooks/run-hook.cmd").chmod(0o755)
    return root
