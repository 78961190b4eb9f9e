"""The plugins a host installed in its own home (`satchel.plugins._host_installed`): the
version folder it uses, and a folder outside its cache refused. What Codex itself does
with a whole installed tree is compared in tests/hosts/test_codex_state_loop.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import satchel
from satchel.hosts import get
from satchel.plugins._host_installed import active_version
from tests.support import put, skill_md


def versions(base: Path, *names: str) -> Path:
    for name in names:
        (base / name).mkdir(parents=True)
    return base


@pytest.mark.parametrize(
    ("names", "used"),
    [
        (("1.9.0", "1.10.0", "1.2.0"), "1.10.0"),  # semantic, not text, order
        (("1.0.0-rc.1", "1.0.0", "0.9.0"), "1.0.0"),  # a release over its pre-release
        (("1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta"), "1.0.0-alpha.beta"),
        (("1.0.0-2", "1.0.0-10"), "1.0.0-10"),  # numeric identifiers as numbers
        (("3.0.0", "local"), "local"),  # the preferred folder wins over any version
        (("abc", "1.0.0"), "abc"),  # a name that is not a version compares as text
        (("has space", "0.1.0"), "0.1.0"),  # not a valid version folder: not one
    ],
)
def test_the_version_folder_used(tmp_path: Path, names: tuple[str, ...], used: str):
    assert active_version(versions(tmp_path / "p", *names), "local") == used


def test_a_symlinked_version_folder_does_not_count(tmp_path: Path):
    base = versions(tmp_path / "p", "1.0.0")
    os.symlink(base / "1.0.0", base / "2.0.0")
    assert active_version(base, "local") == "1.0.0"
    assert active_version(tmp_path / "none", "local") is None


def test_a_plugin_folder_outside_the_cache_is_refused(tmp_path: Path):
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    plugin = elsewhere / "tool/1.0.0"
    put(plugin / ".codex-plugin/plugin.json", '{"name": "tool"}')
    put(plugin / "skills/helper/SKILL.md", skill_md("helper", "helps"))
    cache = home / ".codex/plugins/cache"
    cache.mkdir(parents=True)
    os.symlink(elsewhere, cache / "mkt")  # the marketplace folder leads out
    config = home / ".codex/config.toml"
    put(config, '[plugins."tool@mkt"]\nenabled = true\n')
    project = tmp_path / "project"
    project.mkdir()
    env = satchel.load(layout=get("codex").layout(project, home=home, env={}), host="codex")
    assert not env.plugins.plugins
    assert [(d.code, d.message) for d in env.diagnostics if d.code.startswith("plugin.")] == [
        (
            "plugin.installed.outside",
            f"the folder of 'tool@mkt' is outside {cache} after symlinks; it is not read",
        )
    ]
