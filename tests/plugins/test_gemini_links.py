"""A folder of Gemini CLI's extensions holding a link record (`satchel.plugins._links`),
read on real files: the extension is read in the folder the record names, within it
only; a record that is not a link leaves the folder read as it is; a source that is no
absolute, readable directory is `plugin.link.missing`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import satchel
from satchel import hosts
from tests.support import put, skill_md

RECORD = ".gemini-extension-install.json"


def _load(home: Path, project: Path) -> Any:
    (project / ".git").mkdir(parents=True, exist_ok=True)
    layout = hosts.get("gemini").layout(project, home=home, env={})
    return satchel.load(layout=layout, host="gemini")


def _extension(folder: Path, name: str) -> Path:
    put(folder / "gemini-extension.json", json.dumps({"name": name, "version": "1.0.0"}))
    put(folder / "skills/own/SKILL.md", skill_md("own", "Its own."))
    return folder


def _record(home: Path, name: str, **record: object) -> Path:
    return put(home / ".gemini/extensions" / name / RECORD, json.dumps(record))


def test_a_link_is_read_in_its_folder_and_nothing_outside_it(tmp_path: Path):
    home, source = tmp_path / "home", _extension(tmp_path / "src/ext", "ext")
    put(tmp_path / "secret/SKILL.md", skill_md("secret", "Outside the linked folder."))
    os.symlink(tmp_path / "secret", source / "skills/secret")
    _record(home, "ext", source=str(source), type="link")
    env = _load(home, tmp_path / "project")
    assert env.plugins.plugins["ext"].root == source
    assert list(env.skills) == ["own"]


def test_a_record_that_is_not_a_link_leaves_the_folder_read_where_it_is(tmp_path: Path):
    home = tmp_path / "home"
    copy = _extension(home / ".gemini/extensions/ext", "ext")
    _extension(tmp_path / "src/ext", "elsewhere")
    _record(home, "ext", source=str(tmp_path / "src/ext"), type="local")
    env = _load(home, tmp_path / "project")
    assert {n: p.root for n, p in env.plugins.plugins.items()} == {"ext": copy}


def test_a_link_whose_source_is_not_absolute_is_named(tmp_path: Path):
    home = tmp_path / "home"
    record = _record(home, "ext", source="src/ext", type="link")
    env = _load(home, tmp_path / "project")
    assert dict(env.plugins.plugins) == {}
    assert [(d.code, d.message, d.path) for d in env.diagnostics] == [
        (
            "plugin.link.missing",
            f"the plugin 'ext' is a link ({RECORD}), but its 'source' is not an absolute "
            "path; nothing of it loads",
            record,
        )
    ]
