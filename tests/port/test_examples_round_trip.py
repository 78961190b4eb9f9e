"""Every plugin the project ships as an example (below examples/) and every
community-shaped plugin the tests build (tests/plugins/test_claude_code_parity.py's
trees, and tests/port/plugins.py's four sources), ported to every target port writes
for, loads there, read as that target's host reads it, with exactly the source's
inventory minus the drops port reported, and with no complaint about a file port wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from satchel.port import TARGETS, port

from .plugins import BROKEN, EXAMPLE_PLUGINS, SOURCES, expected, inventory, read_as, source_copy


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


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("source", SOURCES)
def test_the_ported_plugin_loads_with_the_source_inventory_minus_the_drops(
    tmp_path: Path, source: str, target: str
):
    root = source_copy(tmp_path, source)
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
