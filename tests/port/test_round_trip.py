"""The heart of port: for each target, the plugin port wrote loads, with that host's
reading, with exactly the source's inventory minus what port said it drops. The sources
(tests/port/plugins.py): a Claude Code plugin with skills, commands, agents, hooks and
MCP servers, a Codex plugin, a Kimi Code plugin with hooks, and an Agent Plugins
plugin with Vibe's extension."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import satchel
from satchel.hosts import get
from satchel.plugins import Plugin, read_plugin
from satchel.plugins._detect import UNREAD
from satchel.port import TARGETS, port
from satchel.port._model import TargetReport

from .plugins import (
    claude_plugin,
    codex_plugin,
    expected,
    inventory,
    kimi_plugin,
    read_as,
    skipped_source_events,
    vibe_plugin,
)

SOURCES = {
    "claude": claude_plugin,
    "codex": codex_plugin,
    "kimi": kimi_plugin,
    "vibe": vibe_plugin,
}
WRITTEN = [t for t in TARGETS]


def ported(tmp_path: Path, source: str, target: str) -> tuple[Plugin, TargetReport, Path]:
    root = SOURCES[source](tmp_path / "src" / "plugin")
    before, _ = read_plugin(root)
    assert before is not None
    copy = tmp_path / target / before.name
    shutil.copytree(root, copy)
    report = port(copy, [target])
    (one,) = report.targets
    return before, one, copy


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("target", WRITTEN)
def test_the_written_plugin_loads_with_the_source_inventory_minus_the_drops(
    tmp_path, source, target
):
    if TARGETS[target].format in UNREAD:
        pytest.skip(f"satchel has no reader for {TARGETS[target].title} extensions yet (UNREAD)")
    before, report, root = ported(tmp_path, source, target)
    if report.skipped:
        # the plugin is in the target's format, or in one its host reads first
        order = TARGETS[target].profile.plugin_formats or ()
        assert TARGETS[target].format == before.format or before.format in order
        assert [d.code for d in report.diagnostics] == ["port.target.source"]
        return
    assert all(f.action == "written" for f in report.files)
    after, found = read_as(root, target)
    assert after is not None, [d.message for d in found]
    assert after.format == TARGETS[target].format
    assert inventory(after) == expected(before, report)
    # the only complaints are about the source's own files where the target reads its
    # (port.path.taken), and, in a hooks file both hosts read (port added the target's
    # event keys to the source's own), that the target skips the source's host's events
    taken = {d.diagnostic.path for d in report.drops if d.diagnostic.code == "port.path.taken"}
    skipped = skipped_source_events(before, report, root, found)
    left = [d for d in found if d.severity != "info" and d.path not in taken and d not in skipped]
    assert [d.code for d in left] == []


@pytest.mark.parametrize(
    "target", [t for t in WRITTEN if TARGETS[t].format not in {*UNREAD, "claude"}]
)
def test_satchel_load_with_the_targets_host_profile_reads_the_written_plugin(tmp_path, target):
    """The Claude Code plugin ported to each other host, loaded by `satchel.load` with
    that host's profile and the plugin as a --plugin-dir."""
    before, report, root = ported(tmp_path, "claude", target)
    host = get(TARGETS[target].host)
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    env = satchel.load(
        layout=host.layout(project, home=home, project=project), host=host, plugin_dirs=[root]
    )
    after = env.plugins.plugins[before.name]
    assert after.format == TARGETS[target].format
    found = inventory(after)
    wanted = expected(before, report)
    if target == "codex":  # hooks: not adapted by satchel's Codex reader (see above)
        found.pop("hook")
        wanted.pop("hook")
    assert found == wanted
