"""Every plugin the project ships as an example (below examples/) and every
community-shaped plugin the tests build (tests/plugins/test_claude_code_parity.py's
trees, and tests/port/plugins.py's four sources), ported to every target port writes
for, loads there, read as that target's host reads it, with exactly the source's
inventory minus the drops port reported, and with no complaint about a file port wrote."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from satchel.plugins._detect import is_plugin_dir
from satchel.port import TARGETS, port
from tests.plugins.test_claude_code_parity import COMMUNITY, TREES

from .plugins import (
    claude_plugin,
    codex_plugin,
    expected,
    inventory,
    kimi_plugin,
    read_as,
    vibe_plugin,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example_plugins() -> dict[str, Path]:
    """Every plugin directory below examples/ (not the manifest folder inside one)."""
    found = {}
    for path in sorted(EXAMPLES.rglob("*")):
        if path.name.startswith(".") or not path.is_dir() or not is_plugin_dir(path):
            continue
        if any(is_plugin_dir(parent) for parent in path.parents if parent != EXAMPLES.parent):
            continue
        found[path.relative_to(EXAMPLES).as_posix()] = path
    return found


EXAMPLE_PLUGINS = _example_plugins()
# broken on purpose (examples/README.md: a manifest that is not valid JSON)
BROKEN = frozenset(("machine/home/.gemini/extensions/charts",))


def _built(tree: Callable[[Path], object]) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        tree(root)
        return root

    return build


BUILT: dict[str, Callable[[Path], Path]] = {
    **{f"community/{name}": _built(tree) for name, tree in {**TREES, **COMMUNITY}.items()},
    "port/release-kit": claude_plugin,
    "port/lint-suite": codex_plugin,
    "port/guard": kimi_plugin,
    "port/notes-kit": vibe_plugin,
}
SOURCES = [*EXAMPLE_PLUGINS, *BUILT]


def test_every_example_plugin_is_found():
    assert set(EXAMPLE_PLUGINS) == {
        "home/.agents/plugins/snippets",
        "machine/home/.codex/plugins/cache/team/lint/1.0.0",
        "machine/home/.gemini/extensions/charts",
        "marketplace/plugins/release-notes",
        "workspace/.satchel/plugins/deploy-kit",
        "workspace/.satchel/plugins/lint-kit",
        "workspace/.satchel/plugins/meeting-notes",
        "workspace/.satchel/plugins/pr-tools",
        "workspace/.satchel/plugins/release-bundle",
        "workspace/.satchel/plugins/style-guide",
    }


def _source(tmp_path: Path, name: str) -> Path:
    """A copy of the source plugin `name` to port, in `tmp_path`."""
    where = tmp_path / "plugin"
    if name in EXAMPLE_PLUGINS:
        shutil.copytree(EXAMPLE_PLUGINS[name], where, symlinks=True)
        return where
    return BUILT[name](where)


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("source", SOURCES)
def test_the_ported_plugin_loads_with_the_source_inventory_minus_the_drops(
    tmp_path: Path, source: str, target: str
):
    root = _source(tmp_path, source)
    before, _ = read_plugin(root)
    if source in BROKEN:
        files = sorted(root.rglob("*"))
        assert before is None
        whole = port(root, [target])
        assert (whole.format, whole.targets) == (None, ())
        assert sorted(root.rglob("*")) == files
        return
    assert before is not None
    (report,) = port(root, [target]).targets
    if report.skipped:
        assert [d.code for d in report.problems] in (["port.target.source"],
                                                     ["port.name.invalid"])  # fmt: skip
        return
    assert report.problems == ()
    after, found = read_as(root, target)
    assert after is not None, [d.message for d in found]
    assert after.format == TARGETS[target].format
    assert inventory(after) == expected(before, report)
    written = {root / f.path for f in report.files}
    assert [(d.code, d.message) for d in found if d.severity != "info" and d.path in written] == []
