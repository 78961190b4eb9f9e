"""What the plugin tests share: file writers, the official Agent Plugins 1.0 schemas as
oracles (formats/schemas, Apache-2.0 copies), plugin tree builders and the example
documents of Vibe's plugin guide."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema

from tests.support import put, skill_md

SCHEMAS = Path(__file__).parent / "formats" / "schemas"
PLUGIN_SCHEMA = json.loads((SCHEMAS / "plugin.schema.json").read_text(encoding="utf-8"))
MCP_SCHEMA = json.loads((SCHEMAS / "mcp.schema.json").read_text(encoding="utf-8"))
NATIVE = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
MCP = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
# What a skill the plugin tests add says, unless a test says otherwise.
USEFUL = "Does a useful thing."
STEPS = "Follow the steps.\n"

_PLUGIN_VALIDATOR = jsonschema.Draft202012Validator(PLUGIN_SCHEMA)
_MCP_VALIDATOR = jsonschema.Draft202012Validator(MCP_SCHEMA)

# an mcp.json server of each kind
STDIO = {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/server/index.js"]}
REMOTE = {"type": "streamable-http", "url": "https://api.example.com/mcp"}

# Vibe's plugin guide's examples: ai.mistral.vibe/hooks.toml and a KNOWLEDGE.md frontmatter
VIBE_HOOKS = """\
[[hooks]]
name = "guard-lookup"
type = "pre_tool"
match = "myPlugin.lookup"
command = "python guard.py"
strict = true

[[hooks]]
name = "post-agent-lint"
type = "post_agent"
command = "eslint --quiet ."
"""
KNOWLEDGE_HEAD = """\
---
name: accounting-policy
description: How revenue is recognized and reported.
display_name: Accounting Policy
icon: book
---
"""


def schema_valid(manifest: Any) -> bool:
    """What the official plugin.json schema says of `manifest`."""
    return _PLUGIN_VALIDATOR.is_valid(manifest)


def mcp_schema_valid(document: Any) -> bool:
    """What the official mcp.schema.json says of `document`."""
    return _MCP_VALIDATOR.is_valid(document)


def write_json_file(path: Path, value: Any) -> Path:
    return put(path, json.dumps(value, indent=2))


def write_json(root: Path, relative: str, value: Any) -> Path:
    return write_json_file(root / relative, value)


def only(diags: Any, code: str) -> list[Any]:
    return [d for d in diags if d.code == code]


def add_skill(
    root: Path, directory: str, name: str | None = None, description: str | None = USEFUL
) -> Path:
    """A skill at `root/directory/SKILL.md`, named after its directory by default."""
    leaf = directory.rstrip("/").rsplit("/", 1)[-1]
    return put(root, f"{directory}/SKILL.md", skill_md(name or leaf, description, STEPS))


def native(root: Path, *, validate: bool = True, **fields: Any) -> dict[str, Any]:
    """Write `root/plugin.json` (name ``demo`` unless given). A fixture meant to be
    valid is checked against the official schema first."""
    manifest = {"$schema": NATIVE, "name": "demo", **fields}
    if validate:
        assert schema_valid(manifest), manifest
    write_json(root, "plugin.json", manifest)
    return manifest


def vibe(namespace: str | None = None, **extra: Any) -> dict[str, Any]:
    """An ``extensions`` value holding a valid ai.mistral.vibe extension."""
    ext: dict[str, Any] = {"schemaVersion": 1, **extra}
    if namespace is not None:
        ext["toolNamespace"] = namespace
    return {"ai.mistral.vibe": ext}


def mcp_doc(servers: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": MCP, "mcpServers": servers}


def mcp_json(root: Path, servers: dict[str, Any]) -> Path:
    document = mcp_doc(servers)
    assert mcp_schema_valid(document), document
    return write_json(root, "mcp.json", document)


def audited(code: str, events: tuple[str, ...]) -> list[str]:
    """Run `code` (which imports satchel and reads plugins) in a fresh interpreter with
    an audit hook recording `events`; the events seen, as ``event:arg0``."""
    prelude = (
        "import sys\n"
        "seen = []\n"
        f"EVENTS = {events!r}\n"
        "def hook(event, args):\n"
        "    if event in EVENTS:\n"
        "        seen.append(f'{event}:{args[0] if args else None}')\n"
        "sys.addaudithook(hook)\n"
    )
    script = prelude + code + "\nprint('\\n'.join(seen))\n"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    return [line for line in out.stdout.splitlines() if line]
