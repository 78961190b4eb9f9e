"""npm sources against a local registry: a real `npm pack` tarball installs, its
lifecycle scripts never run (I06), and a tarball that does not match the
registry's integrity is refused with the scope left as it was."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from satchel.install import read_lock
from tests.support import skill_md, write_tree

from .support import Server, state, tar_of_tree


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def registry(server: Server, name: str, versions: dict[str, bytes], *, lie: bool = False) -> None:
    doc = {
        "name": name,
        "dist-tags": {"latest": sorted(versions)[-1]},
        "versions": {
            v: {
                "name": name,
                "version": v,
                "dist": {
                    "tarball": f"{server.url}/tarballs/{name}-{v}.tgz",
                    "integrity": integrity(b"other" if lie else data),
                },
            }
            for v, data in versions.items()
        },
    }
    server.json(f"/npm/{name.replace('/', '%2F')}", doc)
    server.json(f"/npm/{name}", doc)
    for v, data in versions.items():
        server.bytes(f"/tarballs/{name}-{v}.tgz", data)


def package(tmp: Path, canary: Path, version: str = "1.0.0") -> Path:
    touch = f"touch {canary}"
    manifest = {
        "name": "evil-skills",
        "version": version,
        "scripts": {
            s: touch for s in ("preinstall", "install", "postinstall", "prepare", "prepack")
        },
        "bin": {"node": "bin/evil.js"},
        "bundleDependencies": ["dep"],
    }
    return write_tree(
        tmp / f"pkg-{version}",
        {
            "package.json": json.dumps(manifest),
            "bin/evil.js": f"require('fs').writeFileSync('{canary}', 'x')\n",
            "node_modules/dep/package.json": json.dumps(
                {"name": "dep", "version": "1.0.0", "scripts": {"postinstall": touch}}
            ),
            "skills/pdf/SKILL.md": skill_md("pdf", f"PDFs {version}."),
        },
    )


def npm_pack(source: Path, out: Path) -> bytes:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the real `npm pack` tarball cannot be made")
    out.mkdir(exist_ok=True)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(out),
        "npm_config_cache": str(out / "cache"),
        "npm_config_offline": "true",
        "npm_config_update_notifier": "false",
    }
    done = subprocess.run(
        [npm, "pack", "--ignore-scripts", "--pack-destination", str(out), str(source)],
        cwd=out, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"`npm pack` failed here: {done.stderr.strip()[-200:]}")
    (tgz,) = out.glob("*.tgz")
    return tgz.read_bytes()


@pytest.fixture
def npm_registry(server: Server, monkeypatch: pytest.MonkeyPatch) -> Server:
    monkeypatch.setenv("SATCHEL_NPM_REGISTRY", f"{server.url}/npm")
    return server


def test_i06_npm_pack_tarball_installs_and_no_script_runs(
    satchel, npm_registry: Server, tmp_path: Path, project: Path
) -> None:
    canary = tmp_path / "canary"
    data = npm_pack(package(tmp_path, canary), tmp_path / "packed")
    assert not canary.exists()
    registry(npm_registry, "evil-skills", {"1.0.0": data})
    code, out, err = satchel("install", "npm:evil-skills")
    assert (code, err) == (0, "")
    assert not canary.exists()
    assert "install.npm.scripts" in out
    assert (project / ".satchel/skills/pdf/SKILL.md").read_text() == skill_md("pdf", "PDFs 1.0.0.")
    assert not (project / ".satchel/skills/pdf/bin").exists()
    (entry,) = read_lock(project / ".satchel/skills.lock").entries
    assert (entry.source, entry.resolved, entry.integrity) == (
        "npm:evil-skills",
        "1.0.0",
        integrity(data),
    )


def test_the_scripts_warning_lists_what_did_not_run(
    satchel, npm_registry: Server, tmp_path: Path
) -> None:
    data = tar_of_tree(package(tmp_path, tmp_path / "canary"), "package")
    registry(npm_registry, "evil-skills", {"1.0.0": data})
    code, out, _ = satchel("install", "npm:evil-skills@1.0.0", "--json")
    assert code == 0
    (note,) = json.loads(out)["diagnostics"]
    assert (note["code"], note["message"]) == (
        "install.npm.scripts",
        "evil-skills@1.0.0 declares lifecycle scripts that were not run: "
        "preinstall, install, postinstall, prepare, prepack",
    )


def test_a_tarball_not_matching_its_integrity_is_refused(
    satchel, npm_registry: Server, tmp_path: Path, project: Path, home: Path
) -> None:
    data = tar_of_tree(package(tmp_path, tmp_path / "canary"), "package")
    registry(npm_registry, "evil-skills", {"1.0.0": data}, lie=True)
    before = (state(project), state(home))
    code, _, err = satchel("install", "npm:evil-skills")
    assert code == 1
    assert err == (
        "satchel: install.integrity: evil-skills@1.0.0: the tarball does not match "
        "the registry's integrity\n"
    )
    assert (state(project), state(home)) == before


def test_versions_dist_tags_update_and_frozen(
    satchel, npm_registry: Server, tmp_path: Path, project: Path
) -> None:
    v1 = tar_of_tree(package(tmp_path, tmp_path / "c", "1.0.0"), "package")
    registry(npm_registry, "evil-skills", {"1.0.0": v1})
    assert satchel("install", "npm:evil-skills")[0] == 0
    v2 = tar_of_tree(package(tmp_path, tmp_path / "c", "2.0.0"), "package")
    registry(npm_registry, "evil-skills", {"1.0.0": v1, "2.0.0": v2})
    code, out, _ = satchel("update", "pdf")
    assert code == 0
    assert out.splitlines() == [
        "pdf: 1.0.0 -> 2.0.0: 0 added, 1 changed, 0 removed",
        "  ~ SKILL.md",
        "  no new risk",
    ]
    pdf = project / ".satchel/skills/pdf/SKILL.md"
    assert pdf.read_text() == skill_md("pdf", "PDFs 2.0.0.")
    # a republished 2.0.0 with other bytes: the frozen install refuses it
    registry(npm_registry, "evil-skills", {"1.0.0": v1, "2.0.0": v1})
    pdf.write_text("edited")
    before = state(project)
    code, _, err = satchel("install", "--frozen")
    assert code == 1
    assert err.startswith("satchel: install.integrity: evil-skills@2.0.0: the registry's integrity")
    assert state(project) == before
