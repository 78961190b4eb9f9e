"""`satchel plugin inspect --json` lists a plugin's components as the pinned Claude Code
lists them: for a plugin with output styles, themes, workflows, a hooks module and a
channel beside skills, commands, agents, hooks, MCP servers, language servers,
monitors and bin/ programs, its ``provides`` equals the ``provides`` of ``claude plugin
validate --json``, key for key: all twelve kinds. The files Claude Code leaves out without a
word (a theme that is a list, a workflow without its meta) are left out here too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.cli import main
from tests.support import put
from tests.tools import claude_validate


def every_kind(root: Path) -> None:
    manifest = {
        "name": "kinds",
        "version": "1.0.0",
        "description": "One of each",
        "channels": [{"server": "chat", "userConfig": {"token": {"type": "string",
                      "title": "Token", "description": "The bot token", "sensitive": True}}}],
    }  # fmt: skip
    put(root, ".claude-plugin/plugin.json", json.dumps(manifest))
    put(root, "skills/hello/SKILL.md", "---\nname: hello\ndescription: Greets\n---\nHi.\n")
    put(root, "commands/ship/now.md", "---\ndescription: Ship\n---\nShip it.\n")
    put(root, "agents/review.md", "---\nname: reviewer\ndescription: Reviews\n---\nReview.\n")
    put(root, "output-styles/terse.md", "---\nname: Terse\ndescription: Short\n"
        "keep-coding-instructions: true\n---\nAnswer briefly.\n")  # fmt: skip
    put(root, "output-styles/teach/plain.md", "Be plain.\n")
    put(root, "output-styles/odd.md", "---\nname: 5\n---\nFive.\n")
    put(root, "themes/dark.json", '{"name": "Dark Pro", "base": "dark"}')
    put(root, "themes/list.json", "[1, 2]")
    put(root, "workflows/fan.js", 'export const meta = { name: "fan-out", description: "Fan '
        'out", phases: [{ title: "Review" }] }\nreturn await agent("review")\n')  # fmt: skip
    put(root, "workflows/bare.js", "const x = 1\n")
    put(root, "hooks/mod.js", 'export function register(on) { on("prompt.submit", () => {}) }\n')
    hooks = {
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
            "Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/stop"}]}],
        },
        "modules": ["./mod.js"],
    }
    put(root, "hooks/hooks.json", json.dumps(hooks))
    servers = {
        "chat": {"command": "node", "args": ["chat.js"]},
        "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"},
    }
    put(root, ".mcp.json", json.dumps({"mcpServers": servers}))
    lsp = {
        "pyright": {"command": "pyright-langserver", "args": ["--stdio"],
                    "extensionToLanguage": {".py": "python"}},
        "gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}},
    }  # fmt: skip
    put(root, ".lsp.json", json.dumps(lsp))
    monitors = [
        {"name": "tail", "command": "tail -F log.txt", "description": "The log"},
        {"name": "build", "command": "./watch.sh", "description": "Builds",
         "when": "on-skill-invoke:hello"},
    ]  # fmt: skip
    put(root, "monitors/monitors.json", json.dumps(monitors))
    for name in ("zeta", "alpha"):
        put(root, f"bin/{name}", "#!/bin/sh\necho hi\n", mode=0o755)


def test_inspect_provides_what_claude_code_provides(
    claude_code: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    root = tmp_path / "kinds"
    every_kind(root)
    home = tmp_path / "home"
    home.mkdir()
    report = claude_validate(claude_code, root, home)
    assert report["manifest"]["errors"] == []
    capsys.readouterr()
    main(["plugin", "inspect", "--json", str(root)])
    provides = json.loads(capsys.readouterr().out)["provides"]
    assert provides == report["provides"]
    assert provides["outputStyles"] == ["kinds:5", "kinds:Terse", "kinds:plain"]
    assert provides["themes"] == ["kinds:dark"]
    assert provides["workflows"] == ["kinds:fan-out"]
    assert provides["modules"] == [{"path": "hooks/mod.js"}]
    assert [s["name"] for s in provides["lspServers"]] == ["gopls", "pyright"]
    assert [m["name"] for m in provides["monitors"]] == ["tail", "build"]
    assert provides["bin"] == ["alpha", "zeta"]
    assert all(provides[key] for key in provides)  # every kind is there, none empty
