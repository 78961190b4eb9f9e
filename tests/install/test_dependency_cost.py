"""Dependency chains are bounded, in depth and in count, and each dependency costs what
its own fetch costs: the work an install does (counted as Python calls, never timed)
grows by the same amount for each plugin added to a chain, however long it is."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.install import InstallError, _plugin_install, add_marketplace, install_plugin
from tests.support import skill_md, write_tree


def _market(root: Path, deps: dict[str, list[str]]) -> Path:
    """A marketplace folder `m` of the plugins of `deps` (name -> what it depends on)."""
    files: dict[str, str] = {}
    for name, needs in deps.items():
        manifest = {"name": name, "version": "1.0.0", "dependencies": needs}
        files[f"plugins/{name}/.claude-plugin/plugin.json"] = json.dumps(manifest)
        files[f"plugins/{name}/skills/{name}-s/SKILL.md"] = skill_md(f"{name}-s")
    plugins = [{"name": n, "source": f"./plugins/{n}"} for n in deps]
    doc = {"name": "m", "owner": {"name": "Team"}, "plugins": plugins}
    files[".claude-plugin/marketplace.json"] = json.dumps(doc)
    return write_tree(root, files)


def _chain(n: int) -> dict[str, list[str]]:
    return {f"p{i}": [f"p{i + 1}"] if i + 1 < n else [] for i in range(n)}


def _layout(tmp_path: Path, name: str) -> satchel.Layout:
    project = tmp_path / name / "project"
    (project / ".git").mkdir(parents=True)
    home = tmp_path / name / "home"
    home.mkdir()
    return satchel.Layout.default(project, home=home, env={})


def _calls(tmp_path: Path, n: int) -> int:
    """The Python calls `install p0@m` makes for a chain of `n` plugins."""
    layout = _layout(tmp_path, f"chain-{n}")
    add_marketplace(str(_market(tmp_path / f"m-{n}", _chain(n))), layout=layout, environ={})
    count = 0

    def counted(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += event == "call"

    sys.setprofile(counted)
    try:
        done = install_plugin("p0@m", layout=layout, environ={})
    finally:
        sys.setprofile(None)
    assert len(done.installed) == n
    return count


def test_each_dependency_of_a_chain_costs_the_same(tmp_path):
    small, medium, large = (_calls(tmp_path, n) for n in (8, 16, 32))
    first = (medium - small) / 8  # per plugin, from 8 to 16
    then = (large - medium) / 16  # per plugin, from 16 to 32
    assert then <= first * 1.1, (small, medium, large)


def test_a_chain_deeper_than_the_bound_is_refused(tmp_path):
    deep = _plugin_install.MAX_DEPTH + 6
    layout = _layout(tmp_path, "deep")
    add_marketplace(str(_market(tmp_path / "m", _chain(deep))), layout=layout, environ={})
    with pytest.raises(InstallError) as refused:
        install_plugin("p0@m", layout=layout, environ={})
    limit = _plugin_install.MAX_DEPTH
    assert (refused.value.code, str(refused.value)) == (
        "install.dependency.limit",
        f"the dependencies of p0@m form a chain deeper than {limit} plugins "
        f"(p0@m -> p1@m -> p2@m -> ... -> p{limit}@m); nothing was written",
    )
    assert not (layout.project / ".satchel").exists()


def test_more_plugins_than_the_bound_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(_plugin_install, "MAX_NODES", 4)
    wide = {"root": [f"d{i}" for i in range(5)], **{f"d{i}": [] for i in range(5)}}
    layout = _layout(tmp_path, "wide")
    add_marketplace(str(_market(tmp_path / "m", wide)), layout=layout, environ={})
    with pytest.raises(InstallError) as refused:
        install_plugin("root@m", layout=layout, environ={})
    assert (refused.value.code, str(refused.value)) == (
        "install.dependency.limit",
        "root@m needs more than 4 plugins in all (at d3@m); nothing was written",
    )
    assert not (layout.project / ".satchel").exists()
