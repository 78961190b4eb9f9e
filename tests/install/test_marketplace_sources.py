"""Each source kind a catalogue entry may name, installed through ``NAME@MARKETPLACE``:
``github`` (GitHub's API stood in on loopback), ``url`` and ``git-subdir`` (real git
repositories), ``npm`` (a real ``npm pack`` tarball from a registry on loopback)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support import skill_md, write_tree

from .conftest import Cli
from .support import Server, git_repo, head
from .test_github import hub as hub
from .test_github import publish
from .test_npm import npm_pack, registry


def _plugin_files(name: str, prefix: str = "") -> dict[str, str]:
    return {
        f"{prefix}.claude-plugin/plugin.json": json.dumps({"name": name, "version": "1.0.0"}),
        f"{prefix}skills/{name}-skill/SKILL.md": skill_md(f"{name}-skill"),
    }


def _add(satchel: Cli, tmp_path: Path, entries: list[dict[str, Any]]) -> None:
    doc = {"name": "kinds", "owner": {"name": "Team"}, "plugins": entries}
    repo = git_repo(tmp_path / "kinds", {".claude-plugin/marketplace.json": json.dumps(doc)})
    code, _, err = satchel("marketplace", "add", f"file://{repo}")
    assert code == 0, err


def _installed(satchel: Cli, project: Path, name: str) -> dict[str, Any]:
    code, _, err = satchel("install", f"{name}@kinds")
    assert code == 0, err
    assert (project / ".satchel" / "plugins" / name / "skills" / f"{name}-skill").is_dir()
    lock = json.loads((project / ".satchel" / "skills.lock").read_text())
    return next(e for e in lock["entries"] if e["name"] == name)


def test_a_github_entry_installs_at_its_path_and_ref(
    satchel: Cli, hub: Server, tmp_path: Path, project: Path
) -> None:
    sha = publish(
        hub, tmp_path, "team/tools", _plugin_files("hubbed", "plugins/hubbed/"), {"v1": ""}
    )
    _add(
        satchel,
        tmp_path,
        [
            {
                "name": "hubbed",
                "source": {
                    "source": "github",
                    "repo": "team/tools",
                    "ref": "v1",
                    "path": "plugins/hubbed",
                },
            }
        ],
    )
    entry = _installed(satchel, project, "hubbed")
    assert (entry["source"], entry["ref"], entry["resolved"]) == (
        "team/tools#v1:plugins/hubbed",
        "v1",
        sha,
    )


def test_a_url_entry_installs_a_whole_repository(
    satchel: Cli, tmp_path: Path, project: Path
) -> None:
    repo = git_repo(tmp_path / "whole", _plugin_files("whole"), tag="v2")
    _add(
        satchel,
        tmp_path,
        [{"name": "whole", "source": {"source": "url", "url": f"file://{repo}", "ref": "v2"}}],
    )
    entry = _installed(satchel, project, "whole")
    assert (entry["source"], entry["resolved"]) == (f"file://{repo}#v2", head(repo))


def test_a_git_subdir_entry_installs_one_folder_pinned_by_sha(
    satchel: Cli, tmp_path: Path, project: Path
) -> None:
    repo = git_repo(
        tmp_path / "mono", {**_plugin_files("sub", "tools/sub/"), "README.md": "# mono\n"}
    )
    sha = head(repo)
    source = {"source": "git-subdir", "url": f"file://{repo}", "path": "tools/sub", "sha": sha}
    _add(satchel, tmp_path, [{"name": "sub", "source": source}])
    entry = _installed(satchel, project, "sub")
    assert (entry["source"], entry["resolved"]) == (f"file://{repo}#{sha}:tools/sub", sha)
    assert not (project / ".satchel" / "plugins" / "sub" / "README.md").exists()


def test_an_npm_entry_installs_the_packed_tarball(
    satchel: Cli, hub: Server, tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SATCHEL_NPM_REGISTRY", f"{hub.url}/npm")
    folder = write_tree(
        tmp_path / "pkg",
        {
            "package.json": json.dumps({"name": "@team/packed", "version": "1.4.0"}),
            **_plugin_files("packed"),
        },
    )
    data = npm_pack(folder, tmp_path / "out")
    registry(hub, "@team/packed", {"1.4.0": data})
    _add(
        satchel,
        tmp_path,
        [
            {
                "name": "packed",
                "source": {"source": "npm", "package": "@team/packed", "version": "1.4.0"},
            }
        ],
    )
    entry = _installed(satchel, project, "packed")
    assert (entry["source"], entry["resolved"]) == ("npm:@team/packed@1.4.0", "1.4.0")
    assert entry["integrity"].startswith("sha512-")


def test_a_relative_path_in_a_catalogue_fetched_by_url_is_refused(
    satchel: Cli, server: Server, tmp_path: Path
) -> None:
    doc = {"name": "remote", "owner": {"name": "T"}, "plugins": [{"name": "x", "source": "./x"}]}
    server.json("/catalogue/marketplace.json", doc)
    code, out, err = satchel("marketplace", "add", f"{server.url}/catalogue/marketplace.json")
    assert code == 0, err
    assert out.startswith(
        f"Added marketplace remote from {server.url}/catalogue/marketplace.json: 1 plugin"
    )
    code, out, _ = satchel("install", "x@remote", "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["code"], error["message"]) == (
        "install.catalogue.source",
        "'x' is a relative path in a catalogue fetched by URL",
    )
