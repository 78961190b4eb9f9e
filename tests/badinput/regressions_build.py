"""Builders for the corpus cases beyond the threat model's 50 that broke a promise
(issue 14, section 4): JSON nesting 100,000 deep from files, a hook and an MCP
server (J01, J02), a ``Host`` header that only starts like loopback (W01), and a
setuid bit added to an installed file (V01).

Like corpus_build.py, each writes its case into a `Tree` at test time and feeds the
common invariants C1-C5; the behaviour is tested in depth where corpus.py points.
Programs the cases run are POSIX sh (``/bin/sh -c`` for a hook, a ``#!/bin/sh``
script for the MCP server) using only sh builtins, so nothing else starts under the
tripwire.
"""

from __future__ import annotations

import json

from satchel.install import install_from_spec
from satchel.trust._trust import trust
from tests.hooks.support import hooks_toml, write_hooks
from tests.support import put, skill_md

from .build import INSTRUCTIONS, Tree

DEEP = "[" * 100_000 + "]" * 100_000

# A stdio MCP server in sh builtins: it answers initialize (echoing the client's
# protocol version), tools/list with one tool, and every call with the line in
# $1 (a result nesting 100,000 deep). With $2 = "handshake" it answers initialize
# with that line too.
MCP_SERVER = r"""
while read -r line; do
  case "$line" in *'"id":'*) ;; *) continue ;; esac
  id=${line#*\"id\":}; id=${id%%,*}; id=${id%%\}*}
  case "$line" in
    *'"method":"initialize"'*)
      version=${line#*\"protocolVersion\":\"}; version=${version%%\"*}
      result='{"protocolVersion":"'"$version"'","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"}}'
      if [ "$2" = handshake ]; then read -r result < "$1"; fi ;;
    *'"method":"tools/list"'*)
      result='{"tools":[{"name":"deep","inputSchema":{"type":"object"}}]}' ;;
    *'"method":"tools/call"'*) read -r result < "$1" ;;
    *) result='{}' ;;
  esac
  printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$result"
done
"""


def j01_deep_json(tree: Tree) -> None:
    """A trusted project whose every JSON file nests 100,000 deep (a plugin manifest,
    a plugin's hooks.json, .mcp.json, Claude settings hooks, the lock file), and a
    Bash hook whose answer does."""
    project = tree.project
    answer = put(project / "tools" / "answer.json", '{"x": ' + DEEP + "}\n")
    command = f'read -r line < "{answer}"; printf "%s\\n" "$line"'
    hook = {"command": command, "name": "deep"}
    write_hooks(project, hooks_toml(("before_tool_use", "Bash", [hook])))
    plugins = project / ".satchel" / "plugins"
    put(plugins / "kit/.claude-plugin/plugin.json", '{"name": "kit", "x": ' + DEEP + "}")
    put(plugins / "hk/.claude-plugin/plugin.json", '{"name": "hk"}')
    put(plugins / "hk/hooks/hooks.json", '{"hooks": ' + DEEP + "}")
    put(project / ".mcp.json", '{"mcpServers": ' + DEEP + "}")
    put(project / ".claude/settings.json", '{"hooks": ' + DEEP + "}")
    put(project / ".satchel/skills.lock", '{"version": 1, "entries": ' + DEEP + "}")
    trust(tree.layout(), project)


def j02_deep_mcp(tree: Tree) -> None:
    """A trusted project's plugin with two stdio MCP servers: one answers a tool call
    with a result nesting 100,000 deep, the other its handshake."""
    project = tree.project
    root = project / ".satchel" / "plugins" / "deep"
    answer = put(
        root / "answer.json", '{"content": [], "structuredContent": {"x": ' + DEEP + "}}\n"
    )
    put(root / "bin" / "server.sh", "#!/bin/sh\n" + MCP_SERVER, mode=0o755)
    server = "./bin/server.sh"  # a plugin's command is relative to its root
    servers = {
        "deep": {"type": "stdio", "command": server, "args": [str(answer)]},
        "shake": {"type": "stdio", "command": server, "args": [str(answer), "handshake"]},
    }
    schema = "https://agent-plugins.org/schemas/1.0.0/"
    put(
        root / "plugin.json", json.dumps({"$schema": schema + "plugin.schema.json", "name": "deep"})
    )
    put(
        root / "mcp.json",
        json.dumps({"$schema": schema + "mcp.schema.json", "mcpServers": servers}),
    )
    trust(tree.layout(), project)


def v01_setuid_after_install(tree: Tree) -> list[str]:
    """A skill installed from a local folder, then a setuid bit added to its script."""
    source = tree.project.parent / "sources" / "pdf-skills"
    put(
        source / "skills/pdf/SKILL.md", skill_md("pdf", "Reads PDF files.", INSTRUCTIONS, gap=False)
    )
    put(source / "skills/pdf/scripts/run.sh", "#!/bin/sh\necho run\n", mode=0o755)
    environ = {"PATH": "/nonexistent", "HOME": str(tree.home)}
    install_from_spec(str(source), layout=tree.layout(), environ=environ)
    (tree.project / ".satchel/skills/pdf/scripts/run.sh").chmod(0o4755)
    return []  # no source for the corpus to install again
