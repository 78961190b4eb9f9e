"""A skill satchel installed from an npm package, against a registry served on
127.0.0.1: when the package's latest version moves on, `outdated` fetches it (within
the policy and the deadline, into a temporary folder) and names the changed file;
offline it names the package it did not check."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from satchel import hosts
from satchel.core.layout import Layout
from satchel.install import install_from_spec
from satchel.reports.outdated import Report, outdated
from tests.install.support import Server, serve, tar_of_tree
from tests.install.test_npm import registry
from tests.support.tree import skill_md, write_tree


def _package(tmp: Path, version: str, about: str) -> bytes:
    root = write_tree(
        tmp / f"pkg-{version}",
        {
            "package.json": f'{{"name": "pdf-skills", "version": "{version}"}}',
            "skills/pdf/SKILL.md": skill_md("pdf", about),
        },
    )
    return tar_of_tree(root, "package")


def _check(layout: Layout, environ: dict[str, str], *, offline: bool) -> tuple[Report, ...]:
    return outdated(
        layout=layout, hosts=[hosts.get("satchel")], offline=offline, environ=environ
    ).reports


def test_an_npm_package_whose_latest_version_moved_on(tmp_path: Path, home: Path, project: Path):
    layout = Layout.default(project, home=home, project=project, env={})
    with contextmanager(serve)(Server()) as server:
        environ = {"SATCHEL_NPM_REGISTRY": f"{server.url}/npm"}
        registry(server, "pdf-skills", {"1.0.0": _package(tmp_path, "1.0.0", "PDFs.")})
        install_from_spec("npm:pdf-skills", scope="user", layout=layout, environ=environ)
        newer = _package(tmp_path, "1.1.0", "PDFs, and forms.")
        registry(server, "pdf-skills", {"1.0.0": b"", "1.1.0": newer})
        (online,) = _check(layout, environ, offline=False)
        (offline,) = _check(layout, environ, offline=True)
    assert (online.install.id, online.state, online.network) == ("pdf", "outdated", True)
    assert online.source == "npm:pdf-skills"
    assert [(f.path, f.change, f.old_size, f.new_size) for f in online.files] == [
        ("SKILL.md", "changed", len(skill_md("pdf", "PDFs.")),
         len(skill_md("pdf", "PDFs, and forms.")))
    ]  # fmt: skip
    (d,) = offline.diagnostics
    assert (offline.state, d.code) == ("not-checked", "outdated.source.offline")
    assert d.message == (
        "satchel's skill 'pdf' was not checked: its source npm:pdf-skills needs the "
        "network (run without --offline)"
    )
