"""Marketplaces on real git repositories: add, list, update, remove, browse, and
``install NAME@MARKETPLACE`` with strict false entries and dependencies."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from satchel import Layout
from satchel.install import marketplaces
from satchel.install._installer import Context
from satchel.install._lock import read_lock
from satchel.trust._trust import trust
from tests.support import skill_md, write_tree

from .conftest import Cli
from .support import Server, commit, git_repo, head, tar_of_tree

HELD = "trust.required"  # the untrusted project's note: tests/cli/test_held_back.py


def _catalogue(name: str, plugins: list[dict[str, Any]], **extra: Any) -> str:
    doc = {"name": name, "owner": {"name": "Team"}, "plugins": plugins, **extra}
    return json.dumps(doc, indent=2)


def _plugin(name: str, version: str = "1.0.0", **manifest: Any) -> dict[str, str]:
    """A plugin folder's files: its manifest and one skill."""
    doc = {"name": name, "version": version, **manifest}
    return {
        f"plugins/{name}/.claude-plugin/plugin.json": json.dumps(doc),
        f"plugins/{name}/skills/{name}-skill/SKILL.md": skill_md(f"{name}-skill"),
    }


def _entry(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "source": f"./plugins/{name}", **fields}


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """A git repository that is a Claude Code marketplace: `deploy` depends on `vault`
    (at ^2.0) and `audit`; `docs` is a strict false entry whose skills live only in
    the catalogue."""
    files = {
        **_plugin("deploy", "3.1.0", dependencies=["audit", {"name": "vault", "version": "^2.0"}]),
        **_plugin("vault", "2.1.0"),
        **_plugin("audit", "1.0.0"),
        "shared/xlsx/SKILL.md": skill_md("xlsx"),
        "shared/docx/SKILL.md": skill_md("docx"),
        ".claude-plugin/marketplace.json": _catalogue(
            "team-tools",
            [
                _entry("deploy", description="Deploy things"),
                _entry("vault"),
                _entry("audit"),
                {
                    "name": "docs",
                    "source": "./",
                    "strict": False,
                    "description": "Office documents",
                    "version": "0.4.0",
                    "skills": ["./shared/xlsx", "./shared/docx"],
                },
            ],
        ),
    }
    return git_repo(tmp_path / "team", files)


def _added(satchel: Cli, repo: Path) -> None:
    code, out, err = satchel("marketplace", "add", f"file://{repo}")
    assert code == 0, err
    assert out.splitlines()[0] == (
        f"Added marketplace team-tools from file://{repo} at {head(repo)[:12]}: 4 plugins"
    )


def _lock(project: Path) -> dict[str, Any]:
    return {
        e["name"]: e
        for e in json.loads((project / ".satchel" / "skills.lock").read_text())["entries"]
    }


def test_add_keeps_the_catalogue_in_the_user_config_dir(
    satchel: Cli, team: Path, home: Path, project: Path
) -> None:
    _added(satchel, team)
    kept = home / ".config" / "satchel" / "marketplaces"
    assert (kept / "team-tools" / ".claude-plugin" / "marketplace.json").is_file()
    record = json.loads((kept / "marketplaces.json").read_text())
    assert record == {
        "version": 1,
        "marketplaces": [
            {"name": "team-tools", "source": f"file://{team}", "resolved": head(team)}
        ],
    }
    code, out, _ = satchel("marketplace", "list")
    assert code == 0
    assert out == f"team-tools: file://{team} at {head(team)[:12]}\n"
    assert not (project / ".satchel").exists()


def test_add_refuses_a_name_taken_by_another_source(
    satchel: Cli, team: Path, tmp_path: Path
) -> None:
    _added(satchel, team)
    other = git_repo(
        tmp_path / "other", {".claude-plugin/marketplace.json": _catalogue("team-tools", [])}
    )
    error = _refusal(satchel, "marketplace", "add", f"file://{other}")
    assert error["code"] == "install.marketplace.exists"
    assert error["message"] == (
        f"a marketplace named 'team-tools' is already added from file://{team}"
    )


def test_install_resolves_dependencies_and_pins_every_node(
    satchel: Cli, team: Path, project: Path
) -> None:
    _added(satchel, team)
    code, out, err = satchel("install", "deploy@team-tools")
    assert code == 0, err
    plugins = project / ".satchel" / "plugins"
    assert sorted(p.name for p in plugins.iterdir()) == ["audit", "deploy", "vault"]
    lock = _lock(project)
    assert lock["deploy"]["marketplace"] == "team-tools"
    assert lock["deploy"]["requires"] == ["plugin:audit", "plugin:vault"]
    assert "direct" not in lock["deploy"]
    assert lock["vault"]["direct"] is False and lock["audit"]["direct"] is False
    assert lock["vault"]["source"] == f"file://{team}#:plugins/vault"
    assert {e["resolved"] for e in lock.values()} == {head(team)}
    lines = out.splitlines()
    assert lines[-1].startswith("Installed plugin deploy in ")
    assert lines[0].endswith(f"at {head(team)[:12]} (a dependency)")


def test_strict_false_entry_is_written_as_a_manifest_and_replayed_frozen(
    satchel: Cli, team: Path, project: Path
) -> None:
    _added(satchel, team)
    code, _, err = satchel("install", "docs@team-tools")
    assert code == 0, err
    docs = project / ".satchel" / "plugins" / "docs"
    manifest = json.loads((docs / ".claude-plugin" / "plugin.json").read_text())
    assert manifest == {
        "name": "docs",
        "version": "0.4.0",
        "description": "Office documents",
        "skills": ["./shared/xlsx", "./shared/docx"],
    }
    assert (
        _lock(project)["docs"]["manifest"] == (docs / ".claude-plugin" / "plugin.json").read_text()
    )
    shutil.rmtree(docs)
    code, out, err = satchel("install", "--frozen")
    assert code == 0, err
    assert out.startswith("Installed plugin docs")
    code, out, _ = satchel("verify")
    assert code == 0, out


def test_the_installed_plugins_load_with_their_skills(
    satchel: Cli, team: Path, project: Path, layout: Layout
) -> None:
    import satchel as api

    _added(satchel, team)
    assert satchel("install", "docs@team-tools")[0] == 0
    env = api.load(layout=layout)
    assert {"docs:xlsx", "docs:docx"} <= set(env.skills)


def test_remove_refuses_to_orphan_and_prune_removes_what_nothing_needs(
    satchel: Cli, team: Path, project: Path
) -> None:
    _added(satchel, team)
    assert satchel("install", "deploy@team-tools")[0] == 0
    code, _, err = satchel("remove", "vault")
    assert code != 0
    assert "install.dependency.required" in err
    assert "plugin 'vault' is needed by deploy" in err
    code, out, _ = satchel("prune")
    assert out == "Nothing to prune: every dependency installed is still needed.\n"
    assert satchel("remove", "deploy")[0] == 0
    code, out, _ = satchel("prune", "--json")
    assert code == 0
    assert sorted(e["name"] for e in json.loads(out)["removed"]) == ["audit", "vault"]
    assert not (project / ".satchel" / "plugins" / "vault").exists()
    assert _lock(project) == {}


def test_a_dependency_installed_directly_is_never_pruned(
    satchel: Cli, team: Path, project: Path
) -> None:
    _added(satchel, team)
    assert satchel("install", "vault@team-tools")[0] == 0
    assert satchel("install", "deploy@team-tools")[0] == 0
    assert "direct" not in _lock(project)["vault"]
    assert satchel("remove", "deploy")[0] == 0
    satchel("prune")
    assert sorted(_lock(project)) == ["vault"]


def _market(tmp_path: Path, plugins: dict[str, dict[str, Any]]) -> Path:
    """A marketplace of `plugins` (name -> manifest fields)."""
    files: dict[str, str] = {}
    for name, fields in plugins.items():
        files.update(_plugin(name, **fields))
    files[".claude-plugin/marketplace.json"] = _catalogue("m", [_entry(n) for n in plugins])
    return git_repo(tmp_path / "m", files)


def _refusal(satchel: Cli, *args: str) -> dict[str, Any]:
    code, out, _ = satchel(*args, "--json")
    assert code != 0
    return dict(json.loads(out)["error"])


def test_a_cycle_installs_each_plugin_once_and_says_so(
    satchel: Cli, tmp_path: Path, project: Path
) -> None:
    repo = _market(
        tmp_path,
        {
            "a": {"dependencies": ["b"]},
            "b": {"dependencies": ["c"]},
            "c": {"dependencies": ["a"]},
        },
    )
    assert satchel("marketplace", "add", f"file://{repo}")[0] == 0
    code, out, _ = satchel("install", "a@m", "--json")
    assert code == 0
    doc = json.loads(out)
    assert sorted(i["name"] for i in doc["installed"]) == ["a", "b", "c"]
    assert [(d["code"], d["message"]) for d in doc["diagnostics"] if d["code"] != HELD] == [
        (
            "install.dependency.cycle",
            "a dependency cycle: a@m -> b@m -> c@m -> a@m; each plugin is installed once",
        )
    ]
    assert _lock(project)["c"]["requires"] == ["plugin:a"]


def test_renames_in_a_loop_are_reported_and_never_followed_for_ever(
    satchel: Cli, tmp_path: Path
) -> None:
    files = _plugin("c")
    renames = {"a": "b", "b": "a", "x": "x", "old-c": "c"}
    files[".claude-plugin/marketplace.json"] = _catalogue("m", [_entry("c")], renames=renames)
    repo = git_repo(tmp_path / "m", files)
    code, out, _ = satchel("marketplace", "add", f"file://{repo}", "--json")
    assert code == 0
    assert [(d["code"], d["message"]) for d in json.loads(out)["diagnostics"]] == [
        (
            "catalogue.entry.invalid",
            "`renames` renames in a loop (a -> b -> a); those renames are ignored",
        ),
        (
            "catalogue.entry.invalid",
            "`renames` renames in a loop (x -> x); those renames are ignored",
        ),
    ]
    for name in ("a", "b", "x"):
        refused = _refusal(satchel, "install", f"{name}@m")
        assert (refused["code"], refused["message"]) == (
            "install.skill.unknown",
            f"the marketplace 'm' has no plugin {name!r}",
        )
    code, out, _ = satchel("install", "old-c@m", "--json")  # a rename that ends is followed
    assert code == 0
    assert [i["name"] for i in json.loads(out)["installed"]] == ["c"]


def test_a_range_no_version_meets_is_a_conflict(satchel: Cli, tmp_path: Path) -> None:
    repo = _market(
        tmp_path,
        {
            "app": {"dependencies": ["lib", {"name": "tool", "version": "^1.0"}]},
            "lib": {"dependencies": [{"name": "tool", "version": "~1.2.0"}]},
            "tool": {"version": "1.3.0"},
        },
    )
    assert satchel("marketplace", "add", f"file://{repo}")[0] == 0
    error = _refusal(satchel, "install", "app@m")
    assert error["code"] == "install.dependency.conflict"
    assert error["message"] == (
        "tool@m has version 1.3.0, which ~1.2.0 (app@m -> lib@m -> tool@m) does not allow; "
        "asked for: ~1.2.0 (by app@m -> lib@m)"
    )


def test_a_missing_dependency_is_a_warning_and_the_dependent_installs(
    satchel: Cli, tmp_path: Path, project: Path
) -> None:
    repo = _market(tmp_path, {"app": {"dependencies": ["ghost", "lib@elsewhere"]}})
    assert satchel("marketplace", "add", f"file://{repo}")[0] == 0
    code, out, _ = satchel("install", "app@m", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [(d["code"], d["message"]) for d in doc["diagnostics"] if d["code"] != HELD] == [
        (
            "install.dependency.missing",
            "ghost@m (needed by app@m) is not installed: the marketplace 'm' has no plugin 'ghost'",
        ),
        (
            "install.dependency.missing",
            "lib@elsewhere (needed by app@m) is not installed: "
            "no marketplace named 'elsewhere' is added",
        ),
    ]
    assert _lock(project)["app"].get("requires") is None


def test_an_unknown_marketplace_and_plugin_are_refused(satchel: Cli, team: Path) -> None:
    error = _refusal(satchel, "install", "deploy@nowhere")
    assert (error["code"], error["message"]) == (
        "install.marketplace.unknown",
        "no marketplace named 'nowhere' is added",
    )
    _added(satchel, team)
    error = _refusal(satchel, "install", "nope@team-tools")
    assert (error["code"], error["message"]) == (
        "install.skill.unknown",
        "the marketplace 'team-tools' has no plugin 'nope'",
    )


def test_update_says_which_plugins_came_went_and_changed(satchel: Cli, team: Path) -> None:
    _added(satchel, team)
    before = head(team)
    doc = json.loads((team / ".claude-plugin" / "marketplace.json").read_text())
    doc["plugins"] = [p for p in doc["plugins"] if p["name"] != "audit"]
    doc["plugins"][0]["version"] = "3.2.0"
    doc["plugins"].append(_entry("extra"))
    commit(team, {".claude-plugin/marketplace.json": json.dumps(doc), **_plugin("extra")})
    code, out, err = satchel("marketplace", "update")
    assert code == 0, err
    assert out == (
        f"team-tools: {before[:12]} -> {head(team)[:12]}\n"
        "  + extra\n"
        "  - audit\n"
        "  ~ deploy: ? -> 3.2.0\n"
    )


def test_remove_is_refused_while_plugins_from_it_are_installed(
    satchel: Cli, team: Path, home: Path
) -> None:
    _added(satchel, team)
    assert satchel("install", "audit@team-tools")[0] == 0
    error = _refusal(satchel, "marketplace", "remove", "team-tools")
    assert (error["code"], error["message"]) == (
        "install.marketplace.in-use",
        "plugins installed from 'team-tools' remain: audit (project)",
    )
    code, out, _ = satchel("marketplace", "remove", "team-tools", "--force")
    assert code == 0
    assert out == f"Removed marketplace team-tools (file://{team}).\n"
    assert not (home / ".config" / "satchel" / "marketplaces" / "team-tools").exists()


def test_a_project_declared_marketplace_needs_the_folder_trusted(
    satchel: Cli, team: Path, project: Path, home: Path
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    declared = {"team-tools": {"source": {"source": "git", "url": f"file://{team}"}}}
    settings.write_text(json.dumps({"extraKnownMarketplaces": declared}))
    code, out, _ = satchel("marketplace", "list")
    assert out == f"team-tools: file://{team} (declared by the project, not added)\n"
    error = _refusal(satchel, "marketplace", "add", "team-tools")
    assert error["code"] == "install.marketplace.untrusted"
    assert error["message"] == (
        f"'team-tools' is declared by the project {project}, which is not trusted ({settings})"
    )
    trust(Layout.default(project, home=home, env={}), project)
    code, out, err = satchel("marketplace", "add", "team-tools")
    assert code == 0, err
    ctx = Context.make(Layout.default(project, home=home, env={}), environ={})
    assert [k.name for k in marketplaces(layout=ctx.layout)[0]] == ["team-tools"]


def test_browse_lists_a_catalogue_with_each_plugin_s_contents(satchel: Cli, team: Path) -> None:
    _added(satchel, team)
    code, out, err = satchel("browse", "team-tools", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["catalogue"] == "team-tools"
    rows = {p["name"]: (p["source"], p["contents"], p["folder"]) for p in doc["plugins"]}
    assert rows == {
        "deploy": ("deploy@team-tools", "1 skill", "plugins/deploy"),
        "vault": ("vault@team-tools", "1 skill", "plugins/vault"),
        "audit": ("audit@team-tools", "1 skill", "plugins/audit"),
        "docs": ("docs@team-tools", "2 skills", "."),
    }
    assert doc["skills"] == []


def test_browse_shows_the_source_column_its_install_line_names(satchel: Cli, team: Path) -> None:
    _added(satchel, team)
    code, out, err = satchel("browse", "team-tools")
    assert code == 0, err
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("name"))
    assert header.split() == ["name", "folder", "source", "description"]
    assert next(line for line in lines if line.startswith("deploy ")).split()[:3] == [
        "deploy",
        "plugins/deploy",
        "deploy@team-tools",
    ]
    assert lines[-1] == "install: satchel install NAME@MARKETPLACE (as the source column says)"


def test_browse_of_a_source_that_is_a_catalogue(satchel: Cli, team: Path) -> None:
    code, out, err = satchel("browse", f"file://{team}", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["catalogue"] == "team-tools"
    assert [p["source"] for p in doc["plugins"]][:1] == ["deploy@team-tools"]


def test_a_missing_dependency_warns_at_load(tmp_path: Path, layout: Layout, project: Path) -> None:
    import satchel as api
    from tests.support import codes

    write_tree(
        project / ".satchel" / "plugins" / "app",
        {
            ".claude-plugin/plugin.json": json.dumps({"name": "app", "dependencies": ["lib@m"]}),
            "skills/s/SKILL.md": skill_md("s", extra="metadata:\n  requires: helper, pdf@m\n"),
        },
    )
    env = api.load(layout=layout)
    found = [(d.code, d.message) for d in env.diagnostics if d.code.endswith(".missing")]
    assert (
        "plugin.dependency.missing",
        "plugin 'app' depends on 'lib@m', which is not loaded",
    ) in found
    assert (
        "skill.requires.missing",
        "skill 'app:s' requires 'helper', which is not loaded",
    ) in found
    assert (
        "skill.requires.missing",
        "skill 'app:s' requires 'pdf@m', which is not loaded",
    ) in found
    assert "app:s" in env.skills
    assert codes(env.diagnostics).count("plugin.dependency.missing") == 1


def test_the_lock_reads_back_every_new_field(team: Path, satchel: Cli, project: Path) -> None:
    _added(satchel, team)
    assert satchel("install", "deploy@team-tools")[0] == 0
    lock = read_lock(project / ".satchel" / "skills.lock")
    deploy = lock.find("deploy")
    assert deploy is not None
    assert (deploy.marketplace, deploy.requires, deploy.direct) == (
        "team-tools",
        ("plugin:audit", "plugin:vault"),
        True,
    )


def test_an_archive_entry_installs_pinned_by_its_sha256(
    satchel: Cli, tmp_path: Path, server: Server, project: Path
) -> None:
    tarball = tar_of_tree(
        write_tree(tmp_path / "pkg", _plugin("zipped")) / "plugins" / "zipped", "zipped"
    )
    server.bytes("/zipped.tar.gz", tarball)
    digest = hashlib.sha256(tarball).hexdigest()
    entries = [
        {
            "name": "zipped",
            "source": {"source": "archive", "url": f"{server.url}/zipped.tar.gz", "sha256": digest},
        },
        {
            "name": "bad",
            "source": {
                "source": "archive",
                "url": f"{server.url}/zipped.tar.gz",
                "sha256": "0" * 64,
            },
        },
    ]
    repo = git_repo(
        tmp_path / "arch", {".claude-plugin/marketplace.json": _catalogue("arch", entries)}
    )
    assert satchel("marketplace", "add", f"file://{repo}")[0] == 0
    code, _, err = satchel("install", "zipped@arch")
    assert code == 0, err
    entry = _lock(project)["zipped"]
    assert (entry["source"], entry["integrity"]) == (
        f"archive:{server.url}/zipped.tar.gz#sha256={digest}",
        f"sha256={digest}",
    )
    assert (
        project / ".satchel" / "plugins" / "zipped" / "skills" / "zipped-skill" / "SKILL.md"
    ).is_file()
    error = _refusal(satchel, "install", "bad@arch")
    assert (error["code"], error["message"]) == (
        "install.integrity",
        f"{server.url}/zipped.tar.gz has sha256={digest}, not the pinned sha256={'0' * 64}",
    )


def _skill_needing(name: str, requires: str) -> str:
    return skill_md(name, extra=f"metadata:\n  requires: {requires}\n")


def test_a_skill_s_requires_installs_its_skills_and_plugins(
    satchel: Cli, team: Path, tmp_path: Path, project: Path
) -> None:
    _added(satchel, team)
    source = git_repo(
        tmp_path / "skills",
        {
            "skills/release/SKILL.md": _skill_needing("release", "notes, vault@team-tools"),
            "skills/notes/SKILL.md": _skill_needing("notes", "style ghost"),
            "skills/style/SKILL.md": skill_md("style"),
            "skills/other/SKILL.md": skill_md("other"),
        },
    )
    code, out, _ = satchel("install", f"file://{source}", "--skill", "release", "--json")
    assert code == 0
    doc = json.loads(out)
    assert sorted(i["name"] for i in doc["installed"]) == ["notes", "release", "style", "vault"]
    assert [(d["code"], d["message"]) for d in doc["diagnostics"] if d["code"] != HELD] == [
        (
            "install.dependency.missing",
            f"skill 'ghost' (required by 'notes') is not in file://{source}",
        )
    ]
    lock = _lock(project)
    assert lock["release"]["requires"] == ["skill:notes", "plugin:vault"]
    assert lock["notes"]["requires"] == ["skill:style"]
    assert "direct" not in lock["release"]
    assert (lock["notes"]["direct"], lock["style"]["direct"], lock["vault"]["direct"]) == (
        False,
        False,
        False,
    )
    assert lock["vault"]["marketplace"] == "team-tools"
    assert "other" not in lock
    assert satchel("remove", "release")[0] == 0
    code, out, _ = satchel("prune", "--json")
    assert sorted(e["name"] for e in json.loads(out)["removed"]) == ["notes", "style", "vault"]


def test_a_plugin_a_skill_requires_that_cannot_install_is_a_warning(
    satchel: Cli, tmp_path: Path, project: Path
) -> None:
    source = git_repo(
        tmp_path / "skills", {"skills/release/SKILL.md": _skill_needing("release", "vault@nowhere")}
    )
    code, out, _ = satchel("install", f"file://{source}", "--json")
    assert code == 0
    (note,) = json.loads(out)["diagnostics"]
    assert (note["code"], note["message"]) == (
        "install.dependency.missing",
        f"vault@nowhere (required by a skill of file://{source}) is not installed: "
        "no marketplace named 'nowhere' is added",
    )
    assert sorted(_lock(project)) == ["release"]


@pytest.mark.parametrize(
    ("catalogue_file", "manifest", "source"),
    [
        (
            ".agents/plugins/marketplace.json",
            ".codex-plugin/plugin.json",
            {"source": "local", "path": "./plugins/helper"},
        ),
        (".cursor-plugin/marketplace.json", ".cursor-plugin/plugin.json", "./plugins/helper"),
    ],
    ids=["codex", "cursor"],
)
def test_codex_and_cursor_catalogues_install_their_plugins(
    satchel: Cli,
    tmp_path: Path,
    project: Path,
    catalogue_file: str,
    manifest: str,
    source: Any,
) -> None:
    doc = {"name": "other-host", "plugins": [{"name": "helper", "source": source}]}
    repo = git_repo(
        tmp_path / "other",
        {
            catalogue_file: json.dumps(doc),
            f"plugins/helper/{manifest}": json.dumps({"name": "helper", "version": "1.0.0"}),
            "plugins/helper/skills/helping/SKILL.md": skill_md("helping"),
        },
    )
    assert satchel("marketplace", "add", f"file://{repo}")[0] == 0
    code, _, err = satchel("install", "helper@other-host")
    assert code == 0, err
    installed = project / ".satchel" / "plugins" / "helper"
    assert (installed / manifest).is_file()
    assert not (installed / ".claude-plugin").exists()  # its own manifest stands
    assert _lock(project)["helper"]["source"] == f"file://{repo}#:plugins/helper"


@pytest.mark.parametrize(
    ("marker", "manifest"),
    [
        ("gemini-extension.json", {"name": "team-ext", "version": "1.0.0"}),
        (".codex-plugin/plugin.json", {"name": "team-codex", "version": "1.0.0"}),
    ],
)
def test_browse_of_a_catalogue_whose_root_is_another_hosts_plugin(
    satchel: Cli, tmp_path: Path, marker: str, manifest: dict[str, Any]
) -> None:
    """A repository both a Claude Code marketplace and, at its root, a Gemini CLI
    extension or Codex plugin: browsing the folder lists the catalogue's plugins, as
    marketplace add and browse NAME do."""
    files = {
        **_plugin("deploy"),
        **_plugin("vault"),
        marker: json.dumps(manifest),
        ".claude-plugin/marketplace.json": _catalogue(
            "team-tools", [_entry("deploy"), _entry("vault")]
        ),
    }
    repo = git_repo(tmp_path / "team", files)
    code, out, err = satchel("browse", str(repo), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["catalogue"] == "team-tools"
    assert [(p["name"], p["source"]) for p in doc["plugins"]] == [
        ("deploy", "deploy@team-tools"),
        ("vault", "vault@team-tools"),
    ]


def test_browse_of_a_plugin_whose_catalogue_lists_only_itself(satchel: Cli, tmp_path: Path) -> None:
    """A plugin that is its own one-entry catalogue is shown as the plugin."""
    files = {
        "gemini-extension.json": json.dumps({"name": "solo", "version": "1.0.0"}),
        "skills/solo/SKILL.md": skill_md("solo"),
        ".claude-plugin/marketplace.json": _catalogue("solo", [{"name": "solo", "source": "./"}]),
    }
    repo = git_repo(tmp_path / "solo", files)
    code, out, err = satchel("browse", str(repo), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc.get("catalogue") is None
    assert [p["name"] for p in doc["plugins"]] == ["solo"]
