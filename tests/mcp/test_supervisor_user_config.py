"""A Claude Code plugin's userConfig values reach its stdio server: filled into its
args and env as ``${user_config.KEY}`` and exported as ``CLAUDE_PLUGIN_OPTION_<KEY>``,
checked from inside a real server process; a server naming a required option with no
value does not start, and the plugin's other server does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio

from satchel.plugins._options import write_values
from tests.support import codes, put
from tests.support.keyring_file import use_file_keyring

from .supervisor_support import SERVERS, load, script, stdio, supervisor

LAUNCH = SERVERS / "launch_server.py"
OPTIONS = {
    "api_key": {
        "type": "string", "title": "API key", "description": "d", "sensitive": True,
        "required": True,
    },
    "region": {"type": "string", "title": "Region", "description": "d", "required": True},
    "port": {"type": "number", "title": "Port", "description": "d", "default": 8080},
}  # fmt: skip


def claude_plugin(project: Path, servers: dict[str, Any]) -> Path:
    root = project / ".satchel" / "plugins" / "kit"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit", "userConfig": OPTIONS}))
    command = script(root, "server", LAUNCH)
    for entry in servers.values():
        entry["command"] = command
    put(root, ".mcp.json", json.dumps({"mcpServers": servers}))
    return root


async def _call(sup: Any, tool: str) -> tuple[dict[str, Any] | None, Any]:
    async with sup:
        running = [r.name for r in sup.servers if r.status == "running"]
        if not any(tool.startswith(f"mcp__plugin_kit_{n}__") for n in running):
            return None, sup.servers
        result = await sup.call_tool(tool, {})
        return json.loads(result.text), sup.servers


def test_values_fill_args_and_env_and_are_exported(layout, tmp_path):
    claude_plugin(
        layout.project,
        {"api": stdio("", "--key=${user_config.api_key}", env={"PORT": "${user_config.port}"})},
    )
    with use_file_keyring(tmp_path / "keyring.json"):
        env = load(layout)
        plugin = env.plugins.plugins["kit"]
        assert write_values(layout, plugin, {"api_key": "s3cret", "region": "eu"}) == []
        seen, _ = anyio.run(_call, supervisor(env), "mcp__plugin_kit_api__launch")
    assert seen is not None
    assert "--key=s3cret" in seen["argv"]
    assert seen["env"]["PORT"] == "8080"  # the default
    assert seen["env"]["CLAUDE_PLUGIN_OPTION_API_KEY"] == "s3cret"
    assert seen["env"]["CLAUDE_PLUGIN_OPTION_REGION"] == "eu"
    stored = (layout.config_home / "satchel" / "plugin-options.json").read_text()
    assert "s3cret" not in stored  # the sensitive value is in the keyring only
    assert "s3cret" in (tmp_path / "keyring.json").read_text()


def test_a_server_needing_a_missing_value_does_not_start_and_the_other_does(layout, tmp_path):
    claude_plugin(
        layout.project,
        {
            "needy": stdio("", "--region=${user_config.region}"),
            "plain": stdio(""),
        },
    )
    with use_file_keyring(tmp_path / "keyring.json"):
        env = load(layout)
        seen, reports = anyio.run(_call, supervisor(env), "mcp__plugin_kit_plain__launch")
    assert seen is not None and "CLAUDE_PLUGIN_OPTION_REGION" not in seen["env"]
    needy = next(r for r in reports if r.name == "needy")
    assert needy.status == "failed"
    assert codes(needy.diagnostics) == ["plugin.config.missing"]
    assert needy.diagnostics[0].message == (
        "MCP server 'needy' of plugin 'kit' was not started: it needs the userConfig "
        "option 'region' of plugin 'kit', which has no value"
    )
