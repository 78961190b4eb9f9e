"""Environment.reload(): the disk read again, and what changed (Vibe's /reload)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import satchel
from tests.support import put, skill_md, write_skill


def skill(root: Path, name: str, body: str = "Body.\n") -> Path:
    return write_skill(root, name, skill_md(name, "D.", body, gap=False))


def test_nothing_changed_reports_nothing(layout, project):
    skill(project / ".agents" / "skills", "a")
    env = satchel.load(layout=layout)
    fresh, changes = env.reload()
    assert not changes
    assert list(fresh.skills) == ["a"]


def test_added_removed_and_changed_across_kinds(layout, project, home):
    skills = project / ".agents" / "skills"
    skill(skills, "keep")
    edited = skill(skills, "edit")
    gone = skill(skills, "gone")
    put(project / ".claude" / "commands" / "old.md", "Old\n")
    hooks = project / ".satchel" / "hooks.toml"
    hook = '[[hooks.before_tool_use]]\nmatcher = "Bash"\n[[hooks.before_tool_use.hooks]]\n'
    put(hooks, hook + 'command = "echo one"\n')
    config = put(home / ".config" / "satchel" / "config.toml", '[mcp_servers.db]\ncommand = "d"\n')
    env = satchel.load(layout=layout, exclude=["never"])
    skill(skills, "new")
    gone.unlink()
    gone.parent.rmdir()
    edited.write_text("---\nname: edit\ndescription: D.\n---\nA longer body now.\n")
    os.utime(edited, ns=(1, 1))  # a different time too, whatever the clock says
    (project / ".claude" / "commands" / "old.md").unlink()
    put(project / ".claude" / "commands" / "fresh.md", "Fresh\n")
    plugin = project / ".satchel" / "plugins" / "kit"
    schema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
    put(plugin / "plugin.json", json.dumps({"$schema": schema, "name": "kit"}))
    mcp = {"$schema": schema.replace("plugin.schema", "mcp.schema"), "mcpServers": {}}
    mcp["mcpServers"] = {"api": {"type": "stdio", "command": "api-mcp"}}
    put(plugin / "mcp.json", json.dumps(mcp))
    start = '[[hooks.session_start]]\n[[hooks.session_start.hooks]]\ncommand = "echo hi"\n'
    put(hooks, hook + 'command = "echo two"\n' + start)
    config.write_text("")
    fresh, changes = env.reload()
    assert changes.to_json() == {
        "skills": {"added": ["new"], "removed": ["gone"], "changed": ["edit"]},
        "commands": {"added": ["fresh"], "removed": ["old"], "changed": []},
        "agents": {"added": [], "removed": [], "changed": []},
        "plugins": {"added": ["kit"], "removed": [], "changed": []},
        "hooks": {
            "added": ["project/session_start/*#1"],
            "removed": [],
            "changed": ["project/before_tool_use/Bash#1"],
        },
        "mcp_servers": {"added": ["plugin:kit:api"], "removed": ["db"], "changed": []},
    }
    assert fresh.options.exclude == ("never",)  # the same options


def test_a_plugin_gets_a_data_directory_that_loading_does_not_create(layout, project, home):
    from satchel.plugins import ensure_data_dir

    schema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
    put(
        project / ".satchel" / "plugins" / "kit" / "plugin.json",
        json.dumps({"$schema": schema, "name": "kit"}),
    )
    env = satchel.load(layout=layout)
    data = env.plugins.plugins["kit"].data_dir
    assert data == home / ".local" / "share" / "satchel" / "plugin-data" / "kit"
    assert not data.exists()
    assert ensure_data_dir(data) == data
    assert data.is_dir() and (data.stat().st_mode & 0o777) == 0o700
    assert ensure_data_dir(data) == data  # kept as it is the second time


def test_compare_reads_two_inventories_not_environments(layout, project):
    from satchel.trust._changes import Change, Changes, Inventory, compare

    skill = satchel.define_skill("alpha", "First.", "A.")
    empty = Inventory({}, {}, {}, {}, {}, {}, {})
    one = Inventory({"alpha": skill}, {}, {}, {}, {}, {}, {})
    assert compare(empty, one) == Changes(skills=Change(added=("alpha",)))
    assert compare(one, empty) == Changes(skills=Change(removed=("alpha",)))
    env = satchel.load(layout=layout)
    assert env.inventory().stamps is env.stamps
    assert not compare(env.inventory(), env.inventory())


def test_two_plugins_servers_of_one_name_are_compared_each_on_its_own(layout, project):
    schema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
    for name in ("a", "b"):
        plugin = project / ".satchel" / "plugins" / name
        put(plugin / "plugin.json", json.dumps({"$schema": schema, "name": name}))
        put(plugin / "mcp.json", _servers(schema, [name]))
    env = satchel.load(layout=layout)
    assert [s.plugin for s in env.mcp_servers.servers] == ["a", "b"]
    put(project / ".satchel" / "plugins" / "a" / "mcp.json", _servers(schema, ["a", "--new"]))
    _, changes = env.reload()
    assert changes.to_json()["mcp_servers"] == {
        "added": [],
        "removed": [],
        "changed": ["plugin:a:api"],
    }


def _servers(schema: str, args: list[str]) -> str:
    server = {"type": "stdio", "command": "api-mcp", "args": args}
    mcp_schema = schema.replace("plugin.schema", "mcp.schema")
    return json.dumps({"$schema": mcp_schema, "mcpServers": {"api": server}})
