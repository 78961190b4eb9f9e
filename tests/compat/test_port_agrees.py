"""`compat` and `port` agree by construction: both read the host's one table of what it
keeps (`Host.carries`) and how it is written (`Host.port`). For every bundled example
plugin and every host port writes for, port writes the plugin for that host in a
scratch copy; then `compat` on the copy, for that host, loads exactly the source's
components minus what port said it drops, and reports no component left out that port
did not report. For a host that reads the source's own format (Codex and a Claude Code
plugin), compat on the untouched source keeps the same kinds port writes."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from satchel.compat import Drop, HostReport, Loads, compat
from satchel.hosts import get
from satchel.plugins import read_plugin
from satchel.plugins._carry import PARTS, carries
from satchel.plugins._detect import is_plugin_dir
from satchel.port import TARGETS, port
from satchel.port._globs import to_glob
from satchel.port._hooks import translated_matcher
from satchel.port._model import TargetReport
from satchel.port._targets import fires, target_event
from tests.port.plugins import BROKEN, SOURCES, expected, source_copy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLUGINS = sorted(
    p for p in EXAMPLES.glob("**/plugins/*") if p.is_dir() and is_plugin_dir(p)
)  # fmt: skip
# compat's codes that mean a component is not kept (the others note or cut it)
LEFT_OUT = frozenset(
    ("compat.component.unread", "compat.load.refused", "compat.executable.off",
     "compat.format.unread", "compat.event.missing", "compat.name.refused",
     "compat.root.unread")
)  # fmt: skip
# port's kinds -> compat's `Loads` field
LOADS = {"skill": "skills", "command": "commands", "agent": "agents", "hook": "hooks",
         "mcp_server": "mcp_servers"}  # fmt: skip


def test_every_example_plugin_is_found():
    names = {p.name for p in PLUGINS}
    assert {"pr-tools", "deploy-kit", "lint-kit", "meeting-notes", "release-notes"} <= names


def _source_counts(root: Path) -> Counter[str]:
    plugin, _ = read_plugin(root)
    assert plugin is not None
    return Counter(
        {
            "skill": len(plugin.skills),
            "command": len(plugin.commands),
            "agent": len(plugin.agents),
            "hook": len(plugin.hooks),
            "mcp_server": len(plugin.mcp_servers),
        }
    )


def _kept(source: Counter[str], report: TargetReport) -> Counter[str]:
    found = Counter(source)
    for drop in report.drops:
        if drop.whole:
            found[drop.kind] -= 1
    return found


def _loaded(host: HostReport) -> Counter[str]:
    return Counter({kind: len(getattr(host.loads, field)) for kind, field in LOADS.items()})


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("plugin", PLUGINS, ids=lambda p: p.name)
def test_compat_on_the_ported_plugin_keeps_what_port_wrote(
    tmp_path: Path, plugin: Path, target: str
):
    copy = tmp_path / plugin.name
    shutil.copytree(plugin, copy, symlinks=True)
    source = _source_counts(copy)
    (written,) = port(copy, [target]).targets
    if written.skipped:
        assert [d.code for d in written.problems] in (["port.target.source"],
                                                      ["port.name.invalid"])  # fmt: skip
        return
    host = TARGETS[target].host
    (seen,) = compat(copy, hosts=[host]).hosts
    assert _loaded(seen) == _kept(source, written)
    said = Counter(d.kind for d in written.drops if d.whole)
    unsaid = [
        (d.code, d.component, d.id)
        for d in seen.drops
        if d.code in LEFT_OUT
        and said[d.component] == 0
        and not _sources_own(d, plugin, written)
        and not _respelled(d, plugin, target, seen)
    ]
    assert unsaid == []


def _respelled(found: Drop, plugin: Path, target: str, seen: HostReport) -> bool:
    """A hook compat finds unread because port wrote its matcher in the target's tool
    names (Cursor's ``Shell`` for Claude Code's ``Bash``): the target loads the hook
    under exactly that event and matcher."""
    source, _ = read_plugin(plugin)
    if found.component != "hook" or source is None:
        return False
    for hook in source.hooks:
        if not found.id.endswith(f"/{hook.event}/{hook.matcher or '*'}"):
            continue
        event = target_event(hook, TARGETS[target])
        if event is None:
            continue
        matcher = translated_matcher(source, hook, TARGETS[target]).matcher
        if TARGETS[target].hooks.globs:
            matcher = to_glob(matcher)
        if any(h.endswith(f"/{event}/{matcher or '*'}") for h in seen.loads.hooks):
            return True
    return False


def _sources_own(found: Drop, plugin: Path, written: TargetReport) -> bool:
    """A hook of the source's host that the target skips in a hooks file both read,
    to which port added the target's own keys (docs/port.md, "A hooks file two hosts
    read"): not left out, the source's host runs it."""
    shared = {Path(f.path).name for f in written.files if (plugin / f.path).is_file()}
    event = re.search(r"event '(\w+)' is not", found.message)
    source, _ = read_plugin(plugin)
    return (
        found.code == "compat.load.refused"
        and found.id in shared
        and event is not None
        and source is not None
        and fires(source.format, event.group(1)) is True
    )


def _reads_as_its_own(plugin: Path, target: str) -> bool:
    """Whether the target's host reads `plugin`'s own format and keeps of it what it
    keeps of the format port writes for it (the one table)."""
    source, _ = read_plugin(plugin)
    spec = TARGETS[target]
    profile = get(spec.host)
    if source is None or source.format == spec.format:
        return False
    reads = profile.plugin_formats is None or source.format in profile.plugin_formats
    return reads and all(
        carries(profile.carries, source.format, p) == carries(profile.carries, spec.format, p)
        for p in PARTS
    )


SAME = [(p, t) for p in PLUGINS for t in TARGETS if _reads_as_its_own(p, t)]


def test_codex_reads_a_claude_code_plugin_as_its_own():
    assert ("pr-tools", "codex") in {(p.name, t) for p, t in SAME}


@pytest.mark.parametrize(("plugin", "target"), SAME, ids=lambda v: getattr(v, "name", v))
def test_a_host_keeps_of_the_source_what_port_writes_for_it(plugin: Path, target: str):
    """compat on the untouched source keeps, kind by kind, what port writes for a host
    that reads the source's format as its own."""
    source, _ = read_plugin(plugin)
    assert source is not None
    spec = TARGETS[target]
    profile = get(spec.host)
    (seen,) = compat(plugin, hosts=[spec.host]).hosts
    for field in LOADS.values():
        if getattr(source, field):
            kept = profile.keeps(spec.format, field)  # type: ignore[arg-type]
            assert bool(getattr(seen.loads, field)) == kept, field


# -- compat's view after port is port's own output, read as the host reads it ----------

TARGET_HOSTS = [t.host for t in TARGETS.values()]


def _counts(found: dict[str, Counter[str]]) -> dict[str, int]:
    return {kind: sum(names.values()) for kind, names in found.items()}


@pytest.mark.parametrize("source", [s for s in SOURCES if s not in BROKEN])
def test_compat_after_port_loads_what_port_writes_and_says_what_it_drops(
    tmp_path: Path, source: str
):
    """For every example and community-shaped plugin and every host port writes for,
    compat's port view loads, kind by kind, the source minus port's drops (the
    dry run's), lists each of those drops, and writes nothing into the plugin."""
    root = source_copy(tmp_path, source)
    files = sorted((p, p.read_bytes() if p.is_file() else b"") for p in root.rglob("*"))
    before, _ = read_plugin(root)
    assert before is not None
    report = compat(root, hosts=TARGET_HOSTS)
    assert sorted((p, p.read_bytes() if p.is_file() else b"") for p in root.rglob("*")) == files
    for target in TARGETS.values():
        seen = report.get(target.host)
        assert seen is not None and seen.ported is not None
        assert seen.ported.target == target.name
        (planned,) = port(root, [target.name], dry_run=True).targets
        if planned.skipped:
            assert not seen.ported.written
            assert (seen.ported.loads, seen.ported.drops) == (seen.loads, seen.drops)
            continue
        assert seen.ported.written, target.name
        wanted = _counts(expected(before, planned))
        assert _counts_of(seen.ported.loads) == wanted, target.name
        lost = {(d.component, d.id) for d in seen.ported.drops}
        assert {(d.kind, d.name) for d in planned.drops if d.whole} <= lost, target.name


def _counts_of(loads: Loads) -> dict[str, int]:
    return {kind: len(getattr(loads, field)) for kind, field in LOADS.items()}
