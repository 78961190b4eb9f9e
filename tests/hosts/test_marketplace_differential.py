"""Installing from a marketplace, against Claude Code 2.1.332 itself (a scratch HOME, a
local marketplace, offline): `claude plugin install NAME@MARKETPLACE` and `satchel
install NAME@MARKETPLACE` install the same plugins (dependencies resolved the same
way, cycles once each, a missing dependency left out with a warning), and a strict
false entry loads the same skills. Where satchel refuses what Claude Code installs
(a version outside its range), the test names the rule."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.core.layout import Layout
from satchel.install import add_marketplace, install_plugin
from satchel.install._errors import InstallError
from tests.support import put, write_skill
from tests.tools import claude_plugin

MARKET = "team"


def _claude(binary: Path, home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return claude_plugin(binary, home, cwd, *args)


def _plugin(root: Path, name: str, version: str, deps: list[Any] | None = None) -> None:
    manifest: dict[str, Any] = {"name": name, "version": version}
    if deps is not None:
        manifest["dependencies"] = deps
    put(root / "plugins" / name, ".claude-plugin/plugin.json", json.dumps(manifest))
    write_skill(
        root / "plugins" / name / "skills", f"{name}-skill", description=f"The {name} skill."
    )


def _marketplace(root: Path) -> Path:
    _plugin(root, "deploy", "3.1.0", ["audit", {"name": "vault", "version": "^2.0"}])
    _plugin(root, "vault", "2.1.0")
    _plugin(root, "audit", "1.0.0")
    _plugin(root, "ring-a", "1.0.0", ["ring-b"])
    _plugin(root, "ring-b", "1.0.0", ["ring-a"])
    _plugin(root, "lonely", "1.0.0", ["ghost"])
    _plugin(root, "app", "1.0.0", [{"name": "old", "version": "^2.0"}])
    _plugin(root, "old", "1.0.0")
    write_skill(root / "shared", "xlsx", description="Spreadsheets.")
    write_skill(root / "shared", "docx", description="Documents.")
    names = ("deploy", "vault", "audit", "ring-a", "ring-b", "lonely", "app", "old")
    entries: list[dict[str, Any]] = [{"name": n, "source": f"./plugins/{n}"} for n in names]
    entries.append(
        {"name": "docs", "source": "./", "strict": False, "version": "0.4.0",
         "skills": ["./shared/xlsx", "./shared/docx"]}
    )  # fmt: skip
    doc = {"name": MARKET, "owner": {"name": "Team"}, "plugins": entries}
    put(root, ".claude-plugin/marketplace.json", json.dumps(doc))
    return root


@pytest.fixture(scope="module")
def added(claude_code: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The marketplace, and a Claude Code home that has added it: once for the module
    (Claude Code keeps a folder marketplace where it is, and no path of its home in
    its files, so each test starts from a copy of this home)."""
    base = tmp_path_factory.mktemp("added")
    market = _marketplace(base / "market")
    claude_home, project = base / "claude-home", base / "project"
    claude_home.mkdir()
    (project / ".git").mkdir(parents=True)
    done = _claude(claude_code, claude_home, project, "marketplace", "add", str(market))
    assert done.returncode == 0, done.stderr
    return market, claude_home


@pytest.fixture
def world(claude_code: Path, added: tuple[Path, Path], tmp_path: Path) -> dict[str, Any]:
    market, template = added
    claude_home, home, project = tmp_path / "claude-home", tmp_path / "home", tmp_path / "project"
    shutil.copytree(template, claude_home, symlinks=True)
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    layout = Layout.default(project, home=home, env={})
    add_marketplace(str(market), layout=layout, environ={})
    return {"claude": claude_code, "claude_home": claude_home, "project": project, "layout": layout}


def _claude_installs(world: dict[str, Any], ref: str) -> tuple[set[str], str, list[dict[str, Any]]]:
    """The plugins Claude Code has after installing `ref`, what the install printed, and
    ``claude plugin list --json`` right after it."""
    done = _claude(world["claude"], world["claude_home"], world["project"], "install", ref)
    assert done.returncode == 0, done.stderr
    listed = _claude(world["claude"], world["claude_home"], world["project"], "list", "--json")
    plugins: list[dict[str, Any]] = json.loads(listed.stdout)
    ids = {p["id"] for p in plugins if not p["id"].endswith("@builtin")}
    return {i.split("@", 1)[0] for i in ids}, done.stdout, plugins


def _satchel_installs(world: dict[str, Any], ref: str) -> tuple[set[str], list[str]]:
    result = install_plugin(ref, layout=world["layout"], environ={})
    lock = json.loads((world["project"] / ".satchel" / "skills.lock").read_text())
    return {e["name"] for e in lock["entries"]}, [d.code for d in result.diagnostics]


def test_dependencies_resolve_to_the_same_plugins(world: dict[str, Any]) -> None:
    theirs, said, _ = _claude_installs(world, f"deploy@{MARKET}")
    ours, _ = _satchel_installs(world, f"deploy@{MARKET}")
    assert ours == theirs == {"deploy", "vault", "audit"}
    assert "+ 2 dependencies: audit, vault" in said


def test_a_cycle_installs_each_once_as_claude_code_does(world: dict[str, Any]) -> None:
    theirs, _, _ = _claude_installs(world, f"ring-a@{MARKET}")
    ours, notes = _satchel_installs(world, f"ring-a@{MARKET}")
    assert ours == theirs == {"ring-a", "ring-b"}
    assert notes == ["install.dependency.cycle"]


def test_a_missing_dependency_is_left_out_with_a_warning(world: dict[str, Any]) -> None:
    theirs, said, _ = _claude_installs(world, f"lonely@{MARKET}")
    ours, notes = _satchel_installs(world, f"lonely@{MARKET}")
    assert ours == theirs == {"lonely"}
    assert 'dependency "ghost@team" was not installed' in said
    assert notes == ["install.dependency.missing"]


def test_a_strict_false_entry_loads_the_skills_claude_code_installs(world: dict[str, Any]) -> None:
    theirs, _, listed = _claude_installs(world, f"docs@{MARKET}")
    assert theirs == {"docs"}
    install_plugin(f"docs@{MARKET}", layout=world["layout"], environ={})
    env = satchel.load(layout=world["layout"], trusted=True)
    assert sorted(s for s in env.skills if s.startswith("docs:")) == ["docs:docx", "docs:xlsx"]
    (docs,) = [p for p in listed if p["id"] == f"docs@{MARKET}"]
    assert docs["version"] == "0.4.0" and "errors" not in docs


def test_rule_satchel_refuses_a_version_outside_its_range(world: dict[str, Any]) -> None:
    """Claude Code installs `old` 1.0.0 for a ^2.0 range and flags the dependent
    afterwards; satchel refuses the install and writes nothing (docs/install.md)."""
    theirs, _, listed = _claude_installs(world, f"app@{MARKET}")
    assert theirs == {"app", "old"}
    (app,) = [p for p in listed if p["id"] == f"app@{MARKET}"]
    assert [d["type"] for d in app["errorDetails"]] == ["dependency-version-unsatisfied"]
    with pytest.raises(InstallError) as caught:
        install_plugin(f"app@{MARKET}", layout=world["layout"], environ={})
    assert caught.value.diagnostic.code == "install.dependency.conflict"
    assert not (world["project"] / ".satchel" / "skills.lock").exists()


def test_rule_satchel_refuses_to_remove_what_another_plugin_needs(world: dict[str, Any]) -> None:
    """Claude Code uninstalls a required plugin with a warning; `satchel remove`
    refuses without --force (docs/install.md)."""
    from satchel.install import remove

    _claude_installs(world, f"deploy@{MARKET}")
    gone = _claude(
        world["claude"], world["claude_home"], world["project"], "uninstall", f"vault@{MARKET}"
    )
    assert gone.returncode == 0 and "required by deploy" in gone.stdout
    _satchel_installs(world, f"deploy@{MARKET}")
    with pytest.raises(InstallError) as caught:
        remove("vault", layout=world["layout"])
    assert caught.value.diagnostic.code == "install.dependency.required"
    assert remove("vault", layout=world["layout"], force=True).name == "vault"
