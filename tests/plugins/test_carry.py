"""A host keeps of a plugin only the component kinds its definition says it carries from
that plugin's format (`Host.carries`); the loader leaves the others out, one
``plugin.component.unread`` per kind."""

from __future__ import annotations

import shutil
from pathlib import Path

import satchel
import satchel.hosts
from satchel.plugins import read_plugin
from satchel.plugins._carry import READS, carried, carries
from tests.support import codes

EXAMPLE = Path(__file__).resolve().parents[2] / "examples/workspace/.satchel/plugins/pr-tools"


def load_as(host: str, tmp_path: Path, plugin: Path) -> satchel.Environment:
    """`plugin` named as a plugin directory, under `host`'s profile, in an empty project."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    layout = satchel.hosts.get(host).layout(project, home=home, project=project, env={})
    return satchel.load(layout=layout, host=host, trusted=True, plugin_dirs=[plugin])


def test_codex_leaves_out_the_commands_and_agents_of_a_claude_code_plugin(tmp_path: Path):
    plugin = tmp_path / "pr-tools"
    shutil.copytree(EXAMPLE, plugin)
    env = load_as("codex", tmp_path, plugin)
    (found,) = env.plugins.plugins.values()
    assert (len(found.skills), len(found.hooks), len(found.mcp_servers)) == (1, 2, 1)
    assert found.commands == () and found.agents == ()
    unread = [d for d in env.diagnostics if d.code == "plugin.component.unread"]
    assert [(d.message, d.path) for d in unread] == [
        (
            "this host does not load the commands of a claude plugin (1 left out): "
            "commands/pr-summary.md",
            plugin.resolve() / "commands/pr-summary.md",
        ),
        (
            "this host does not load the agents of a claude plugin (1 left out): "
            "agents/pr-reviewer.md",
            plugin.resolve() / "agents/pr-reviewer.md",
        ),
    ]
    assert {d.severity for d in unread} == {"warning"}


def test_a_format_the_table_does_not_name_keeps_what_its_reader_reads():
    plugin, _ = read_plugin(EXAMPLE)
    assert plugin is not None
    same, found = carried(plugin, {"codex": ("skills",)})
    assert same is plugin and found == []
    assert carries({}, "kimi", "hooks") and not carries({}, "kimi", "commands")
    assert carries(None, "claude", "commands") == ("commands" in READS["claude"])


def test_claude_code_keeps_every_kind_of_its_own_plugin(tmp_path: Path):
    plugin = tmp_path / "pr-tools"
    shutil.copytree(EXAMPLE, plugin)
    env = load_as("claude-code", tmp_path, plugin)
    assert "plugin.component.unread" not in codes(env.diagnostics)
